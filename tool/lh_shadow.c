/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_shadow.c: which live block owns an address, in O(1), and  ---*/
/*--- which of its bytes were ever read / ever written.            ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   The map
   -------
   Client memory is cut into 16-byte granules.  Payloads are 16-aligned
   on amd64, and no two live blocks share a granule: Valgrind's client
   allocator keeps its own header between two payloads, and the small-block
   slots (lh_small_alloc.c) are multiples of 16 bytes.  Per granule the shadow keeps the owning block's number (its
   record's index in the record pages, LH_(block_record); 0 = no live
   block) and two 16-bit sets: bit i of
   read_bits/written_bits says byte i of the granule was ever read/written.
   Granules are found through a three-level table keyed by the address
   (user space is 47 bits on amd64-linux):

      address  | 46 ........ 32 | 31 ....... 16 | 15 ..... 4 | 3..0 |
                  top index        mid index      granule     byte
                  (32768)          (65536)        (4096)

      top[32768] ──► mid[65536] (one per 4 GiB region in use, 512 KiB
                        │         mapped, resident only where written)
                        │
                        ├─ 0               no live block in these 64 KiB
                        ├─ (index<<2)|1    every granule is block 'index''s,
                        │                  none accessed yet: a big block
                        │                  costs 8 bytes per untouched 64 KiB
                        ├─ SoloChunk*|2    every granule is one block's:
                        │                  owner + read_bits -> [4096] +
                        │                  written_bits -> [4096]
                        │                  (8 KiB each, or shared: below)
                        ├─ MediumChunk*|3  blocks of a few KiB, a big
                        │                  block's ends: 64 pages x (2
                        │                  parts { owner, lo, hi } + a read
                        │                  and a written set: none, all
                        │                  or 128 bytes of its own,
                        │                  or a frozen set shared by the
                        │                  pages of the same bits)
                        └─ SharedChunk*    small blocks: 4096 x { owner,
                                           read_bits, written_bits } (32 KiB)

   In a SoloChunk the bit sets are separate arrays, so a load touches 2
   bytes of shadow per 16 bytes of a big block.  Each array is the
   tool's one all-clear array (LH_(bits_none)) until a bit of it is set,
   and the one all-set array (LH_(bits_all)) once every bit is: only a
   chunk part of whose bytes were read (written) has an array of its own,
   so a 32 MB array filled and read from end to end costs the few chunks
   the loops are in, not 8 MB (LH_(shadow_mark) makes and drops the own
   arrays; the counts of full granules say which state an array is in); in a SharedChunk a
   granule's owner and bits share 8 bytes (one cache line).  A
   SoloChunk counts its full granules: once every byte of its 64 KiB was
   read (written), reads (writes) there touch only the chunk's first line.  A lookup is three dependent
   loads and never depends on the number of live blocks.  A whole-chunk
   entry becomes a SoloChunk on its first access; a SoloChunk becomes a
   SharedChunk if its block shrinks off part of it.  Shared chunks whose
   last owned granule goes away go to a small cache of all-zero chunks
   (invariant: a granule of no live block has all bits clear, but for
   the "don't care" granules of a medium chunk's page, below).

   Medium chunks.  A shared chunk costs half a byte per byte of the
   program's memory, the owner's 4 bytes a granule as much as the bits;
   for blocks of a few KiB (a database's pages) that is most of the
   tool's memory.  Such blocks change owner only every few hundred
   granules, so a chunk whose first block is at least 1 KiB (the growth,
   for a realloc growing in place) is a MediumChunk
   (lh_shadow_medium.c): per 1 KiB page the granule ranges [lo, hi) of
   at most two blocks' parts, and the page's read and written sets, each
   the all-clear or all-set array while uniform over the page's owned
   granules (the bytes between two blocks do not count), else 128 bytes
   of its own (one frozen copy for all pages of the same bits, once a
   sweep has found them: lh_shadow_frozen.c).  A lookup checks the page's two ranges; a part grows or
   shrinks in place with its block.  An owning that would put a third part in a page, or
   take granules of another block, and a disowning that would split a
   part in two, turn the chunk into a SharedChunk first (same owners and
   bits); the access slots may keep a medium chunk (lh_access_path.c),
   so that moves the slot epoch.  Empty medium chunks are freed at once
   (about 2 KiB and 128 bytes per set of its own, against 32 KiB).

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
#include "pub_tool_aspacemgr.h"
#include "lh_include.h"
#include "lh_shadow.h"
#include "lh_shadow_private.h"
#include "lh_access_private.h"   /* LH_(slots_new_epoch) */

/*------------------------------------------------------------*/
/*--- The three-level table                                ---*/
/*------------------------------------------------------------*/

#define CHUNK_SIZE      ((Addr)1 << LH_CHUNK_SHIFT)
#define GRANULE_IN_CHUNK(a) (((a) >> LH_GRANULE_BITS) & (LH_GRANULES_PER_CHUNK - 1))
#define WHOLE_ENTRY(idx) (((UWord)(idx) << 2) | LH_ENTRY_WHOLE)
#define WHOLE_INDEX(e)   ((UInt)((e) >> 2))
#define SOLO_OF(e)       ((LH_SoloChunk*)((e) - LH_ENTRY_SOLO))
#define MEDIUM_OF(e)     ((LH_MediumChunk*)((e) - LH_ENTRY_MEDIUM))
/* A new chunk whose first owner is a block (or a block's growth) of at
   least this many bytes is a medium one; a smaller block is most likely
   one of many small ones (lh_small_alloc.c), which a shared chunk holds. */
#define MEDIUM_MIN_BLOCK ((Addr)LH_PAGE_GRANULES << LH_GRANULE_BITS)

UWord* LH_(shadow_top)[1 << LH_SHADOW_TOP_BITS];

ULong LH_(shadow_bytes) = 0;

/* All-zero shared chunks kept for reuse, so that a program that frees and
   reallocates the only block of a 64 KiB region does not pay a 32 KiB
   allocation and zeroing each time. */
#define CHUNK_CACHE_MAX 64
static LH_SharedChunk* chunk_cache[CHUNK_CACHE_MAX];
static UInt chunk_cache_used = 0;

static LH_SharedChunk* new_shared_chunk(void)
{
   if (chunk_cache_used > 0)
      return chunk_cache[--chunk_cache_used];
   LH_(shadow_bytes) += sizeof(LH_SharedChunk);
   return VG_(calloc)("lh.shadow.shared", 1, sizeof(LH_SharedChunk));
}

static void release_shared_chunk(LH_SharedChunk* c)
{
   if (chunk_cache_used < CHUNK_CACHE_MAX) {
      chunk_cache[chunk_cache_used++] = c;
      return;
   }
   LH_(shadow_bytes) -= sizeof(LH_SharedChunk);
   VG_(free)(c);
}

UShort LH_(bits_none)[LH_GRANULES_PER_CHUNK];
UShort LH_(bits_all)[LH_GRANULES_PER_CHUNK] = {
   [0 ... LH_GRANULES_PER_CHUNK - 1] = 0xFFFF
};

#define SOLO_BITS_BYTES (LH_GRANULES_PER_CHUNK * sizeof(UShort))

static inline Bool solo_bits_shared(const UShort* bits)
{
   return bits == LH_(bits_none) || bits == LH_(bits_all);
}

/* The solo chunk's own array of read (or written) bits, made from
   LH_(bits_none) or LH_(bits_all) if it has none. */
static UShort* solo_own_bits(LH_SoloChunk* c, Bool is_write)
{
   UShort** bits = &c->array[is_write];
   if (solo_bits_shared(*bits)) {
      UShort* own = VG_(malloc)("lh.shadow.solo.bits", SOLO_BITS_BYTES);
      VG_(memcpy)(own, *bits, SOLO_BITS_BYTES);
      LH_(shadow_bytes) += SOLO_BITS_BYTES;
      *bits = own;
   }
   return *bits;
}

UShort* LH_(chunk_own_bits)(LH_SoloChunk* c, Bool is_write, UWord gi)
{
   if (c->page_shift == LH_SOLO_PAGE_SHIFT) return solo_own_bits(c, is_write) + gi;
   return LH_(medium_own_bits)((LH_MediumChunk*)c, is_write, gi);
}

UShort* LH_(granule_own_bits)(const LH_GranuleRef* ref, Bool is_write, UShort* bits)
{
   UWord at = (UWord)bits - (UWord)LH_(bits_none);
   if (at < sizeof(LH_(bits_none)))
      return LH_(chunk_own_bits)(ref->solo, is_write, at / sizeof(UShort));
   /* a medium chunk's page at a frozen set, shared with other pages: a
      copy of its own first */
   return LH_(chunk_own_bits)(ref->solo, is_write, ref->granule);
}

void LH_(solo_bits_full)(LH_SoloChunk* c, Bool is_write)
{
   UShort** bits = &c->array[is_write];
   if (!solo_bits_shared(*bits)) {
      VG_(free)(*bits);
      LH_(shadow_bytes) -= SOLO_BITS_BYTES;
   }
   *bits = LH_(bits_all);
}

static void free_solo_bits(LH_SoloChunk* c)
{
   Int w;
   for (w = 0; w < 2; w++)
      if (!solo_bits_shared(c->array[w])) {
         VG_(free)(c->array[w]);
         LH_(shadow_bytes) -= SOLO_BITS_BYTES;
      }
}

static void free_solo_chunk(LH_SoloChunk* c)
{
   free_solo_bits(c);
   LH_(shadow_bytes) -= sizeof(LH_SoloChunk);
   VG_(free)(c);
}

/* The mid-level entry for addr, creating the mid table if asked. */
static UWord* mid_entry(Addr a, Bool create)
{
   UWord* mid;
   if (a >= LH_SHADOW_ADDR_LIMIT) return NULL;
   mid = LH_(shadow_top)[a >> 32];
   if (mid == NULL) {
      if (!create) return NULL;
      /* Mapped apart, not from the arena: a fresh mapping reads as zero
         without being written, so only the pages of the 64 KiB stretches
         in use (a page per 32 MiB of address space) become resident; a
         zeroed arena block was 512 KiB of memory from the first malloc. */
      SizeT bytes = sizeof(UWord) << LH_SHADOW_MID_BITS;
      mid = VG_(am_shadow_alloc)(bytes);
      if (mid == NULL) VG_(out_of_memory_NORETURN)("lh.shadow.mid", bytes);
      LH_(shadow_bytes) += bytes;
      LH_(shadow_top)[a >> 32] = mid;
   }
   return &mid[(a >> LH_CHUNK_SHIFT) & ((1 << LH_SHADOW_MID_BITS) - 1)];
}

UWord LH_(shadow_materialise)(UWord* entry)
{
   LH_SoloChunk* c;
   tl_assert(LH_ENTRY_KIND(*entry) == LH_ENTRY_WHOLE);
   c = VG_(calloc)("lh.shadow.solo", 1, sizeof(LH_SoloChunk));
   LH_(shadow_bytes) += sizeof(LH_SoloChunk);
   c->page_shift = LH_SOLO_PAGE_SHIFT;
   c->array[0] = c->array[1] = LH_(bits_none);
   c->owner = WHOLE_INDEX(*entry);
   c->block = LH_(block_record)(c->owner);
   *entry = (UWord)c + LH_ENTRY_SOLO;
   return *entry;
}

/* Turns a whole, solo or medium entry into a shared chunk with the same
   owners and bits (needed before part of the chunk changes hands in a way
   the entry cannot hold). */
static LH_SharedChunk* make_shared(UWord* entry)
{
   LH_SharedChunk* c;
   UInt idx;
   Int i;
   if (LH_ENTRY_KIND(*entry) == LH_ENTRY_SHARED)
      return (LH_SharedChunk*)*entry;
   if (LH_ENTRY_KIND(*entry) == LH_ENTRY_MEDIUM) {
      LH_MediumChunk* m = MEDIUM_OF(*entry);
      /* the access slots and runs may keep the medium chunk's arrays:
         a run's bytes go into them first, then no slot holds them */
      LH_(slots_new_epoch)();
      c = new_shared_chunk();
      LH_(medium_to_shared)(m, c);
      LH_(medium_free)(m);
      *entry = (UWord)c;
      return c;
   }
   c = new_shared_chunk();
   if (LH_ENTRY_KIND(*entry) == LH_ENTRY_WHOLE) {
      idx = WHOLE_INDEX(*entry);
   } else {
      LH_SoloChunk* solo = SOLO_OF(*entry);
      idx = solo->owner;
      for (i = 0; i < LH_GRANULES_PER_CHUNK; i++) {
         c->granule[i].read_bits = solo->array[0][i];
         c->granule[i].written_bits = solo->array[1][i];
      }
      free_solo_chunk(solo);
   }
   for (i = 0; i < LH_GRANULES_PER_CHUNK; i++) c->granule[i].owner = idx;
   c->owned = LH_GRANULES_PER_CHUNK;
   *entry = (UWord)c;
   return c;
}

/*------------------------------------------------------------*/
/*--- Block records (indexed by owner number)              ---*/
/*------------------------------------------------------------*/

/* A record is 96 bytes, the first 64 of them what an access of a small
   block reads and writes (lh_access.h).  Pages start on a cache line, so
   every other record has those 64 bytes on one line and the others on
   two neighbouring ones.  Two lines a record made the access path read
   one line in all cases, but cost 32 bytes more per live block. */
_Static_assert(sizeof(struct LH_Block) == 96, "LH_Block is 96 bytes");
_Static_assert(__builtin_offsetof(struct LH_Block, access.first_access_time) == 56,
               "an access's fields are the first 64 bytes of LH_Block");

struct LH_Block** LH_(record_pages) = NULL;
static Addr* page_allocations = NULL;  /* what VG_(malloc) gave each page */
static UInt pages_capacity = 0;
static UInt pages_used = 0;
static UInt records_used = 1;         /* record 0 means "no block" */
/* Free records are chained through their payload field (the index of the
   next free record; 0 ends the chain). */
static UInt free_head = 0;

/* A record all zero, in six 16-byte stores (records are 32-byte aligned:
   pages start on a cache line, records are 96 bytes).  VG_(memset) stores
   4 bytes at a time, and the compiler makes "rep stos" of an assignment,
   slow to start for so few bytes; this runs on every allocation. */
typedef ULong LH_Zero16 __attribute__((vector_size(16)));
STATIC_ASSERT(sizeof(struct LH_Block) == 6 * sizeof(LH_Zero16));

static inline void zero_record(struct LH_Block* b)
{
   LH_Zero16* v = (LH_Zero16*)b;
   const LH_Zero16 zero = { 0, 0 };
   v[0] = zero; v[1] = zero; v[2] = zero;
   v[3] = zero; v[4] = zero; v[5] = zero;
}

struct LH_Block* LH_(block_record_new)(void)
{
   struct LH_Block* b;
   UInt idx;
   if (free_head != 0) {
      idx = free_head;
      free_head = (UInt)LH_(block_record)(idx)->payload;
      /* The next allocation takes that record: fetched now, while the
         program runs on, rather than missed then (a program that freed
         a large structure reuses records it last touched long ago). */
      if (free_head != 0) __builtin_prefetch(LH_(block_record)(free_head), 1);
   } else {
      if (records_used >= pages_used * LH_RECORDS_PER_PAGE) {
         if (pages_used == pages_capacity) {
            UInt new_capacity = pages_capacity == 0 ? 64 : pages_capacity * 2;
            tl_assert(new_capacity > pages_capacity);    /* 2^32 live blocks */
            LH_(record_pages) = VG_(realloc)("lh.shadow.record_pages", LH_(record_pages),
                                             new_capacity * sizeof(struct LH_Block*));
            page_allocations = VG_(realloc)("lh.shadow.record_pages", page_allocations,
                                            new_capacity * sizeof(Addr));
            pages_capacity = new_capacity;
         }
         {
            /* a page starts on a cache line (the slack of the rounding
               is kept with it) */
            Addr raw = (Addr)VG_(malloc)("lh.shadow.records",
                                         LH_RECORDS_PER_PAGE * sizeof(struct LH_Block) + 63);
            page_allocations[pages_used] = raw;
            LH_(record_pages)[pages_used++] = (struct LH_Block*)((raw + 63) & ~(Addr)63);
         }
      }
      idx = records_used++;
   }
   b = LH_(block_record)(idx);
   zero_record(b);
   b->shadow_index = idx;
   return b;
}

void LH_(block_record_free)(struct LH_Block* b)
{
   UInt idx = b->shadow_index;
   tl_assert(idx != 0 && idx < records_used && LH_(block_record)(idx) == b);
   b->payload = free_head;
   b->site = NULL;
   free_head = idx;
}

UInt LH_(block_records_used)(void)
{
   return records_used;
}

Bool LH_(block_records_release)(void)
{
   UInt i;
   for (i = 1; i < records_used; i++)
      if (LH_(block_record)(i)->site != NULL) return False;
   for (i = 0; i < pages_used; i++) VG_(free)((void*)page_allocations[i]);
   pages_used = 0;
   records_used = 1;
   free_head = 0;
   /* No granule is owned, so every shared chunk went to the cache of
      empty ones or was freed: the cache goes too (up to 2 MiB). */
   while (chunk_cache_used > 0) {
      LH_(shadow_bytes) -= sizeof(LH_SharedChunk);
      VG_(free)(chunk_cache[--chunk_cache_used]);
   }
   return True;
}

LH_Granule* LH_(shadow_shared_granules)(Addr lo, Addr hi)
{
   UWord* entry;
   if (hi <= lo || (lo >> LH_CHUNK_SHIFT) != ((hi - 1) >> LH_CHUNK_SHIFT))
      return NULL;
   entry = mid_entry(lo, False);
   if (entry == NULL || *entry == 0 || LH_ENTRY_KIND(*entry) != LH_ENTRY_SHARED)
      return NULL;
   return &((LH_SharedChunk*)*entry)->granule[GRANULE_IN_CHUNK(lo)];
}

UInt LH_(shadow_owner)(Addr a)
{
   UWord* entry = mid_entry(a, False);
   UWord e;
   if (entry == NULL || (e = *entry) == 0) return 0;
   switch (LH_ENTRY_KIND(e)) {
      case LH_ENTRY_WHOLE: return WHOLE_INDEX(e);
      case LH_ENTRY_SOLO:  return SOLO_OF(e)->owner;
      case LH_ENTRY_MEDIUM: return LH_(medium_owner)(MEDIUM_OF(e), GRANULE_IN_CHUNK(a));
      default:             return ((LH_SharedChunk*)e)->granule[GRANULE_IN_CHUNK(a)].owner;
   }
}

/*------------------------------------------------------------*/
/*--- Owning and forgetting ranges                         ---*/
/*------------------------------------------------------------*/

/* The end of the part of [g, hi) in g's chunk; *whole_chunk: that part
   is the whole chunk. */
static inline Addr chunk_stop(Addr g, Addr hi, Bool* whole_chunk)
{
   Addr chunk_start = g & ~(CHUNK_SIZE - 1);
   Addr chunk_end = chunk_start + CHUNK_SIZE;
   Addr stop = hi < chunk_end ? hi : chunk_end;
   *whole_chunk = g == chunk_start && stop == chunk_end;
   return stop;
}

static inline Addr granule_round_up(Addr a)
{
   return (a + LH_GRANULE_SIZE - 1) & ~(LH_GRANULE_SIZE - 1);
}

/* A walk over [lo, hi) (lo at a granule's start), one chunk's part at a
   time: [at, stop) is the part in at's chunk, whole_chunk says it is the
   whole chunk.  Empty when hi <= lo. */
typedef struct {
   Addr at, stop, hi;
   Bool whole_chunk;
} ChunkWalk;

static inline void walk_start(ChunkWalk* w, Addr lo, Addr hi)
{
   tl_assert((lo & (LH_GRANULE_SIZE - 1)) == 0);
   w->hi = hi;
   w->stop = lo;
}

/* Moves to the next chunk's part; False when the walk is done. */
static inline Bool walk_next(ChunkWalk* w)
{
   w->at = w->stop;
   if (w->at >= w->hi) return False;
   w->stop = chunk_stop(w->at, w->hi, &w->whole_chunk);
   return True;
}

Bool  LH_(shadow_overlap_seen) = False;
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
   ChunkWalk w;
   tl_assert((lo & (LH_GRANULE_SIZE - 1)) == 0);
   if (hi <= lo) return;
   tl_assert(hi <= LH_SHADOW_ADDR_LIMIT);
   widen_filter(lo, hi);
   walk_start(&w, lo, granule_round_up(hi));
   while (walk_next(&w)) {
      UWord* entry = mid_entry(w.at, True);
      LH_SharedChunk* c;
      Addr g;
      if (w.whole_chunk && *entry == 0) {
         *entry = WHOLE_ENTRY(idx);          /* the lazy whole-chunk case */
         continue;
      }
      if (*entry == 0 && hi - lo >= MEDIUM_MIN_BLOCK)
         *entry = (UWord)LH_(medium_new)() + LH_ENTRY_MEDIUM;
      if (LH_ENTRY_KIND(*entry) == LH_ENTRY_MEDIUM
          && LH_(medium_own)(MEDIUM_OF(*entry), idx, GRANULE_IN_CHUNK(w.at),
                        GRANULE_IN_CHUNK(w.stop - 1) + 1))
         continue;
      if (*entry == 0) *entry = (UWord)new_shared_chunk();
      else if (LH_ENTRY_KIND(*entry) != LH_ENTRY_SHARED
               && LH_ENTRY_KIND(*entry) != LH_ENTRY_MEDIUM
               && (LH_ENTRY_KIND(*entry) == LH_ENTRY_WHOLE
                      ? WHOLE_INDEX(*entry) : SOLO_OF(*entry)->owner) != idx)
         LH_(shadow_overlap_seen) = True;  /* another block's chunk */
      /* A whole or solo chunk is all one live block's, so normally there
         is nothing to share; a block overlapping a live one (a custom
         allocator's mistake) takes the granules over. */
      c = make_shared(entry);
      for (g = w.at; g < w.stop; g += LH_GRANULE_SIZE) {
         LH_Granule* gr = &c->granule[GRANULE_IN_CHUNK(g)];
         if (gr->owner == 0) c->owned++;
         else if (gr->owner != idx) LH_(shadow_overlap_seen) = True;
         gr->owner = idx;
         gr->read_bits = 0;
         gr->written_bits = 0;
      }
   }
}

void LH_(shadow_disown)(UInt idx, Addr lo, Addr hi)
{
   ChunkWalk w;
   walk_start(&w, lo, granule_round_up(hi));
   while (walk_next(&w)) {
      UWord* entry = mid_entry(w.at, False);
      LH_SharedChunk* c;
      Addr g;
      if (entry == NULL || *entry == 0)     /* taken over and released */
         continue;
      if (LH_ENTRY_KIND(*entry) == LH_ENTRY_MEDIUM) {
         LH_MediumChunk* m = MEDIUM_OF(*entry);
         if (LH_(medium_disown)(m, idx, GRANULE_IN_CHUNK(w.at),
                           GRANULE_IN_CHUNK(w.stop - 1) + 1)) {
            if (m->owned == 0) {
               LH_(medium_free)(m);
               *entry = 0;
            }
            continue;
         }
      } else if (LH_ENTRY_KIND(*entry) != LH_ENTRY_SHARED) {
         UInt whole_owner = LH_ENTRY_KIND(*entry) == LH_ENTRY_WHOLE
                               ? WHOLE_INDEX(*entry) : SOLO_OF(*entry)->owner;
         if (whole_owner != idx)            /* taken over by another block */
            continue;
         if (w.whole_chunk) {
            if (LH_ENTRY_KIND(*entry) == LH_ENTRY_SOLO) free_solo_chunk(SOLO_OF(*entry));
            *entry = 0;
            continue;
         }
      }
      c = make_shared(entry);
      for (g = w.at; g < w.stop; g += LH_GRANULE_SIZE) {
         LH_Granule* gr = &c->granule[GRANULE_IN_CHUNK(g)];
         if (gr->owner != idx) continue;    /* not (or no longer) ours */
         gr->owner = 0;
         gr->read_bits = 0;
         gr->written_bits = 0;
         c->owned--;
      }
      if (c->owned == 0) {
         release_shared_chunk(c);
         *entry = 0;
      }
   }
}

void LH_(shadow_clear_bits_from)(Addr end)
{
   UInt keep = (UInt)(end & (LH_GRANULE_SIZE - 1));
   LH_GranuleRef ref;
   UShort mask;
   if (keep == 0) return;
   if (!LH_(shadow_lookup)(end, &ref)) return;
   mask = (UShort)((1u << keep) - 1);
   if (ref.solo != NULL && ref.solo->page_shift != LH_SOLO_PAGE_SHIFT) {
      LH_(medium_clear_granule_from)((LH_MediumChunk*)ref.solo, ref.granule, keep);
      return;
   }
   if (ref.solo != NULL) {
      /* (an array at LH_(bits_none) has nothing to clear) */
      UWord gi = GRANULE_IN_CHUNK(end);
      if (ref.solo->array[0] != LH_(bits_none)) {
         UShort* rd = solo_own_bits(ref.solo, False) + gi;
         if (*rd == 0xFFFF) ref.solo->full_read_granules--;
         *rd &= mask;
      }
      if (ref.solo->array[1] != LH_(bits_none)) {
         UShort* wr = solo_own_bits(ref.solo, True) + gi;
         if (*wr == 0xFFFF) ref.solo->full_written_granules--;
         *wr &= mask;
      }
      return;
   }
   *ref.read_bits &= mask;
   *ref.written_bits &= mask;
}

void LH_(shadow_copy_bits)(Addr dst, Addr src, SizeT n)
{
   SizeT off;
   tl_assert(((dst | src) & (LH_GRANULE_SIZE - 1)) == 0);
   for (off = 0; off < n; off += LH_GRANULE_SIZE) {
      LH_GranuleRef from, to;
      UShort mask = n - off >= LH_GRANULE_SIZE
                       ? 0xFFFF : (UShort)((1u << (n - off)) - 1);
      UWord* entry = mid_entry(src + off, False);
      if (entry != NULL && LH_ENTRY_KIND(*entry) == LH_ENTRY_WHOLE) {
         /* untouched 64 KiB of the source: nothing to carry */
         off = ((src + off) | (CHUNK_SIZE - 1)) + 1 - src - LH_GRANULE_SIZE;
         continue;
      }
      if (!LH_(shadow_lookup)(src + off, &from)
          || (*from.read_bits | *from.written_bits) == 0)
         continue;                      /* nothing to carry; dst bits are clear */
      if (!LH_(shadow_lookup)(dst + off, &to))
         continue;
      /* dst bits are clear (a new or newly owned granule): mark sets them */
      if (*from.read_bits & mask) LH_(shadow_mark)(&to, False, *from.read_bits & mask, 0);
      if (*from.written_bits & mask) LH_(shadow_mark)(&to, True, *from.written_bits & mask, 0);
   }
}

/*------------------------------------------------------------*/
/*--- Census at a block's death                            ---*/
/*------------------------------------------------------------*/

void LH_(shadow_census)(Addr lo, SizeT size, LH_ByteCensus* out)
{
   Addr hi = lo + size;
   Addr g = lo;
   VG_(memset)(out, 0, sizeof(*out));
   tl_assert((lo & (LH_GRANULE_SIZE - 1)) == 0);
   while (g < hi) {
      Bool whole_chunk;
      Addr stop = chunk_stop(g, hi, &whole_chunk);
      UWord* entry = mid_entry(g, False);
      const LH_SoloChunk* c = NULL;  /* the bits in a solo or medium chunk's pages */
      const LH_Granule* granules = NULL;
      if (entry == NULL || *entry == 0 || LH_ENTRY_KIND(*entry) == LH_ENTRY_WHOLE) {
         /* untouched: every byte never read and never written */
         out->never_read += stop - g;
         out->never_written += stop - g;
         out->never_accessed += stop - g;
         g = stop;
         continue;
      }
      if (LH_ENTRY_KIND(*entry) == LH_ENTRY_SOLO) c = SOLO_OF(*entry);
      else if (LH_ENTRY_KIND(*entry) == LH_ENTRY_MEDIUM) c = &MEDIUM_OF(*entry)->bits;
      else granules = ((LH_SharedChunk*)*entry)->granule;
      for (; g < stop; g += LH_GRANULE_SIZE) {
         UWord gi = GRANULE_IN_CHUNK(g);
         UInt nbytes = stop - g >= LH_GRANULE_SIZE ? LH_GRANULE_SIZE : (UInt)(stop - g);
         UInt mask = nbytes == 16 ? 0xFFFF : (1u << nbytes) - 1;
         UInt rd = (c != NULL ? *LH_(chunk_bits)(c, False, gi) : granules[gi].read_bits) & mask;
         UInt wr = (c != NULL ? *LH_(chunk_bits)(c, True, gi) : granules[gi].written_bits) & mask;
         out->never_read += nbytes - LH_(popcount16)(rd);
         out->never_written += nbytes - LH_(popcount16)(wr);
         out->never_accessed += nbytes - LH_(popcount16)(rd | wr);
         out->written_never_read += LH_(popcount16)(wr & ~rd);
      }
   }
}

void LH_(shadow_count_set)(Addr lo, Addr hi, ULong* read_set, ULong* written_set)
{
   Addr first = lo & ~(LH_GRANULE_SIZE - 1);
   LH_ByteCensus census;
   LH_GranuleRef ref;
   *read_set = *written_set = 0;
   if (hi <= lo) return;
   LH_(shadow_census)(first, hi - first, &census);
   *read_set = (hi - first) - census.never_read;
   *written_set = (hi - first) - census.never_written;
   /* the census started at the granule's first byte: take off the bytes
      before lo */
   if (lo > first && LH_(shadow_lookup)(first, &ref)) {
      UShort before = (UShort)((1u << (lo - first)) - 1);
      *read_set -= LH_(popcount16)(*ref.read_bits & before);
      *written_set -= LH_(popcount16)(*ref.written_bits & before);
   }
}

ULong LH_(shadow_bytes_allocated)(void)
{
   return LH_(shadow_bytes);
}
