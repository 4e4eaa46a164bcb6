/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_access_pending.c: accesses counted later, the queue of    ---*/
/*--- rereads and the runs.                                        ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   Accesses counted later.  A random read of many live blocks (a hash
   table's entries) finds its granule in the shadow and then needs the
   block's record: its payload (for the offset), its map, and its
   last-access time to write.  Read at once, that record costs a second
   cache miss after the granule's, one the program cannot overlap with
   anything.  An access that falls in one granule whose bytes all have a
   bit set already, of either kind, needs nothing else of the record: its
   bytes lie inside the block and it is not the block's first access
   (bits are set only for a live block's own bytes, and only after its
   first access made its map).  Such an access is the commonest of them (a
   table's entries are read again and again, and an entry is read first
   where it was written): it sets its bits now, if it has any to set, in
   a chunk shared by small blocks (a big block's chunk keeps counts of its
   full granules: those set theirs the ordinary way), and goes into this
   queue with its time and the number of bits it set; the block's record
   is prefetched, and the queue is counted when it is full, by which time
   the records are in cache, the misses having overlapped with each other
   and with the program's own work.

   Counting later gives the same figures: the map's counts and the set-bit
   counts are sums, the written high-water mark a maximum, and the
   last-access time is set to the later of its value and the access's
   time (anything counted directly meanwhile is later still).  A set-bit
   count may be behind while accesses wait: a slot that finds its block's
   count short of the size sees it as not saturated (slower, never
   wrong), and a slot's fill counts the queue first.  The queue is counted
   before
   anything reads or moves those: before the maps are read or change
   layout (LH_(slots_flush_repeats)), before anything outside the access
   path reads a block's access state (LH_(access_settle)), and before a
   block is freed or resized (LH_(slots_forget), and LH_(access_settle)
   from lh_access.c before a block's payload can move), so that a queued
   access's block is always the live block it was made by.

   Runs.  A loop that walks a small block forward (filling a message
   body, summing a string) makes a run: each access starts where the last
   one ended (so does one in a block of a few KiB whose bits are in one
   medium chunk's pages, lh_shadow_medium.c).  The last read run and the
   last write run are kept beside the access slots (lh_access_slots.c;
   one of each: Valgrind may unroll a loop into several events, hence
   several slots, that take turns along the same bytes).  An access at a
   run's end only moves the end on and sets the block's
   last-access time: the run's bytes [start, end) go into the block's
   bits, set-bit count and written high-water mark, and into the site map
   in one piece (lh_access_map.c splits it into parts), when the run is
   flushed: when another access of its kind is counted the ordinary way,
   when its block is freed or resized, when the slot epoch moves, before
   the maps are read (as above), and before anything outside the access
   path reads a block's access state (LH_(access_settle): a block's
   census, its record in the block file).  Bits are a union and the
   counts sums, so a byte the ordinary way marks before the run is
   flushed is counted once, by whichever comes first.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "lh_include.h"
#include "lh_shadow.h"
#include "lh_access_path_private.h"

DeferredAccess LH_(deferred)[MAX_DEFERRED];
UInt LH_(n_deferred) = 0;
AccessRun LH_(runs)[2];

/* Counts the queued accesses into their blocks and maps. */
void LH_(deferred_flush)(void)
{
   UInt i;
   for (i = 0; i < LH_(n_deferred); i++) {
      const DeferredAccess* d = &LH_(deferred)[i];
      LH_Block* b = d->block;
      LH_BlockAccess* ba = &b->access;
      SizeT offset = d->a - b->payload;
      if (d->is_write) {
         ba->written_bytes_set += d->newly;
         if (offset + d->size > ba->written_high_water)
            ba->written_high_water = offset + d->size;
      } else if (d->newly != 0) {
         ba->read_bytes_set += d->newly;    /* maybe on the record's next line */
      }
      if (d->time > ba->last_access_time)
         ba->last_access_time = d->time;
      map_add(ba->map, b, offset, d->size, b->req_size, d->is_write);
   }
   LH_(n_deferred) = 0;
}

/* Sets the bits of the run's bytes [run->start, run->end) granule by
   granule in the granules it holds, and adds the newly set ones to the
   block's count; a write run moves the written high-water mark. */
static void run_mark_bits(const AccessRun* run)
{
   LH_BlockAccess* ba = &run->block->access;
   Addr first_granule = run->lo & ~(LH_GRANULE_SIZE - 1);
   Addr g = run->start, end = run->end;
   UWord newly = 0;
   if (run->granules == NULL) {
      /* the chunk's arrays or pages (read now: it may have made its own or
         dropped them since the run started) */
      LH_GranuleRef ref;
      ref.block = run->block;
      ref.solo = run->chunk;
      newly = LH_(shadow_mark_chunk)(&ref, run->is_write, run->chunk, run->chunk_lo, g, end);
      g = end;
   }
   while (g < end) {
      Addr stop = LH_(granule_stop)(g, end);
      LH_Granule* granule = &run->granules[(g - first_granule) >> LH_GRANULE_BITS];
      UShort* bits = run->is_write ? &granule->written_bits : &granule->read_bits;
      UShort mask = LH_(granule_mask)(g, stop);
      UShort old = *bits;
      if ((old & mask) != mask) {
         /* a first touch of these bytes (the usual case for a run: a
            loop filling a new block) sets all of them: no bit count */
         newly += (old & mask) == 0 ? (UWord)(stop - g)
                                    : LH_(popcount16)(mask & ~old);
         *bits = old | mask;
      }
      g = stop;
   }
   if (run->is_write) {
      ba->written_bytes_set += newly;
      if (end - run->lo > ba->written_high_water)
         ba->written_high_water = end - run->lo;
   } else {
      ba->read_bytes_set += newly;
   }
}

/* Puts the run's bytes in its block's bits and its map, and starts it
   again at its end. */
void LH_(run_flush)(AccessRun* run)
{
   SizeT offset = run->start - run->lo;
   SizeT n = run->end - run->start;
   run_mark_bits(run);
   run->start = run->end;
   if (run->by_parts) {
      /* no block: the map's cached part is dropped, not trusted */
      LH_(map_add_part)(run->map, NULL, offset, n, run->size, run->counts);
   } else {
      LH_(map_bytes_add)(run->map, run->is_write, offset, n, 1);
   }
}

/* Puts both runs' pending bytes into their blocks and maps (the runs
   go on): before anything outside the access path reads a live block's
   bits, set-bit counts or written high-water mark. */
void LH_(access_settle)(void)
{
   deferred_settle();
   if (LH_(runs)[0].end != LH_(runs)[0].start) LH_(run_flush)(&LH_(runs)[0]);
   if (LH_(runs)[1].end != LH_(runs)[1].start) LH_(run_flush)(&LH_(runs)[1]);
}
