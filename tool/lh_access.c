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
        │  every access (lh_access_path.c): the block's read/written
        │  bits (and their counts), first/last access time, written
        │  high-water mark, and the site's map (lh_access_map.c), whose
        │  sums are the site's read and written bytes
        ▼
     realloc ─► access_block_resized: bits move with the data (the tool's
                copy is not a program access); times stay
        ▼
     free ────► access_block_retire: census of the bits (never read, never
                written, ...) folded into site->access.retired; the
                granules are forgotten
     end/dump ► live blocks are folded, without being forgotten, into
                site->out->live_fold (recomputed at every output; allocated
                only for the sites that have a live block then)

   Blocks live at the global peak (the "at_peak" figures) are recognised
   with the sites' peak sequence number (LH_(heap).peak_seq): a block folded with live_at_peak was
   live at the latest peak so far.  Each site keeps its at-peak sums
   tagged with the peak_seq they belong to; a fold that arrives with a
   newer seq resets them first.  Nothing is walked when a peak happens.
   A block live at the latest peak whose size is about to change
   (access_block_before_resize, before the realloc is accounted) folds
   its at-peak part there and then, with the size it had at the peak, and
   counts as born after that peak from then on: each block contributes
   its size at the peak exactly once, so the sites' at-peak bytes sum to
   peak.bytes.

   --stats=yes adds the access path's counts of the accesses that missed
   its fast checks (LH_(access_path_print_stats)).
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "lh_include.h"
#include "lh_shadow.h"
#include "lh_access_private.h"

/* Bumped by every block event, so that an output can tell whether the
   live fold it made earlier is still current. */
static ULong block_events = 0;

/*------------------------------------------------------------*/
/*--- Block events                                         ---*/
/*------------------------------------------------------------*/

void LH_(access_path_print_stats)(void)
{
   const LH_AccessPathStats* st = &LH_(access_path_stats);
   VG_(dmsg)("lifeheap: access path: %'llu accesses in a slot's block, "
             "%'llu the slow way (%'llu of them counted later)\n",
             st->in_slot_block, st->slow, st->queued);
}

void LH_(access_init)(void)
{
   LH_(access_path_init)();
}

void LH_(access_block_new)(LH_Block* b, Bool zeroed)
{
   /* calloc's zero fill was done by the tool (lh_heap.c), not by the
      program: it is not a write (no written bit, no count).  But the
      block is initialised to its end, as the program asked, so its
      initialised high-water mark, which unused capacity is measured from,
      is its size (docs/metrics.md).  The record is new
      (LH_(block_record_new) zeroes it, lh_registry.c): its access state
      is all zero already. */
   LH_BlockAccess* ba = &b->access;
   if (zeroed)
      ba->written_high_water = b->req_size;
   LH_(shadow_own)(b->shadow_index, b->payload, LH_(owned_end)(b->payload, b->req_size));
   LH_(map_note_block_size)(&b->site->access, b->req_size);
   LH_(slots_check_overlap)();
   block_events++;
}

void LH_(access_block_resized)(LH_Block* b, Addr old_payload, SizeT old_size)
{
   LH_BlockAccess* ba = &b->access;
   Addr new_payload = b->payload;
   SizeT new_size = b->req_size;
   SizeT kept = old_size < new_size ? old_size : new_size;

   LH_(slots_forget)(b);
   if (new_size < old_size) {
      /* the bits of the bytes cut off go: take them off the counts */
      ULong cut_read, cut_written;
      LH_(shadow_count_set)(old_payload + new_size, old_payload + old_size,
                            &cut_read, &cut_written);
      ba->read_bytes_set -= cut_read;
      ba->written_bytes_set -= cut_written;
   }

   if (new_payload == old_payload) {
      Addr old_owned_end = LH_(owned_end)(old_payload, old_size);
      Addr new_owned_end = LH_(owned_end)(new_payload, new_size);
      if (new_owned_end > old_owned_end)
         LH_(shadow_own)(b->shadow_index, old_owned_end, new_owned_end);
      else if (new_owned_end < old_owned_end)
         LH_(shadow_disown)(b->shadow_index, new_owned_end, old_owned_end);
      /* Bytes cut off inside the last granule must not look accessed if
         the block grows back over them. */
      if (new_size < old_size)
         LH_(shadow_clear_bits_from)(new_payload + new_size);
   } else {
      /* Moved: the old granules are still ours (the allocator gave the new
         payload while the old was live, so the ranges do not overlap). */
      LH_(shadow_own)(b->shadow_index, new_payload, LH_(owned_end)(new_payload, new_size));
      LH_(shadow_copy_bits)(new_payload, old_payload, kept);
      LH_(shadow_disown)(b->shadow_index, old_payload, LH_(owned_end)(old_payload, old_size));
   }
   LH_(map_forget_block)(ba->map, b);
   if (ba->written_high_water > new_size)
      ba->written_high_water = new_size;
   if (new_size != old_size)
      LH_(map_note_block_size)(&b->site->access, new_size);
   LH_(slots_check_overlap)();
   block_events++;
}

/* Block b's never-read, never-written, never-accessed and written-but-
   never-read bytes, once the access path has put its pending runs into
   the blocks (LH_(access_settle)).  The set-bit counts give them without
   reading the bits when every byte, or none, was read or written (a big
   array the program used in full, a buffer never touched); otherwise
   the bits are counted.  The counts are not trusted once blocks
   overlapped. */
static void block_census(const LH_Block* b, LH_ByteCensus* census)
{
   const LH_BlockAccess* ba = &b->access;
   SizeT size = b->req_size;
   SizeT read, written;
   LH_(access_settle)();
   read = ba->read_bytes_set;
   written = ba->written_bytes_set;
   if (LH_(shadow_overlap_seen)
       || (read != 0 && read != size && written != 0 && written != size)) {
      LH_(shadow_census)(b->payload, size, census);
      return;
   }
   census->never_read = size - read;
   census->never_written = size - written;
   if (read == size) {
      census->never_accessed = 0;
      census->written_never_read = 0;
   } else if (written == size) {
      census->never_accessed = 0;
      census->written_never_read = size - read;
   } else if (read == 0) {
      census->never_accessed = size - written;
      census->written_never_read = written;
   } else {                                     /* nothing written */
      census->never_accessed = size - read;
      census->written_never_read = 0;
   }
}

/* Adds one block's figures to the at-peak sums of 'fold' (the fold's sums
   belong to the latest peak: older ones are dropped first). */
static void at_peak_add(LH_AccessFold* fold, SizeT bytes,
                        const LH_ByteCensus* census, ULong unused_capacity)
{
   if (fold->at_peak_seq != LH_(heap).peak_seq) {
      fold->at_peak_seq = LH_(heap).peak_seq;
      fold->at_peak_bytes = 0;
      fold->at_peak_never_read = 0;
      fold->at_peak_never_written = 0;
      fold->at_peak_never_accessed = 0;
      fold->at_peak_unused_capacity = 0;
   }
   fold->at_peak_bytes += bytes;
   fold->at_peak_never_read += census->never_read;
   fold->at_peak_never_written += census->never_written;
   fold->at_peak_never_accessed += census->never_accessed;
   fold->at_peak_unused_capacity += unused_capacity;
}

/* Adds block b's figures to 'fold'; 'freed' when the program freed it. */
static void fold_block(LH_AccessFold* fold, const LH_Block* b, Bool freed,
                       Bool live_at_peak)
{
   const LH_BlockAccess* ba = &b->access;
   LH_ByteCensus census;
   ULong unused_capacity;

   block_census(b, &census);        /* settles the access path first */
   unused_capacity = b->req_size - ba->written_high_water;
   fold->measured_bytes += b->req_size;
   fold->never_read_bytes += census.never_read;
   fold->never_written_bytes += census.never_written;
   fold->never_accessed_bytes += census.never_accessed;
   fold->written_never_read_bytes += census.written_never_read;
   fold->unused_capacity_bytes += unused_capacity;
   if (freed)
      fold->idle_before_free += LH_(now) - (ba->map != NULL ? ba->last_access_time
                                                         : b->alloc_time);
   if (ba->map != NULL)
      fold->first_access_delay += ba->first_access_time - b->alloc_time;
   if (live_at_peak)
      at_peak_add(fold, b->req_size, &census, unused_capacity);
}

/* Block b is about to change size.  If it was live at the latest peak, its
   at-peak figures are taken now, while it still has the size it had then
   (a size changes only through this event), and added to its site's;
   from now on the block counts as born after that peak, so the fold at
   its end, or a later peak, does not count it a second time at this one.
   A later peak finds it live again with its new size. */
void LH_(access_block_before_resize)(LH_Block* b)
{
   LH_ByteCensus census;
   /* the access path's pending accesses reach the block while its payload
      is the one they were made at (a move changes it next) */
   LH_(access_settle)();
   if (!LH_(block_live_at_peak)(b, LH_(heap).peak_seq)) return;
   block_census(b, &census);
   at_peak_add(&b->site->access.retired, b->req_size, &census,
               b->req_size - b->access.written_high_water);
   b->peak_seq_at_alloc = LH_(heap).peak_seq;
   block_events++;
}

/* The site's live fold, allocated (all zero) on its first use. */
static LH_AccessFold* live_fold_for(LH_Site* site)
{
   tl_assert(site->out != NULL);   /* an output's: LH_(sites_finalize) */
   if (site->out->live_fold == NULL)
      site->out->live_fold = VG_(calloc)("lh.access.live", 1, sizeof(LH_AccessFold));
   return site->out->live_fold;
}

const LH_AccessFold* LH_(site_live_fold)(const LH_Site* site)
{
   static const LH_AccessFold none;
   return site->out && site->out->live_fold ? site->out->live_fold : &none;
}

/* The same for a block whose bytes are not measured (a custom allocator's
   block, LH_(block_measured)): its size at the peak counts in at_peak.bytes,
   with no never-read or never-written bytes, since its accesses count on
   the pool's own block.  'live': still live (the output's live fold) or
   gone (resized or freed now). */
void LH_(access_unmeasured_at_peak)(LH_Site* site, SizeT size, Bool live)
{
   static const LH_ByteCensus nothing = { 0, 0, 0, 0 };
   at_peak_add(live ? live_fold_for(site) : &site->access.retired, size,
               &nothing, 0);
   if (!live) block_events++;
}

void LH_(access_blocks_changed)(void)
{
   block_events++;
}

void LH_(access_block_retire)(LH_Block* b, Bool live_at_peak)
{
   LH_BlockAccess* ba = &b->access;
   LH_(slots_forget)(b);
   /* the record may be reused for another block: drop the cached part */
   LH_(map_forget_block)(ba->map, b);
   fold_block(&b->site->access.retired, b, True, live_at_peak);
   LH_(shadow_disown)(b->shadow_index, b->payload, LH_(owned_end)(b->payload, b->req_size));
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
   for (i = 0; i < n; i++) {
      const LH_SiteOutput* out = LH_(site_at)(i)->out;
      if (out && out->live_fold) VG_(memset)(out->live_fold, 0, sizeof(LH_AccessFold));
   }
   LH_(blocks_iter_reset)();
   while ((b = LH_(blocks_iter_next)()) != NULL) {
      Bool live_at_peak = LH_(block_live_at_peak)(b, LH_(heap).peak_seq);
      if (LH_(block_measured)(b))
         fold_block(live_fold_for(b->site), b, False, live_at_peak);
      else if (live_at_peak)
         LH_(access_unmeasured_at_peak)(b->site, b->req_size, True);
   }
   live_fold_now = LH_(now);
   live_fold_events = block_events;
}

/* A member is written only when it differs from its default
   (docs/format.md, "Omitted members"); an object whose members all have
   their defaults is left out whole. */
static void put_unless(LH_Json* j, const HChar* key, ULong v, ULong dflt)
{
   if (v != dflt) LH_(json_u64)(j, key, v);
}

void LH_(access_write_site_json)(LH_Json* j, LH_Site* site)
{
   const LH_SiteAccess* sa = &site->access;
   const LH_AccessFold* r = &sa->retired;
   const LH_AccessFold* l;
   Bool r_peak, l_peak, has_size;
   ULong read, written, measured, never_read, never_written, never_accessed,
         written_never_read, unused, idle, delay;
   ULong peak_bytes, peak_never_read, peak_never_written,
         peak_never_accessed, peak_unused;
   Bool peak_default, all_default;

   refresh_live_folds();
   l = LH_(site_live_fold)(site);
   r_peak = r->at_peak_seq == LH_(heap).peak_seq;
   l_peak = l->at_peak_seq == LH_(heap).peak_seq;

   /* the one size all the site's blocks had, whether accessed or not */
   has_size = sa->map_kind != LH_MAP_NONE && !sa->mixed_sizes;
   read = LH_(access_site_bytes)(site, False);
   written = LH_(access_site_bytes)(site, True);
   measured = r->measured_bytes + l->measured_bytes;
   never_read = r->never_read_bytes + l->never_read_bytes;
   never_written = r->never_written_bytes + l->never_written_bytes;
   never_accessed = r->never_accessed_bytes + l->never_accessed_bytes;
   written_never_read = r->written_never_read_bytes + l->written_never_read_bytes;
   unused = r->unused_capacity_bytes + l->unused_capacity_bytes;
   idle = r->idle_before_free + l->idle_before_free;
   delay = r->first_access_delay + l->first_access_delay;
   peak_bytes = (r_peak ? r->at_peak_bytes : 0) + (l_peak ? l->at_peak_bytes : 0);
   peak_never_read = (r_peak ? r->at_peak_never_read : 0)
                     + (l_peak ? l->at_peak_never_read : 0);
   peak_never_written = (r_peak ? r->at_peak_never_written : 0)
                        + (l_peak ? l->at_peak_never_written : 0);
   peak_never_accessed = (r_peak ? r->at_peak_never_accessed : 0)
                         + (l_peak ? l->at_peak_never_accessed : 0);
   peak_unused = (r_peak ? r->at_peak_unused_capacity : 0)
                 + (l_peak ? l->at_peak_unused_capacity : 0);

   /* Defaults: the site's own figures for a site never accessed (every
      byte measured is never read, never written, above the high-water
      mark), the site's bytes at the peak for at_peak. */
   peak_default = peak_bytes == site->bytes_at_peak
                  && peak_never_read == peak_bytes
                  && peak_never_written == peak_bytes
                  && peak_never_accessed == peak_bytes
                  && peak_unused == peak_bytes;
   all_default = !has_size && read == 0 && written == 0
                 && measured == site->total_bytes
                 && never_read == measured && never_written == measured
                 && never_accessed == measured && unused == measured
                 && written_never_read == 0 && idle == 0 && delay == 0
                 && peak_default && sa->map == NULL;
   if (all_default) return;

   LH_(json_object_begin)(j, "access");
   if (has_size) LH_(json_u64)(j, "block_size", sa->map_block_size);
   put_unless(j, "bytes_read", read, 0);
   put_unless(j, "bytes_written", written, 0);
   put_unless(j, "measured_bytes", measured, site->total_bytes);
   put_unless(j, "never_read_bytes", never_read, measured);
   put_unless(j, "never_written_bytes", never_written, measured);
   put_unless(j, "never_accessed_bytes", never_accessed, measured);
   put_unless(j, "written_never_read_bytes", written_never_read, 0);
   put_unless(j, "unused_capacity_bytes", unused, measured);
   put_unless(j, "idle_before_free", idle, 0);
   put_unless(j, "first_access_delay", delay, 0);
   if (!peak_default) {
      LH_(json_object_begin)(j, "at_peak");
      put_unless(j, "bytes", peak_bytes, site->bytes_at_peak);
      put_unless(j, "never_read_bytes", peak_never_read, peak_bytes);
      put_unless(j, "never_written_bytes", peak_never_written, peak_bytes);
      put_unless(j, "never_accessed_bytes", peak_never_accessed, peak_bytes);
      put_unless(j, "unused_capacity_bytes", peak_unused, peak_bytes);
      LH_(json_object_end)(j);
   }
   if (sa->map != NULL) LH_(access_write_map)(j, sa);
   LH_(json_object_end)(j);
}

/* The totals are the sums over the sites (retired and live blocks), so
   the access path keeps no global counters. */
static ULong sum_over_sites(Bool written)
{
   UInt i, n = LH_(n_sites)();
   ULong total = 0;
   refresh_live_folds();
   for (i = 0; i < n; i++)
      total += LH_(access_site_bytes)(LH_(site_at)(i), written);
   return total;
}

ULong LH_(access_total_read)(void)    { return sum_over_sites(False); }
ULong LH_(access_total_written)(void) { return sum_over_sites(True); }


