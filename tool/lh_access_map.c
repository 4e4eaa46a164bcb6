/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_access_map.c: each site's access map.                     ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   The access map
   --------------
   While every block of a site has the same size N <= 4096, the site keeps
   exact per-offset counts (2 x N 64-bit counters), in one allocation
   (LH_SiteMap) that each accessed block points to, so the access path
   reaches it without going through the site record.  Otherwise the map has
   LH_ACCESS_MAP_BUCKETS parts per block: byte offset o of a block of size
   S falls in part ((o+1)*K - 1) / S, which is exactly the part j whose
   range [j*S/K, (j+1)*S/K) (integer division) holds o.  When a site that
   had one size sees another, its per-offset counts are converted into
   parts of that size, so both kinds stay exact sums.  Each access is
   placed by the block's size at the time of the access.

   Every access adds its bytes to the map, so the map's sums are the
   site's read and written bytes.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"
#include "lh_json.h"
#include "lh_access_private.h"

/* Turns a per-offset map into parts of its block size, in place. */
static void map_to_buckets(LH_SiteMap* m)
{
   ULong reads[K], writes[K];
   SizeT o;
   UWord j;
   tl_assert(m->kind == LH_MAP_BYTES);
   VG_(memset)(reads, 0, sizeof(reads));
   VG_(memset)(writes, 0, sizeof(writes));
   for (o = 0; o < m->block_size; o++) {
      j = bucket_of(o, m->block_size);
      reads[j] += m->reads[o];
      writes[j] += m->writes[o];
   }
   if (m->capacity < K) {
      /* a map of small blocks: the parts need more room than its counts
         had; the header stays where the blocks point to it */
      m->capacity = K;
      m->reads = VG_(malloc)("lh.access.map.parts", 2 * K * sizeof(ULong));
      m->writes = m->reads + K;
   }
   VG_(memset)(m->reads, 0, 2 * m->capacity * sizeof(ULong));
   VG_(memcpy)(m->reads, reads, sizeof(reads));
   VG_(memcpy)(m->writes, writes, sizeof(writes));
   m->kind = LH_MAP_BUCKETS;
   m->part_cache_block = NULL;
}

void LH_(map_note_block_size)(LH_SiteAccess* sa, SizeT size)
{
   if (sa->map_kind != LH_MAP_NONE && size != sa->map_block_size)
      sa->mixed_sizes = True;
   switch (sa->map_kind) {
      case LH_MAP_NONE:
         sa->map_kind = size <= LH_ACCESS_MAP_MAX_BYTES ? LH_MAP_BYTES : LH_MAP_BUCKETS;
         sa->map_block_size = size;
         break;
      case LH_MAP_BYTES:
         if (size != sa->map_block_size) {
            sa->map_kind = LH_MAP_BUCKETS;
            if (sa->map != NULL) {
               LH_(slots_flush_repeats)();   /* they point into its counts */
               map_to_buckets(sa->map);
               LH_(slots_new_epoch)();   /* slots may hold its old counts */
            }
         }
         break;
      case LH_MAP_BUCKETS:
         break;
   }
}

LH_SiteMap* LH_(site_map)(LH_SiteAccess* sa)
{
   LH_SiteMap* m = sa->map;
   UWord capacity;
   SizeT bytes;
   if (m != NULL) return m;
   /* a per-offset map holds just its block size's counts, so that a
      site of small blocks has its counts on a few cache lines */
   capacity = sa->map_kind != LH_MAP_BYTES ? K
              : sa->map_block_size > 0 ? sa->map_block_size : 1;
   bytes = sizeof(LH_SiteMap) + 2 * capacity * sizeof(ULong);
   m = VG_(malloc)("lh.access.map", bytes);
   VG_(memset)(m, 0, bytes);
   m->kind = sa->map_kind;
   m->block_size = sa->map_block_size;
   m->capacity = capacity;
   m->reads = m->counts;
   m->writes = m->counts + capacity;
   sa->map = m;
   return m;
}

/* 1.0 / size for the sizes of small blocks, each computed the first
   time a block of that size leaves its map's cached part (0: not yet).
   The block record has no room to keep 1/size, and a program reading one
   byte of each of many small blocks (a hash map's probes, a ring of
   messages) would otherwise pay a floating-point division per access.
   Only the pages of sizes in use are ever touched. */
static double inv_size_of_small[LH_ACCESS_MAP_MAX_BYTES + 1];

static inline double inv_size_of(SizeT size)
{
   double inv;
   if (size > LH_ACCESS_MAP_MAX_BYTES) return 1.0 / (double)size;
   inv = inv_size_of_small[size];
   if (UNLIKELY(inv == 0.0)) inv = inv_size_of_small[size] = 1.0 / (double)size;
   return inv;
}

/* map_add when the access is not in the cached part: find its part (and
   cache it), or count byte by byte when it straddles two parts. */
__attribute__((noinline))
void LH_(map_add_part)(LH_SiteMap* m, const LH_Block* b, SizeT offset,
                  UWord n, SizeT size, ULong* counts)
{
   /* bucket_of_fast is exact whatever the estimate's rounding, so a
      stored reciprocal gives the same part as a fresh division */
   UWord first = bucket_of_fast(offset, size, inv_size_of(size));
   /* part 'first' covers [first*size/K, (first+1)*size/K) */
   SizeT first_lo = (SizeT)(((ULong)first * size) / K);
   SizeT first_end = (SizeT)(((ULong)(first + 1) * size) / K);
   m->part_cache_block = b;
   m->part_cache_lo = first_lo;
   m->part_cache_hi = first_end;
   m->part_cache_index = first;
   if (LIKELY(offset + n <= first_end)) {
      counts[first] += n;
   } else {
      /* Across parts (a block smaller than K parts' worth has parts of a
         byte or two, so most of its accesses do this): each part gets
         its share, and a part's end is a multiplication and a shift, not
         a division per byte. */
      SizeT end = offset + n;
      SizeT o = first_end;
      UWord j = first;
      counts[first] += first_end - offset;
      while (o < end) {
         SizeT part_end = (SizeT)(((ULong)(++j + 1) * size) / K);
         SizeT stop = end < part_end ? end : part_end;
         counts[j] += stop - o;
         o = stop;
      }
   }
}

static void write_counts(LH_Json* j, const HChar* key, const ULong* c, UWord n)
{
   UWord i;
   LH_(json_array_begin)(j, key);
   for (i = 0; i < n; i++) LH_(json_u64)(j, NULL, c[i]);
   LH_(json_array_end)(j);
}

/* Every access adds its bytes to the site's map (whatever its kind, and
   converting a per-offset map into parts keeps the sums), so the map's
   sums are the site's read and written bytes: the access path keeps no
   other byte counters. */
ULong LH_(access_site_bytes)(const LH_Site* site, Bool written)
{
   const LH_SiteMap* m = site->access.map;
   const ULong* counts;
   UWord i, n;
   ULong total = 0;
   if (m == NULL) return 0;
   LH_(slots_flush_repeats)();
   counts = written ? m->writes : m->reads;
   n = m->kind == LH_MAP_BYTES ? m->block_size : K;
   for (i = 0; i < n; i++) total += counts[i];
   return total;
}

void LH_(access_write_map)(LH_Json* j, const LH_SiteAccess* sa)
{
   const LH_SiteMap* m = sa->map;
   if (m == NULL) {
      LH_(json_null)(j, "map");
      return;
   }
   LH_(slots_flush_repeats)();
   LH_(json_object_begin)(j, "map");
   if (m->kind == LH_MAP_BYTES) {
      LH_(json_string)(j, "kind", "bytes");
      LH_(json_u64)(j, "block_size", m->block_size);
      write_counts(j, "reads", m->reads, m->block_size);
      write_counts(j, "writes", m->writes, m->block_size);
   } else {
      LH_(json_string)(j, "kind", "buckets");
      LH_(json_u64)(j, "buckets", K);
      write_counts(j, "reads", m->reads, K);
      write_counts(j, "writes", m->writes, K);
   }
   LH_(json_object_end)(j);
}
