/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_access.c: what the program did with each block's bytes,   ---*/
/*--- folded into its site.                                        ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   Life of a block's access state
   ------------------------------

     malloc ──► access_block_new: the block's granules are owned in the
                shadow map (lh_shadow.c), counters zero
        │
        │  every load/store that passes the inline filter calls
        │  LH_(note_read)/LH_(note_write) (lh_instrument.c); the kernel's
        │  reads/writes during syscalls arrive through the core's
        │  pre_mem_read/post_mem_write events.  For each granule touched:
        │     owner = shadow granule's block; clip to [payload, payload+size)
        │     set the read/written bits of those bytes, add the counts,
        │     first/last access time, written high-water mark, site map
        ▼
     realloc ─► access_block_resized: bits move with the data (the tool's
                copy is not a program access); counts and times stay
        ▼
     free ────► access_block_retire: census of the bits (never read, never
                written, ...) folded into site->access.retired; the
                granules are forgotten
     end/dump ► live blocks are folded, without being forgotten, into
                site->access.live (recomputed at every output)

   Blocks live at the global peak (the "at_peak" figures) are recognised
   with CORE's peak sequence number: a block folded with live_at_peak was
   live at the latest peak so far.  Each site keeps its at-peak sums
   tagged with the peak_seq they belong to; a fold that arrives with a
   newer seq resets them first.  Nothing is walked when a peak happens.

   The access map
   --------------
   While every block of a site has the same size N <= 4096, the site keeps
   exact per-offset counts (2 x N 64-bit counters), in one allocation
   (LH_SiteMap) that each accessed block points to, so the access path
   reaches it without going through the site record.  Otherwise the map has
   LH_ACCESS_MAP_BUCKETS parts per block: byte offset o of a block of size
   S falls in part ((o+1)*K - 1) / S, which is exactly the part j whose
   range [j*S/K, (j+1)*S/K) (integer division) holds o.  When a site that
   had one size sees another, its per-offset counts are converted into
   parts of that size, so both kinds stay exact sums.  Each access is
   placed by the block's size at the time of the access.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "lh_include.h"
#include "lh_shadow.h"


/* Bumped by every block event, so that an output can tell whether the
   live fold it made earlier is still current. */
static ULong block_events = 0;

/*------------------------------------------------------------*/
/*--- The access map                                       ---*/
/*------------------------------------------------------------*/

#define K LH_ACCESS_MAP_BUCKETS

static inline UWord bucket_of(SizeT offset, SizeT size)
{
   return (UWord)(((ULong)(offset + 1) * K - 1) / size);
}

/* bucket_of without the integer division, for the access path: the
   floating-point estimate is within one of the exact quotient (offsets are
   below 2^47, so x and the error stay far inside a double's 53 bits), and
   the two integer checks make it exact. */
static inline UWord bucket_of_fast(SizeT offset, SizeT size, double inv_size)
{
   ULong x = (ULong)(offset + 1) * K - 1;
   ULong j = (ULong)(Long)((double)(Long)x * inv_size);
   if (j * size > x) j--;
   else if ((j + 1) * size <= x) j++;
   return (UWord)j;
}

/* Turns a per-offset map into parts of its block size, in place. */
static void map_to_buckets(LH_SiteMap* m)
{
   ULong reads[K], writes[K];
   SizeT o;
   UWord j;
   tl_assert(m->kind == LH_MAP_BYTES);
   VG_(memset)(reads, 0, sizeof(reads));
   VG_(memset)(writes, 0, sizeof(writes));
   for (o = 0; o < m->block_size; o++) {
      j = bucket_of(o, m->block_size);
      reads[j] += m->reads[o];
      writes[j] += m->writes[o];
   }
   if (m->capacity < K) {
      /* a map of small blocks: the parts need more room than its counts
         had; the header stays where the blocks point to it */
      m->capacity = K;
      m->reads = VG_(malloc)("lh.access.map.parts", 2 * K * sizeof(ULong));
      m->writes = m->reads + K;
   }
   VG_(memset)(m->reads, 0, 2 * m->capacity * sizeof(ULong));
   VG_(memcpy)(m->reads, reads, sizeof(reads));
   VG_(memcpy)(m->writes, writes, sizeof(writes));
   m->kind = LH_MAP_BUCKETS;
   m->part_cache_block = NULL;
}

/* A block of 'size' bytes now belongs to the site (new, or resized). */
static void map_note_block_size(LH_SiteAccess* sa, SizeT size)
{
   switch (sa->map_kind) {
      case LH_MAP_NONE:
         sa->map_kind = size <= LH_ACCESS_MAP_MAX_BYTES ? LH_MAP_BYTES : LH_MAP_BUCKETS;
         sa->map_block_size = size;
         break;
      case LH_MAP_BYTES:
         if (size != sa->map_block_size) {
            sa->map_kind = LH_MAP_BUCKETS;
            if (sa->map != NULL) map_to_buckets(sa->map);
         }
         break;
      case LH_MAP_BUCKETS:
         break;
   }
}

/* The site's map, made at the first access to any of its blocks. */
static LH_SiteMap* site_map(LH_SiteAccess* sa)
{
   LH_SiteMap* m = sa->map;
   UWord capacity;
   SizeT bytes;
   if (m != NULL) return m;
   /* a per-offset map holds just its block size's counts, so that a
      site of small blocks has its counts on a few cache lines */
   capacity = sa->map_kind != LH_MAP_BYTES ? K
              : sa->map_block_size > 0 ? sa->map_block_size : 1;
   bytes = sizeof(LH_SiteMap) + 2 * capacity * sizeof(ULong);
   m = VG_(malloc)("lh.access.map", bytes);
   VG_(memset)(m, 0, bytes);
   m->kind = sa->map_kind;
   m->block_size = sa->map_block_size;
   m->capacity = capacity;
   m->reads = m->counts;
   m->writes = m->counts + capacity;
   sa->map = m;
   return m;
}

/* map_add when the access is not in the cached part: find its part (and
   cache it), or count byte by byte when it straddles two parts. */
static __attribute__((noinline))
void map_add_part(LH_SiteMap* m, const LH_Block* b, SizeT offset,
                  UWord n, SizeT size, double inv_size, ULong* counts)
{
   UWord first = bucket_of_fast(offset, size, inv_size);
   /* part 'first' covers [first*size/K, (first+1)*size/K) */
   SizeT first_lo = (SizeT)(((ULong)first * size) / K);
   SizeT first_end = (SizeT)(((ULong)(first + 1) * size) / K);
   m->part_cache_block = b;
   m->part_cache_lo = first_lo;
   m->part_cache_hi = first_end;
   m->part_cache_index = first;
   if (LIKELY(offset + n <= first_end)) {
      counts[first] += n;
   } else {
      SizeT o;
      for (o = offset; o < offset + n; o++) counts[bucket_of(o, size)]++;
   }
}

/* n bytes at offset 'offset' of block b (of 'size' bytes) were accessed. */
static inline __attribute__((always_inline))
void map_add(LH_SiteMap* m, const LH_Block* b, SizeT offset,
             UWord n, SizeT size, double inv_size, Bool is_write)
{
   ULong* counts = is_write ? m->writes : m->reads;
   if (m->kind == LH_MAP_BYTES) {
      ULong* c = counts + offset;
      ULong* end = c + n;
      for (; c < end; c++) (*c)++;
   } else if (m->part_cache_block == b && offset >= m->part_cache_lo
              && offset + n <= m->part_cache_hi) {
      counts[m->part_cache_index] += n;
   } else {
      map_add_part(m, b, offset, n, size, inv_size, counts);
   }
}

/*------------------------------------------------------------*/
/*--- The hot path: one access                             ---*/
/*------------------------------------------------------------*/

/* The hot-block cache: the last few big blocks the program accessed, by
   their [payload, payload + size).  An access that falls inside one needs
   no shadow lookup to find its block, and once every byte of the block
   was read (written) — its set-bit count equals its size — none to set
   bits either: a loop over big arrays touches only the block record and
   the site map.  An entry goes away when its block is freed or resized;
   all of it is off for good once blocks overlap (lh_shadow.c), where the
   shadow alone says who owns a granule. */
#define HOT_BLOCKS 4
#define HOT_MIN_SIZE 256     /* smaller blocks are rarely hit twice in a row */
typedef struct {
   Addr      lo;             /* the block's payload */
   UWord     size;           /* its size; 0 = empty entry */
   LH_Block* block;
   LH_SiteMap* map;          /* block->access.map, one load less */
   Bool      all_read;       /* every byte's read bit is set */
   Bool      all_written;    /* every byte's written bit is set */
   /* The map part the block's last access fell in (a per-part map only):
      offsets [part_lo, part_lo + part_len), and its two counts. */
   UWord     part_lo, part_len;
   ULong*    part_reads;
   ULong*    part_writes;
} HotBlock;
static HotBlock hot[HOT_BLOCKS];
static UInt hot_victim = 0;

static void hot_forget(const LH_Block* b)
{
   UInt i;
   for (i = 0; i < HOT_BLOCKS; i++)
      if (hot[i].block == b) VG_(memset)(&hot[i], 0, sizeof(hot[i]));
}

static void hot_check_overlap(void)
{
   if (LH_(shadow_overlap_seen)) VG_(memset)(hot, 0, sizeof(hot));
}

/* Sets the bits of [s, e), all inside block b, granule by granule, and
   keeps the block's set-bit counts.  ref is s's granule when known. */
static inline __attribute__((always_inline))
void mark_bits(LH_BlockAccess* ba, Addr s, Addr e, Bool is_write,
               LH_GranuleRef* ref, Bool have_ref)
{
   Addr g = s;
   UInt newly = 0;
   if (!have_ref && !LH_(shadow_lookup)(g, ref)) return;   /* cannot happen */
   for (;;) {
      Addr g_end = (g | (LH_GRANULE_SIZE - 1)) + 1;
      Addr stop = e < g_end ? e : g_end;
      UShort mask = (UShort)(((1u << (stop - g)) - 1)
                             << (g & (LH_GRANULE_SIZE - 1)));
      newly += LH_(shadow_mark)(ref, is_write, mask);
      if (stop >= e) break;
      g = stop;
      if (!LH_(shadow_lookup)(g, ref)) break;   /* cannot happen */
   }
   if (newly != 0) {
      if (is_write) ba->written_bytes_set += newly;
      else ba->read_bytes_set += newly;
   }
}

/* The counts, times and map of n bytes at 'offset' of block b. */
static inline __attribute__((always_inline))
void count_access(LH_Block* b, SizeT offset, UWord n, Bool is_write)
{
   LH_BlockAccess* ba = &b->access;
   if (is_write) {
      ba->bytes_written += n;
      if (offset + n > ba->written_high_water)
         ba->written_high_water = offset + n;
   } else {
      ba->bytes_read += n;
   }
   if (UNLIKELY(!ba->accessed)) {
      ba->accessed = True;
      ba->first_access_time = LH_(now);
      ba->map = site_map(&b->site->access);
   }
   ba->last_access_time = LH_(now);
   map_add(ba->map, b, offset, n, b->req_size, ba->inv_size, is_write);
}

/* Records the access of [a, a+size) for every live block it touches.
   Almost always one granule and one block: a wide or misaligned access
   may cross granules, and bytes outside a block's [payload, payload+size)
   (the allocator's slack in the last granule) are not counted. */
static __attribute__((noinline))
void note_access_slow(Addr a, UWord size, Bool is_write)
{
   Addr end = a + size;
   while (a < end) {
      Addr granule_end = (a | (LH_GRANULE_SIZE - 1)) + 1;
      LH_GranuleRef ref;
      if (LH_(shadow_lookup)(a, &ref)) {
         /* All of [s, e) is this block's: blocks do not overlap, so the
            counts, times and map are done once for the whole stretch,
            and only the bits go granule by granule. */
         LH_Block* b = ref.block;
         Addr block_end = b->payload + b->req_size;
         Addr s = a > b->payload ? a : b->payload;
         Addr e = end < block_end ? end : block_end;
         if (LIKELY(s < e)) {
            mark_bits(&b->access, s, e, is_write, &ref, True);
            count_access(b, s - b->payload, e - s, is_write);
            if (UNLIKELY(b->req_size >= HOT_MIN_SIZE)
                && !LH_(shadow_overlap_seen)) {
               HotBlock* h = &hot[hot_victim];
               h->lo = b->payload;
               h->size = b->req_size;
               h->block = b;
               h->map = b->access.map;
               h->all_read = b->access.read_bytes_set == b->req_size;
               h->all_written = b->access.written_bytes_set == b->req_size;
               h->part_lo = h->part_len = 0;
               hot_victim = (hot_victim + 1) % HOT_BLOCKS;
            }
            a = e > granule_end ? e : granule_end;
            continue;
         }
      }
      a = granule_end;
   }
}

/* The bits of an access inside hot block h, until they are all set. */
static __attribute__((noinline))
void hot_mark_bits(HotBlock* h, Addr a, UWord n, Bool is_write)
{
   LH_BlockAccess* ba = &h->block->access;
   LH_GranuleRef ref;
   mark_bits(ba, a, a + n, is_write, &ref, False);
   if (is_write) h->all_written = ba->written_bytes_set == h->size;
   else h->all_read = ba->read_bytes_set == h->size;
}

/* An access inside hot block h: the counts, times and map, and the bits
   until they are all set.  The block was accessed before it was cached,
   so its map exists. */
static inline __attribute__((always_inline))
void note_hot_access(HotBlock* h, Addr a, UWord offset, UWord n, Bool is_write)
{
   LH_Block* b = h->block;
   LH_BlockAccess* ba = &b->access;
   if (UNLIKELY(!(is_write ? h->all_written : h->all_read)))
      hot_mark_bits(h, a, n, is_write);
   if (is_write) {
      ba->bytes_written += n;
      if (offset + n > ba->written_high_water)
         ba->written_high_water = offset + n;
   } else {
      ba->bytes_read += n;
   }
   ba->last_access_time = LH_(now);
   if (offset - h->part_lo < h->part_len
       && n <= h->part_len - (offset - h->part_lo)) {
      *(is_write ? h->part_writes : h->part_reads) += n;
   } else {
      LH_SiteMap* m = h->map;
      map_add(m, b, offset, n, h->size, ba->inv_size, is_write);
      /* a per-part map never changes kind again nor moves its counts, and
         this block's parts change only with its size (which drops it
         from the cache) */
      if (m->kind == LH_MAP_BUCKETS && m->part_cache_block == b) {
         h->part_lo = m->part_cache_lo;
         h->part_len = m->part_cache_hi - m->part_cache_lo;
         h->part_reads = &m->reads[m->part_cache_index];
         h->part_writes = &m->writes[m->part_cache_index];
      }
   }
}

/* The hot-block cache first: no shadow lookup, and no bits once the
   block's are all set; everything else goes the slow way. */
static inline __attribute__((always_inline))
void note_access(Addr a, UWord size, Bool is_write)
{
   UInt i;
   for (i = 0; i < HOT_BLOCKS; i++) {
      UWord offset = a - hot[i].lo;
      if (offset < hot[i].size && size <= hot[i].size - offset) {
         note_hot_access(&hot[i], a, offset, size, is_write);
         return;
      }
   }
   note_access_slow(a, size, is_write);
}

VG_REGPARM(2) void LH_(note_read)(Addr a, UWord size)
{
   note_access(a, size, False);
}

VG_REGPARM(2) void LH_(note_write)(Addr a, UWord size)
{
   note_access(a, size, True);
}

/* Two accesses of one stretch in one call (lh_instrument.c pairs them):
   'sizes' is size1 | size2 << 8.  The generated code calls when either
   address may be in the heap, so each is filtered again here. */
static inline __attribute__((always_inline))
void note_filtered(Addr a, UWord size, Bool is_write)
{
   if (a - LH_(filter_base) < LH_(filter_span))
      note_access(a, size, is_write);
}

VG_REGPARM(3) void LH_(note_read_read)(Addr a1, Addr a2, UWord sizes)
{
   note_filtered(a1, sizes & 0xFF, False);
   note_filtered(a2, sizes >> 8, False);
}

VG_REGPARM(3) void LH_(note_read_write)(Addr a1, Addr a2, UWord sizes)
{
   note_filtered(a1, sizes & 0xFF, False);
   note_filtered(a2, sizes >> 8, True);
}

VG_REGPARM(3) void LH_(note_write_write)(Addr a1, Addr a2, UWord sizes)
{
   note_filtered(a1, sizes & 0xFF, True);
   note_filtered(a2, sizes >> 8, True);
}

/*------------------------------------------------------------*/
/*--- The kernel's accesses during system calls            ---*/
/*------------------------------------------------------------*/

/* Only system calls and client requests are program accesses; the core
   also writes signal frames, which the program did not ask for. */
static Bool is_program_part(CorePart part)
{
   return part == Vg_CoreSysCall || part == Vg_CoreClientReq;
}

static void syscall_reads(CorePart part, ThreadId tid, const HChar* what,
                          Addr a, SizeT size)
{
   if (is_program_part(part) && size > 0) note_access(a, size, False);
}

static void syscall_reads_string(CorePart part, ThreadId tid, const HChar* what,
                                 Addr str)
{
   /* The string and its terminating NUL; the core has checked that it is
      readable before calling us. */
   if (is_program_part(part))
      note_access(str, VG_(strlen)((const HChar*)str) + 1, False);
}

/* Writes are counted after the call, with the size the kernel actually
   wrote (read() returning 10 for a 4096-byte request writes 10 bytes).
   The pre_mem_write event announces the most the call MAY write and is
   ignored. */
static void syscall_wrote(CorePart part, ThreadId tid, Addr a, SizeT size)
{
   if (is_program_part(part) && size > 0) note_access(a, size, True);
}

/*------------------------------------------------------------*/
/*--- Block events                                         ---*/
/*------------------------------------------------------------*/

void LH_(access_init)(void)
{
   VG_(track_pre_mem_read)(syscall_reads);
   VG_(track_pre_mem_read_asciiz)(syscall_reads_string);
   VG_(track_post_mem_write)(syscall_wrote);
}

void LH_(access_block_new)(LH_Block* b, Bool zeroed)
{
   /* calloc's zero fill was done by the tool (lh_heap.c), not by the
      program: it is not a write, so nothing more happens for 'zeroed'. */
   LH_BlockAccess* ba = &b->access;
   VG_(memset)(ba, 0, sizeof(*ba));
   ba->shadow_index = LH_(shadow_new_index)(b);
   ba->inv_size = b->req_size > 0 ? 1.0 / (double)b->req_size : 0.0;
   LH_(shadow_own)(ba->shadow_index, b->payload, b->payload + b->req_size);
   map_note_block_size(&b->site->access, b->req_size);
   hot_check_overlap();
   block_events++;
}

void LH_(access_block_resized)(LH_Block* b, Addr old_payload, SizeT old_size)
{
   LH_BlockAccess* ba = &b->access;
   Addr new_payload = b->payload;
   SizeT new_size = b->req_size;
   SizeT kept = old_size < new_size ? old_size : new_size;

   hot_forget(b);
   if (new_size < old_size) {
      /* the bits of the bytes cut off go: take them off the counts */
      ULong cut_read, cut_written;
      LH_(shadow_count_set)(old_payload + new_size, old_payload + old_size,
                            &cut_read, &cut_written);
      ba->read_bytes_set -= cut_read;
      ba->written_bytes_set -= cut_written;
   }

   if (new_payload == old_payload) {
      Addr old_owned_end = (old_payload + old_size + LH_GRANULE_SIZE - 1)
                           & ~(LH_GRANULE_SIZE - 1);
      Addr new_owned_end = (new_payload + new_size + LH_GRANULE_SIZE - 1)
                           & ~(LH_GRANULE_SIZE - 1);
      if (new_owned_end > old_owned_end)
         LH_(shadow_own)(ba->shadow_index, old_owned_end, new_payload + new_size);
      else if (new_owned_end < old_owned_end)
         LH_(shadow_disown)(ba->shadow_index, new_owned_end, old_payload + old_size);
      /* Bytes cut off inside the last granule must not look accessed if
         the block grows back over them. */
      if (new_size < old_size)
         LH_(shadow_clear_bits_from)(new_payload + new_size);
   } else {
      /* Moved: the old granules are still ours (the allocator gave the new
         payload while the old was live, so the ranges do not overlap). */
      LH_(shadow_own)(ba->shadow_index, new_payload, new_payload + new_size);
      LH_(shadow_copy_bits)(new_payload, old_payload, kept);
      LH_(shadow_disown)(ba->shadow_index, old_payload, old_payload + old_size);
   }
   ba->inv_size = new_size > 0 ? 1.0 / (double)new_size : 0.0;
   if (ba->map != NULL && ba->map->part_cache_block == b)
      ba->map->part_cache_block = NULL;
   if (ba->written_high_water > new_size)
      ba->written_high_water = new_size;
   if (new_size != old_size)
      map_note_block_size(&b->site->access, new_size);
   hot_check_overlap();
   block_events++;
}

/* Adds block b's figures to 'fold'; 'freed' when the program freed it. */
static void fold_block(LH_AccessFold* fold, const LH_Block* b, Bool freed,
                       Bool live_at_peak)
{
   const LH_BlockAccess* ba = &b->access;
   LH_ByteCensus census;
   ULong unused_capacity = b->req_size - ba->written_high_water;

   LH_(shadow_census)(b->payload, b->req_size, &census);
   fold->bytes_read += ba->bytes_read;
   fold->bytes_written += ba->bytes_written;
   fold->measured_bytes += b->req_size;
   fold->never_read_bytes += census.never_read;
   fold->never_written_bytes += census.never_written;
   fold->never_accessed_bytes += census.never_accessed;
   fold->written_never_read_bytes += census.written_never_read;
   fold->unused_capacity_bytes += unused_capacity;
   if (freed)
      fold->idle_before_free += LH_(now) - (ba->accessed ? ba->last_access_time
                                                         : b->alloc_time);
   if (ba->accessed)
      fold->first_access_delay += ba->first_access_time - b->alloc_time;
   if (live_at_peak) {
      if (fold->at_peak_seq != LH_(peak_seq)) {
         fold->at_peak_seq = LH_(peak_seq);
         fold->at_peak_bytes = 0;
         fold->at_peak_never_read = 0;
         fold->at_peak_never_written = 0;
         fold->at_peak_never_accessed = 0;
         fold->at_peak_unused_capacity = 0;
      }
      fold->at_peak_bytes += b->req_size;
      fold->at_peak_never_read += census.never_read;
      fold->at_peak_never_written += census.never_written;
      fold->at_peak_never_accessed += census.never_accessed;
      fold->at_peak_unused_capacity += unused_capacity;
   }
}

void LH_(access_block_retire)(LH_Block* b, Bool live_at_peak)
{
   LH_BlockAccess* ba = &b->access;
   /* lh_heap.c removes a block from its table before retiring it when the
      program frees it; a block still in the table is being retired at the
      end of the run, which is not a free (no idle-before-free time). */
   Bool freed = LH_(find_block)(b->payload) != b;
   hot_forget(b);
   /* the record may be reused for another block: drop the cached part */
   if (ba->map != NULL && ba->map->part_cache_block == b)
      ba->map->part_cache_block = NULL;
   fold_block(&b->site->access.retired, b, freed, live_at_peak);
   LH_(shadow_disown)(ba->shadow_index, b->payload, b->payload + b->req_size);
   LH_(shadow_free_index)(ba->shadow_index);
   ba->shadow_index = 0;
   block_events++;
}

/*------------------------------------------------------------*/
/*--- Output                                               ---*/
/*------------------------------------------------------------*/

/* Recomputes every site's 'live' fold from the live blocks, unless
   nothing changed since the last time. */
static ULong live_fold_now = ~0ULL, live_fold_events = ~0ULL;

static void refresh_live_folds(void)
{
   UInt i, n;
   LH_Block* b;
   if (live_fold_now == LH_(now) && live_fold_events == block_events)
      return;
   n = LH_(n_sites)();
   for (i = 0; i < n; i++)
      VG_(memset)(&LH_(site_at)(i)->access.live, 0, sizeof(LH_AccessFold));
   LH_(blocks_iter_reset)();
   while ((b = LH_(blocks_iter_next)()) != NULL)
      fold_block(&b->site->access.live, b, False,
                 LH_(block_live_at_peak)(b, LH_(peak_seq)));
   live_fold_now = LH_(now);
   live_fold_events = block_events;
}

static void write_counts(LH_Json* j, const HChar* key, const ULong* c, UWord n)
{
   UWord i;
   LH_(json_array_begin)(j, key);
   for (i = 0; i < n; i++) LH_(json_u64)(j, NULL, c[i]);
   LH_(json_array_end)(j);
}

static void write_map(LH_Json* j, const LH_SiteAccess* sa)
{
   const LH_SiteMap* m = sa->map;
   if (m == NULL) {
      LH_(json_null)(j, "map");
      return;
   }
   LH_(json_object_begin)(j, "map");
   if (m->kind == LH_MAP_BYTES) {
      LH_(json_string)(j, "kind", "bytes");
      LH_(json_u64)(j, "block_size", m->block_size);
      write_counts(j, "reads", m->reads, m->block_size);
      write_counts(j, "writes", m->writes, m->block_size);
   } else {
      LH_(json_string)(j, "kind", "buckets");
      LH_(json_u64)(j, "buckets", K);
      write_counts(j, "reads", m->reads, K);
      write_counts(j, "writes", m->writes, K);
   }
   LH_(json_object_end)(j);
}

void LH_(access_write_site_json)(LH_Json* j, LH_Site* site)
{
   const LH_SiteAccess* sa = &site->access;
   const LH_AccessFold* r = &sa->retired;
   const LH_AccessFold* l = &sa->live;
   Bool r_peak, l_peak;

   refresh_live_folds();
   r_peak = r->at_peak_seq == LH_(peak_seq);
   l_peak = l->at_peak_seq == LH_(peak_seq);

   LH_(json_object_begin)(j, "access");
   LH_(json_u64)(j, "bytes_read", r->bytes_read + l->bytes_read);
   LH_(json_u64)(j, "bytes_written", r->bytes_written + l->bytes_written);
   LH_(json_u64)(j, "measured_bytes", r->measured_bytes + l->measured_bytes);
   LH_(json_u64)(j, "never_read_bytes", r->never_read_bytes + l->never_read_bytes);
   LH_(json_u64)(j, "never_written_bytes",
                 r->never_written_bytes + l->never_written_bytes);
   LH_(json_u64)(j, "never_accessed_bytes",
                 r->never_accessed_bytes + l->never_accessed_bytes);
   LH_(json_u64)(j, "written_never_read_bytes",
                 r->written_never_read_bytes + l->written_never_read_bytes);
   LH_(json_u64)(j, "unused_capacity_bytes",
                 r->unused_capacity_bytes + l->unused_capacity_bytes);
   LH_(json_u64)(j, "idle_before_free", r->idle_before_free + l->idle_before_free);
   LH_(json_u64)(j, "first_access_delay",
                 r->first_access_delay + l->first_access_delay);
   LH_(json_object_begin)(j, "at_peak");
   LH_(json_u64)(j, "bytes", (r_peak ? r->at_peak_bytes : 0)
                             + (l_peak ? l->at_peak_bytes : 0));
   LH_(json_u64)(j, "never_read_bytes", (r_peak ? r->at_peak_never_read : 0)
                                        + (l_peak ? l->at_peak_never_read : 0));
   LH_(json_u64)(j, "never_written_bytes",
                 (r_peak ? r->at_peak_never_written : 0)
                 + (l_peak ? l->at_peak_never_written : 0));
   LH_(json_u64)(j, "never_accessed_bytes",
                 (r_peak ? r->at_peak_never_accessed : 0)
                 + (l_peak ? l->at_peak_never_accessed : 0));
   LH_(json_u64)(j, "unused_capacity_bytes",
                 (r_peak ? r->at_peak_unused_capacity : 0)
                 + (l_peak ? l->at_peak_unused_capacity : 0));
   LH_(json_object_end)(j);
   write_map(j, sa);
   LH_(json_object_end)(j);
}

/* The totals are the sums over the sites (retired and live blocks), so
   the access path keeps no global counters. */
static ULong sum_over_sites(Bool written)
{
   UInt i, n = LH_(n_sites)();
   ULong total = 0;
   refresh_live_folds();
   for (i = 0; i < n; i++) {
      const LH_SiteAccess* sa = &LH_(site_at)(i)->access;
      total += written ? sa->retired.bytes_written + sa->live.bytes_written
                       : sa->retired.bytes_read + sa->live.bytes_read;
   }
   return total;
}

ULong LH_(access_total_read)(void)    { return sum_over_sites(False); }
ULong LH_(access_total_written)(void) { return sum_over_sites(True); }

Bool LH_(access_process_option)(const HChar* arg) { return False; }
void LH_(access_print_usage)(void) {}

