/* The rows of a diff: what `lifeheap diff` lists and its site rules judge.
 *
 * A row is a site of NEW with its matched site of BASE, a new site, or a
 * vanished one. When the compiler duplicated a code location (one source
 * stack at two code addresses: twins, match.c step 3) several sites of one
 * run match one site of the other; they make one row, whose figures on
 * that side are the twins' combined (site_twins_add), so the rows of each
 * run add up to its totals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_DIFF_ROWS_H
#define LIFEHEAP_DIFF_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "match.h"
#include "profile.h"

struct diff_row {
    /* The row's site on each side, NULL when it has none: the site itself,
     * or with twins a copy of the first (lowest id) whose figures are the
     * twins' combined. Names, ids and stacks are the first twin's. */
    const struct site *base_site, *changed_site;
    /* The ids of the row's sites on each side, ascending. */
    size_t *base_ids, *changed_ids;
    size_t base_count, changed_count;
    double change;   /* in the sort metric (set by the caller) */
};

struct diff_rows {
    struct diff_row *rows;
    size_t count;
    size_t matched, added, vanished;   /* rows with both sides, NEW only,
                                          BASE only */
    struct site *combined;             /* the twins' combined sites */
    size_t combined_count;
};

/* The rows of the matching, in no particular order; false when out of
 * memory. */
bool diff_rows_build(const struct profile *base, const struct profile *changed,
                     const struct site_matching *matching,
                     struct diff_rows *rows);

void diff_rows_free(struct diff_rows *rows);

/* Adds the figures of `twin` to `into` (a copy of another site of the same
 * source location): sums for bytes, blocks, lifetimes' sums and the access
 * figures; the largest (the latest time) for lifetime.max, max_time,
 * last_alloc_time and allocating_threads; the smallest for lifetime.min and
 * first_alloc_time (of sites with blocks). Two figures are not exact for the
 * location: max_bytes and max_blocks are the sums of the twins' own maxima
 * (an upper bound, exact when the twins reach them together), and
 * allocating_threads the largest count (a lower bound: the profile does not
 * say which threads). growth, the timeline and per-offset counts, which do not
 * combine, are dropped. docs/metrics.md, "Twins in a diff". */
void site_twins_add(struct site *into, const struct site *twin);

#endif
