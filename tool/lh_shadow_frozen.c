/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_shadow_frozen.c: medium chunks' page sets kept once per   ---*/
/*--- distinct content, shared and never written.                  ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   A program's pages of a few KiB tend to be read and written in the same
   few patterns: a database's 4 KiB pages each have a header, a cell
   pointer array and cells at the same offsets, so many of their 1 KiB
   page sets of their own (lh_shadow_medium.c) hold the same 128 bytes.
   The medium chunks' sweep (LH_(medium_sweep)) hands every set of its own
   to LH_(frozen_intern), which returns the one frozen copy of that
   content (made if there is none) and counts the page as one more user;
   the page then points to the frozen copy and its own set goes back to
   the pool.  A frozen set is never written: the first bit set or cleared
   in such a page gives the page a copy of its own again
   (LH_(shadow_mark) tells a frozen set by its address, lh_shadow.h) and
   drops one user (LH_(frozen_release)); the last user's release frees
   the set.

   Layout.  The sets lie in one mapping made at the first intern,
   FROZEN_MAX sets of 128 bytes (16 MiB of address space, resident only
   as far as sets were ever used: a fresh mapping reads as zero), so that
   a set is frozen exactly when its address is in
   [LH_(frozen_base), LH_(frozen_base) + LH_(frozen_span)).  Beside them,
   per set: its users, and 'next', the next set of its hash chain while
   it has users, the next free set once it has none (a freed set's
   content stays as it was until an intern reuses it: a caller may still
   read a granule through a pointer taken before the page's copy was
   made).  An index of hash chains (buckets: set number + 1, 0 = end)
   finds a content's frozen copy; it doubles when the frozen sets
   outnumber its buckets.  Once FROZEN_MAX sets are in use an intern
   returns NULL and the page keeps its set of its own.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_aspacemgr.h"
#include "lh_include.h"
#include "lh_shadow.h"
#include "lh_shadow_private.h"

#define SET_USHORTS LH_PAGE_GRANULES
#define SET_BYTES   (SET_USHORTS * sizeof(UShort))          /* 128 */
#define SET_WORDS   (SET_BYTES / sizeof(ULong))              /* 16 */
#define FROZEN_MAX  (1u << 17)

typedef struct {
   UInt users;          /* pages pointing to the set (0: free) */
   UInt next;           /* set number + 1 of the next in its chain / the
                           free list (0: none) */
} FrozenMeta;

Addr  LH_(frozen_base) = 0;
UWord LH_(frozen_span) = 0;

static FrozenMeta* meta = NULL;
static UInt  sets_made = 0;          /* sets ever taken from the mapping */
static UInt  free_first = 0;         /* set number + 1 */
static UInt  frozen_in_use = 0;
static UInt* buckets = NULL;
static UInt  bucket_count = 0;       /* a power of two */

static inline UShort* set_at(UInt n)
{
   return (UShort*)(LH_(frozen_base) + (Addr)n * SET_BYTES);
}

static inline UInt set_number(const UShort* set)
{
   return (UInt)(((Addr)set - LH_(frozen_base)) / SET_BYTES);
}

static ULong set_hash(const UShort* set)
{
   const ULong* w = (const ULong*)set;
   ULong h = 0x243F6A8885A308D3ULL;
   UInt i;
   for (i = 0; i < SET_WORDS; i++) {
      h = (h ^ w[i]) * 0x9E3779B97F4A7C15ULL;
      h ^= h >> 29;
   }
   return h;
}

static Bool sets_equal(const UShort* a, const UShort* b)
{
   const ULong* x = (const ULong*)a;
   const ULong* y = (const ULong*)b;
   UInt i;
   for (i = 0; i < SET_WORDS; i++)
      if (x[i] != y[i]) return False;
   return True;
}

static void buckets_make(UInt count)
{
   UInt n;
   if (buckets != NULL) VG_(free)(buckets);
   buckets = VG_(calloc)("lh.shadow.frozen.index", count, sizeof(UInt));
   bucket_count = count;
   for (n = 0; n < sets_made; n++) {
      UInt b;
      if (meta[n].users == 0) continue;
      b = (UInt)set_hash(set_at(n)) & (bucket_count - 1);
      meta[n].next = buckets[b];
      buckets[b] = n + 1;
   }
}

static Bool store_make(void)
{
   SizeT bytes = (SizeT)FROZEN_MAX * (SET_BYTES + sizeof(FrozenMeta));
   void* region = VG_(am_shadow_alloc)(bytes);
   if (region == NULL) return False;
   LH_(shadow_bytes) += bytes;
   LH_(frozen_base) = (Addr)region;
   meta = (FrozenMeta*)((Addr)region + (Addr)FROZEN_MAX * SET_BYTES);
   buckets_make(256);
   /* set last: the access path's check sees no frozen set before */
   LH_(frozen_span) = (UWord)FROZEN_MAX * SET_BYTES;
   return True;
}

UShort* LH_(frozen_intern)(const UShort* set)
{
   ULong h;
   UInt b, n;
   if (LH_(frozen_span) == 0 && !store_make()) return NULL;
   h = set_hash(set);
   b = (UInt)h & (bucket_count - 1);
   for (n = buckets[b]; n != 0; n = meta[n - 1].next) {
      if (sets_equal(set_at(n - 1), set)) {
         meta[n - 1].users++;
         return set_at(n - 1);
      }
   }
   if (free_first != 0) {
      n = free_first - 1;
      free_first = meta[n].next;
   } else if (sets_made < FROZEN_MAX) {
      n = sets_made++;
   } else {
      return NULL;
   }
   VG_(memcpy)(set_at(n), set, SET_BYTES);
   meta[n].users = 1;
   meta[n].next = buckets[b];
   buckets[b] = n + 1;
   if (++frozen_in_use > bucket_count) buckets_make(bucket_count * 2);
   return set_at(n);
}

void LH_(frozen_release)(const UShort* set)
{
   UInt n = set_number(set);
   UInt* link;
   tl_assert(n < sets_made && meta[n].users > 0);
   if (--meta[n].users != 0) return;
   link = &buckets[(UInt)set_hash(set) & (bucket_count - 1)];
   while (*link != n + 1) {
      tl_assert(*link != 0);
      link = &meta[*link - 1].next;
   }
   *link = meta[n].next;
   meta[n].next = free_first;
   free_first = n + 1;
   frozen_in_use--;
}

UInt LH_(frozen_sets_in_use)(void)
{
   return frozen_in_use;
}
