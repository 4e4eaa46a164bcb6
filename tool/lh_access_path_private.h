/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_access_path_private.h: what the access path's   ---*/
/*--- three files share.                                           ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   lh_access_path.c     the helpers the generated code calls, their fast
                        checks, the slot's block and the slow way, the
                        kernel's accesses during system calls
   lh_access_slots.c    the access slots: what each holds, their epoch,
                        a freed block taken out of them
   lh_access_pending.c  accesses counted later: the queue of rereads
                        and the runs

   The state of all three and the short functions the hot path calls
   without a call (filling a run, a repeat key, arming a slot, queueing
   an access) are here, static inline, so that splitting the path into
   files costs the generated code's helpers no call they did not make.
*/
#ifndef LH_ACCESS_PATH_PRIVATE_H
#define LH_ACCESS_PATH_PRIVATE_H

#include "pub_tool_basics.h"
#include "lh_include.h"
#include "lh_shadow.h"
#include "lh_access_private.h"

/*--- The access slots (lh_access_slots.c) ----------------------------*/

#define MAX_ARMED_SLOTS 1024
/* The fields of the fast checks (the repeatable access, the armed
   part) fill the first cache line; the rest is read only inside the
   slot's block or the ordinary way. */
typedef struct {
   /* the repeatable access: address | size << 48 (0: none), good while
      epoch == LH_(slot_epoch), and its pending repeats */
   ULong     repeat_key;
   ULong     epoch;          /* the block is good while epoch == LH_(slot_epoch) */
   LH_Block* block;
   ULong     repeats;
   /* armed: the part [part_base, part_base + part_room) of the block and
      its count; part_room 0 = not armed */
   Addr      part_base;
   UWord     part_room;
   ULong*    part_count;
   Addr      lo;             /* the block's first byte */
   /* second line */
   UWord     size;           /* 0 = empty slot */
   union {
      ULong*  counts;        /* a map of parts: its reads or writes */
      LH_SiteMap* bytes_map; /* a per-offset map (its counts may move:
                                LH_(map_bytes_add)) */
   };
   double    inv_size;       /* 1.0 / size */
   /* until saturated: the 64 KiB shadow chunk the last access fell in,
      when it keeps its bits in arrays (a solo chunk, the block's alone,
      or a medium one's pages, shared with a few blocks; lh_shadow.c)
      (chunk_lo: its first byte) */
   Addr      chunk_lo;
   LH_SoloChunk* chunk;
   /* a small block's granules, when they lie in one shared chunk: the
      granule of byte lo is granules[0] (NULL: look them up) */
   LH_Granule* granules;
   /* the map part the last access fell in, armed or not: offsets
      [part_lo, part_hi) of the block, part part_index (part_hi 0: none) */
   SizeT     part_lo, part_hi;
   UWord     part_index;
   Bool      by_parts;       /* the map has parts (not per offset) */
   Bool      saturated;      /* every byte's bit of this slot's kind set */
   Bool      armed;          /* in the armed list (armed for its current
                                block only while part_room != 0) */
   Bool      filled;         /* in the filled list (filled this epoch) */
   /* the last block met the slow way: it takes the slot if it comes
      again next (may be stale: only compared, never used) */
   const LH_Block* candidate;
} __attribute__((aligned(64))) AccessSlot;

/* Sizes up to this can be repeat keys (address | size << 48). */
#define REPEAT_MAX_SIZE 0xFFFF

extern AccessSlot LH_(read_slots)[LH_ACCESS_SLOTS];
extern AccessSlot LH_(write_slots)[LH_ACCESS_SLOTS];
/* A slot's block is good while its epoch equals this one. */
extern ULong LH_(slot_epoch);
/* The armed slots (at most MAX_ARMED_SLOTS), disarmed when the epoch
   moves. */
extern AccessSlot* LH_(armed_slots)[MAX_ARMED_SLOTS];
extern UInt LH_(n_armed_slots);

static inline AccessSlot* slot_at(UWord index, Bool is_write)
{
   return is_write ? &LH_(write_slots)[index & (LH_ACCESS_SLOTS - 1)]
                   : &LH_(read_slots)[index & (LH_ACCESS_SLOTS - 1)];
}

/* Adds the slot's pending repeats to the counters of its repeatable
   access (lh_access_slots.c). */
void LH_(slot_repeats_flush)(AccessSlot* slot);

/* Puts block b (just accessed, so its map exists) in the slot. */
void LH_(slot_fill)(AccessSlot* slot, LH_Block* b, Bool is_write);

/*--- Accesses counted later (lh_access_pending.c) ------------------*/

#define MAX_DEFERRED 32
typedef struct {
   Addr      a;
   ULong     time;           /* LH_(now) at the access */
   LH_Block* block;
   UInt      size;
   UShort    newly;          /* bits the access set (its block's count) */
   Bool      is_write;
} DeferredAccess;

extern DeferredAccess LH_(deferred)[MAX_DEFERRED];
extern UInt LH_(n_deferred);

/* Counts the queued accesses into their blocks and maps. */
void LH_(deferred_flush)(void);

static inline void deferred_settle(void)
{
   if (LH_(n_deferred) != 0) LH_(deferred_flush)();
}

/* Queues the access of [a, a+n) of block b, which set 'newly' bits
   (see above). */
static inline void deferred_add(Addr a, UWord n, Bool is_write, LH_Block* b,
                                UInt newly)
{
   DeferredAccess* d = &LH_(deferred)[LH_(n_deferred)];
   d->a = a;
   d->time = LH_(now);
   d->block = b;
   d->size = (UInt)n;
   d->newly = (UShort)newly;
   d->is_write = is_write;
   /* a record's payload, size, map and last-access time share a line
      (records are 96 bytes from a line's start: each starts at 0 or 32 of
      a line); the written high-water mark and the set-bit counts may be
      on the next */
   __builtin_prefetch(b, 1);
   if (is_write || newly != 0)
      __builtin_prefetch((const char*)&b->access.written_bytes_set, 1);
   if (++LH_(n_deferred) == MAX_DEFERRED) LH_(deferred_flush)();
}

/* The last run of each kind: [start, end) of a small block (at
   [lo, lo + size), its granules from granules[0]) whose bytes are not yet
   in the block's bits, set-bit count and written high-water mark nor in
   its site map (run_flush puts them there); good for new accesses while
   epoch is LH_(slot_epoch) (end 0: none). */
typedef struct {
   Addr      end;
   ULong     epoch;
   Addr      limit;          /* lo + size */
   Addr      lo;
   SizeT     size;
   /* where the block's bits are: its granules in a shared chunk, else
      (granules NULL) the arrays of chunk, whose first byte is chunk_lo */
   LH_Granule* granules;
   LH_SoloChunk* chunk;
   Addr      chunk_lo;
   LH_Block* block;
   Addr      start;
   ULong*    counts;         /* a map of parts: its reads or writes */
   LH_SiteMap* map;
   Bool      by_parts;
   Bool      is_write;
} AccessRun;

extern AccessRun LH_(runs)[2];    /* reads, writes */

/* Puts the run's bytes in its block's bits and its map, and starts it
   again at its end. */
void LH_(run_flush)(AccessRun* run);

/* The run's accesses go into the map; no run any more. */
static inline void run_end(AccessRun* run)
{
   if (run->end != run->start) LH_(run_flush)(run);
   run->end = run->start = 0;
}

/* Set when a slot gets a repeat key or a run; LH_(slots_flush_repeats)
   clears it with every key and run, so that no slot gathers repeats or
   a run it does not see. */
extern Bool LH_(repeat_keys_set);

/* The slot just counted an access that ended at 'next' the ordinary way:
   the run of its kind so far goes into the map, and a new one starts at
   'next' when the slot holds where all of its block's bits are: its
   granules in a shared chunk, or a chunk's bits the whole block lies in
   (a block of a few KiB in a medium chunk). */
static inline void run_start(AccessRun* run, const AccessSlot* slot, Addr next)
{
   if (run->end != run->start) LH_(run_flush)(run);
   if (slot->granules == NULL
       && (slot->chunk == NULL
           || slot->lo - slot->chunk_lo >= ((Addr)1 << LH_CHUNK_SHIFT)
           || slot->size > ((Addr)1 << LH_CHUNK_SHIFT) - (slot->lo - slot->chunk_lo))) {
      run->end = run->start = 0;
      return;
   }
   run->chunk = slot->chunk;
   run->chunk_lo = slot->chunk_lo;
   run->end = run->start = next;
   run->lo = slot->lo;
   run->size = slot->size;
   run->limit = slot->lo + slot->size;
   run->granules = slot->granules;
   run->block = slot->block;
   run->epoch = LH_(slot_epoch);
   run->counts = slot->counts;
   run->map = slot->block->access.map;
   run->by_parts = slot->by_parts;
   run->is_write = run == &LH_(runs)[1];
   LH_(repeat_keys_set) = True;
}

/* The slot just counted an access that set no new bit, in one part (or
   a per-offset map): that access becomes its repeatable one (key 0:
   none; repeat_key_of).  A key stays good while the slot's epoch does:
   its bytes' bits stay set and its counters stay the same. */
static inline void slot_repeat_set(AccessSlot* slot, ULong key)
{
   if (UNLIKELY(slot->repeats != 0)) LH_(slot_repeats_flush)(slot);
   slot->repeat_key = key;
   LH_(repeat_keys_set) = True;
}

static inline ULong repeat_key_of(Addr a, UWord n)
{
   return n <= REPEAT_MAX_SIZE ? (ULong)a | ((ULong)n << 48) : 0;
}

/* Arms the slot with part j, [lo, hi) of its block, when its block is
   saturated and the armed list has room. */
static inline void slot_arm(AccessSlot* slot, UWord j, SizeT lo, SizeT hi)
{
   slot->part_lo = lo;
   slot->part_hi = hi;
   slot->part_index = j;
   if (!slot->saturated) return;
   if (!slot->armed) {
      if (LH_(n_armed_slots) == MAX_ARMED_SLOTS) return;
      slot->armed = True;
      LH_(armed_slots)[LH_(n_armed_slots)++] = slot;
   }
   slot->part_base = slot->lo + lo;
   slot->part_room = hi - lo;
   slot->part_count = &slot->counts[j];
}

/* Block b was just accessed the slow way through the slot (first_touch:
   it is the block's first access).  A block the slot already holds may
   have become saturated; another one takes the slot only when it comes
   twice in a row (its candidate), so code that hops between many blocks
   (a B-tree's pages) does not refill its slots at every access.  One
   exception: a new block's first access through a slot that holds no
   good block (empty, or its epoch passed: a freed block was slotted) takes
   it at once, since it replaces nothing, and the code that touches a new
   block first is mostly a loop filling it (without this, each block a
   loop fills takes two slow trips before its slot is filled). */
static inline void slot_note_block(AccessSlot* slot, LH_Block* b, Bool is_write,
                                   Bool first_touch)
{
   if (slot->epoch == LH_(slot_epoch)) {
      if (slot->block == b) {
         if (!slot->saturated
             && (is_write ? b->access.written_bytes_set
                          : b->access.read_bytes_set) == b->req_size)
            LH_(slot_fill)(slot, b, is_write);
         return;
      }
   } else if (first_touch) {
      LH_(slot_fill)(slot, b, is_write);
      return;
   }
   if (slot->candidate == b) LH_(slot_fill)(slot, b, is_write);
   else slot->candidate = b;
}

#endif
