/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_shadow_medium.c: the shadow of 64 KiB stretches shared by ---*/
/*--- a few blocks of a few KiB: two parts a page, bits per page.  ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   A medium chunk (lh_shadow.c's opening comment says when a stretch gets
   one) cuts its 64 KiB into 64 pages of 1 KiB (64 granules).  Per page:

      part[p][0..1]    { owner, lo, hi }: granules [lo, hi) of the page
                       are block 'owner''s (0: unused, lo = hi = 0); at
                       most two blocks a page
      page_bits[w][p]  (w: 0 read, 1 written) the base of the page's
                       sets: granule gi's set is page_bits[w][gi >> 6] + gi
                       (LH_(chunk_bits)), so a base is one of
                         LH_(bits_none)   no owned granule has a bit set
                         LH_(bits_all)    every owned granule's 16 bits
                                          are set (the page's granules of
                                          no block: "don't care")
                         own - 64 * p     a set of its own (128 bytes
                                          from a pool of 8 KiB slabs),
                                          where granules of no block are
                                          clear
                         frozen - 64 * p  a frozen set: the same, shared
                                          by every page of the same bits
                                          and never written
                                          (lh_shadow_frozen.c)
      full[w][p]       how many sets of an own page are full

   Owned granules change hands only by LH_(medium_own) and
   LH_(medium_disown), and a new owner starts from clear bits, so the
   bits of a granule of no block are never read: LH_(shadow_lookup) finds
   no owner, the census reads a live block's granules only, and a chunk
   turned shared (LH_(medium_to_shared)) gets owner 0 and clear bits
   there.  That is what lets the gap between two blocks (the client
   arena's 32 bytes between two database pages) leave a page at
   LH_(bits_all) when both blocks' granules there are full.

   A page's set of its own is made when a bit is set in a page at
   LH_(bits_none) (LH_(shadow_mark) calls LH_(chunk_own_bits)), or when
   bits are cleared in a page at LH_(bits_all) (its owned granules start
   full, the others clear); it goes back to the pool when its full count
   reaches the page's owned granules (LH_(medium_granule_full): the page
   moves to LH_(bits_all)), and when an owning or disowning leaves it all
   clear (LH_(bits_none)) or all of its owned granules full.  A database
   whose 4 KiB pages are written in full and read in part keeps 128 bytes
   for each 1 KiB read in part, not 8 KiB a stretch.

   Frozen sets.  Such a database's pages are read alike (a header, a cell
   pointer array and cells at the same offsets): sqlite3 inserting
   200,000 rows had 11,500 sets of their own at once, 4,300 distinct.
   Every medium chunk is on a list, and a sweep (LH_(medium_sweep)) hands
   each page's set of its own to LH_(frozen_intern) and points the page
   to the frozen copy it returns, the set going back to the pool.  A
   frozen set is never written: before a bit of such a page is set or
   cleared, the page gets a set of its own again, a copy (page_own: from
   LH_(shadow_mark) through LH_(medium_own_bits), and from the clearing
   below), and the frozen set loses a user; settling and freeing drop a
   frozen set like an own one.  The full counts stay with the page.  A
   sweep comes at the start of LH_(medium_own) and LH_(medium_disown)
   (an allocation or a free: no caller then holds a pointer into a
   page's set, which a sweep may hand back to the pool), once
   SWEEP_MIN_SETS sets of their own, or a quarter of the frozen sets if
   more, were made since the last.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"
#include "lh_shadow.h"
#include "lh_shadow_private.h"

#define PAGE_SET_BYTES (LH_PAGE_GRANULES * sizeof(UShort))   /* 128 */

/*------------------------------------------------------------*/
/*--- The pool of pages' sets                              ---*/
/*------------------------------------------------------------*/

/* Sets come from slabs of 64 (8 KiB, on a cache line), never given back
   to the arena: a free set is chained through its first word. */
#define SETS_PER_SLAB 64
static void* free_sets = NULL;
static UInt own_sets_in_use = 0;


/* A sweep (LH_(medium_sweep)) comes once this many sets of their own are
   in use: at least SWEEP_MIN_SETS more than the last sweep left, and a
   quarter of the frozen sets, so that a sweep's work (every medium
   chunk's page bases, each set of its own hashed) is paid for by the
   sets made since the last. */
#define SWEEP_MIN_SETS 480
static UInt sweep_at = SWEEP_MIN_SETS;
static LH_MediumChunk* medium_chunks = NULL;

static UShort* set_new(void)
{
   void* set;
   if (free_sets == NULL) {
      SizeT bytes = SETS_PER_SLAB * PAGE_SET_BYTES;
      Addr slab = (Addr)VG_(malloc)("lh.shadow.page", bytes + 63);
      Addr first = (slab + 63) & ~(Addr)63;
      Int i;
      LH_(shadow_bytes) += bytes + 63;
      for (i = SETS_PER_SLAB - 1; i >= 0; i--) {
         void* s = (void*)(first + i * PAGE_SET_BYTES);
         *(void**)s = free_sets;
         free_sets = s;
      }
   }
   set = free_sets;
   free_sets = *(void**)set;
   own_sets_in_use++;
   return set;
}

static void set_release(UShort* set)
{
   *(void**)set = free_sets;
   free_sets = set;
   own_sets_in_use--;
}

/*------------------------------------------------------------*/
/*--- Pages                                                ---*/
/*------------------------------------------------------------*/

static inline Bool base_is_shared(const UShort* base)
{
   return base == LH_(bits_none) || base == LH_(bits_all);
}

/* Page p's own set of kind w (its base must not be shared). */
static inline UShort* page_set(const LH_MediumChunk* m, Int w, UWord p)
{
   return m->page_bits[w][p] + p * LH_PAGE_GRANULES;
}

static inline void page_set_own(LH_MediumChunk* m, Int w, UWord p, UShort* set)
{
   m->page_bits[w][p] = set - p * LH_PAGE_GRANULES;
}

/* Page p's set of kind w is a frozen one (shared by content, never
   written: lh_shadow_frozen.c). */
static inline Bool page_is_frozen(const LH_MediumChunk* m, Int w, UWord p)
{
   return !base_is_shared(m->page_bits[w][p]) && LH_(set_is_frozen)(page_set(m, w, p));
}

/* Page p's set of kind w (not a shared array) goes: back to the pool, or
   one user fewer of a frozen set. */
static void page_drop_set(LH_MediumChunk* m, Int w, UWord p)
{
   UShort* set = page_set(m, w, p);
   if (LH_(set_is_frozen)(set)) LH_(frozen_release)(set);
   else set_release(set);
}

/* Granules of page p with an owner (unused parts are [0, 0)). */
static inline UInt page_owned(const LH_MediumChunk* m, UWord p)
{
   const LH_PagePart* part = m->part[p];
   return (UInt)(part[0].hi - part[0].lo) + (UInt)(part[1].hi - part[1].lo);
}

static inline Bool page_granule_owned(const LH_MediumChunk* m, UWord p, UInt k)
{
   const LH_PagePart* part = m->part[p];
   return (part[0].owner != 0 && k - part[0].lo < (UInt)(part[0].hi - part[0].lo))
          || (part[1].owner != 0 && k - part[1].lo < (UInt)(part[1].hi - part[1].lo));
}

/* Page p's set of kind w of its own, made if it has none. */
static UShort* page_own(LH_MediumChunk* m, Int w, UWord p)
{
   UShort* base = m->page_bits[w][p];
   UShort* set;
   UInt k;
   if (!base_is_shared(base) && !page_is_frozen(m, w, p)) return page_set(m, w, p);
   set = set_new();
   if (!base_is_shared(base)) {
      /* a frozen set: the same bits (and full count) in a set of its own */
      UShort* frozen = page_set(m, w, p);
      VG_(memcpy)(set, frozen, PAGE_SET_BYTES);
      LH_(frozen_release)(frozen);
   } else if (base == LH_(bits_none)) {
      VG_(memset)(set, 0, PAGE_SET_BYTES);
      m->full[w][p] = 0;
   } else {
      /* every owned granule full, the others clear */
      UInt full = 0;
      for (k = 0; k < LH_PAGE_GRANULES; k++) {
         Bool owned = page_granule_owned(m, p, k);
         set[k] = owned ? 0xFFFF : 0;
         full += owned;
      }
      m->full[w][p] = (UChar)full;
   }
   page_set_own(m, w, p, set);
   return set;
}

/* Page p of kind w goes back to a shared array when it can: all of its
   owned granules full, or no bit set (its set of its own, or a frozen
   one, goes). */
static void page_settle(LH_MediumChunk* m, Int w, UWord p)
{
   UShort* set;
   UInt owned, k;
   if (base_is_shared(m->page_bits[w][p])) return;
   set = page_set(m, w, p);
   owned = page_owned(m, p);
   if (owned != 0 && m->full[w][p] == owned) {
      page_drop_set(m, w, p);
      m->page_bits[w][p] = LH_(bits_all);
      m->full[w][p] = 0;
      return;
   }
   for (k = 0; k < LH_PAGE_GRANULES && set[k] == 0; k++) {}
   if (k == LH_PAGE_GRANULES) {
      page_drop_set(m, w, p);
      m->page_bits[w][p] = LH_(bits_none);
      m->full[w][p] = 0;
   }
}

UShort* LH_(medium_own_bits)(LH_MediumChunk* m, Bool is_write, UWord gi)
{
   return page_own(m, is_write, gi >> LH_PAGE_SHIFT) + (gi & (LH_PAGE_GRANULES - 1));
}

void LH_(medium_granule_full)(LH_SoloChunk* c, Bool is_write, UWord gi)
{
   LH_MediumChunk* m = (LH_MediumChunk*)c;
   UWord p = gi >> LH_PAGE_SHIFT;
   if (++m->full[is_write][p] == page_owned(m, p)) page_settle(m, is_write, p);
}

/*------------------------------------------------------------*/
/*--- Chunks                                               ---*/
/*------------------------------------------------------------*/

LH_MediumChunk* LH_(medium_new)(void)
{
   LH_MediumChunk* m = VG_(calloc)("lh.shadow.medium", 1, sizeof(LH_MediumChunk));
   UWord p;
   LH_(shadow_bytes) += sizeof(LH_MediumChunk);
   m->bits.page_shift = LH_PAGE_SHIFT;
   m->next = medium_chunks;
   if (medium_chunks != NULL) medium_chunks->prev = m;
   medium_chunks = m;
   m->bits.array[0] = m->bits.array[1] = NULL;
   for (p = 0; p < LH_PAGES_PER_CHUNK; p++)
      m->page_bits[0][p] = m->page_bits[1][p] = LH_(bits_none);
   return m;
}

void LH_(medium_free)(LH_MediumChunk* m)
{
   UWord p;
   Int w;
   for (w = 0; w < 2; w++)
      for (p = 0; p < LH_PAGES_PER_CHUNK; p++)
         if (!base_is_shared(m->page_bits[w][p])) page_drop_set(m, w, p);
   if (m->prev != NULL) m->prev->next = m->next;
   else medium_chunks = m->next;
   if (m->next != NULL) m->next->prev = m->prev;
   LH_(shadow_bytes) -= sizeof(LH_MediumChunk);
   VG_(free)(m);
}

UInt LH_(medium_owner)(const LH_MediumChunk* m, UWord gi)
{
   const LH_PagePart* p = m->part[gi / LH_PAGE_GRANULES];
   UInt k = (UInt)(gi % LH_PAGE_GRANULES);
   if (k - p[0].lo < (UInt)(p[0].hi - p[0].lo)) return p[0].owner;
   if (k - p[1].lo < (UInt)(p[1].hi - p[1].lo)) return p[1].owner;
   return 0;
}

Bool LH_(shadow_medium_lookup)(UWord e, UWord gi, LH_GranuleRef* ref)
{
   LH_MediumChunk* m = (LH_MediumChunk*)(e - LH_ENTRY_MEDIUM);
   UInt owner = LH_(medium_owner)(m, gi);
   if (owner == 0) return False;
   ref->block = LH_(block_record)(owner);
   ref->read_bits = m->page_bits[0][gi >> LH_PAGE_SHIFT] + gi;
   ref->written_bits = m->page_bits[1][gi >> LH_PAGE_SHIFT] + gi;
   ref->solo = &m->bits;
   ref->granule = gi;
   return True;
}

/* Clears both bit sets of granules [lo, hi) of the chunk (they are
   changing hands), keeping the full counts.  For a disowning
   (leaving True) the granules will have no owner: a page at
   LH_(bits_all) stays there ("don't care"). */
static void medium_clear_bits(LH_MediumChunk* m, UWord lo, UWord hi, Bool leaving)
{
   Int w;
   for (w = 0; w < 2; w++) {
      UWord gi = lo;
      while (gi < hi) {
         UWord p = gi >> LH_PAGE_SHIFT;
         UWord page_end = (p + 1) * LH_PAGE_GRANULES;
         UWord stop = hi < page_end ? hi : page_end;
         UShort* base = m->page_bits[w][p];
         if (base == LH_(bits_none) || (leaving && base == LH_(bits_all))) {
            gi = stop;
            continue;
         }
         if (page_is_frozen(m, w, p)) {
            /* (a copy of its own only if there is a bit to clear) */
            UWord k = gi;
            while (k < stop && base[k] == 0) k++;
            if (k == stop) {
               gi = stop;
               continue;
            }
         }
         page_own(m, w, p);
         base = m->page_bits[w][p];
         for (; gi < stop; gi++) {
            if (base[gi] == 0xFFFF) m->full[w][p]--;
            base[gi] = 0;
         }
      }
   }
}

/* The pages of granules [g_lo, g_hi) go back to the shared arrays where
   they can (after their parts changed). */
static void medium_settle(LH_MediumChunk* m, UWord g_lo, UWord g_hi)
{
   UWord p;
   for (p = g_lo >> LH_PAGE_SHIFT; p <= (g_hi - 1) >> LH_PAGE_SHIFT; p++) {
      page_settle(m, 0, p);
      page_settle(m, 1, p);
   }
}

void LH_(medium_clear_granule_from)(LH_MediumChunk* m, UWord gi, UInt keep)
{
   UShort mask = (UShort)((1u << keep) - 1);
   Int w;
   for (w = 0; w < 2; w++) {
      UShort* set = LH_(chunk_bits)(&m->bits, w, gi);
      if ((*set & ~mask) == 0) continue;
      set = LH_(medium_own_bits)(m, w, gi);
      if (*set == 0xFFFF) m->full[w][gi >> LH_PAGE_SHIFT]--;
      *set &= mask;
   }
}

void LH_(medium_to_shared)(const LH_MediumChunk* m, LH_SharedChunk* c)
{
   UWord i;
   for (i = 0; i < LH_GRANULES_PER_CHUNK; i++) {
      UInt owner = LH_(medium_owner)(m, i);
      c->granule[i].owner = owner;
      c->granule[i].read_bits = owner != 0 ? *LH_(chunk_bits)(&m->bits, False, i) : 0;
      c->granule[i].written_bits = owner != 0 ? *LH_(chunk_bits)(&m->bits, True, i) : 0;
   }
   c->owned = m->owned;
}

/*------------------------------------------------------------*/
/*--- Owning and disowning                                 ---*/
/*------------------------------------------------------------*/

/* Granules [lo, hi) (lo < hi, both in one page, page-relative) with part
   p: the overlap's length. */
static inline UInt part_overlap(const LH_PagePart* p, UInt lo, UInt hi)
{
   UInt a = lo > p->lo ? lo : p->lo, b = hi < p->hi ? hi : p->hi;
   return p->owner != 0 && a < b ? b - a : 0;
}

/* The granules of [g_lo, g_hi) (chunk-relative) that lie in page `page`,
   as the page-relative [*lo, *hi). */
static inline void page_span(UWord page, UWord g_lo, UWord g_hi,
                             UInt* lo, UInt* hi)
{
   UWord base = page * LH_PAGE_GRANULES, end = base + LH_PAGE_GRANULES;
   *lo = (UInt)((g_lo > base ? g_lo : base) - base);
   *hi = (UInt)((g_hi < end ? g_hi : end) - base);
}

Bool LH_(medium_own)(LH_MediumChunk* m, UInt idx, UWord g_lo, UWord g_hi)
{
   UWord page, first = g_lo / LH_PAGE_GRANULES, last = (g_hi - 1) / LH_PAGE_GRANULES;
   Int pass;
   if (UNLIKELY(own_sets_in_use >= sweep_at)) LH_(medium_sweep)();
   for (pass = 0; pass < 2; pass++) {
      for (page = first; page <= last; page++) {
         LH_PagePart* p = m->part[page];
         UInt lo, hi;
         Int k, into = -1;
         page_span(page, g_lo, g_hi, &lo, &hi);
         for (k = 0; k < 2; k++) {
            if (p[k].owner == 0) continue;
            if (p[k].owner != idx) {
               if (part_overlap(&p[k], lo, hi) != 0) return False;
            } else if (into < 0 && p[k].lo <= hi && lo <= p[k].hi) {
               into = k;                         /* touches: grows */
            }
         }
         if (into < 0) {
            if (p[0].owner == 0) into = 0;
            else if (p[1].owner == 0) into = 1;
            else return False;                   /* a third part */
         }
         if (pass == 0) continue;
         if (p[into].owner == 0) {
            p[into].owner = idx;
            p[into].lo = (UChar)lo;
            p[into].hi = (UChar)hi;
            m->owned += hi - lo;
         } else {
            UInt had = p[into].hi - p[into].lo;
            if (lo < p[into].lo) p[into].lo = (UChar)lo;
            if (hi > p[into].hi) p[into].hi = (UChar)hi;
            m->owned += (UInt)(p[into].hi - p[into].lo) - had;
         }
      }
   }
   /* (the granules are owned now: a page at LH_(bits_all) makes its own
      set with them full, then they are cleared) */
   medium_clear_bits(m, g_lo, g_hi, False);
   medium_settle(m, g_lo, g_hi);
   return True;
}

Bool LH_(medium_disown)(LH_MediumChunk* m, UInt idx, UWord g_lo, UWord g_hi)
{
   UWord page, first = g_lo / LH_PAGE_GRANULES, last = (g_hi - 1) / LH_PAGE_GRANULES;
   Int pass;
   if (UNLIKELY(own_sets_in_use >= sweep_at)) LH_(medium_sweep)();
   for (pass = 0; pass < 2; pass++) {
      for (page = first; page <= last; page++) {
         LH_PagePart* p = m->part[page];
         UWord base = page * LH_PAGE_GRANULES;
         UInt lo, hi;
         Int k;
         page_span(page, g_lo, g_hi, &lo, &hi);
         for (k = 0; k < 2; k++) {
            UInt cut;
            if (p[k].owner != idx || (cut = part_overlap(&p[k], lo, hi)) == 0)
               continue;
            if (lo > p[k].lo && hi < p[k].hi) return False;   /* the middle */
            if (pass == 0) continue;
            medium_clear_bits(m, base + (lo > p[k].lo ? lo : p[k].lo),
                              base + (hi < p[k].hi ? hi : p[k].hi), True);
            m->owned -= cut;
            if (cut == (UInt)(p[k].hi - p[k].lo)) {
               p[k].owner = 0;
               p[k].lo = p[k].hi = 0;
            } else if (lo <= p[k].lo) {
               p[k].lo = (UChar)hi;
            } else {
               p[k].hi = (UChar)lo;
            }
         }
      }
   }
   medium_settle(m, g_lo, g_hi);
   return True;
}

/*------------------------------------------------------------*/
/*--- The sweep: sets of their own frozen                  ---*/
/*------------------------------------------------------------*/

void LH_(medium_sweep)(void)
{
   LH_MediumChunk* m;
   UInt quarter;
   for (m = medium_chunks; m != NULL; m = m->next) {
      UWord p;
      Int w;
      for (w = 0; w < 2; w++)
         for (p = 0; p < LH_PAGES_PER_CHUNK; p++) {
            UShort* set;
            UShort* frozen;
            if (base_is_shared(m->page_bits[w][p]) || page_is_frozen(m, w, p)) continue;
            set = page_set(m, w, p);
            frozen = LH_(frozen_intern)(set);
            if (frozen == NULL) continue;        /* the store is full */
            set_release(set);
            page_set_own(m, w, p, frozen);
         }
   }
   quarter = LH_(frozen_sets_in_use)() / 4;
   sweep_at = own_sets_in_use + (quarter > SWEEP_MIN_SETS ? quarter : SWEEP_MIN_SETS);
}
