/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_small_alloc.c: the program's blocks of up to    ---*/
/*--- 256 bytes, from runs of one size.                            ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   Most programs make most of their allocations small (tree nodes,
   strings, boxed values), and Valgrind's general client allocator spends
   more on each of them than lifeheap's whole bookkeeping: it searches
   free lists, splits and merges neighbours.  A small request here takes a
   slot of its size class instead:

      class c (1..16) = slots of 16 * c bytes; a request of n bytes
                        (n <= 256) takes class ceil(max(n, 1) / 16)

      per class:  free slots  [a stack of addresses, in the tool's memory]
                  fresh run   [bump .. bump_end) of slots never used yet

   An allocation pops the last freed slot of its class (so memory just
   freed is reused first, as with glibc's per-size lists), else takes the
   next slot of the fresh run, else a new run.  A free pushes the slot.
   The free slots are kept apart from the program's memory, so a write to
   freed memory cannot corrupt them.  Slots are 16-aligned and multiples
   of 16 bytes, so two live blocks never share a 16-byte granule
   (lh_shadow.c relies on that).

   Runs.  Memory comes from Valgrind's client arena in chunks of 64 KiB.
   A class's first run is 1 KiB and each next one twice its last, all
   cut one after the other from one shared chunk (a new one when the
   shared chunk cannot hold a slot of the class any more; a run is cut
   shorter when what is left of the chunk is less than the run's size),
   until a run would be 64 KiB: from then on each run of the class is a
   whole chunk of its own.  So a class the program uses for a few blocks
   costs a few KiB, not a chunk, and the first slots of all sixteen
   classes lie within one chunk: the shadow map keeps a 32 KiB shared
   chunk for each 64 KiB stretch of the address space that holds small
   blocks (lh_shadow.c), so a program with a few live blocks of many sizes
   (a thread pipeline's messages: handoff) pays for one or two stretches
   instead of sixteen.  A class in steady use reaches whole chunks after
   six runs (63 KiB), as before.

      shared chunk:  | c3 1K | c7 1K | c3 2K | c1 1K | c3 4K | ...  | free |
                                                          cursor ^

   Cost: a freed slot is reused only by its own class, and chunks are
   never given back, so a program that frees a million 32-byte blocks and
   then allocates 48-byte ones needs new memory for them (documented in
   docs/metrics.md).  Requests with an alignment over 16 and bigger ones go
   to Valgrind's allocator as before.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_replacemalloc.h"
#include "lh_include.h"

#define SLOT_STEP   16
#define N_CLASSES   (LH_SMALL_MAX_BYTES / SLOT_STEP)
#define CHUNK_BYTES ((SizeT)64 * 1024)
#define FIRST_RUN_BYTES ((SizeT)1024)
/* The first capacity of a class's free-slot stack (then doubled). */
#define FIRST_FREE_SLOTS 32

typedef struct {
   Addr* free_slots;
   UInt  n_free;
   UInt  capacity;
   Addr  bump;         /* next fresh slot */
   Addr  bump_end;     /* end of the fresh run */
   SizeT next_run;     /* bytes of the class's next run (0: none yet) */
} SizeClass;

static SizeClass classes[N_CLASSES];

/* The chunk the classes' short runs are cut from: [cursor, end). */
static Addr shared_cursor = 0;
static Addr shared_end = 0;

UInt LH_(small_class_of)(SizeT size, SizeT align)
{
   if (size > LH_SMALL_MAX_BYTES || align > SLOT_STEP) return 0;
   return size == 0 ? 1 : (UInt)((size + SLOT_STEP - 1) / SLOT_STEP);
}

SizeT LH_(small_class_bytes)(UInt small_class)
{
   return (SizeT)small_class * SLOT_STEP;
}

/* Gives class c a new fresh run of slots of 'bytes' bytes; False when
   the client arena is out of memory. */
static Bool new_run(SizeClass* c, SizeT bytes)
{
   SizeT run = c->next_run == 0 ? FIRST_RUN_BYTES : c->next_run;
   if (run >= CHUNK_BYTES) {
      void* chunk = VG_(cli_malloc)(SLOT_STEP, CHUNK_BYTES);
      if (chunk == NULL) return False;
      c->bump = (Addr)chunk;
      c->bump_end = c->bump + CHUNK_BYTES;
      c->next_run = CHUNK_BYTES;
      return True;
   }
   if (shared_end - shared_cursor < bytes) {
      void* chunk = VG_(cli_malloc)(SLOT_STEP, CHUNK_BYTES);
      if (chunk == NULL) return False;
      shared_cursor = (Addr)chunk;
      shared_end = shared_cursor + CHUNK_BYTES;
   }
   if (run > shared_end - shared_cursor) run = shared_end - shared_cursor;
   c->bump = shared_cursor;
   c->bump_end = shared_cursor + run;
   shared_cursor += run;
   c->next_run = (c->next_run == 0 ? FIRST_RUN_BYTES : c->next_run) * 2;
   return True;
}

void* LH_(small_alloc)(UInt small_class)
{
   SizeClass* c = &classes[small_class - 1];
   SizeT bytes = LH_(small_class_bytes)(small_class);
   Addr slot;
   tl_assert(small_class >= 1 && small_class <= N_CLASSES);
   if (c->n_free > 0)
      return (void*)c->free_slots[--c->n_free];
   if (c->bump_end - c->bump < bytes && !new_run(c, bytes))
      return NULL;
   slot = c->bump;
   c->bump += bytes;
   return (void*)slot;
}

void LH_(small_free)(void* p, UInt small_class)
{
   SizeClass* c = &classes[small_class - 1];
   tl_assert(small_class >= 1 && small_class <= N_CLASSES);
   if (c->n_free == c->capacity) {
      UInt capacity = c->capacity == 0 ? FIRST_FREE_SLOTS : 2 * c->capacity;
      tl_assert(capacity > c->capacity);
      c->free_slots = VG_(realloc)("lh.small.free_slots", c->free_slots,
                                   capacity * sizeof(Addr));
      c->capacity = capacity;
   }
   c->free_slots[c->n_free++] = (Addr)p;
}
