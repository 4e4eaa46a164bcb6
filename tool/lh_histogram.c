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
   last buckets are never zero.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"

void LH_(histogram_add)(LH_Histogram* h, UInt bucket)
{
   UInt first, end, i;
   ULong* counts;
   tl_assert(bucket < LH_LIFETIME_BUCKETS);
   if (h->n != 0 && bucket >= h->first && bucket < (UInt)h->first + h->n) {
      h->counts[bucket - h->first]++;
      return;
   }
   first = h->n == 0 || bucket < h->first ? bucket : h->first;
   end = h->n != 0 && (UInt)h->first + h->n > bucket + 1 ? (UInt)h->first + h->n
                                                          : bucket + 1;
   counts = VG_(calloc)("lh.sites.lifetimes", end - first, sizeof(ULong));
   for (i = 0; i < h->n; i++) counts[h->first + i - first] = h->counts[i];
   counts[bucket - first]++;
   VG_(free)(h->counts);
   h->counts = counts;
   h->first = (UChar)first;
   h->n = (UChar)(end - first);
}

ULong LH_(histogram_at)(const LH_Histogram* h, UInt bucket)
{
   if (h->n == 0 || bucket < h->first || bucket >= (UInt)h->first + h->n)
      return 0;
   return h->counts[bucket - h->first];
}

void LH_(histogram_copy)(LH_Histogram* to, const LH_Histogram* from)
{
   VG_(free)(to->counts);
   to->counts = NULL;
   to->first = from->first;
   to->n = from->n;
   if (from->n != 0) {
      to->counts = VG_(malloc)("lh.sites.lifetimes", from->n * sizeof(ULong));
      VG_(memcpy)(to->counts, from->counts, from->n * sizeof(ULong));
   }
}
