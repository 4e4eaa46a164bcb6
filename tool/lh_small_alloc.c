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
                  fresh run   [bump .. bump_end) of a 64 KiB chunk taken
                              from Valgrind's client arena

   An allocation pops the last freed slot of its class (so memory just
   freed is reused first, as with glibc's per-size lists), else takes the
   next slot of the fresh run, else a new chunk.  A free pushes the slot.
   The free slots are kept apart from the program's memory, so a write to
   freed memory cannot corrupt them.  Slots are 16-aligned and multiples
   of 16 bytes, so two live blocks never share a 16-byte granule
   (lh_shadow.c relies on that).

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

typedef struct {
   Addr* free_slots;
   UInt  n_free;
   UInt  capacity;
   Addr  bump;         /* next fresh slot */
   Addr  bump_end;     /* end of the fresh run */
} SizeClass;

static SizeClass classes[N_CLASSES];

UInt LH_(small_class_of)(SizeT size, SizeT align)
{
   if (size > LH_SMALL_MAX_BYTES || align > SLOT_STEP) return 0;
   return size == 0 ? 1 : (UInt)((size + SLOT_STEP - 1) / SLOT_STEP);
}

SizeT LH_(small_class_bytes)(UInt small_class)
{
   return (SizeT)small_class * SLOT_STEP;
}

void* LH_(small_alloc)(UInt small_class)
{
   SizeClass* c = &classes[small_class - 1];
   SizeT bytes = LH_(small_class_bytes)(small_class);
   Addr slot;
   tl_assert(small_class >= 1 && small_class <= N_CLASSES);
   if (c->n_free > 0)
      return (void*)c->free_slots[--c->n_free];
   if (c->bump_end - c->bump < bytes) {
      void* chunk = VG_(cli_malloc)(SLOT_STEP, CHUNK_BYTES);
      if (chunk == NULL) return NULL;
      c->bump = (Addr)chunk;
      c->bump_end = c->bump + CHUNK_BYTES;
   }
   slot = c->bump;
   c->bump += bytes;
   return (void*)slot;
}

void LH_(small_free)(void* p, UInt small_class)
{
   SizeClass* c = &classes[small_class - 1];
   tl_assert(small_class >= 1 && small_class <= N_CLASSES);
   if (c->n_free == c->capacity) {
      UInt capacity = c->capacity == 0 ? 256 : 2 * c->capacity;
      tl_assert(capacity > c->capacity);
      c->free_slots = VG_(realloc)("lh.small.free_slots", c->free_slots,
                                   capacity * sizeof(Addr));
      c->capacity = capacity;
   }
   c->free_slots[c->n_free++] = (Addr)p;
}
