/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_shapes.c: the shapes of the heap: each site's   ---*/
/*--- blocks by size, and the run's blocks by size and lifetime.   ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   Every block is counted once, when its life is folded into its site:
   when it is freed (LH_(shapes_note_freed), from LH_(site_note_free)), or,
   for a block still live, each time a profile is written
   (LH_(shapes_note_live), from the registry's walk over the live blocks
   of every origin, LH_(blocks_count_live)).  So, as for the lifetime histogram, a site's
   size histogram counts total_blocks blocks, and the run's grid counts
   every block of the run.

   Sizes and lifetimes go into the same log2 buckets as the lifetime
   histogram: bucket 0 holds 0, bucket i >= 1 holds 2^(i-1) <= x < 2^i.
   The size is the block's size when it is folded (its last size, for a
   block realloc'ed).

      site->freed_size_histogram     blocks freed so far, by size
      site->out->size_histogram      + the live blocks, set at output
      freed_grid[size][lifetime]     blocks freed so far (the whole run)
      grid[size][lifetime]           + the live blocks, set at output

   A free costs two increments (and, rarely, a window growth of the
   site's histogram, lh_histogram.c).  The grids are 64 x 64 counts
   (32 KiB each) and written sparse: only the cells with blocks.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "lh_include.h"
#include "lh_json.h"

#define SHAPE_BUCKETS LH_LIFETIME_BUCKETS

static ULong freed_grid[SHAPE_BUCKETS][SHAPE_BUCKETS];
static ULong grid[SHAPE_BUCKETS][SHAPE_BUCKETS];

static inline UInt log2_bucket(ULong x)
{
   UInt bucket;
   if (x == 0) return 0;
   bucket = 64 - __builtin_clzll(x);      /* floor(log2) + 1 */
   return bucket < SHAPE_BUCKETS ? bucket : SHAPE_BUCKETS - 1;
}

void LH_(shapes_note_freed)(LH_Site* site, ULong size, ULong lifetime)
{
   UInt s = log2_bucket(size);
   LH_(histogram_add)(&site->freed_size_histogram, s);
   freed_grid[s][log2_bucket(lifetime)]++;
}

void LH_(shapes_output_begin)(void)
{
   UInt i, n = LH_(n_sites)();
   for (i = 0; i < n; i++) {
      LH_Site* site = LH_(site_at)(i);
      LH_(histogram_copy)(&site->out->size_histogram, &site->freed_size_histogram);
   }
   VG_(memcpy)(grid, freed_grid, sizeof grid);
}

void LH_(shapes_note_live)(LH_Site* site, ULong size, ULong lifetime)
{
   UInt s = log2_bucket(size);
   LH_(histogram_add)(&site->out->size_histogram, s);
   grid[s][log2_bucket(lifetime)]++;
}

/* "blocks_by_size_and_lifetime": [[size bucket, lifetime bucket, blocks],
   ...], by size bucket then lifetime bucket, cells with no block left out. */
void LH_(shapes_write_run)(LH_Json* j)
{
   UInt s, l;
   LH_(json_array_begin)(j, "blocks_by_size_and_lifetime");
   for (s = 0; s < SHAPE_BUCKETS; s++)
      for (l = 0; l < SHAPE_BUCKETS; l++) {
         if (grid[s][l] == 0) continue;
         LH_(json_array_begin)(j, NULL);
         LH_(json_u64)(j, NULL, s);
         LH_(json_u64)(j, NULL, l);
         LH_(json_u64)(j, NULL, grid[s][l]);
         LH_(json_array_end)(j);
      }
   LH_(json_array_end)(j);
}
