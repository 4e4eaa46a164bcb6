/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_registry.c: one record and one life for every   ---*/
/*--- block, whoever allocated it.                                 ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A block comes from one of four places (its origin, lh_include.h):

      LH_ORIGIN_HEAP    malloc family, Valgrind's client allocator  lh_heap.c
      LH_ORIGIN_SMALL   malloc family, a small-block slot           lh_heap.c
      LH_ORIGIN_CUSTOM  VALGRIND_MALLOCLIKE_BLOCK           lh_custom_alloc.c
      LH_ORIGIN_POOL    VALGRIND_MEMPOOL_ALLOC              lh_custom_alloc.c

   Those files own the memory (or, for a custom allocator, only the
   program's word for it) and find a block from its payload; everything
   else about a block is here, the same for all four:

      block_register ──► a record (lh_shadow.c's record pages), its site
           │             (LH_(site_note_alloc)), its access state (a
           │             measured block owns its granules, lh_access.c),
           │             its first block-file stretch (lh_blocks.c)
           ▼
      block_resize_begin / block_resized   (realloc, RESIZEINPLACE,
           │             MEMPOOL_CHANGE): at-peak figures of the old size,
           │             the block file's record of the old size, the
           │             site's realloc figures, the bits follow the data
           ▼
      block_retire ────► the block file's record, the access census (or,
                         for a block not measured, its at-peak bytes), the
                         site's lifetime, size and timeline figures
                         (LH_(site_note_free)); the record is reused

   and, while it is live, at every output (final, periodic, on demand):

      blocks_count_live  its lifetime up to now and its size into its
                         site and the run's shapes (LH_(sites_finalize))
      lh_access.c        its access figures into its site's live fold
      lh_blocks.c        at the end, a record "live at the end"

   all by walking the records (LH_(blocks_iter_next)), in record order.

   A block is "measured" (LH_(block_measured)) when its bytes are its
   own: the malloc family's.  A custom allocator's blocks usually lie in
   memory the allocator got from malloc, whose heap block already owns
   those granules and counts their reads and writes; so a custom block
   owns none, its access figures stay zero, and only its size counts in
   its site's bytes at the peak.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "lh_include.h"
#include "lh_shadow.h"
#include "lh_blocks.h"

LH_Block* LH_(block_register)(ThreadId tid, Addr payload, SizeT size,
                              LH_BlockOrigin origin, UInt small_class,
                              Bool zeroed)
{
   LH_Block* b = LH_(block_record_new)();
   b->payload           = payload;
   b->req_size          = size;
   b->origin            = origin;
   b->small_class       = small_class;
   b->site              = LH_(site_for_stack)(LH_(record_allocation_stack)(tid));
   b->alloc_time        = LH_(now);
   b->alloc_thread      = LH_(thread_serial)(tid);
   b->peak_seq_at_alloc = LH_(heap).peak_seq;

   LH_(site_note_alloc)(b->site, size, b->alloc_thread);
   if (LH_(block_measured)(b)) LH_(access_block_new)(b, zeroed);
   else LH_(access_blocks_changed)();
   if (LH_(blocks_on)) LH_(blocks_birth)(b);
   return b;
}

void LH_(block_resize_begin)(LH_Block* b)
{
   if (LH_(block_measured)(b)) {
      LH_(access_block_before_resize)(b);
   } else if (LH_(block_live_at_peak)(b, LH_(heap).peak_seq)) {
      /* as LH_(access_block_before_resize) does for a measured block */
      LH_(access_unmeasured_at_peak)(b->site, b->req_size, False);
      b->peak_seq_at_alloc = LH_(heap).peak_seq;
   }
}

void LH_(block_resized)(LH_Block* b, ThreadId tid, Addr old_payload,
                        SizeT new_size, ULong bytes_copied)
{
   SizeT old_size = b->req_size;
   /* the block file's record of the old size ends here (b still has the
      old size and access counts) */
   if (LH_(blocks_on))
      LH_(blocks_resized)(b, LH_(thread_serial)(tid), b->payload != old_payload);
   b->req_size = new_size;
   LH_(site_note_realloc)(b->site, old_size, new_size, bytes_copied);
   if (LH_(block_measured)(b)) LH_(access_block_resized)(b, old_payload, old_size);
   else LH_(access_blocks_changed)();
}

void LH_(block_retire)(LH_Block* b, ThreadId tid)
{
   UInt thread = LH_(thread_serial)(tid);
   Bool live_at_peak = LH_(block_live_at_peak)(b, LH_(heap).peak_seq);
   if (LH_(blocks_on)) LH_(blocks_retired)(b, thread);
   if (LH_(block_measured)(b)) {
      LH_(access_block_retire)(b, live_at_peak);
   } else {
      if (live_at_peak) LH_(access_unmeasured_at_peak)(b->site, b->req_size, False);
      LH_(access_blocks_changed)();
   }
   if (thread != b->alloc_thread)
      LH_(parallel_clock_handoff)(b->site, b->alloc_thread, b->alloc_time, thread);
   LH_(site_note_free)(b->site, b->req_size, LH_(now) - b->alloc_time,
                       thread != b->alloc_thread);
   LH_(block_record_free)(b);
}

/*------------------------------------------------------------*/
/*--- The live blocks                                      ---*/
/*------------------------------------------------------------*/

static UInt iter_next_record = 1;

void LH_(blocks_iter_reset)(void)
{
   iter_next_record = 1;
}

LH_Block* LH_(blocks_iter_next)(void)
{
   UInt used = LH_(block_records_used)();
   while (iter_next_record < used) {
      LH_Block* b = LH_(block_record)(iter_next_record++);
      if (b->site != NULL) return b;      /* a free record has no site */
   }
   return NULL;
}

void LH_(blocks_count_live)(void)
{
   LH_Block* b;
   LH_(blocks_iter_reset)();
   while ((b = LH_(blocks_iter_next)()) != NULL) {
      LH_(site_count_live_lifetime)(b->site, b->alloc_time);
      LH_(shapes_note_live)(b->site, b->req_size, LH_(now) - b->alloc_time);
   }
}
