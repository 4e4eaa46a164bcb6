/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_access_private.h: what the three parts of the   ---*/
/*--- access tracking share.                                       ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   lh_access.c       block events (new, resized, retired), the folds of
                     blocks into their sites, the profile's "access" objects
   lh_access_map.c   each site's access map (per offset, or 64 parts)
   lh_access_path.c  the access path: the helpers the generated code calls,
                     the kernel's accesses in syscalls; with
                     lh_access_slots.c (the access slots) and
                     lh_access_pending.c (accesses counted later), whose
                     shared state is lh_access_path_private.h's
*/
#ifndef LH_ACCESS_PRIVATE_H
#define LH_ACCESS_PRIVATE_H

#include "pub_tool_basics.h"
#include "lh_include.h"

struct LH_Json;

#define K LH_ACCESS_MAP_BUCKETS

/*--- lh_access_map.c ------------------------------------------------*/

/* A block of 'size' bytes now belongs to the site (new, or resized). */
void LH_(map_note_block_size)(LH_SiteAccess* sa, SizeT size);
/* The site's map, made at the first access to any of its blocks. */
LH_SiteMap* LH_(site_map)(LH_SiteAccess* sa);
/* map_add when the access is not in the cached part. */
void LH_(map_add_part)(LH_SiteMap* m, const LH_Block* b, SizeT offset,
                       UWord n, SizeT size, ULong* counts);
/* The site's "map" member of the profile. */
void LH_(access_write_map)(struct LH_Json* j, const LH_SiteAccess* sa);

static inline UWord bucket_of(SizeT offset, SizeT size)
{
   return (UWord)(((ULong)(offset + 1) * K - 1) / size);
}

/* bucket_of without the integer division, for the access path: the
   floating-point estimate is within one of the exact quotient (offsets are
   below 2^47, so x and the error stay far inside a double's 53 bits), and
   the two integer checks make it exact. */
static inline UWord bucket_of_fast(SizeT offset, SizeT size, double inv_size)
{
   ULong x = (ULong)(offset + 1) * K - 1;
   ULong j = (ULong)(Long)((double)(Long)x * inv_size);
   if (j * size > x) j--;
   else if ((j + 1) * size <= x) j++;
   return (UWord)j;
}

/* n per-offset counts of map m from 'offset' on, each plus 'amount':
   moves the map to wider counts first when one would pass its width's
   largest value (65,535, then 2^32 - 1).  The per-offset adds that map_add
   does not do itself come here: a count at its width's limit, a map of
   8-byte counts, a slot's pending repeats, a run. */
void LH_(map_bytes_add)(LH_SiteMap* m, Bool is_write, SizeT offset, UWord n,
                        ULong amount);

/* Eight 2-byte or four 4-byte counters at a time, at any alignment of
   their size (a per-offset map's counts for an 8-byte access: one or two
   vector adds instead of eight). */
typedef UShort LH_EightCounts2 __attribute__((vector_size(16), aligned(2), may_alias));
typedef UInt LH_FourCounts __attribute__((vector_size(16), aligned(4), may_alias));
typedef ULong LH_TwoCounts __attribute__((vector_size(16), aligned(8), may_alias));

/* Adds one to the 8 counts at c, unless one of them is 65,535 (then
   False: LH_(map_bytes_add) must widen the map first). */
static inline __attribute__((always_inline)) Bool add_one_to_8_of_2(UShort* c)
{
   const LH_EightCounts2 one = { 1, 1, 1, 1, 1, 1, 1, 1 };
   const LH_EightCounts2 full = { 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
                                  0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF };
   LH_EightCounts2* v = (LH_EightCounts2*)c;
   LH_EightCounts2 all = *v;
   LH_TwoCounts any_full = (LH_TwoCounts)(all == full);
   if (UNLIKELY((any_full[0] | any_full[1]) != 0)) return False;
   *v = all + one;
   return True;
}

/* Adds one to the 8 counts at c, unless one of them is 2^32 - 1 (then
   False: LH_(map_bytes_add) must widen the map first). */
static inline __attribute__((always_inline)) Bool add_one_to_8_of_4(UInt* c)
{
   const LH_FourCounts one = { 1, 1, 1, 1 };
   const LH_FourCounts full = { 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu };
   LH_FourCounts* v = (LH_FourCounts*)c;
   LH_FourCounts lo = v[0], hi = v[1];
   LH_TwoCounts any_full = (LH_TwoCounts)((lo == full) | (hi == full));
   if (UNLIKELY((any_full[0] | any_full[1]) != 0)) return False;
   v[0] = lo + one;
   v[1] = hi + one;
   return True;
}

/* n bytes at offset 'offset' of block b (of 'size' bytes) were accessed.
   4-byte counts are tried first: a site's accesses at 2 bytes are
   bounded (65,535 an offset), a hot site's are all at 4.  Eight counts
   at a time while eight are left (a word's access, a new block's fill:
   24 or 32 bytes are three or four vector adds, not a loop of compares),
   then one by one; the first count at its width's limit stops the adds
   there, and LH_(map_bytes_add) widens the map and does the rest. */
static inline __attribute__((always_inline))
void map_add(LH_SiteMap* m, const LH_Block* b, SizeT offset,
             UWord n, SizeT size, Bool is_write)
{
   if (m->kind == LH_MAP_BYTES) {
      UWord i = 0;
      if (LIKELY(m->width == 4)) {
         UInt* c = LH_(map_counts4)(m, is_write) + offset;
         if (n == 8) {                 /* a word: the commonest */
            if (LIKELY(add_one_to_8_of_4(c))) return;
         } else {
            while (n - i >= 8 && LIKELY(add_one_to_8_of_4(c + i))) i += 8;
            for (; i < n && LIKELY(c[i] != 0xFFFFFFFFu); i++) c[i]++;
         }
      } else if (m->width == 2) {
         UShort* c = LH_(map_counts2)(m, is_write) + offset;
         if (n == 8) {
            if (LIKELY(add_one_to_8_of_2(c))) return;
         } else {
            while (n - i >= 8 && LIKELY(add_one_to_8_of_2(c + i))) i += 8;
            for (; i < n && LIKELY(c[i] != 0xFFFF); i++) c[i]++;
         }
      }
      if (LIKELY(i == n)) return;
      LH_(map_bytes_add)(m, is_write, offset + i, n - i, 1);
   } else {
      ULong* counts = LH_(map_counts)(m, is_write);
      const LH_PartCache* cache = LH_(map_part_cache)(m);
      if (cache->block == b && offset >= cache->lo && offset + n <= cache->hi)
         counts[cache->index] += n;
      else
         LH_(map_add_part)(m, b, offset, n, size, counts);
   }
}

/*--- lh_access_path.c, lh_access_slots.c, lh_access_pending.c ------*/

/* The access slots' epoch moves on: every slot is invalid. */
void LH_(slots_new_epoch)(void);
/* Block b is going away or changing size: no slot may point to it. */
void LH_(slots_forget)(LH_Block* b);
/* After a block event: slots are off once blocks overlap. */
void LH_(slots_check_overlap)(void);
/* Adds every slot's pending repeats to the maps: before a map is read
   or changes its layout. */
void LH_(slots_flush_repeats)(void);
/* Registers the kernel's accesses during syscalls (pre/post mem). */
void LH_(access_path_init)(void);
/* The program's accesses that missed the fast checks, by the way they
   took (--stats=yes, LH_(access_path_print_stats) in lh_access.c: the
   tests of the access path's mechanisms read them). */
typedef struct {
   ULong in_slot_block;      /* note_access_in_slot_block */
   ULong slow;               /* note_access_slow, with a slot */
   ULong queued;             /* of those, counted later */
} LH_AccessPathStats;
extern LH_AccessPathStats LH_(access_path_stats);

#endif
