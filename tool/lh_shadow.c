/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_shadow.c: which live block owns an address, in O(1), and  ---*/
/*--- which of its bytes were ever read / ever written.            ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   The map
   -------
   Client memory is cut into 16-byte granules.  Valgrind's client
   allocator returns 16-aligned payloads on amd64 and keeps its own
   header between two payloads, so a granule belongs to at most one live
   block.  Each granule has an 8-byte record:

      LH_Granule { UInt block_index; UShort read_bits; UShort written_bits; }

   block_index names the owning live block through the table
   LH_(shadow_blocks) (0 = no live block); bit i of read_bits/written_bits
   says byte i of the granule was ever read/written.  Granules are looked
   up through a three-level table keyed by the address (user space is 47
   bits on amd64-linux):

      address  | 46 ........ 32 | 31 ....... 16 | 15 ..... 4 | 3..0 |
                  top index        mid index      granule     byte
                  (32768)          (65536)        (4096)

      top[32768] ──► mid[65536] (one per 4 GiB region in use, 512 KiB)
                        │
                        ├─ 0                   no live block in these 64 KiB
                        ├─ (index << 1) | 1    every granule belongs to block
                        │                      'index' and none was accessed
                        │                      yet (a big block costs 8 bytes
                        │                      per 64 KiB until it is touched)
                        └─ Chunk*              Chunk { owned; LH_Granule[4096] }
                                               (32 KiB, made on first need)

   A lookup is three dependent loads; it never depends on the number of
   live blocks.  Shadow memory is 8 bytes per 16 bytes of touched heap (the
   per-byte bits plus the owner), 8 bytes per 64 KiB of untouched big
   blocks, and the block table's 8 bytes per live block.  A chunk whose
   last owned granule goes away is returned to a small cache of all-zero
   chunks (the invariant: a granule of no live block has all bits clear).

   The inline filter
   -----------------
   The instrumented code first checks (addr - filter_base) <u filter_span
   (two loads from tool globals, a subtraction and a compare) and calls
   the helper only when the address may be in the heap: stack and global
   accesses of a program cost no call.  The range covers every block ever
   live (widened by LH_FILTER_MAX_ACCESS below so that an access starting
   just before a block is not filtered out); exactness comes from the map,
   never from the range.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"
#include "lh_shadow.h"

/*------------------------------------------------------------*/
/*--- The three-level table                                ---*/
/*------------------------------------------------------------*/

#define TOP_BITS        15          /* address bits 32..46 */
#define MID_BITS        16          /* address bits 16..31 */
#define CHUNK_SHIFT     16
#define GRANULES_PER_CHUNK (1 << (CHUNK_SHIFT - LH_GRANULE_BITS))
#define ADDR_LIMIT      ((Addr)1 << (32 + TOP_BITS))

typedef struct {
   UInt       owned;                       /* granules with a live owner */
   LH_Granule granule[GRANULES_PER_CHUNK];
} Chunk;

static UWord* top_table[1 << TOP_BITS];

#define IS_WHOLE_TAG(e)   (((e) & 1) != 0)
#define WHOLE_TAG(idx)    (((UWord)(idx) << 1) | 1)
#define TAG_INDEX(e)      ((UInt)((e) >> 1))

static ULong shadow_bytes = 0;

/* All-zero chunks kept for reuse, so that a program that frees and
   reallocates the only block of a 64 KiB region does not pay a 32 KiB
   allocation and zeroing each time. */
#define CHUNK_CACHE_MAX 64
static Chunk* chunk_cache[CHUNK_CACHE_MAX];
static UInt   chunk_cache_used = 0;

static Chunk* new_zero_chunk(void)
{
   if (chunk_cache_used > 0)
      return chunk_cache[--chunk_cache_used];
   shadow_bytes += sizeof(Chunk);
   return VG_(calloc)("lh.shadow.chunk", 1, sizeof(Chunk));
}

static void release_zero_chunk(Chunk* c)
{
   if (chunk_cache_used < CHUNK_CACHE_MAX) {
      chunk_cache[chunk_cache_used++] = c;
      return;
   }
   shadow_bytes -= sizeof(Chunk);
   VG_(free)(c);
}

/* The mid-level entry for addr, creating the mid table if asked. */
static UWord* mid_entry(Addr a, Bool create)
{
   UWord* mid;
   if (a >= ADDR_LIMIT) return NULL;
   mid = top_table[a >> 32];
   if (mid == NULL) {
      if (!create) return NULL;
      mid = VG_(calloc)("lh.shadow.mid", (SizeT)1 << MID_BITS, sizeof(UWord));
      shadow_bytes += sizeof(UWord) << MID_BITS;
      top_table[a >> 32] = mid;
   }
   return &mid[(a >> CHUNK_SHIFT) & ((1 << MID_BITS) - 1)];
}

/* Turns a whole-chunk tag into a real chunk whose granules all belong to
   the tagged block, bits clear. */
static Chunk* materialise(UWord* entry)
{
   UInt idx = TAG_INDEX(*entry);
   Chunk* c = new_zero_chunk();
   Int i;
   for (i = 0; i < GRANULES_PER_CHUNK; i++)
      c->granule[i].block_index = idx;
   c->owned = GRANULES_PER_CHUNK;
   *entry = (UWord)c;
   return c;
}

LH_Granule* LH_(shadow_granule)(Addr a)
{
   UWord* entry = mid_entry(a, False);
   LH_Granule* g;
   if (entry == NULL || *entry == 0) return NULL;
   if (IS_WHOLE_TAG(*entry)) materialise(entry);
   g = &((Chunk*)*entry)->granule[(a >> LH_GRANULE_BITS) & (GRANULES_PER_CHUNK - 1)];
   return g->block_index != 0 ? g : NULL;
}

/*------------------------------------------------------------*/
/*--- Block indices                                        ---*/
/*------------------------------------------------------------*/

struct LH_Block** LH_(shadow_blocks) = NULL;
static UInt blocks_capacity = 0;
static UInt blocks_used = 1;          /* slot 0 means "no block" */
/* Free slots are chained through the table itself: a free slot holds
   (next free index << 1) | 1, never a valid (aligned) pointer. */
static UInt free_head = 0;

UInt LH_(shadow_new_index)(struct LH_Block* b)
{
   UInt idx;
   if (free_head != 0) {
      idx = free_head;
      free_head = (UInt)((UWord)LH_(shadow_blocks)[idx] >> 1);
   } else {
      if (blocks_used >= blocks_capacity) {
         UInt new_capacity = blocks_capacity == 0 ? 1024 : blocks_capacity * 2;
         tl_assert(new_capacity > blocks_capacity);   /* 2^32 live blocks */
         LH_(shadow_blocks) = VG_(realloc)("lh.shadow.blocks", LH_(shadow_blocks),
                                           new_capacity * sizeof(struct LH_Block*));
         shadow_bytes += (ULong)(new_capacity - blocks_capacity) * sizeof(struct LH_Block*);
         blocks_capacity = new_capacity;
      }
      idx = blocks_used++;
   }
   LH_(shadow_blocks)[idx] = b;
   return idx;
}

void LH_(shadow_free_index)(UInt idx)
{
   tl_assert(idx != 0 && idx < blocks_used);
   LH_(shadow_blocks)[idx] = (struct LH_Block*)(((UWord)free_head << 1) | 1);
   free_head = idx;
}

/*------------------------------------------------------------*/
/*--- Owning and forgetting ranges                         ---*/
/*------------------------------------------------------------*/

Addr  LH_(filter_base) = 0;
UWord LH_(filter_span) = 0;

static void widen_filter(Addr lo, Addr hi)
{
   Addr base = lo >= LH_FILTER_MAX_ACCESS ? lo - LH_FILTER_MAX_ACCESS : 0;
   Addr end;
   if (LH_(filter_span) == 0) {
      LH_(filter_base) = base;
      LH_(filter_span) = hi - base;
      return;
   }
   end = LH_(filter_base) + LH_(filter_span);
   if (base < LH_(filter_base)) LH_(filter_base) = base;
   if (hi > end) end = hi;
   LH_(filter_span) = end - LH_(filter_base);
}

void LH_(shadow_own)(UInt idx, Addr lo, Addr hi)
{
   Addr g;
   tl_assert((lo & (LH_GRANULE_SIZE - 1)) == 0);
   if (hi <= lo) return;
   tl_assert(hi <= ADDR_LIMIT);
   widen_filter(lo, hi);
   hi = (hi + LH_GRANULE_SIZE - 1) & ~(LH_GRANULE_SIZE - 1);
   g = lo;
   while (g < hi) {
      Addr chunk_start = g & ~(((Addr)1 << CHUNK_SHIFT) - 1);
      Addr chunk_end = chunk_start + ((Addr)1 << CHUNK_SHIFT);
      Addr stop = hi < chunk_end ? hi : chunk_end;
      UWord* entry = mid_entry(g, True);
      if (g == chunk_start && stop == chunk_end && *entry == 0) {
         *entry = WHOLE_TAG(idx);          /* the lazy whole-chunk case */
      } else {
         Chunk* c;
         if (*entry == 0) *entry = (UWord)new_zero_chunk();
         tl_assert(!IS_WHOLE_TAG(*entry));  /* a live block owns it all */
         c = (Chunk*)*entry;
         for (; g < stop; g += LH_GRANULE_SIZE) {
            LH_Granule* gr = &c->granule[(g >> LH_GRANULE_BITS) & (GRANULES_PER_CHUNK - 1)];
            tl_assert(gr->block_index == 0);
            gr->block_index = idx;
            c->owned++;
         }
      }
      g = stop;
   }
}

void LH_(shadow_disown)(Addr lo, Addr hi)
{
   Addr g;
   tl_assert((lo & (LH_GRANULE_SIZE - 1)) == 0);
   if (hi <= lo) return;
   hi = (hi + LH_GRANULE_SIZE - 1) & ~(LH_GRANULE_SIZE - 1);
   g = lo;
   while (g < hi) {
      Addr chunk_start = g & ~(((Addr)1 << CHUNK_SHIFT) - 1);
      Addr chunk_end = chunk_start + ((Addr)1 << CHUNK_SHIFT);
      Addr stop = hi < chunk_end ? hi : chunk_end;
      UWord* entry = mid_entry(g, False);
      tl_assert(entry != NULL && *entry != 0);
      if (IS_WHOLE_TAG(*entry)) {
         if (g == chunk_start && stop == chunk_end) {
            *entry = 0;
            g = stop;
            continue;
         }
         materialise(entry);
      }
      {
         Chunk* c = (Chunk*)*entry;
         for (; g < stop; g += LH_GRANULE_SIZE) {
            LH_Granule* gr = &c->granule[(g >> LH_GRANULE_BITS) & (GRANULES_PER_CHUNK - 1)];
            tl_assert(gr->block_index != 0);
            gr->block_index = 0;
            gr->read_bits = 0;
            gr->written_bits = 0;
            c->owned--;
         }
         if (c->owned == 0) {
            release_zero_chunk(c);
            *entry = 0;
         }
      }
   }
}

void LH_(shadow_clear_bits_from)(Addr end)
{
   UInt keep = (UInt)(end & (LH_GRANULE_SIZE - 1));
   LH_Granule* g;
   UShort mask;
   if (keep == 0) return;
   g = LH_(shadow_granule)(end);
   if (g == NULL) return;
   mask = (UShort)((1u << keep) - 1);
   g->read_bits &= mask;
   g->written_bits &= mask;
}

void LH_(shadow_copy_bits)(Addr dst, Addr src, SizeT n)
{
   SizeT off;
   tl_assert(((dst | src) & (LH_GRANULE_SIZE - 1)) == 0);
   for (off = 0; off < n; off += LH_GRANULE_SIZE) {
      LH_Granule* from = LH_(shadow_granule)(src + off);
      LH_Granule* to;
      UShort mask = n - off >= LH_GRANULE_SIZE
                       ? 0xFFFF : (UShort)((1u << (n - off)) - 1);
      if (from == NULL || (from->read_bits | from->written_bits) == 0)
         continue;                      /* nothing to carry; dst bits are clear */
      to = LH_(shadow_granule)(dst + off);
      tl_assert(to != NULL);
      to->read_bits = from->read_bits & mask;
      to->written_bits = from->written_bits & mask;
   }
}

/*------------------------------------------------------------*/
/*--- Census at a block's death                            ---*/
/*------------------------------------------------------------*/

static UInt popcount16(UInt x)
{
   x = x - ((x >> 1) & 0x5555);
   x = (x & 0x3333) + ((x >> 2) & 0x3333);
   x = (x + (x >> 4)) & 0x0F0F;
   return (x + (x >> 8)) & 0x1F;
}

void LH_(shadow_census)(Addr lo, SizeT size, LH_ByteCensus* out)
{
   Addr hi = lo + size;
   Addr g = lo;
   VG_(memset)(out, 0, sizeof(*out));
   tl_assert((lo & (LH_GRANULE_SIZE - 1)) == 0);
   while (g < hi) {
      Addr chunk_start = g & ~(((Addr)1 << CHUNK_SHIFT) - 1);
      Addr chunk_end = chunk_start + ((Addr)1 << CHUNK_SHIFT);
      Addr stop = hi < chunk_end ? hi : chunk_end;
      UWord* entry = mid_entry(g, False);
      tl_assert(entry != NULL && *entry != 0);
      if (IS_WHOLE_TAG(*entry)) {
         /* untouched: every byte never read and never written */
         out->never_read += stop - g;
         out->never_written += stop - g;
         out->never_accessed += stop - g;
      } else {
         Chunk* c = (Chunk*)*entry;
         for (; g < stop; g += LH_GRANULE_SIZE) {
            const LH_Granule* gr =
               &c->granule[(g >> LH_GRANULE_BITS) & (GRANULES_PER_CHUNK - 1)];
            UInt nbytes = stop - g >= LH_GRANULE_SIZE ? LH_GRANULE_SIZE : (UInt)(stop - g);
            UInt mask = nbytes == 16 ? 0xFFFF : (1u << nbytes) - 1;
            UInt rd = gr->read_bits & mask, wr = gr->written_bits & mask;
            out->never_read += nbytes - popcount16(rd);
            out->never_written += nbytes - popcount16(wr);
            out->never_accessed += nbytes - popcount16(rd | wr);
            out->written_never_read += popcount16(wr & ~rd);
         }
      }
      g = stop;
   }
}

ULong LH_(shadow_bytes_allocated)(void)
{
   return shadow_bytes;
}
