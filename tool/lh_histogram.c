/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_histogram.c: a site's lifetime histogram, kept  ---*/
/*--- as the window of buckets it uses.                            ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   A lifetime histogram has LH_LIFETIME_BUCKETS (64) power-of-two buckets,
   but one site's blocks usually live for a few neighbouring powers of two.
   Two full histograms per site cost 1 KiB, half of a site's memory in a
   program with thousands of sites; a window [first, first + n) costs a few
   counts.  The window grows to take in each new bucket, so its first and
   last buckets are never zero.  A window of one bucket keeps its count
   where the pointer would be: most sites' size histograms (one block
   size) and many lifetime histograms need no allocation at all.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"

/* LH_(histogram_add) (lh_include.h) counts a bucket inside the window
   inline; the rest comes here. */
void LH_(histogram_add_widening)(LH_Histogram* h, UInt bucket)
{
   UInt first, end, i;
   ULong* counts;
   tl_assert(bucket < LH_LIFETIME_BUCKETS);
   if (h->n != 0 && bucket >= h->first && bucket < (UInt)h->first + h->n) {
      LH_(histogram_counts)(h)[bucket - h->first]++;
      return;
   }
   if (h->n == 0) {                    /* the first bucket: in place */
      h->only_count = 1;
      h->first = (UChar)bucket;
      h->n = 1;
      return;
   }
   first = bucket < h->first ? bucket : h->first;
   end = (UInt)h->first + h->n > bucket + 1 ? (UInt)h->first + h->n : bucket + 1;
   counts = VG_(calloc)("lh.sites.lifetimes", end - first, sizeof(ULong));
   for (i = 0; i < h->n; i++)
      counts[h->first + i - first] = LH_(histogram_counts)(h)[i];
   counts[bucket - first]++;
   if (h->n >= 2) VG_(free)(h->counts);
   h->counts = counts;
   h->first = (UChar)first;
   h->n = (UChar)(end - first);
}

ULong LH_(histogram_at)(const LH_Histogram* h, UInt bucket)
{
   if (h->n == 0 || bucket < h->first || bucket >= (UInt)h->first + h->n)
      return 0;
   return h->n == 1 ? h->only_count : h->counts[bucket - h->first];
}

void LH_(histogram_clear)(LH_Histogram* h)
{
   if (h->n >= 2) VG_(free)(h->counts);
   h->counts = NULL;
   h->first = h->n = 0;
}

void LH_(histogram_copy)(LH_Histogram* to, const LH_Histogram* from)
{
   LH_(histogram_clear)(to);
   to->first = from->first;
   to->n = from->n;
   if (from->n == 1) {
      to->only_count = from->only_count;
   } else if (from->n >= 2) {
      to->counts = VG_(malloc)("lh.sites.lifetimes", from->n * sizeof(ULong));
      VG_(memcpy)(to->counts, from->counts, from->n * sizeof(ULong));
   }
}
