/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_access_map.c: each site's access map.                     ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   The access map
   --------------
   While every block of a site has the same size N <= 4096, the site keeps
   exact per-offset counts (2 x N counters), in one allocation
   (LH_SiteMap) that each accessed block points to, so the access path
   reaches it without going through the site record.  Otherwise the map has
   LH_ACCESS_MAP_BUCKETS parts per block: byte offset o of a block of size
   S falls in part ((o+1)*K - 1) / S, which is exactly the part j whose
   range [j*S/K, (j+1)*S/K) (integer division) holds o.  When a site that
   had one size sees another, its per-offset counts are converted into
   parts of that size, so both kinds stay exact sums.  Each access is
   placed by the block's size at the time of the access.

   Per-offset counts start at 2 bytes (a site of 16-byte blocks: 64 bytes
   of counts; programs with thousands of sites of small blocks keep one
   map each, and most of those sites' counts stay small).  Every add to
   them checks that the count stays within its width (map_add: one compare
   per count, or per 8-byte access a vector compare; LH_(map_bytes_add)
   for any amount); an add that would pass 65,535 first moves the whole
   map to 4-byte counts allocated apart, one that would pass 2^32 - 1 from
   those to 8-byte counts (map_widen), then adds there, so no count is
   ever lost.  map_add adds to 2- and 4-byte counts itself (a hot site's
   counts pass 65,535 early); 8-byte ones take LH_(map_bytes_add).  A map
   of parts has 8-byte counts from the start: a part of a big block
   gathers bytes by the billion, and the access path's fastest adds (an
   armed part) carry no check.

     width 2, per offset:  [header | reads: N x 2 | writes: N x 2]
     width 4, per offset:  [header | (unused)]  ->  reads: N x 4 | writes: N x 4
     width 8, per offset:  [header | (unused)]  ->  reads: N x 8 | writes: N x 8
     parts:                [header | part cache | reads: K x 8 | writes: K x 8],
                           the counts apart when the per-offset map it was
                           made from had no room for them

   (The header is 32 bytes, a 16-byte block's map of width 2 96; a
   per-offset map has room for a part cache at least.  Counts apart are
   carved as the maps are, below; those of a map that moves on are given
   back when they were an arena block of their own, else left.)

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

/* The room a map of parts needs in counts[]: its part cache, then 2 x K
   8-byte counts. */
#define PARTS_ROOM (sizeof(LH_PartCache) + 2 * K * sizeof(ULong))

static LH_SiteMap* map_alloc(SizeT bytes);
static void map_counts_release(void* counts, SizeT bytes);

/* A per-offset count of m: offset o of the reads or the writes. */
static inline ULong bytes_count(LH_SiteMap* m, Bool is_write, SizeT o)
{
   switch (m->width) {
      case 2:  return LH_(map_counts2)(m, is_write)[o];
      case 4:  return LH_(map_counts4)(m, is_write)[o];
      default: return LH_(map_counts)(m, is_write)[o];
   }
}

/* Moves a per-offset map's counts to ones twice as wide allocated apart
   (a count is about to pass its width's largest value); the header stays
   where the blocks point to it, its 2-byte counts unused from then on. */
static __attribute__((noinline)) void map_widen(LH_SiteMap* m)
{
   UWord i, n = 2 * (UWord)m->capacity;   /* reads then writes, in every form */
   tl_assert(m->kind == LH_MAP_BYTES && m->width < 8);
   if (m->width == 2) {
      const UShort* from = LH_(map_counts2)(m, False);
      UInt* to = (UInt*)map_alloc(n * sizeof(UInt));
      for (i = 0; i < n; i++) to[i] = from[i];
      m->reads4 = to;
      m->writes4 = to + m->capacity;
      m->width = 4;
   } else {
      UInt* from = m->reads4;
      ULong* to = (ULong*)map_alloc(n * sizeof(ULong));
      for (i = 0; i < n; i++) to[i] = from[i];
      map_counts_release(from, n * sizeof(UInt));
      m->reads = to;
      m->writes = to + m->capacity;
      m->width = 8;
   }
}

void LH_(map_bytes_add)(LH_SiteMap* m, Bool is_write, SizeT offset, UWord n,
                        ULong amount)
{
   ULong* c8;
   UWord i = 0;
   if (m->width == 2) {
      UShort* c = LH_(map_counts2)(m, is_write) + offset;
      for (; i < n; i++) {
         if (amount > 0xFFFFu - c[i]) {
            map_widen(m);
            break;
         }
         c[i] += (UShort)amount;
      }
   }
   if (m->width == 4) {
      UInt* c = LH_(map_counts4)(m, is_write) + offset;
      for (; i < n; i++) {
         if (amount > 0xFFFFFFFFu - c[i]) {
            map_widen(m);
            break;
         }
         c[i] += (UInt)amount;
      }
   }
   c8 = LH_(map_counts)(m, is_write) + offset;
   for (; i < n; i++) c8[i] += amount;
}

/* Turns a per-offset map into parts of its block size, in place when its
   room allows. */
static void map_to_buckets(LH_SiteMap* m)
{
   ULong reads[K], writes[K];
   void* apart;
   SizeT o, apart_bytes;
   UWord j;
   tl_assert(m->kind == LH_MAP_BYTES);
   VG_(memset)(reads, 0, sizeof(reads));
   VG_(memset)(writes, 0, sizeof(writes));
   for (o = 0; o < m->block_size; o++) {
      j = bucket_of(o, m->block_size);
      reads[j] += bytes_count(m, False, o);
      writes[j] += bytes_count(m, True, o);
   }
   /* the counts apart, if any, and their bytes */
   apart = m->width == 2 ? NULL : (void*)m->reads;
   apart_bytes = 2 * (SizeT)m->capacity * m->width;
   if (apart != NULL && apart_bytes >= 2 * K * sizeof(ULong)) {
      /* the counts apart have room for the parts */
   } else if (m->room >= PARTS_ROOM) {
      if (apart != NULL) map_counts_release(apart, apart_bytes);
      m->reads = m->counts + sizeof(LH_PartCache) / sizeof(ULong);
   } else {
      /* a map of small blocks: the parts need more room than its counts
         had */
      if (apart != NULL) map_counts_release(apart, apart_bytes);
      m->reads = (ULong*)map_alloc(2 * K * sizeof(ULong));
   }
   m->capacity = K;
   m->writes = m->reads + K;
   VG_(memcpy)(m->reads, reads, sizeof(reads));
   VG_(memcpy)(m->reads + K, writes, sizeof(writes));
   m->kind = LH_MAP_BUCKETS;
   m->width = 8;
   LH_(map_part_cache)(m)->block = NULL;   /* over 2-byte counts of before */
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

/* Maps are never freed (a site's lives as long as the site), so the
   small ones are carved one after the other from chunks of the arena:
   no arena header and red zones (32 bytes) and no rounding to 16 for
   each, a few per cache line.  A chunk's tail that a map does not fit in
   is left (at most MAP_CARVED_MAX bytes, 1/16 of a chunk); larger maps
   (per-offset counts of blocks over 1 KiB at width 2, and counts apart of
   width 4 or 8 over 512 or 256 bytes) are arena blocks of their own.
   Counts apart come from here too: a map that moves them on (wider, or
   into parts) gives back those that were an arena block and leaves
   carved ones (a small map's, once in its life or twice). */
#define MAP_CHUNK_BYTES (64 * 1024)
#define MAP_CARVED_MAX  (MAP_CHUNK_BYTES / 16)
static UChar* map_chunk_next = NULL;
static SizeT  map_chunk_left = 0;

static LH_SiteMap* map_alloc(SizeT bytes)
{
   LH_SiteMap* m;
   bytes = (bytes + sizeof(ULong) - 1) & ~(sizeof(ULong) - 1);
   if (bytes > MAP_CARVED_MAX) return VG_(malloc)("lh.access.map", bytes);
   if (bytes > map_chunk_left) {
      map_chunk_next = VG_(malloc)("lh.access.maps", MAP_CHUNK_BYTES);
      map_chunk_left = MAP_CHUNK_BYTES;
   }
   m = (LH_SiteMap*)map_chunk_next;
   map_chunk_next += bytes;
   map_chunk_left -= bytes;
   return m;
}

/* Counts apart of 'bytes' (as asked of map_alloc) are no longer used. */
static void map_counts_release(void* counts, SizeT bytes)
{
   bytes = (bytes + sizeof(ULong) - 1) & ~(sizeof(ULong) - 1);
   if (bytes > MAP_CARVED_MAX) VG_(free)(counts);
}

LH_SiteMap* LH_(site_map)(LH_SiteAccess* sa)
{
   LH_SiteMap* m = sa->map;
   UInt capacity, room;
   if (m != NULL) return m;
   /* a per-offset map holds just its block size's counts, 2 bytes each,
      so that a site of small blocks has its counts on a few cache lines */
   if (sa->map_kind == LH_MAP_BYTES) {
      capacity = sa->map_block_size > 0 ? (UInt)sa->map_block_size : 1;
      room = (2 * capacity * sizeof(UShort) + sizeof(ULong) - 1) & ~(sizeof(ULong) - 1);
      /* room for the part cache, should the map turn into parts */
      if (room < sizeof(LH_PartCache)) room = sizeof(LH_PartCache);
   } else {
      capacity = K;
      room = PARTS_ROOM;
   }
   m = map_alloc(sizeof(LH_SiteMap) + room);
   VG_(memset)(m, 0, sizeof(LH_SiteMap) + room);
   m->kind = (UChar)sa->map_kind;
   m->room = room;
   m->capacity = capacity;
   if (sa->map_kind == LH_MAP_BYTES) {
      m->block_size = (UInt)sa->map_block_size;
      m->width = 2;
      m->reads = m->writes = NULL;
   } else {
      m->width = 8;
      m->reads = m->counts + sizeof(LH_PartCache) / sizeof(ULong);
      m->writes = m->reads + K;
   }
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
   LH_PartCache* cache = LH_(map_part_cache)(m);
   cache->block = b;
   cache->lo = first_lo;
   cache->hi = first_end;
   cache->index = first;
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

/* A per-offset map's reads or writes, at any width. */
static void write_bytes_counts(LH_Json* j, const HChar* key, LH_SiteMap* m,
                               Bool is_write)
{
   UWord i;
   LH_(json_array_begin)(j, key);
   for (i = 0; i < m->block_size; i++)
      LH_(json_u64)(j, NULL, bytes_count(m, is_write, i));
   LH_(json_array_end)(j);
}

/* Every access adds its bytes to the site's map (whatever its kind, and
   converting a per-offset map into parts keeps the sums), so the map's
   sums are the site's read and written bytes: the access path keeps no
   other byte counters. */
ULong LH_(access_site_bytes)(const LH_Site* site, Bool written)
{
   LH_SiteMap* m = site->access.map;
   UWord i, n;
   ULong total = 0;
   if (m == NULL) return 0;
   LH_(slots_flush_repeats)();
   n = m->kind == LH_MAP_BYTES ? m->block_size : K;
   if (m->kind == LH_MAP_BYTES && m->width == 2) {
      const UShort* counts = LH_(map_counts2)(m, written);
      for (i = 0; i < n; i++) total += counts[i];
   } else if (m->kind == LH_MAP_BYTES && m->width == 4) {
      const UInt* counts = LH_(map_counts4)(m, written);
      for (i = 0; i < n; i++) total += counts[i];
   } else {
      const ULong* counts = LH_(map_counts)(m, written);
      for (i = 0; i < n; i++) total += counts[i];
   }
   return total;
}

void LH_(access_write_map)(LH_Json* j, const LH_SiteAccess* sa)
{
   LH_SiteMap* m = sa->map;
   if (m == NULL) {
      LH_(json_null)(j, "map");
      return;
   }
   LH_(slots_flush_repeats)();
   LH_(json_object_begin)(j, "map");
   if (m->kind == LH_MAP_BYTES) {
      LH_(json_string)(j, "kind", "bytes");
      LH_(json_u64)(j, "block_size", m->block_size);
      write_bytes_counts(j, "reads", m, False);
      write_bytes_counts(j, "writes", m, True);
   } else {
      LH_(json_string)(j, "kind", "buckets");
      LH_(json_u64)(j, "buckets", K);
      write_counts(j, "reads", LH_(map_counts)(m, False), K);
      write_counts(j, "writes", LH_(map_counts)(m, True), K);
   }
   LH_(json_object_end)(j);
}
