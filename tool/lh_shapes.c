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

      site->freed.size_histogram     blocks freed so far, by size
      site->out->lifetimes->size_histogram
                                     + the live blocks, set at output (the
                                       freed one itself without any)
      freed_grid[size][lifetime]     blocks freed so far (the whole run)
      live_grid[size][lifetime]      the live blocks, set at output (the
                                     run's grid is the sum of the two)

   A free costs two increments (and, rarely, a window growth of the
   site's histogram, lh_histogram.c).  The grids are 64 x 64 counts
   (32 KiB each) and written sparse: only the cells with blocks.  Only
   the rows (size buckets) in use are written, and live_grid's are
   cleared row by row (live_rows), so the grids' pages that no block's
   size reaches stay untouched.

   A site's own grid (blocks by size x lifetime: size_lifetime, in its rare
   figures) is needed only when its blocks have more than one size class:
   while they all fall in one, that class's row is the site's lifetime
   histogram and the reader derives it, so most sites (one struct, one
   call site, one size) pay nothing for it.  When a block of a second class is folded,
   the grid is made: the first class's row is a copy of the lifetime
   histogram without the block being folded (the caller has counted it
   already), then the block goes in its own row.  Rows are windowed
   lifetime histograms, kept for the window of size classes in use:

      grid->freed_rows    blocks freed so far (once two classes were freed)
      grid->rows          + the live blocks, set at output; empty when the
                          blocks counted so far have one size class
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"
#include "lh_json.h"

#define SHAPE_BUCKETS LH_LIFETIME_BUCKETS

static ULong freed_grid[SHAPE_BUCKETS][SHAPE_BUCKETS];
static ULong live_grid[SHAPE_BUCKETS][SHAPE_BUCKETS];
static ULong live_rows = 0;    /* bit s: row s of live_grid may be nonzero */

static inline UInt log2_bucket(ULong x)
{
   UInt bucket;
   if (x == 0) return 0;
   bucket = 64 - __builtin_clzll(x);      /* floor(log2) + 1 */
   return bucket < SHAPE_BUCKETS ? bucket : SHAPE_BUCKETS - 1;
}

/*------------------------------------------------------------*/
/*--- A site's size x lifetime rows                        ---*/
/*------------------------------------------------------------*/

/* Lifetime histograms for the size classes [first, first + n). */
typedef struct {
   LH_Histogram* rows;
   UChar first, n;
} SizeRows;

struct LH_SiteGrid {
   SizeRows freed_rows, rows;
};

static LH_Histogram* size_row(SizeRows* r, UInt size_bucket)
{
   UInt first, end, i;
   LH_Histogram* rows;
   if (r->n != 0 && size_bucket >= r->first && size_bucket < (UInt)r->first + r->n)
      return &r->rows[size_bucket - r->first];
   first = r->n == 0 || size_bucket < r->first ? size_bucket : r->first;
   end = r->n != 0 && (UInt)r->first + r->n > size_bucket + 1
            ? (UInt)r->first + r->n : size_bucket + 1;
   rows = VG_(calloc)("lh.shapes.rows", end - first, sizeof(LH_Histogram));
   for (i = 0; i < r->n; i++) rows[r->first + i - first] = r->rows[i];
   VG_(free)(r->rows);
   r->rows = rows;
   r->first = (UChar)first;
   r->n = (UChar)(end - first);
   return &r->rows[size_bucket - first];
}

static void size_rows_clear(SizeRows* r)
{
   UInt i;
   for (i = 0; i < r->n; i++) LH_(histogram_clear)(&r->rows[i]);
   VG_(free)(r->rows);
   r->rows = NULL;
   r->first = r->n = 0;
}

static void size_rows_copy(SizeRows* to, const SizeRows* from)
{
   UInt i;
   size_rows_clear(to);
   if (from->n == 0) return;
   size_row(to, (UInt)from->first + from->n - 1);
   size_row(to, from->first);
   for (i = 0; i < from->n; i++)
      LH_(histogram_copy)(&to->rows[i], &from->rows[i]);
}

/* Whether the site's blocks counted so far (by size: sizes) and one more
   of size class s span more than one size class: then the site keeps
   rows.  The rows exist exactly when sizes spans two classes already. */
static inline Bool needs_rows(const LH_Histogram* sizes, UInt s)
{
   return sizes->n > 1 || (sizes->n == 1 && sizes->first != s);
}

/* Folds a block of size class s and lifetime class l into rows r, given
   the site's blocks by size before this block (sizes) and by lifetime
   with this block counted (lifetimes). */
static void fold_into_rows(SizeRows* r, const LH_Histogram* sizes,
                           const LH_Histogram* lifetimes, UInt s, UInt l)
{
   if (r->n == 0) {
      /* The second class: every block before this one is of the one
         class there was, so its row is the lifetimes less this block. */
      LH_Histogram* first_row = size_row(r, sizes->first);
      tl_assert(sizes->n == 1);
      LH_(histogram_copy)(first_row, lifetimes);
      tl_assert(LH_(histogram_at)(first_row, l) > 0);
      LH_(histogram_counts)(first_row)[l - first_row->first]--;
   }
   LH_(histogram_add)(size_row(r, s), l);
}

static struct LH_SiteGrid* site_grid(LH_Site* site)
{
   LH_SiteRare* rare = LH_(site_rare_make)(site);
   if (rare->size_lifetime == NULL) {
      rare->size_lifetime = VG_(malloc)("lh.shapes.grid", sizeof(struct LH_SiteGrid));
      VG_(memset)(rare->size_lifetime, 0, sizeof(struct LH_SiteGrid));
   }
   return rare->size_lifetime;
}

/*------------------------------------------------------------*/
/*--- Folding blocks                                       ---*/
/*------------------------------------------------------------*/

void LH_(shapes_note_freed)(LH_Site* site, ULong size, ULong lifetime)
{
   UInt s = log2_bucket(size), l = log2_bucket(lifetime);
   if (needs_rows(&site->freed.size_histogram, s))
      fold_into_rows(&site_grid(site)->freed_rows, &site->freed.size_histogram,
                     &site->freed.lifetime_histogram, s, l);
   LH_(histogram_add)(&site->freed.size_histogram, s);
   freed_grid[s][l]++;
}

void LH_(shapes_output_begin)(void)
{
   UInt i, n = LH_(n_sites)();
   for (i = 0; i < n; i++) {
      LH_Site* site = LH_(site_at)(i);
      struct LH_SiteGrid* grid_of_site = LH_(site_rare)(site)->size_lifetime;
      if (grid_of_site != NULL)
         size_rows_copy(&grid_of_site->rows, &grid_of_site->freed_rows);
   }
   for (i = 0; i < SHAPE_BUCKETS; i++)
      if (live_rows & ((ULong)1 << i))
         VG_(memset)(live_grid[i], 0, sizeof live_grid[i]);
   live_rows = 0;
}

void LH_(shapes_note_live)(LH_Site* site, ULong size, ULong lifetime)
{
   UInt s = log2_bucket(size), l = log2_bucket(lifetime);
   LH_Lifetimes* all = site->out->lifetimes;   /* the site's live_lifetimes */
   if (needs_rows(&all->size_histogram, s))
      fold_into_rows(&site_grid(site)->rows, &all->size_histogram,
                     &all->lifetime_histogram, s, l);
   LH_(histogram_add)(&all->size_histogram, s);
   live_grid[s][l]++;
   live_rows |= (ULong)1 << s;
}

/*------------------------------------------------------------*/
/*--- Output                                               ---*/
/*------------------------------------------------------------*/

static void write_cell(LH_Json* j, UInt size_bucket, UInt lifetime_bucket, ULong blocks)
{
   LH_(json_array_begin)(j, NULL);
   LH_(json_u64)(j, NULL, size_bucket);
   LH_(json_u64)(j, NULL, lifetime_bucket);
   LH_(json_u64)(j, NULL, blocks);
   LH_(json_array_end)(j);
}

/* "blocks_by_size_and_lifetime" of one site, in the run's sparse form,
   written only when the site's blocks have more than one size class (the
   site's size histogram is written by lh_site_json.c). */
void LH_(shapes_write_site_grid)(LH_Json* j, const LH_Site* site)
{
   UInt k, l;
   const SizeRows* r;
   const struct LH_SiteGrid* grid_of_site = LH_(site_rare)(site)->size_lifetime;
   if (grid_of_site == NULL || grid_of_site->rows.n == 0) return;
   r = &grid_of_site->rows;
   LH_(json_array_begin)(j, "blocks_by_size_and_lifetime");
   for (k = 0; k < r->n; k++) {
      const LH_Histogram* row = &r->rows[k];
      for (l = 0; l < row->n; l++) {
         ULong blocks = LH_(histogram_at)(row, (UInt)row->first + l);
         if (blocks != 0)
            write_cell(j, (UInt)r->first + k, (UInt)row->first + l, blocks);
      }
   }
   LH_(json_array_end)(j);
}

/* "blocks_by_size_and_lifetime": [[size bucket, lifetime bucket, blocks],
   ...], by size bucket then lifetime bucket, cells with no block left out. */
void LH_(shapes_write_run)(LH_Json* j)
{
   UInt s, l;
   LH_(json_array_begin)(j, "blocks_by_size_and_lifetime");
   for (s = 0; s < SHAPE_BUCKETS; s++)
      for (l = 0; l < SHAPE_BUCKETS; l++) {
         ULong blocks = freed_grid[s][l] + live_grid[s][l];
         if (blocks != 0) write_cell(j, s, l, blocks);
      }
   LH_(json_array_end)(j);
}
