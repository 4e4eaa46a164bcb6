/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_access_slots.c: the access slots, the access path's cache ---*/
/*--- of the block each access event met last.                     ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   The access slots: a cache of "which block, and which part of its
   access map, did this access fall in last time", one entry per access
   event of the translated code (two tables, reads and writes, indexed by
   a hash of the event that the instrumentation computes once;
   lh_instrument.c).  A load in a loop over a big array hits its own slot
   again and again, however many arrays the loop walks, with no search and
   no shadow lookup.

   A slot is "armed" once every byte of its block was read (for a read
   slot) or written (for a write slot) and the block's map has parts: then
   an access inside the part the slot remembers only adds to that part's
   count and sets the block's last-access time.  An access elsewhere in
   the block finds its part and the slot remembers that one.  Anything
   else goes the slow way (shadow lookup, bits), which refills the slot.

   A small block's slot also keeps where its granules are in the shared
   shadow chunk, so that a loop over a small block (a string, a message
   body) sets its bits without a shadow lookup, and so does a block
   touched by the same code twice in a row.

   Two events may share a slot (a hash collision): each access checks
   that it lies inside the slot's part or block, so sharing costs speed,
   never correctness.  A slot is good only while its epoch equals
   slot_epoch.  When a block that was put in a slot is freed or resized,
   the slots filled this epoch (a short list) that hold it lose it (their
   epoch set to 0, their arming dropped); when that list has overflowed,
   or a map changes its layout, or once blocks overlap (lh_shadow.c; then
   slots are off for good, and the shadow alone says who owns a granule),
   slot_epoch moves on and every slot is invalid.  When it moves, the
   armed slots (a short list) are disarmed, so the fastest path needs no
   epoch check.

   A slot also keeps a repeat key: the last access it counted the
   ordinary way that set no new bit (address and size, in a map of
   parts or a per-offset map).  The same access again, while the epoch
   is good, has its bits set already and falls in the same counters, so
   it only adds one to the slot's pending repeats and sets the block's
   last-access time.  A loop that rereads a field of a block it does not
   read whole (a message's length, a node's key, a pointer reloaded from
   an array) takes this path instead of bits and counts per byte.  The
   pending repeats are added to the counters (n per-offset counts, or
   each part's bytes of the access times the repeats, to its count)
   when the key changes, when the slot takes another block, and
   before anything reads the maps or changes their layout
   (LH_(slots_flush_repeats)): the sums are the same as if each repeat
   had been counted when it happened.

   The runs kept beside the slots and the queue of rereads are
   lh_access_pending.c's; the checks that use all of them,
   lh_access_path.c's.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "lh_include.h"
#include "lh_access_path_private.h"

AccessSlot LH_(read_slots)[LH_ACCESS_SLOTS];
AccessSlot LH_(write_slots)[LH_ACCESS_SLOTS];
/* Bit i (read slot i; write slot i - LH_ACCESS_SLOTS): has held a block.
   LH_(slots_flush_repeats) visits only these, not all 384 KiB of slots. */
static ULong slots_ever_filled[2 * LH_ACCESS_SLOTS / 64];
ULong LH_(slot_epoch) = 1;
AccessSlot* LH_(armed_slots)[MAX_ARMED_SLOTS];
UInt LH_(n_armed_slots) = 0;

/* The slots filled since the epoch last moved (each once), so that a
   freed or resized block is taken out of the few slots that may hold it
   instead of every slot losing its block: a loop that frees a block each
   time round (a ring of messages, an event loop) keeps the slots of the
   blocks it goes on using.  Past MAX_FILLED_SLOTS fills the list is
   given up until the next epoch, and forgetting a slotted block moves the
   epoch, as it always did. */
#define MAX_FILLED_SLOTS 32
static AccessSlot* filled_slots[MAX_FILLED_SLOTS];
static UInt n_filled_slots = 0;
static Bool filled_slots_overflow = False;

/* Adds the slot's pending repeats to the counters of its repeatable
   access: its parts' (each by its bytes in the part) or its bytes'.  The
   slot still describes the block of that access: a slot takes another
   block only after a flush (slot_fill). */
void LH_(slot_repeats_flush)(AccessSlot* slot)
{
   Addr a = (Addr)(slot->repeat_key & (((ULong)1 << 48) - 1));
   UWord n = (UWord)(slot->repeat_key >> 48);
   SizeT offset = a - slot->lo;
   if (slot->by_parts) {
      SizeT size = slot->size, end = offset + n;
      UWord j = bucket_of(offset, size);
      SizeT hi = (SizeT)(((ULong)(j + 1) * size) / K);
      for (;;) {      /* across parts: each its bytes, as LH_(map_add_part) */
         SizeT stop = hi < end ? hi : end;
         slot->counts[j] += slot->repeats * (stop - offset);
         if (stop == end) break;
         offset = stop;
         j++;
         hi = (SizeT)(((ULong)(j + 1) * size) / K);
      }
   } else {
      Bool is_write = (Addr)slot - (Addr)LH_(write_slots) < sizeof(LH_(write_slots));
      LH_(map_bytes_add)(slot->bytes_map, is_write, offset, n, slot->repeats);
   }
   slot->repeats = 0;
}

/* Set when a slot gets a repeat key or a run (lh_access_path_private.h);
   LH_(slots_flush_repeats) clears it with every key and run. */
Bool LH_(repeat_keys_set) = False;

void LH_(slots_flush_repeats)(void)
{
   UInt i;
   deferred_settle();
   if (!LH_(repeat_keys_set)) return;
   for (i = 0; i < 2 * LH_ACCESS_SLOTS; i++) {
      AccessSlot* slot = slot_at(i, i >= LH_ACCESS_SLOTS);
      if (!(slots_ever_filled[i / 64] & ((ULong)1 << (i % 64)))) continue;
      if (slot->repeats != 0) LH_(slot_repeats_flush)(slot);
      slot->repeat_key = 0;
   }
   run_end(&LH_(runs)[0]);
   run_end(&LH_(runs)[1]);
   LH_(repeat_keys_set) = False;
}

void LH_(slots_new_epoch)(void)
{
   UInt i;
   /* a run's bytes go into its block now: its granules are not trusted
      past the epoch */
   run_end(&LH_(runs)[0]);
   run_end(&LH_(runs)[1]);
   for (i = 0; i < LH_(n_armed_slots); i++) {
      LH_(armed_slots)[i]->part_room = 0;
      LH_(armed_slots)[i]->armed = False;
   }
   LH_(n_armed_slots) = 0;
   for (i = 0; i < n_filled_slots; i++) filled_slots[i]->filled = False;
   n_filled_slots = 0;
   filled_slots_overflow = False;
   LH_(slot_epoch)++;
}

/* The slot holds a block for this epoch: it goes in the filled list. */
static inline void slot_note_filled(AccessSlot* slot)
{
   if (slot->filled) return;
   if (n_filled_slots == MAX_FILLED_SLOTS) {
      filled_slots_overflow = True;
      return;
   }
   slot->filled = True;
   filled_slots[n_filled_slots++] = slot;
}

/* Block b is going away or changing size: no slot may point to it.
   Every slot that holds a block this epoch is in the filled list (unless
   it overflowed): those holding b lose it (their pending repeats counted
   first, their arming dropped), and so does a run in b.  Anything else
   keeps its block. */
void LH_(slots_forget)(LH_Block* b)
{
   UInt i;
   deferred_settle();        /* b's queued accesses, if any, while it lives */
   if (!b->slotted) return;
   b->slotted = 0;
   if (filled_slots_overflow) {
      LH_(slots_new_epoch)();
      return;
   }
   for (i = 0; i < n_filled_slots; ) {
      AccessSlot* slot = filled_slots[i];
      if (slot->block == b && slot->epoch == LH_(slot_epoch)) {
         if (slot->repeats != 0) LH_(slot_repeats_flush)(slot);
         slot->repeat_key = 0;
         slot->part_room = 0;
         slot->epoch = 0;          /* never a good epoch */
         slot->filled = False;
         filled_slots[i] = filled_slots[--n_filled_slots];
      } else {
         i++;
      }
   }
   for (i = 0; i < 2; i++)
      if (LH_(runs)[i].block == b && LH_(runs)[i].epoch == LH_(slot_epoch)) {
         run_end(&LH_(runs)[i]);
         LH_(runs)[i].epoch = 0;
      }
}

void LH_(slots_check_overlap)(void)
{
   if (LH_(shadow_overlap_seen)) LH_(slots_new_epoch)();
}

/* Puts block b (just accessed, so its map exists) in the slot, armed with
   the part the access fell in when the map has parts (a per-offset map
   counts byte by byte: never armed). */
void LH_(slot_fill)(AccessSlot* slot, LH_Block* b, Bool is_write)
{
   const LH_SiteMap* m = b->access.map;
   UWord bit = is_write ? LH_ACCESS_SLOTS + (UWord)(slot - LH_(write_slots))
                        : (UWord)(slot - LH_(read_slots));   /* slot_at's table */
   slots_ever_filled[bit / 64] |= (ULong)1 << (bit % 64);
   deferred_settle();        /* the set-bit counts up to date */
   slot_repeat_set(slot, 0);
   slot->lo = b->payload;
   slot->size = b->req_size;
   slot->epoch = LH_(slot_epoch);
   slot->block = b;
   slot->by_parts = m->kind == LH_MAP_BUCKETS;
   if (slot->by_parts) slot->counts = LH_(map_counts)(m, is_write);
   else slot->bytes_map = (LH_SiteMap*)m;
   slot->inv_size = b->req_size > 0 ? 1.0 / (double)b->req_size : 0.0;
   slot->saturated = (is_write ? b->access.written_bytes_set
                               : b->access.read_bytes_set) == b->req_size;
   slot->part_room = 0;
   slot->part_hi = 0;
   slot->chunk = NULL;
   slot->chunk_lo = ~(Addr)0;
   slot->granules = slot->saturated ? NULL
                    : LH_(shadow_shared_granules)(b->payload, b->payload + b->req_size);
   if (slot->by_parts) {
      const LH_PartCache* cache = LH_(map_part_cache)((LH_SiteMap*)m);
      if (cache->block == b) slot_arm(slot, cache->index, cache->lo, cache->hi);
   }
   b->slotted = 1;
   slot_note_filled(slot);
}
