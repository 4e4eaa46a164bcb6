/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_access_path.c: the access path, from the generated code's ---*/
/*--- helper calls to the block's bits and its site's map.         ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   Every load and store that passes the inline heap filter calls one of
   the LH_(note_*) helpers (lh_instrument.c); the kernel's reads and
   writes during syscalls arrive through the core's pre_mem_read and
   post_mem_write events.  Each access finds its block (an access slot, or
   the shadow map of lh_shadow.c), sets the bytes' read or written bits,
   and adds to the block's times and high-water mark and to its site's map
   (lh_access_map.c); a reread of a block met at random waits in a short
   queue, so that its block's record is fetched while the program goes on
   ("Accesses counted later").  lh_access.c folds the blocks into their
   sites.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_tooliface.h"
#include "lh_include.h"
#include "lh_shadow.h"
#include "lh_access_private.h"

/*------------------------------------------------------------*/
/*--- The hot path: one access                             ---*/
/*------------------------------------------------------------*/

/* The access slots: a cache of "which block, and which part of its
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

   A loop that walks a small block forward (filling a message body,
   summing a string) makes a run: each access starts where the last one
   ended (so does one in a block of a few KiB whose bits are in one
   medium chunk's pages, lh_shadow_medium.c).  The last read run and the last write run are kept beside the
   slots (one of each: Valgrind may unroll a loop into several events,
   hence several slots, that take turns along the same bytes).  An
   access at a run's end only moves the end on and sets the block's
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

   Order of the checks.  Each call tries, without a further call, the
   slot's repeat key, then the run of its kind, then the slot's armed
   part, then the rest of its armed block (note_fast): the commonest
   hits first (a field reread, a byte loop), and each counts the access
   exactly as the ordinary way would, so the order changes speed, never
   a figure.  Only a miss calls on (note_access_unarmed: the slot's block,
   else the slow way).  These checks are made in the helper, not in the
   generated code (lh_instrument.c says why). */

LH_AccessPathStats LH_(access_path_stats);   /* --stats=yes */
#define MAX_ARMED_SLOTS 1024
/* The fields of the fast checks (the repeatable access, the armed
   part) fill the first cache line; the rest is read only inside the
   slot's block or the ordinary way. */
typedef struct {
   /* the repeatable access: address | size << 48 (0: none), good while
      epoch == slot_epoch, and its pending repeats */
   ULong     repeat_key;
   ULong     epoch;          /* the block is good while epoch == slot_epoch */
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

static AccessSlot read_slots[LH_ACCESS_SLOTS];
static AccessSlot write_slots[LH_ACCESS_SLOTS];
/* Bit i (read slot i; write slot i - LH_ACCESS_SLOTS): has held a block.
   LH_(slots_flush_repeats) visits only these, not all 384 KiB of slots. */
static ULong slots_ever_filled[2 * LH_ACCESS_SLOTS / 64];
static ULong slot_epoch = 1;
static AccessSlot* armed_slots[MAX_ARMED_SLOTS];
static UInt n_armed_slots = 0;

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

static inline AccessSlot* slot_at(UWord index, Bool is_write)
{
   return is_write ? &write_slots[index & (LH_ACCESS_SLOTS - 1)]
                   : &read_slots[index & (LH_ACCESS_SLOTS - 1)];
}

/* Adds the slot's pending repeats to the counters of its repeatable
   access: its parts' (each by its bytes in the part) or its bytes'.  The
   slot still describes the block of that access: a slot takes another
   block only after a flush (slot_fill). */
static __attribute__((noinline)) void slot_repeats_flush(AccessSlot* slot)
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
      Bool is_write = (Addr)slot - (Addr)write_slots < sizeof(write_slots);
      LH_(map_bytes_add)(slot->bytes_map, is_write, offset, n, slot->repeats);
   }
   slot->repeats = 0;
}

/* Accesses counted later.  A random read of many live blocks (a hash
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
   wrong), and slot_fill counts the queue first.  The queue is counted before
   anything reads or moves those: before the maps are read or change
   layout (LH_(slots_flush_repeats)), before anything outside the access
   path reads a block's access state (LH_(access_settle)), and before a
   block is freed or resized (LH_(slots_forget), and LH_(access_settle)
   from lh_access.c before a block's payload can move), so that a queued
   access's block is always the live block it was made by. */
#define MAX_DEFERRED 32
typedef struct {
   Addr      a;
   ULong     time;           /* LH_(now) at the access */
   LH_Block* block;
   UInt      size;
   UShort    newly;          /* bits the access set (its block's count) */
   Bool      is_write;
} DeferredAccess;

static DeferredAccess deferred[MAX_DEFERRED];
#define DEFERRED_MAP_AHEAD 8
static UInt n_deferred = 0;

/* Counts the queued accesses into their blocks and maps. */
static __attribute__((noinline)) void deferred_flush(void)
{
   UInt i;
   for (i = 0; i < n_deferred; i++) {
      const DeferredAccess* d = &deferred[i];
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
   n_deferred = 0;
}

static inline void deferred_settle(void)
{
   if (n_deferred != 0) deferred_flush();
}

/* Queues the access of [a, a+n) of block b, which set 'newly' bits
   (see above). */
static inline void deferred_add(Addr a, UWord n, Bool is_write, LH_Block* b,
                                UInt newly)
{
   DeferredAccess* d = &deferred[n_deferred];
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
   /* the map of the access queued DEFERRED_MAP_AHEAD before, whose record
      has arrived by now: its header and the line of its count if its
      counts are 2-byte ones in place (a hint; the maps of thousands of
      sites are mostly not in cache) */
   if (n_deferred >= DEFERRED_MAP_AHEAD) {
      const DeferredAccess* e = &deferred[n_deferred - DEFERRED_MAP_AHEAD];
      const LH_SiteMap* m = e->block->access.map;
      __builtin_prefetch(m, 1);
      __builtin_prefetch((const UChar*)m->counts + 2 * (e->a - e->block->payload), 1);
   }
   if (++n_deferred == MAX_DEFERRED) deferred_flush();
}

/* The last run of each kind: [start, end) of a small block (at
   [lo, lo + size), its granules from granules[0]) whose bytes are not yet
   in the block's bits, set-bit count and written high-water mark nor in
   its site map (run_flush puts them there); good for new accesses while
   epoch is slot_epoch (end 0: none). */
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

static AccessRun runs[2];    /* reads, writes */

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
static __attribute__((noinline)) void run_flush(AccessRun* run)
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

/* The run's accesses go into the map; no run any more. */
static inline void run_end(AccessRun* run)
{
   if (run->end != run->start) run_flush(run);
   run->end = run->start = 0;
}

/* Puts both runs' pending bytes into their blocks and maps (the runs
   go on): before anything outside the access path reads a live block's
   bits, set-bit counts or written high-water mark. */
void LH_(access_settle)(void)
{
   deferred_settle();
   if (runs[0].end != runs[0].start) run_flush(&runs[0]);
   if (runs[1].end != runs[1].start) run_flush(&runs[1]);
}

/* Set when a slot gets a repeat key or a run; LH_(slots_flush_repeats)
   clears it with every key and run, so that no slot gathers repeats or
   a run it does not see. */
static Bool repeat_keys_set = False;

/* The slot just counted an access that ended at 'next' the ordinary way:
   the run of its kind so far goes into the map, and a new one starts at
   'next' when the slot holds where all of its block's bits are: its
   granules in a shared chunk, or a chunk's bits the whole block lies in
   (a block of a few KiB in a medium chunk). */
static inline void run_start(AccessRun* run, const AccessSlot* slot, Addr next)
{
   if (run->end != run->start) run_flush(run);
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
   run->epoch = slot_epoch;
   run->counts = slot->counts;
   run->map = slot->block->access.map;
   run->by_parts = slot->by_parts;
   run->is_write = run == &runs[1];
   repeat_keys_set = True;
}

/* The slot just counted an access that set no new bit, in one part (or
   a per-offset map): that access becomes its repeatable one (key 0:
   none; repeat_key_of).  A key stays good while the slot's epoch does:
   its bytes' bits stay set and its counters stay the same. */
static inline void slot_repeat_set(AccessSlot* slot, ULong key)
{
   if (UNLIKELY(slot->repeats != 0)) slot_repeats_flush(slot);
   slot->repeat_key = key;
   repeat_keys_set = True;
}

static inline ULong repeat_key_of(Addr a, UWord n)
{
   return n <= REPEAT_MAX_SIZE ? (ULong)a | ((ULong)n << 48) : 0;
}

void LH_(slots_flush_repeats)(void)
{
   UInt i;
   deferred_settle();
   if (!repeat_keys_set) return;
   for (i = 0; i < 2 * LH_ACCESS_SLOTS; i++) {
      AccessSlot* slot = slot_at(i, i >= LH_ACCESS_SLOTS);
      if (!(slots_ever_filled[i / 64] & ((ULong)1 << (i % 64)))) continue;
      if (slot->repeats != 0) slot_repeats_flush(slot);
      slot->repeat_key = 0;
   }
   run_end(&runs[0]);
   run_end(&runs[1]);
   repeat_keys_set = False;
}

void LH_(slots_new_epoch)(void)
{
   UInt i;
   /* a run's bytes go into its block now: its granules are not trusted
      past the epoch */
   run_end(&runs[0]);
   run_end(&runs[1]);
   for (i = 0; i < n_armed_slots; i++) {
      armed_slots[i]->part_room = 0;
      armed_slots[i]->armed = False;
   }
   n_armed_slots = 0;
   for (i = 0; i < n_filled_slots; i++) filled_slots[i]->filled = False;
   n_filled_slots = 0;
   filled_slots_overflow = False;
   slot_epoch++;
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
      if (slot->block == b && slot->epoch == slot_epoch) {
         if (slot->repeats != 0) slot_repeats_flush(slot);
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
      if (runs[i].block == b && runs[i].epoch == slot_epoch) {
         run_end(&runs[i]);
         runs[i].epoch = 0;
      }
}

void LH_(slots_check_overlap)(void)
{
   if (LH_(shadow_overlap_seen)) LH_(slots_new_epoch)();
}

/* Sets the bits of [s, e), all inside block b, granule by granule, and
   keeps the block's set-bit counts.  ref is s's granule. */
static inline __attribute__((always_inline))
void mark_bits(LH_BlockAccess* ba, Addr s, Addr e, Bool is_write,
               LH_GranuleRef* ref)
{
   Addr g = s;
   UInt newly = 0;
   for (;;) {
      Addr stop = LH_(granule_stop)(g, e);
      UShort mask = LH_(granule_mask)(g, stop);
      newly += LH_(shadow_mark)(ref, is_write, mask, (UInt)(stop - g));
      if (stop >= e) break;
      g = stop;
      if (!LH_(shadow_lookup)(g, ref)) break;   /* cannot happen */
   }
   if (newly != 0) {
      if (is_write) ba->written_bytes_set += newly;
      else ba->read_bytes_set += newly;
   }
}

/* The high-water mark, times and map of n bytes at 'offset' of block b.
   (A site's read and written byte counts are the sums of its map.) */
static inline __attribute__((always_inline))
void count_access(LH_Block* b, SizeT offset, UWord n, Bool is_write)
{
   LH_BlockAccess* ba = &b->access;
   if (is_write && offset + n > ba->written_high_water)
      ba->written_high_water = offset + n;
   if (UNLIKELY(ba->map == NULL)) {
      ba->first_access_time = LH_(now);
      ba->map = LH_(site_map)(&b->site->access);
   }
   ba->last_access_time = LH_(now);
   map_add(ba->map, b, offset, n, b->req_size, is_write);
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
      if (n_armed_slots == MAX_ARMED_SLOTS) return;
      slot->armed = True;
      armed_slots[n_armed_slots++] = slot;
   }
   slot->part_base = slot->lo + lo;
   slot->part_room = hi - lo;
   slot->part_count = &slot->counts[j];
}

/* Puts block b (just accessed, so its map exists) in the slot, armed with
   the part the access fell in when the map has parts (a per-offset map
   counts byte by byte: never armed). */
static void slot_fill(AccessSlot* slot, LH_Block* b, Bool is_write)
{
   const LH_SiteMap* m = b->access.map;
   UWord bit = is_write ? LH_ACCESS_SLOTS + (UWord)(slot - write_slots)
                        : (UWord)(slot - read_slots);   /* slot_at's table */
   slots_ever_filled[bit / 64] |= (ULong)1 << (bit % 64);
   deferred_settle();        /* the set-bit counts up to date */
   slot_repeat_set(slot, 0);
   slot->lo = b->payload;
   slot->size = b->req_size;
   slot->epoch = slot_epoch;
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
   if (slot->epoch == slot_epoch) {
      if (slot->block == b) {
         if (!slot->saturated
             && (is_write ? b->access.written_bytes_set
                          : b->access.read_bytes_set) == b->req_size)
            slot_fill(slot, b, is_write);
         return;
      }
   } else if (first_touch) {
      slot_fill(slot, b, is_write);
      return;
   }
   if (slot->candidate == b) slot_fill(slot, b, is_write);
   else slot->candidate = b;
}

/* The access of [a, a+n), all in the granule of ref, can wait in the
   queue of deferred accesses ("Accesses counted later"): every byte of
   it has a bit of either kind set (so it lies inside the block, and is
   not the block's first access), and it would not fill the slot (the
   slot does not hold the block and the block is not the slot's
   candidate; it becomes the candidate here, as slot_note_block makes
   it).  Its bits of its kind are set here when some are not yet, in a
   shared chunk only; *newly: how many.  Not once blocks have overlapped
   (the bits are then not trusted to be one block's). */
static inline Bool deferrable(Addr a, UWord n, Bool is_write,
                              const LH_GranuleRef* ref, AccessSlot* slot,
                              UInt* newly)
{
   UShort mask = (UShort)(((1u << n) - 1) << (a & (LH_GRANULE_SIZE - 1)));
   UShort* own = is_write ? ref->written_bits : ref->read_bits;
   UShort other = is_write ? *ref->read_bits : *ref->written_bits;
   UShort bits = *own;
   const LH_Block* b = ref->block;
   if ((bits & mask) != mask
       && (((bits | other) & mask) != mask || ref->solo != NULL))
      return False;
   if (LH_(shadow_overlap_seen)) return False;
   if ((slot->epoch == slot_epoch && slot->block == b) || slot->candidate == b)
      return False;
   slot->candidate = b;
   if ((bits & mask) == mask) {
      *newly = 0;
   } else {
      *newly = LH_(popcount16)(mask & ~bits);
      *own = bits | mask;
   }
   return True;
}

/* Records the access of [a, a+size) for every live block it touches, and
   puts a big block it touches in 'slot' (NULL: no slot, as for the
   kernel's accesses).  Almost always one granule and one block: a wide or
   misaligned access may cross granules, and bytes outside a block's
   [payload, payload+size) (the allocator's slack in the last granule) are
   not counted. */
static __attribute__((noinline))
void note_access_slow(Addr a, UWord size, Bool is_write, AccessSlot* slot,
                      Bool may_defer)
{
   Addr end = a + size;
   if (slot != NULL) LH_(access_path_stats).slow++;
   while (a < end) {
      Addr granule_end = (a | (LH_GRANULE_SIZE - 1)) + 1;
      LH_GranuleRef ref;
      if (LH_(shadow_lookup)(a, &ref)) {
         /* All of [s, e) is this block's: blocks do not overlap, so the
            high-water mark, times and map are done once for the whole
            stretch, and only the bits go granule by granule. */
         LH_Block* b = ref.block;
         Addr block_end, s, e;
         UInt newly;
         /* (a is past the access's start when its first bytes were
            another block's, or the allocator's slack) */
         if (slot != NULL && may_defer && end <= granule_end
             && deferrable(a, end - a, is_write, &ref, slot, &newly)) {
            deferred_add(a, end - a, is_write, b, newly);
            LH_(access_path_stats).queued++;
            return;
         }
         block_end = b->payload + b->req_size;
         s = a > b->payload ? a : b->payload;
         e = end < block_end ? end : block_end;
         if (LIKELY(s < e)) {
            /* a block's map pointer is set at its first access */
            Bool first_touch = b->access.map == NULL;
            if (s != a && !LH_(shadow_lookup)(s, &ref))
               break;                                /* cannot happen */
            mark_bits(&b->access, s, e, is_write, &ref);
            count_access(b, s - b->payload, e - s, is_write);
            if (slot != NULL && !LH_(shadow_overlap_seen))
               slot_note_block(slot, b, is_write, first_touch);
            a = e > granule_end ? e : granule_end;
            continue;
         }
      }
      a = granule_end;
   }
}

/* Adds newly set bits to the block's count; the slot is saturated once
   every byte's bit of its kind is set. */
static inline void slot_count_newly(AccessSlot* slot, LH_BlockAccess* ba,
                                    UInt newly, Bool is_write)
{
   SizeT set;
   if (newly == 0) return;
   set = is_write ? (ba->written_bytes_set += newly)
                  : (ba->read_bytes_set += newly);
   if (set == slot->size) slot->saturated = True;
}

/* Sets the bits of [a, a+n) inside the slot's (unsaturated) block: through
   the slot's shadow chunk when that keeps its bits in arrays (a solo or
   medium chunk; found again when the access left it), else granule by
   granule through the shadow (a chunk shared by small blocks).  False
   only if the shadow disagrees with the slot, which cannot happen while
   the epoch is good. */
static Bool slot_mark_bits(AccessSlot* slot, Addr a, UWord n, Bool is_write)
{
   LH_Block* b = slot->block;
   LH_BlockAccess* ba = &b->access;
   LH_GranuleRef ref;
   Addr end = a + n;
   UInt newly;
   SizeT set;
   if (slot->granules != NULL) {
      /* a small block in a shared chunk: its granules are at hand */
      ref.block = b;
      ref.solo = NULL;
      newly = LH_(shadow_mark_granules)(&ref, is_write, &slot->granules[0].read_bits,
                            &slot->granules[0].written_bits,
                            sizeof(LH_Granule) / sizeof(UShort),
                            slot->lo & ~(LH_GRANULE_SIZE - 1), a, end);
      slot_count_newly(slot, ba, newly, is_write);
      return True;
   }
   if (a - slot->chunk_lo >= ((Addr)1 << LH_CHUNK_SHIFT)
       || end - 1 - slot->chunk_lo >= ((Addr)1 << LH_CHUNK_SHIFT)) {
      if (!LH_(shadow_lookup)(a, &ref) || ref.block != b)
         return False;                            /* cannot happen */
      if (ref.solo == NULL
          || end - 1 - (a & ~(((Addr)1 << LH_CHUNK_SHIFT) - 1))
             >= ((Addr)1 << LH_CHUNK_SHIFT)) {
         /* a chunk shared by small blocks, or an access across two
            chunks: granule by granule through the shadow */
         mark_bits(ba, a, end, is_write, &ref);
         set = is_write ? ba->written_bytes_set : ba->read_bytes_set;
         if (set == slot->size) slot->saturated = True;
         return True;
      }
      /* every bit may have been set through other slots since this one
         was filled: then it is saturated, with nothing to mark */
      set = is_write ? ba->written_bytes_set : ba->read_bytes_set;
      if (set == slot->size) {
         slot->saturated = True;
         return True;
      }
      slot->chunk = ref.solo;
      slot->chunk_lo = a & ~(((Addr)1 << LH_CHUNK_SHIFT) - 1);
   }
   ref.block = b;
   ref.solo = slot->chunk;
   newly = LH_(shadow_mark_chunk)(&ref, is_write, slot->chunk, slot->chunk_lo, a, end);
   slot_count_newly(slot, ba, newly, is_write);
   return True;
}

/* A loop walking forward through a block leaves its part for one of
   the next few (parts of a block under K bytes have a byte or none):
   found by their ends, a multiplication and a shift each, instead of the
   division of bucket_of_fast.  Part 'from' ends at from_hi <= offset.
   True with the part of 'offset' and its range [*lo, *hi), False when
   it is further on. */
static inline Bool part_after(SizeT offset, SizeT size, UWord from,
                              SizeT from_hi, UWord* j, SizeT* lo, SizeT* hi)
{
   UWord next;
   SizeT next_lo = from_hi;
   for (next = from + 1; next < K && next <= from + 4; next++) {
      SizeT next_hi = (SizeT)(((ULong)(next + 1) * size) / K);
      if (offset < next_hi) {
         *j = next;
         *lo = next_lo;
         *hi = next_hi;
         return True;
      }
      next_lo = next_hi;
   }
   return False;
}

/* An access inside the slot's block (epoch good), outside its armed
   part: counted here without a lookup of the block (and without the bits
   once they are all set), and the slot is armed with its part when it can
   be; else the slow way. */
static __attribute__((noinline))
void note_access_in_slot_block(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   UWord offset = a - slot->lo;
   const LH_BlockAccess* before = &slot->block->access;
   SizeT set_before = is_write ? before->written_bytes_set : before->read_bytes_set;
   LH_(access_path_stats).in_slot_block++;
   if (slot->saturated || slot_mark_bits(slot, a, n, is_write)) {
      LH_Block* b = slot->block;
      LH_BlockAccess* ba = &b->access;
      SizeT set_after = is_write ? ba->written_bytes_set : ba->read_bytes_set;
      /* no bit newly set: the access comes again (a field reread), and
         becomes the slot's repeatable one */
      Bool again = set_after == set_before;
      /* saturated, maybe by another slot (two loads sharing one array's
         reading): armed below, no more calls here */
      if (set_after == slot->size) slot->saturated = True;
      ba->last_access_time = LH_(now);
      run_start(&runs[is_write], slot, a + n);
      if (is_write && offset + n > ba->written_high_water)
         ba->written_high_water = offset + n;
      if (slot->by_parts) {
         SizeT size = slot->size;
         UWord j;
         SizeT lo, hi;
         if (offset >= slot->part_lo && offset < slot->part_hi) {
            j = slot->part_index;           /* a loop still in its part */
            lo = slot->part_lo;
            hi = slot->part_hi;
         } else if (!(slot->part_hi != 0 && offset >= slot->part_hi
                      && part_after(offset, size, slot->part_index,
                                    slot->part_hi, &j, &lo, &hi))) {
            j = bucket_of_fast(offset, size, slot->inv_size);
            lo = (SizeT)(((ULong)j * size) / K);
            hi = (SizeT)(((ULong)(j + 1) * size) / K);
         }
         if (LIKELY(offset + n <= hi)) {
            slot->counts[j] += n;
            slot_arm(slot, j, lo, hi);
            if (again) slot_repeat_set(slot, repeat_key_of(a, n));
            return;
         }
         /* across parts: repeatable too (slot_repeats_flush splits it) */
         if (again) slot_repeat_set(slot, repeat_key_of(a, n));
      } else if (again) {
         slot_repeat_set(slot, repeat_key_of(a, n));
      }
      map_add(ba->map, b, offset, n, slot->size, is_write);
      return;
   }
   note_access_slow(a, n, is_write, slot, True);
}

/* An access outside the slot's block.  The commonest of them by far, a
   reread of one of many blocks (a tree's walk, a table's probes), is
   queued here ("Accesses counted later") with one shadow lookup and no
   more: the slow way, a larger function with the bits, the counts and
   the slot to keep, is called only for the rest (a block's first
   access, an access across granules, outside any block), and does not
   try the queue again. */
static __attribute__((noinline))
void note_access_elsewhere(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   LH_GranuleRef ref;
   UInt newly;
   if (n != 0 && (a & (LH_GRANULE_SIZE - 1)) + n <= LH_GRANULE_SIZE
       && LH_(shadow_lookup)(a, &ref)
       && deferrable(a, n, is_write, &ref, slot, &newly)) {
      LH_(access_path_stats).slow++;
      LH_(access_path_stats).queued++;
      deferred_add(a, n, is_write, ref.block, newly);
      return;
   }
   note_access_slow(a, n, is_write, slot, False);
}

/* An access outside the slot's armed part: in the slot's block, or
   elsewhere. */
static inline __attribute__((always_inline))
void note_access_unarmed(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   UWord offset = a - slot->lo;
   if (offset < slot->size && n <= slot->size - offset
       && slot->epoch == slot_epoch)
      note_access_in_slot_block(a, n, is_write, slot);
   else
      note_access_elsewhere(a, n, is_write, slot);
}

/* The fastest path: an access inside the slot's armed part adds to its
   count and sets the block's last-access time.  False when the access is
   elsewhere. */
static inline __attribute__((always_inline))
Bool note_in_armed_part(AccessSlot* slot, Addr a, UWord n)
{
   UWord in_part = a - slot->part_base;
   if (in_part >= slot->part_room || n > slot->part_room - in_part)
      return False;
   *slot->part_count += n;
   slot->block->access.last_access_time = LH_(now);
   return True;
}

/* An access elsewhere in an armed slot's block (a gather over a big
   array): its part is found, counted and armed here, without a call.
   False when the access is not in the block or straddles two parts. */
static inline __attribute__((always_inline))
Bool note_in_armed_block(AccessSlot* slot, Addr a, UWord n)
{
   UWord offset = a - slot->lo;
   SizeT size = slot->size;
   UWord j;
   SizeT lo, hi;
   /* part_room is not 0 only while the slot is armed for its block */
   if (slot->part_room == 0 || offset >= size || n > size - offset)
      return False;
   j = bucket_of_fast(offset, size, slot->inv_size);
   lo = (SizeT)(((ULong)j * size) / K);
   hi = (SizeT)(((ULong)(j + 1) * size) / K);
   if (offset + n > hi) return False;
   slot->counts[j] += n;
   slot->block->access.last_access_time = LH_(now);
   slot_arm(slot, j, lo, hi);
   return True;
}

/* The slot's repeatable access again (lh_access_path.c's opening
   comment): one more pending repeat and the block's last-access time.
   False for any other access. */
static inline __attribute__((always_inline))
Bool note_repeat(AccessSlot* slot, Addr a, UWord n)
{
   if (((ULong)a | ((ULong)n << 48)) != slot->repeat_key
       || slot->epoch != slot_epoch)
      return False;
   slot->repeats++;
   slot->block->access.last_access_time = LH_(now);
   return True;
}

/* The next access of the run of its kind (lh_access_path.c's opening
   comment): the run's end moves on and the block's last-access time is
   set; its bits, set-bit count, high-water mark and map wait for the
   run's flush.  False for any other access. */
static inline __attribute__((always_inline))
Bool note_in_run(Addr a, UWord n, Bool is_write)
{
   AccessRun* run = &runs[is_write];
   if (a != run->end || run->epoch != slot_epoch || n > run->limit - a)
      return False;
   run->block->access.last_access_time = LH_(now);
   run->end = a + n;
   return True;
}

/* The checks that count an access without a call, commonest first: the
   slot's repeatable access, the next of its run, the slot's armed part,
   elsewhere in its armed block.  Any of them that holds counts the access
   exactly as the ordinary way would (the same counters, bits, times), so
   their order only decides which is tried first.  True when counted. */
static inline __attribute__((always_inline))
Bool note_fast(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   return note_repeat(slot, a, n) || note_in_run(a, n, is_write)
          || note_in_armed_part(slot, a, n) || note_in_armed_block(slot, a, n);
}

/* One access, when filtered (the address may be in the heap): the fast
   checks, else the slot's block or the slow way. */
static inline __attribute__((always_inline))
void note_access(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   if (LIKELY(note_fast(a, n, is_write, slot))) return;
   note_access_unarmed(a, n, is_write, slot);
}

/* 'packed' is size | slot index << 32 (lh_instrument.c).  The helpers
   only do the fast checks themselves and leave the rest to a function
   called last, so that their common case saves no registers. */
static __attribute__((noinline))
void note_read_rest(Addr a, UWord packed)
{
   note_access_unarmed(a, packed & 0xFFFFFFFFul, False, slot_at(packed >> 32, False));
}

static __attribute__((noinline))
void note_write_rest(Addr a, UWord packed)
{
   note_access_unarmed(a, packed & 0xFFFFFFFFul, True, slot_at(packed >> 32, True));
}

VG_REGPARM(2) void LH_(note_read)(Addr a, UWord packed)
{
   if (LIKELY(note_fast(a, packed & 0xFFFFFFFFul, False, slot_at(packed >> 32, False))))
      return;
   note_read_rest(a, packed);
}

VG_REGPARM(2) void LH_(note_write)(Addr a, UWord packed)
{
   if (LIKELY(note_fast(a, packed & 0xFFFFFFFFul, True, slot_at(packed >> 32, True))))
      return;
   note_write_rest(a, packed);
}

/* Two accesses of one stretch in one call (lh_instrument.c pairs them):
   'packed' is size1 | size2 << 8 | slot1 << 16 | slot2 << 40.  The
   generated code calls when either address may be in the heap, so each is
   filtered again (after its fast checks: an armed part, a run or a
   repeatable access is in the heap). */
static inline __attribute__((always_inline))
void note_filtered(Addr a, UWord n, Bool is_write, UWord slot_index)
{
   AccessSlot* slot = slot_at(slot_index, is_write);
   if (LIKELY(note_fast(a, n, is_write, slot))) return;
   if (a - LH_(filter_base) < LH_(filter_span))
      note_access_unarmed(a, n, is_write, slot);
}

/* The rest of an access whose fast checks missed (note_pair made them,
   and nothing has changed since), when its address may be in the heap. */
static inline __attribute__((always_inline))
void note_filtered_unarmed(Addr a, UWord n, Bool is_write, UWord slot_index)
{
   if (a - LH_(filter_base) < LH_(filter_span))
      note_access_unarmed(a, n, is_write, slot_at(slot_index, is_write));
}

/* The pair when the first access is counted already (first_done) or
   either missed its fast check.  note_pair made the first's checks, and
   the second's when the first was counted: a check that missed there
   is not made again.  When the first missed, the second's checks are
   made here, after the first access is counted, so the two are counted
   in program order. */
static __attribute__((noinline))
void note_pair_rest(Addr a1, Addr a2, UWord packed, Bool first_write,
                    Bool second_write, Bool first_done)
{
   if (first_done) {
      note_filtered_unarmed(a2, (packed >> 8) & 0xFF, second_write, packed >> 40);
      return;
   }
   note_filtered_unarmed(a1, packed & 0xFF, first_write, packed >> 16);
   note_filtered(a2, (packed >> 8) & 0xFF, second_write, packed >> 40);
}

static inline __attribute__((always_inline))
void note_pair(Addr a1, Addr a2, UWord packed, Bool first_write, Bool second_write)
{
   Bool first_done = note_fast(a1, packed & 0xFF, first_write,
                               slot_at(packed >> 16, first_write));
   if (LIKELY(first_done)
       && LIKELY(note_fast(a2, (packed >> 8) & 0xFF, second_write,
                           slot_at(packed >> 40, second_write))))
      return;
   note_pair_rest(a1, a2, packed, first_write, second_write, first_done);
}

VG_REGPARM(3) void LH_(note_read_read)(Addr a1, Addr a2, UWord packed)
{
   note_pair(a1, a2, packed, False, False);
}

VG_REGPARM(3) void LH_(note_read_write)(Addr a1, Addr a2, UWord packed)
{
   note_pair(a1, a2, packed, False, True);
}

VG_REGPARM(3) void LH_(note_write_write)(Addr a1, Addr a2, UWord packed)
{
   note_pair(a1, a2, packed, True, True);
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
   if (is_program_part(part) && size > 0) note_access_slow(a, size, False, NULL, False);
}

static void syscall_reads_string(CorePart part, ThreadId tid, const HChar* what,
                                 Addr str)
{
   /* The string and its terminating NUL; the core has checked that it is
      readable before calling us. */
   if (is_program_part(part))
      note_access_slow(str, VG_(strlen)((const HChar*)str) + 1, False, NULL, False);
}

/* Writes are counted after the call, with the size the kernel actually
   wrote (read() returning 10 for a 4096-byte request writes 10 bytes).
   The pre_mem_write event announces the most the call MAY write and is
   ignored. */
static void syscall_wrote(CorePart part, ThreadId tid, Addr a, SizeT size)
{
   if (is_program_part(part) && size > 0) note_access_slow(a, size, True, NULL, False);
}

void LH_(access_path_init)(void)
{
   VG_(track_pre_mem_read)(syscall_reads);
   VG_(track_pre_mem_read_asciiz)(syscall_reads_string);
   VG_(track_post_mem_write)(syscall_wrote);
}
