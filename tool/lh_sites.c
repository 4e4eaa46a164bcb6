/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_sites.c: per-site aggregation and the global    ---*/
/*--- heap peak, in O(1) per event.                                ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A site is one allocation stack.  Sites are found by their stack in a
   hash table (lh_site_stacks.c, which also keeps each site's stack).

   Bytes at the global peak, without walking the sites at the peak
   ---------------------------------------------------------------
   DHAT copies every site's live bytes whenever the heap is back at its
   maximum, which costs O(sites) per event.  Here the global peak only
   bumps a sequence number, and each site copies its own live figures
   lazily, the next time it changes:

      live bytes
      (global)      peak #1       peak #2 (as high: the latest is reported)
          |           *             *
          |          / \     ___   / \____
          |     ____/   \___/   \_/        \___
          +--------------------------------------- time
      site A    a1  a2 |  a3    a4 |   a5
      site B       b1  |           |        b2
                       ^           ^
                 peak_seq=k   peak_seq=m (every allocation that reaches
                                          the maximum so far bumps it)

   Every event that touches a site first checks site.peak_seq_seen against
   the global LH_(heap).peak_seq.  If they differ, the site has not changed
   since the latest peak (any change after it would have set
   peak_seq_seen), so its current live figures ARE its figures at that
   peak: copy them to bytes_at_peak/blocks_at_peak, then set
   peak_seq_seen = LH_(heap).peak_seq, then apply the event.  Above, a3 copies
   A's state after a2 (live at peak #1); a5 copies A's state after a4
   (live at peak #2, overwriting the copy from #1); B is untouched between
   b1 and b2, so b2 copies B's state after b1, correct for peak #2.  At the
   end, sites_finalize does the same copy for every site not touched since
   the latest peak.

   The peak is bumped when, after an allocation or a growing realloc, the
   live bytes are >= the maximum so far: the latest of equal peaks wins,
   as in DHAT, so bytes at the peak compare.

   Each site also keeps its own maximum (max_bytes), updated on its own
   allocations, so it is right for every site, not only the one that set
   the global peak.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_wordfm.h"
#include "lh_include.h"

/*------------------------------------------------------------*/
/*--- Globals                                              ---*/
/*------------------------------------------------------------*/

LH_HeapCounters LH_(heap);   /* zero: nothing allocated yet */

/* All sites in creation order (by serial - 1), an array doubling from
   256. */
LH_Site** LH_(sites_by_serial) = NULL;
static UInt n_sites = 0, sites_size = 0;

/* peak_seq_seen of a new site: never equal to LH_(heap).peak_seq, so the first
   change copies the site's figures at the peak, which were zero. */
#define LH_NEVER_SEEN ((ULong)-1)

/*------------------------------------------------------------*/
/*--- Lookup                                               ---*/
/*------------------------------------------------------------*/

/* Site records and their output figures are never freed: they come from
   pools of SITES_PER_POOL, one arena allocation each, instead of one
   allocation a record (each with Valgrind's header and red zone, 32
   bytes, and a place of its own among the arena's free blocks). */
#define SITES_PER_POOL 128
static PoolAlloc* site_pool = NULL;
static PoolAlloc* site_output_pool = NULL;
static PoolAlloc* site_rare_pool = NULL;

const LH_SiteRare LH_(no_rare_figures);   /* all zero */

void LH_(sites_init)(void)
{
   site_pool = VG_(newPA)(sizeof(LH_Site), SITES_PER_POOL, VG_(malloc),
                          "lh.sites.site", VG_(free));
   site_output_pool = VG_(newPA)(sizeof(LH_SiteOutput), SITES_PER_POOL,
                                 VG_(malloc), "lh.sites.output", VG_(free));
   site_rare_pool = VG_(newPA)(sizeof(LH_SiteRare), SITES_PER_POOL,
                               VG_(malloc), "lh.sites.rare", VG_(free));
}

/* Every distinct list of allocator frames, by number (sites refer to
   theirs by its number: a program has a handful, and every site one). */
static LH_AllocatorFrames* allocator_lists = NULL;
static UInt n_allocator_lists = 0, allocator_lists_size = 0;

UInt LH_(allocator_frames_number)(const Addr* ips, UInt n)
{
   UInt i, k;
   tl_assert(n <= LH_ALLOCATOR_FRAMES);
   for (i = 0; i < n_allocator_lists; i++) {
      const LH_AllocatorFrames* list = &allocator_lists[i];
      if (list->n != n) continue;
      for (k = 0; k < n && list->ips[k] == ips[k]; k++) {}
      if (k == n) return i;
   }
   if (n_allocator_lists == allocator_lists_size) {
      allocator_lists_size = allocator_lists_size ? 2 * allocator_lists_size : 8;
      allocator_lists = VG_(realloc)("lh.sites.allocator_frames", allocator_lists,
                                     allocator_lists_size * sizeof(LH_AllocatorFrames));
   }
   VG_(memset)(&allocator_lists[n_allocator_lists], 0, sizeof(LH_AllocatorFrames));
   for (k = 0; k < n; k++) allocator_lists[n_allocator_lists].ips[k] = ips[k];
   allocator_lists[n_allocator_lists].n = n;
   return n_allocator_lists++;
}

const LH_AllocatorFrames* LH_(allocator_frames_of)(const LH_Site* site)
{
   tl_assert(site->allocator_frames < n_allocator_lists);
   return &allocator_lists[site->allocator_frames];
}

LH_SiteRare* LH_(site_rare_make)(LH_Site* site)
{
   if (site->rare == NULL) {
      site->rare = VG_(allocEltPA)(site_rare_pool);
      VG_(memset)(site->rare, 0, sizeof(LH_SiteRare));
   }
   return site->rare;
}

UInt LH_(n_sites)(void)
{
   return n_sites;
}

LH_Site* LH_(site_at)(UInt i)
{
   if (i >= LH_(n_sites)()) return NULL;
   return LH_(sites_by_serial)[i];
}

LH_Site* LH_(site_for_stack)(LH_UnwoundStack stack)
{
   UInt hash;
   LH_Site* site = LH_(site_stacks_find)(stack.ips, stack.n, &hash);
   if (site != NULL) return site;

   site = VG_(allocEltPA)(site_pool);
   VG_(memset)(site, 0, sizeof(LH_Site));
   site->serial = LH_(n_sites)() + 1;
   site->peak_seq_seen = LH_NEVER_SEEN;
   site->freed.min = (ULong)-1;
   /* the preload frames of the stack just recorded (none for a custom
      allocator's request, made from the program's code) */
   LH_(site_take_allocator_frames)(site);
   if (n_sites == sites_size) {
      sites_size = sites_size ? 2 * sites_size : 256;
      LH_(sites_by_serial) = VG_(realloc)("lh.sites.all", LH_(sites_by_serial),
                                          sites_size * sizeof(LH_Site*));
   }
   LH_(sites_by_serial)[n_sites++] = site;
   LH_(site_stacks_add)(site, stack.ips, stack.n, hash);
   return site;
}

/*------------------------------------------------------------*/
/*--- Peak bookkeeping                                     ---*/
/*------------------------------------------------------------*/

/* Before any change to site: see the comment at the top. */
static inline void catch_up_with_peak(LH_Site* site)
{
   if (site->peak_seq_seen != LH_(heap).peak_seq) {
      site->bytes_at_peak  = site->curr_bytes;
      site->blocks_at_peak = site->curr_blocks;
      if (site->rare != NULL)
         site->rare->zero_size_at_peak = site->rare->zero_size_curr;
      site->peak_seq_seen  = LH_(heap).peak_seq;
   }
}

/* After the live bytes grew (allocation or growing realloc). */
static inline void check_global_peak(void)
{
   if (LH_(heap).curr_bytes >= LH_(heap).peak_bytes) {
      LH_(heap).peak_bytes  = LH_(heap).curr_bytes;
      LH_(heap).peak_blocks = LH_(heap).curr_blocks;
      LH_(heap).peak_time   = LH_(now);
      LH_(heap).peak_seq++;
   }
}

static inline void check_site_max(LH_Site* site)
{
   if (site->curr_bytes > site->max_bytes) {
      site->max_bytes  = site->curr_bytes;
      site->max_blocks = site->curr_blocks;
      site->max_time   = LH_(now);
   }
}

/*------------------------------------------------------------*/
/*--- Allocating threads                                   ---*/
/*------------------------------------------------------------*/

/* Most sites are used by one or a few threads: their serials are kept
   inline (checked in O(LH_SITE_INLINE_THREADS)); more go to a set. */
static void note_allocating_thread(LH_Site* site, UInt serial)
{
   LH_SiteRare* rare;
   UInt i;
   for (i = 0; i < LH_SITE_INLINE_THREADS; i++) {
      if (site->recent_threads[i] == serial) return;
      if (site->recent_threads[i] == 0) {
         site->recent_threads[i] = serial;
         site->allocating_threads++;
         return;
      }
   }
   rare = LH_(site_rare_make)(site);
   if (rare->more_threads == NULL)
      rare->more_threads = VG_(newFM)(VG_(malloc), "lh.sites.threads",
                                      VG_(free), NULL);
   if (!VG_(lookupFM)(rare->more_threads, NULL, NULL, serial)) {
      VG_(addToFM)(rare->more_threads, serial, 0);
      site->allocating_threads++;
   }
}

/*------------------------------------------------------------*/
/*--- Events                                               ---*/
/*------------------------------------------------------------*/

void LH_(site_note_alloc)(LH_Site* site, SizeT size, UInt thread)
{
   catch_up_with_peak(site);

   site->total_blocks++;
   site->total_bytes += size;
   site->curr_blocks++;
   site->curr_bytes += size;
   if (size == 0) {
      LH_SiteRare* rare = LH_(site_rare_make)(site);
      rare->zero_size_total++;
      rare->zero_size_curr++;
   }
   if (site->total_blocks == 1) {
      site->first_alloc_time = LH_(now);
      /* A site whose first block is empty still had a block live then. */
      site->max_blocks = site->curr_blocks;
      site->max_time   = LH_(now);
   }
   site->last_alloc_time = LH_(now);
   note_allocating_thread(site, thread);
   check_site_max(site);

   LH_(heap).total_blocks++;
   LH_(heap).total_bytes += size;
   LH_(heap).curr_blocks++;
   LH_(heap).curr_bytes += size;
   check_global_peak();

   LH_(timeline_note_change)(site);
}

static inline UInt lifetime_bucket(ULong lifetime)
{
   UInt bucket;
   if (lifetime == 0) return 0;
   bucket = 64 - __builtin_clzll(lifetime);     /* floor(log2) + 1 */
   return bucket < LH_LIFETIME_BUCKETS ? bucket : LH_LIFETIME_BUCKETS - 1;
}

void LH_(site_note_free)(LH_Site* site, SizeT size, ULong lifetime,
                         Bool cross_thread)
{
   tl_assert(site->curr_blocks >= 1 && site->curr_bytes >= size);
   tl_assert(LH_(heap).curr_blocks >= 1 && LH_(heap).curr_bytes >= size);
   catch_up_with_peak(site);

   site->curr_blocks--;
   site->curr_bytes -= size;
   if (size == 0) LH_(site_rare_make)(site)->zero_size_curr--;
   if (LH_(site_freed_blocks)(site) == 1)
      site->first_free_time = LH_(now);
   site->last_free_time = LH_(now);
   site->freed.sum += lifetime;
   if (lifetime < site->freed.min) site->freed.min = lifetime;
   if (lifetime > site->freed.max) site->freed.max = lifetime;
   LH_(histogram_add)(&site->freed.lifetime_histogram, lifetime_bucket(lifetime));
   LH_(shapes_note_freed)(site, size, lifetime);
   if (cross_thread) LH_(site_rare_make)(site)->cross_thread_frees++;

   LH_(heap).curr_blocks--;
   LH_(heap).curr_bytes -= size;
   LH_(heap).total_frees++;

   LH_(timeline_note_change)(site);
}

void LH_(site_note_realloc)(LH_Site* site, SizeT old_size, SizeT new_size,
                            ULong bytes_copied)
{
   LH_SiteRare* rare;
   tl_assert(site->curr_bytes >= old_size && LH_(heap).curr_bytes >= old_size);
   catch_up_with_peak(site);

   rare = LH_(site_rare_make)(site);
   rare->reallocs++;
   rare->realloc_requested_bytes += new_size;
   rare->realloc_bytes_copied += bytes_copied;
   LH_(heap).total_reallocs++;
   LH_(heap).total_realloc_requested_bytes += new_size;
   LH_(heap).total_realloc_bytes_copied += bytes_copied;

   site->curr_bytes = site->curr_bytes - old_size + new_size;
   /* (a custom allocator may resize a block to 0 bytes) */
   rare->zero_size_curr += (new_size == 0) - (old_size == 0);
   LH_(heap).curr_bytes  = LH_(heap).curr_bytes - old_size + new_size;
   if (new_size > old_size) {
      site->total_bytes += new_size - old_size;
      rare->realloc_growth_bytes += new_size - old_size;
      LH_(heap).total_bytes  += new_size - old_size;
      LH_(heap).total_realloc_growth_bytes += new_size - old_size;
      check_site_max(site);
      check_global_peak();
   }

   LH_(timeline_note_change)(site);
}

/*------------------------------------------------------------*/
/*--- Output figures                                       ---*/
/*------------------------------------------------------------*/

void LH_(site_count_live_lifetime)(LH_Site* site, ULong alloc_time)
{
   ULong lifetime = LH_(now) - alloc_time;
   LH_Lifetimes* all = site->out->lifetimes;
   tl_assert(all == site->out->live_lifetimes);   /* the site has live blocks */
   all->sum += lifetime;
   if (lifetime < all->min) all->min = lifetime;
   if (lifetime > all->max) all->max = lifetime;
   LH_(histogram_add)(&all->lifetime_histogram, lifetime_bucket(lifetime));
}

void LH_(sites_finalize)(void)
{
   UInt i, n = LH_(n_sites)();

   /* The output figures live apart from the record, made for each site
      at its first output (and kept: a later dump reuses them). */
   for (i = 0; i < n; i++) {
      LH_Site* site = LH_(site_at)(i);
      if (site->out != NULL) continue;
      site->out = VG_(allocEltPA)(site_output_pool);
      VG_(memset)(site->out, 0, sizeof(LH_SiteOutput));
   }
   for (i = 0; i < n; i++) {
      LH_Site* site = LH_(site_at)(i);
      LH_SiteOutput* out = site->out;
      catch_up_with_peak(site);
      if (site->curr_blocks == 0) {
         /* no live block: all its blocks are the freed ones */
         out->lifetimes = &site->freed;
         continue;
      }
      if (out->live_lifetimes == NULL)
         out->live_lifetimes = VG_(calloc)("lh.sites.live_lifetimes", 1,
                                           sizeof(LH_Lifetimes));
      out->lifetimes = out->live_lifetimes;
      out->lifetimes->sum = site->freed.sum;
      out->lifetimes->min = site->freed.min;
      out->lifetimes->max = site->freed.max;
      LH_(histogram_copy)(&out->lifetimes->lifetime_histogram,
                          &site->freed.lifetime_histogram);
      LH_(histogram_copy)(&out->lifetimes->size_histogram,
                          &site->freed.size_histogram);
   }
   LH_(shapes_output_begin)();

   /* Blocks still live, of every origin, count their life up to now. */
   LH_(blocks_count_live)();
}
