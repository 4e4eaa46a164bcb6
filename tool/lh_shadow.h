/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_shadow.h: address -> live block map, and the    ---*/
/*--- per-byte "ever read" / "ever written" bits.  See lh_shadow.c ---*/
/*--------------------------------------------------------------------*/
#ifndef LH_SHADOW_H
#define LH_SHADOW_H

#include "pub_tool_basics.h"

struct LH_Block;

/* Client memory is shadowed in 16-byte granules.  Valgrind's client
   allocator aligns every payload to 16 on amd64, so a granule belongs to
   at most one live block. */
#define LH_GRANULE_BITS 4
#define LH_GRANULE_SIZE ((Addr)1 << LH_GRANULE_BITS)

/* A chunk shadows 64 KiB (4096 granules). */
#define LH_CHUNK_SHIFT 16
#define LH_GRANULES_PER_CHUNK (1 << (LH_CHUNK_SHIFT - LH_GRANULE_BITS))
#define LH_SHADOW_TOP_BITS 15                 /* address bits 32..46 */
#define LH_SHADOW_MID_BITS 16                 /* address bits 16..31 */
#define LH_SHADOW_ADDR_LIMIT ((Addr)1 << (32 + LH_SHADOW_TOP_BITS))

/* Two bit arrays every solo chunk may point to instead of its own: no
   bit set, every bit set.  Never written (LH_(shadow_mark) and the
   writers of lh_shadow.c give a chunk its own array first). */
extern UShort LH_(bits_none)[LH_GRANULES_PER_CHUNK];
extern UShort LH_(bits_all)[LH_GRANULES_PER_CHUNK];

/* A chunk all of whose granules belong to one block (a big block's), or
   the bits of a medium chunk (below: block NULL, owner 0).
   Bit i of a granule's read (written) set: byte i of the granule ever
   read (written); LH_(chunk_bits) finds granule gi's set.  A solo chunk
   (page_shift LH_SOLO_PAGE_SHIFT: one page) keeps them in two arrays:
   each is LH_(bits_none) while no bit of it is set, LH_(bits_all) once
   every bit is (its full-granule count at LH_GRANULES_PER_CHUNK), and an
   array of its own (8 KiB) only in between: a big array the program
   fills or reads from end to end holds about one chunk's array at a
   time, not a quarter of its size.  A medium chunk (page_shift
   LH_PAGE_SHIFT) has a base per 1 KiB page (lh_shadow_medium.c): the
   same two shared arrays while the page is uniform, else 128 bytes of
   its own or a frozen set (below) shared by pages of the same bits. */
#define LH_SOLO_PAGE_SHIFT 12                  /* gi >> 12 == 0 */
typedef struct {
   struct LH_Block* block;                      /* the owner, directly */
   UInt   owner;                                /* its block index */
   /* Granules whose 16 bits are all set (a solo chunk's; 0 in a medium
      one).  When a count reaches LH_GRANULES_PER_CHUNK the access path
      skips the bit arrays: a loop over data it has read before touches no
      shadow beyond this line. */
   UInt   full_read_granules;
   UInt   full_written_granules;
   UInt   page_shift;                           /* LH_SOLO_PAGE_SHIFT or 6 */
   UShort* array[2];                            /* a solo chunk's read and
                                                   written arrays (NULL in
                                                   a medium one) */
} LH_SoloChunk;

/* A chunk shared by small blocks (or holding a big block's ends).  Owner
   and bits of a granule sit together: one cache line per access. */
typedef struct {
   UInt   owner;                                /* 0 = no live block */
   UShort read_bits;
   UShort written_bits;
} LH_Granule;

typedef struct {
   LH_Granule granule[LH_GRANULES_PER_CHUNK];
   UInt   owned;                                /* granules with an owner */
} LH_SharedChunk;

/* A chunk shared by a few blocks of some size (a block of a few KiB,
   a big block's end): no 1 KiB page of it holds parts of more than two
   blocks.  Instead of an owner per granule each page lists its two
   parts: granules [lo, hi) of the page belong to block 'owner' (0: the
   part is unused).  Its bits are kept per page (LH_SoloChunk above):
   page p's read (written) sets are LH_(bits_none) or LH_(bits_all) while
   uniform, else 128 bytes of their own; granules of no block are "don't
   care" in a page at LH_(bits_all) (every owned granule's set is full)
   and clear in a page of its own.  full[w][p] counts the page's own
   full sets.  About 2 KiB plus 128 bytes per non-uniform page (less
   where pages share a frozen set), where a shared chunk takes 32 KiB
   (lh_shadow_medium.c). */
#define LH_PAGE_SHIFT      6
#define LH_PAGE_GRANULES   (1 << LH_PAGE_SHIFT) /* 1 KiB of the program's memory */
#define LH_PAGES_PER_CHUNK (LH_GRANULES_PER_CHUNK / LH_PAGE_GRANULES)
typedef struct __attribute__((packed)) {        /* 6 bytes, not 8 */
   UInt  owner;                                 /* 0 = unused */
   UChar lo, hi;                                /* granules of the page */
} LH_PagePart;

typedef struct LH_MediumChunk_ {
   LH_SoloChunk bits;                           /* block NULL, owner 0 (first:
                                                   the access path's chunk) */
   UInt   owned;                                /* granules with an owner */
   UShort* page_bits[2][LH_PAGES_PER_CHUNK];    /* read, written: the page bases */
   UChar  full[2][LH_PAGES_PER_CHUNK];          /* own pages' full sets */
   LH_PagePart part[LH_PAGES_PER_CHUNK][2];
   /* every medium chunk, for the sweep that freezes the pages' sets */
   struct LH_MediumChunk_* prev;
   struct LH_MediumChunk_* next;
} LH_MediumChunk;

/* The frozen page sets (lh_shadow_frozen.c): a medium chunk's page whose
   set of its own has the same content as other pages' may point to one
   shared copy of it, which lies in [LH_(frozen_base), LH_(frozen_base) +
   LH_(frozen_span)) and is never written: a page gets a set of its own
   again before a bit of it changes (LH_(shadow_mark) below). */
extern Addr  LH_(frozen_base);
extern UWord LH_(frozen_span);

/* Granule gi's read (is_write False) or written set in a solo or medium
   chunk: a page's base plus the granule's index. */
static inline UShort* LH_(chunk_bits)(const LH_SoloChunk* c, Bool is_write, UWord gi)
{
   if (c->page_shift == LH_SOLO_PAGE_SHIFT) return c->array[is_write] + gi;
   return ((const LH_MediumChunk*)c)->page_bits[is_write][gi >> LH_PAGE_SHIFT] + gi;
}

/* Mid-table entry encoding (low two bits):
     0               no live block in these 64 KiB
     (index<<2) | 1  all granules belong to block 'index', none accessed yet
     SoloChunk* | 2
     MediumChunk* | 3
     SharedChunk*    (pointer, low bits 00) */
#define LH_ENTRY_KIND(e)   ((e) & 3)
#define LH_ENTRY_WHOLE     1
#define LH_ENTRY_SOLO      2
#define LH_ENTRY_MEDIUM    3
#define LH_ENTRY_SHARED    0

extern UWord* LH_(shadow_top)[1 << LH_SHADOW_TOP_BITS];

/* The blocks' records, found by their shadow index without a table of
   pointers: record i is entry i % LH_RECORDS_PER_PAGE of page
   i / LH_RECORDS_PER_PAGE.  The page table is small and stays in cache,
   so an owner costs one load (its record) instead of two. */
#define LH_RECORDS_PAGE_BITS 10
#define LH_RECORDS_PER_PAGE  (1u << LH_RECORDS_PAGE_BITS)
extern struct LH_Block** LH_(record_pages);

static inline struct LH_Block* LH_(block_record)(UInt index)
{
   return &LH_(record_pages)[index >> LH_RECORDS_PAGE_BITS]
                            [index & (LH_RECORDS_PER_PAGE - 1)];
}

/* The granule holding an address: its owner and its two bit sets. */
typedef struct {
   struct LH_Block* block;
   UShort* read_bits;
   UShort* written_bits;
   LH_SoloChunk* solo;     /* a solo or medium chunk's bit arrays and
                              full-granule counts; NULL in a shared one */
   UWord granule;          /* the granule's index in a medium chunk */
} LH_GranuleRef;

/* The granule of lo when all of [lo, hi) lies in one chunk shared by
   small blocks (so that its granules are consecutive and stay put while
   the block lives), else NULL.  The access slots keep it for a small
   block: its bits without a lookup. */
LH_Granule* LH_(shadow_shared_granules)(Addr lo, Addr hi);

/* Turns a whole-chunk entry into a SoloChunk; returns the new entry. */
UWord LH_(shadow_materialise)(UWord* entry);

/* The granule gi of a medium chunk (entry e): as LH_(shadow_lookup). */
Bool LH_(shadow_medium_lookup)(UWord e, UWord gi, LH_GranuleRef* ref);

/* True (and *ref filled) when a live block owns the granule of a. */
static inline Bool LH_(shadow_lookup)(Addr a, LH_GranuleRef* ref)
{
   UWord* mid;
   UWord* entry;
   UWord e, gi;
   if (UNLIKELY(a >= LH_SHADOW_ADDR_LIMIT)) return False;
   mid = LH_(shadow_top)[a >> 32];
   if (mid == NULL) return False;
   entry = &mid[(a >> LH_CHUNK_SHIFT) & ((1 << LH_SHADOW_MID_BITS) - 1)];
   e = *entry;
   if (e == 0) return False;
   gi = (a >> LH_GRANULE_BITS) & (LH_GRANULES_PER_CHUNK - 1);
   if (LH_ENTRY_KIND(e) == LH_ENTRY_SHARED) {
      LH_Granule* g = &((LH_SharedChunk*)e)->granule[gi];
      UInt owner = g->owner;
      if (owner == 0) return False;
      ref->block = LH_(block_record)(owner);
      ref->read_bits = &g->read_bits;
      ref->written_bits = &g->written_bits;
      ref->solo = NULL;
      return True;
   }
   if (UNLIKELY(LH_ENTRY_KIND(e) != LH_ENTRY_SOLO)) {
      if (LH_ENTRY_KIND(e) == LH_ENTRY_MEDIUM)
         return LH_(shadow_medium_lookup)(e, gi, ref);
      e = LH_(shadow_materialise)(entry);
   }
   {
      LH_SoloChunk* c = (LH_SoloChunk*)(e - LH_ENTRY_SOLO);
      ref->block = c->block;
      ref->read_bits = c->array[0] + gi;
      ref->written_bits = c->array[1] + gi;
      ref->solo = c;
      return True;
   }
}

/* LH_(shadow_lookup) for a granule in a chunk shared by small blocks,
   with no call (no chunk is made or searched): the granule of a when a
   live block owns it; NULL when none does, or when the granule is in a
   chunk of another kind (LH_(shadow_lookup) finds it there).  The
   access path's queue of rereads takes its granules this way. */
static inline LH_Granule* LH_(shadow_shared_granule)(Addr a)
{
   UWord* mid;
   UWord e;
   LH_Granule* g;
   if (UNLIKELY(a >= LH_SHADOW_ADDR_LIMIT)) return NULL;
   mid = LH_(shadow_top)[a >> 32];
   if (mid == NULL) return NULL;
   e = mid[(a >> LH_CHUNK_SHIFT) & ((1 << LH_SHADOW_MID_BITS) - 1)];
   if (e == 0 || LH_ENTRY_KIND(e) != LH_ENTRY_SHARED) return NULL;
   g = &((LH_SharedChunk*)e)->granule[(a >> LH_GRANULE_BITS)
                                      & (LH_GRANULES_PER_CHUNK - 1)];
   return g->owner != 0 ? g : NULL;
}

/* The granule reference of g, a granule of a shared chunk that a live
   block owns (as LH_(shadow_lookup) fills it). */
static inline void LH_(shared_granule_ref)(LH_Granule* g, LH_GranuleRef* ref)
{
   ref->block = LH_(block_record)(g->owner);
   ref->read_bits = &g->read_bits;
   ref->written_bits = &g->written_bits;
   ref->solo = NULL;
}

/* Granule gi's read (or written) set of its own in a solo or medium
   chunk: a solo chunk's whole array, a medium chunk's page, made from
   LH_(bits_none) or LH_(bits_all) if it has none. */
UShort* LH_(chunk_own_bits)(LH_SoloChunk* c, Bool is_write, UWord gi);
/* The same for the granule of ref whose set is at 'bits', in
   LH_(bits_none) or (a medium chunk's page) a frozen set (below): the
   set of its own that replaces it. */
UShort* LH_(granule_own_bits)(const LH_GranuleRef* ref, Bool is_write, UShort* bits);
/* Every bit of the solo chunk's read (or written) array is set: the
   array goes, and the chunk points to LH_(bits_all). */
void LH_(solo_bits_full)(LH_SoloChunk* c, Bool is_write);
/* Granule gi's read (or written) set of a medium chunk just became full:
   its page goes to LH_(bits_all) once every owned granule's set is. */
void LH_(medium_granule_full)(LH_SoloChunk* c, Bool is_write, UWord gi);

/* Number of set bits in a 16-bit set (no libgcc popcount in a tool). */
static inline UInt LH_(popcount16)(UInt x)
{
   x = x - ((x >> 1) & 0x5555);
   x = (x & 0x3333) + ((x >> 2) & 0x3333);
   x = (x + (x >> 4)) & 0x0F0F;
   return (x + (x >> 8)) & 0x1F;
}

/* Sets 'mask' in a granule's read (or written) bits, keeping the solo
   chunk's count of full granules.  Returns how many bits were newly set
   (the owner keeps a count of its set bits, lh_access.c).  mask_bits is
   the number of bits in mask when the caller knows it (0 otherwise): a
   first touch then needs no bit count. */
static inline __attribute__((always_inline))
UInt LH_(shadow_mark)(const LH_GranuleRef* ref, Bool is_write,
                      UShort mask, UInt mask_bits)
{
   UShort* bits = is_write ? ref->written_bits : ref->read_bits;
   UShort old;
   if (ref->solo != NULL
       && (is_write ? ref->solo->full_written_granules
                    : ref->solo->full_read_granules) == LH_GRANULES_PER_CHUNK)
      return 0;                        /* every bit of the chunk is set */
   old = *bits;
   if ((old & mask) == mask) return 0; /* leave the cache line clean */
   if (ref->solo != NULL) {
      /* a chunk's (or a medium chunk's page's) first bit of this kind:
         it gets a set of its own (the caller's pointer may still be into
         LH_(bits_none) after an earlier granule of the same access made
         the array) */
      if ((UWord)bits - (UWord)LH_(bits_none) < sizeof(LH_(bits_none))
          || UNLIKELY((UWord)bits - LH_(frozen_base) < LH_(frozen_span)))
         bits = LH_(granule_own_bits)(ref, is_write, bits);
      *bits = old | mask;
      if ((UShort)(old | mask) == 0xFFFF) {
         if (ref->solo->page_shift == LH_SOLO_PAGE_SHIFT) {
            if (++*(is_write ? &ref->solo->full_written_granules
                             : &ref->solo->full_read_granules)
                == LH_GRANULES_PER_CHUNK)
               LH_(solo_bits_full)(ref->solo, is_write);
         } else {
            LH_(medium_granule_full)(ref->solo, is_write, ref->granule);
         }
      }
   } else {
      *bits = old | mask;
   }
   /* none of the bits set before (a first touch): all of them are new */
   if ((old & mask) == 0 && mask_bits != 0) return mask_bits;
   return LH_(popcount16)(mask & ~old);
}

/* Where the stretch [g, end) leaves g's granule: end, or the granule's end. */
static inline __attribute__((always_inline))
Addr LH_(granule_stop)(Addr g, Addr end)
{
   Addr g_end = (g | (LH_GRANULE_SIZE - 1)) + 1;
   return end < g_end ? end : g_end;
}

/* The bits of bytes [g, stop) in their granule's 16-bit set (stop at most
   the granule's end, LH_(granule_stop)). */
static inline __attribute__((always_inline))
UShort LH_(granule_mask)(Addr g, Addr stop)
{
   return (UShort)(((1u << (stop - g)) - 1) << (g & (LH_GRANULE_SIZE - 1)));
}

/* Sets the bits of [a, end) (all in one chunk) whose granules' bit sets
   are at read_base and written_base, 'stride' UShorts apart, the first
   for the granule at 'base'; ref holds the block and its solo chunk.
   Returns how many bits were newly set.  (Inlined: the stride is a
   constant at each call: the access path's slots and runs keep where
   a block's sets are, lh_access_path.c.) */
static inline __attribute__((always_inline))
UInt LH_(shadow_mark_granules)(LH_GranuleRef* ref, Bool is_write, UShort* read_base,
                               UShort* written_base, UWord stride, Addr base, Addr a, Addr end)
{
   UInt newly = 0;
   Addr g;
   for (g = a; g < end; ) {
      Addr stop = LH_(granule_stop)(g, end);
      UWord index = ((g - base) >> LH_GRANULE_BITS) * stride;
      ref->read_bits = read_base + index;
      ref->written_bits = written_base + index;
      newly += LH_(shadow_mark)(ref, is_write, LH_(granule_mask)(g, stop),
                                (UInt)(stop - g));
      g = stop;
   }
   return newly;
}

/* LH_(shadow_mark_granules) in a solo or medium chunk c whose first byte is at
   base: a solo chunk's arrays are read once (they change only as
   LH_(shadow_mark) allows, lh_shadow.h), a medium chunk's pages granule
   by granule (a page's set may come or go at each). */
static inline __attribute__((always_inline))
UInt LH_(shadow_mark_chunk)(LH_GranuleRef* ref, Bool is_write, LH_SoloChunk* c,
                            Addr base, Addr a, Addr end)
{
   UInt newly = 0;
   Addr g;
   if (c->page_shift == LH_SOLO_PAGE_SHIFT) {
      ref->granule = 0;            /* (read in a medium chunk only) */
      return LH_(shadow_mark_granules)(ref, is_write, c->array[0], c->array[1], 1, base, a, end);
   }
   for (g = a; g < end; ) {
      Addr stop = LH_(granule_stop)(g, end);
      UWord gi = (g - base) >> LH_GRANULE_BITS;
      UShort* bits = LH_(chunk_bits)(c, is_write, gi);
      /* (LH_(shadow_mark) reads the set of its kind only) */
      ref->granule = gi;
      ref->read_bits = bits;
      ref->written_bits = bits;
      newly += LH_(shadow_mark)(ref, is_write, LH_(granule_mask)(g, stop),
                                (UInt)(stop - g));
      g = stop;
   }
   return newly;
}

/* The inline filter: an access of at most LH_FILTER_MAX_ACCESS bytes at
   address a can touch a live block only if (a - LH_(filter_base)) <u
   LH_(filter_span).  The range only ever widens (a superset of every live
   block); the exact answer comes from the granule map. */
#define LH_FILTER_MAX_ACCESS 64
extern Addr  LH_(filter_base);
extern UWord LH_(filter_span);

/* A new block record, all zero but for shadow_index, its index
   (not 0: owner 0 is "no block"); it owns no memory yet.  Records are
   reused, the last freed first. */
struct LH_Block* LH_(block_record_new)(void);
/* Frees a record: it is no longer live (its site is set to NULL). */
void LH_(block_record_free)(struct LH_Block* b);
/* Records ever used: indices 1 .. LH_(block_records_used)() - 1; a
   record is live when its site is not NULL. */
UInt LH_(block_records_used)(void);
/* Gives every record page back to Valgrind's arena, where the profile's
   output reuses it (a program that freed its blocks before exiting keeps
   them 96 bytes each at its peak, 9 MB for 98,000 blocks), and the
   cached empty shadow chunks with them (32 KiB each, up to 64), and
   returns True; indices restart at 1.  Does nothing and returns False
   while a record is live. */
Bool LH_(block_records_release)(void);

/* The owner number of a's granule (0: no live block), without
   materialising a whole-chunk entry. */
UInt LH_(shadow_owner)(Addr a);

/* One past the last granule a block of 'size' bytes at payload owns: a
   zero-size block owns its first granule too, so that every live block
   can be found from its payload (lh_heap.c). */
static inline Addr LH_(owned_end)(Addr payload, SizeT size)
{
   return (payload + (size > 0 ? size : 1) + LH_GRANULE_SIZE - 1)
          & ~(LH_GRANULE_SIZE - 1);
}

/* Makes the granules of [lo, hi) belong to index, bits clear; lo must be
   16-aligned.  Granules of another live block are taken over (only a
   custom allocator that overlaps blocks can cause that). */
void LH_(shadow_own)(UInt index, Addr lo, Addr hi);

/* Forgets the granules of [lo, hi) that index owns (owner and bits); lo
   16-aligned. */
void LH_(shadow_disown)(UInt index, Addr lo, Addr hi);

/* Clears the bits of the bytes at and above 'end' in end's granule: used
   when a block shrinks to end inside a granule. */
void LH_(shadow_clear_bits_from)(Addr end);

/* Copies the bits of n bytes from src to dst (both 16-aligned, owned). */
void LH_(shadow_copy_bits)(Addr dst, Addr src, SizeT n);

/* Counts over [lo, lo+size): bytes never read, never written, neither,
   and written but never read. */
typedef struct {
   ULong never_read, never_written, never_accessed, written_never_read;
} LH_ByteCensus;
void LH_(shadow_census)(Addr lo, SizeT size, LH_ByteCensus* out);

/* Bytes of [lo, hi) (any alignment) whose read / written bit is set. */
void LH_(shadow_count_set)(Addr lo, Addr hi, ULong* read_set, ULong* written_set);

/* Set once LH_(shadow_own) took granules over from another live block
   (a custom allocator announcing overlapping blocks): from then on the
   access path's per-block shortcuts are off (lh_access.c). */
extern Bool LH_(shadow_overlap_seen);

/* Bytes of memory the shadow currently holds (tables and chunks). */
ULong LH_(shadow_bytes_allocated)(void);

#endif
