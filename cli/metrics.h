/* The metrics the CLI sorts by, shows, diffs and gates on.
 *
 * Each metric has one name used everywhere (--sort, rules, JSON output),
 * a value per site and, for most, a whole-run value. Meanings are those of
 * docs/format.md and docs/metrics.md; this table only picks fields.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_METRICS_H
#define LIFEHEAP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "profile.h"

enum metric_unit {
    UNIT_BYTES,
    UNIT_COUNT,
    UNIT_INSTRUCTIONS,
    UNIT_PERCENT_OF_RUN,   /* a time as a percentage of run.duration */
};

struct metric {
    const char *name;
    const char *description;
    enum metric_unit unit;
    /* Sets *value and returns true, or returns false when the profile has
     * no data for it (access data absent). NULL: no per-site value. */
    bool (*site_value)(const struct profile *, const struct site *,
                       double *value);
    /* The whole-run value; NULL when the metric is per-site only. */
    bool (*global_value)(const struct profile *, double *value);
};

extern const struct metric metrics[];
extern const unsigned metric_count;

/* The metric named `name`, or NULL. */
const struct metric *metric_find(const char *name);

/* Prints the metric names, comma-separated, for usage messages. */
void metric_list_names(FILE *stream, bool site_metrics);

/* Sorts site indices by `metric`, descending, sites without a value last
 * and the runtime's own sites (runtime_only) after the program's, ties by
 * site id. Returns a malloc'ed array of site_count indices. */
size_t *sites_sorted_by(const struct profile *profile,
                        const struct metric *metric);

/* Writes a metric value as text: a size, a count or a percentage; "-" when
 * the site has no value for it. */
/* A metric's value as a JSON number (null when not available): fractions of
 * the run with 4 decimals, everything else as an integer. */
void metric_print_json(FILE *out, const struct metric *metric, bool available,
                       double value);
void format_metric(const struct metric *metric, bool available, double value,
                   char *buffer, size_t size);

#endif
