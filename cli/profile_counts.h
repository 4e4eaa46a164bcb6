/* The counts of a profile document (docs/format.md) that the model keeps
 * as they are: for each object that holds them, the member names and
 * where the model keeps each (a uint64_t in struct profile, struct site or
 * struct site_access). The reader (profile.c) reads them by these tables,
 * and the consistency rules (profile_rules.c) find the fields they name
 * through profile_count_offset(), so a document name maps to the model in
 * one place.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_PROFILE_COUNTS_H
#define LIFEHEAP_PROFILE_COUNTS_H

#include <stdbool.h>
#include <stddef.h>

struct count_member {
    const char *key;   /* the member's name in its object */
    size_t offset;     /* of its uint64_t in the model's struct */
};

struct count_members {
    const struct count_member *members;
    size_t count;
};

/* struct profile: run.duration and run.threads; totals (the required
 * ones); peak; at_exit. */
extern const struct count_members run_counts, totals_counts, peak_counts,
    at_exit_counts;
/* struct site: a site's own counts, in the order they are read (before
 * and after the optional realloc_growth_bytes); lifetime; zero_size_blocks. */
extern const struct count_members site_counts, site_late_counts,
    lifetime_counts, zero_size_counts;
/* struct site_access: access and access.at_peak. */
extern const struct count_members access_counts, access_at_peak_counts;

/* Where the model keeps the count a document field names: "peak.time" or
 * "totals.bytes" in struct profile, or, with `per_site`, "max_bytes" or
 * "lifetime.min" in struct site. False for a name that is none of these. */
bool profile_count_offset(const char *name, bool per_site, size_t *offset);

#endif
