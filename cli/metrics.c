/* The metrics table (see metrics.h): docs/metrics.json, made into C by
 * scripts/gen-metrics-table.py.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "util.h"

/* Site and global getters are generated per field: one line per metric
 * in metrics_table.inc instead of one function per metric written out by
 * hand. */
#define SITE_FIELD(metric, field)                                             \
    static bool site_##metric(const struct profile *p, const struct site *s, \
                              double *value)                                  \
    {                                                                         \
        (void)p;                                                              \
        *value = (double)s->field;                                            \
        return true;                                                          \
    }
#define SITE_ACCESS(metric, field)                                            \
    static bool site_##metric(const struct profile *p, const struct site *s, \
                              double *value)                                  \
    {                                                                         \
        (void)p;                                                              \
        *value = (double)s->access.field;                                     \
        return s->has_access;                                                 \
    }
#define GLOBAL_FIELD(metric, field)                                           \
    static bool global_##metric(const struct profile *p, double *value)      \
    {                                                                         \
        *value = (double)p->field;                                            \
        return true;                                                          \
    }
/* Whole-run access figures are not in `totals`: they are the sums over the
 * sites, which fold every block of the run. */
#define GLOBAL_ACCESS_SUM(metric, field)                                      \
    static bool global_##metric(const struct profile *p, double *value)      \
    {                                                                         \
        double sum = 0;                                                       \
        bool any = false;                                                     \
        for (size_t i = 0; i < p->site_count; i++) {                          \
            if (p->sites[i].has_access) {                                     \
                sum += (double)p->sites[i].access.field;                      \
                any = true;                                                   \
            }                                                                 \
        }                                                                     \
        *value = sum;                                                         \
        return any || p->site_count == 0;                                     \
    }

static double percent_of_run(const struct profile *p, double instructions)
{
    return p->duration ? 100.0 * instructions / (double)p->duration : 0.0;
}

/* A duration as a percentage of the run: the longest lifetime. */
#define SITE_SHARE_OF_RUN(metric, field)                                      \
    static bool site_##metric(const struct profile *p, const struct site *s, \
                              double *value)                                  \
    {                                                                         \
        *value = percent_of_run(p, (double)s->field);                         \
        return true;                                                          \
    }
/* The average over the site's blocks of a duration, as a percentage of the
 * run: the average lifetime (0 for a site without blocks). */
#define SITE_SHARE_OF_RUN_PER_BLOCK(metric, field)                            \
    static bool site_##metric(const struct profile *p, const struct site *s, \
                              double *value)                                  \
    {                                                                         \
        *value = s->total_blocks                                              \
                     ? percent_of_run(p, (double)s->field /                   \
                                             (double)s->total_blocks)         \
                     : 0.0;                                                   \
        return true;                                                          \
    }
/* The run's average lifetime: all sites' lifetimes over all blocks. */
#define GLOBAL_AVG_LIFETIME(metric)                                           \
    static bool global_##metric(const struct profile *p, double *value)      \
    {                                                                         \
        double sum = 0, blocks = 0;                                           \
        for (size_t i = 0; i < p->site_count; i++) {                          \
            sum += (double)p->sites[i].lifetime_sum;                          \
            blocks += (double)p->sites[i].total_blocks;                       \
        }                                                                     \
        *value = blocks ? percent_of_run(p, sum / blocks) : 0.0;              \
        return true;                                                          \
    }
/* The run's longest lifetime: the longest of any site. */
#define GLOBAL_MAX_LIFETIME(metric)                                           \
    static bool global_##metric(const struct profile *p, double *value)      \
    {                                                                         \
        uint64_t longest = 0;                                                 \
        for (size_t i = 0; i < p->site_count; i++)                            \
            if (p->sites[i].lifetime_max > longest)                           \
                longest = p->sites[i].lifetime_max;                           \
        *value = percent_of_run(p, (double)longest);                          \
        return true;                                                          \
    }

/* The getters and the table, generated from docs/metrics.json (the table the
 * viewer's columns come from too) by scripts/gen-metrics-table.py. */
#include "metrics_table.inc"

const struct metric metrics[] = {METRICS_TABLE};

const unsigned metric_count = sizeof metrics / sizeof metrics[0];

const struct metric *metric_find(const char *name)
{
    for (unsigned i = 0; i < metric_count; i++)
        if (strcmp(metrics[i].name, name) == 0)
            return &metrics[i];
    return NULL;
}

void metric_list_names(FILE *stream, bool site_metrics)
{
    const char *separator = "";
    for (unsigned i = 0; i < metric_count; i++) {
        if (site_metrics ? !metrics[i].site_value : !metrics[i].global_value)
            continue;
        fprintf(stream, "%s%s", separator, metrics[i].name);
        separator = ", ";
    }
    fputc('\n', stream);
}

void format_metric(const struct metric *metric, bool available, double value,
                   char *buffer, size_t size)
{
    if (!available) {
        snprintf(buffer, size, "-");
        return;
    }
    switch (metric->unit) {
    case UNIT_BYTES:
        format_size(value, buffer, size);
        break;
    case UNIT_PERCENT_OF_RUN:
        format_share(value / 100.0, buffer, size);
        break;
    case UNIT_COUNT:
    case UNIT_INSTRUCTIONS:
        format_count(value <= 0 ? 0 : (unsigned long long)(value + 0.5),
                     buffer, size);
        break;
    }
}

struct sort_entry {
    size_t site;
    bool available;
    bool runtime_only;
    double value;
};

static int compare_sort_entries(const void *left, const void *right)
{
    const struct sort_entry *a = left, *b = right;
    if (a->available != b->available)
        return a->available ? -1 : 1;
    /* The runtime's own sites after the program's, by any metric, as
       the tool orders them. */
    if (a->runtime_only != b->runtime_only)
        return a->runtime_only ? 1 : -1;
    if (a->value != b->value)
        return a->value > b->value ? -1 : 1;
    return a->site < b->site ? -1 : a->site > b->site;
}

size_t *sites_sorted_by(const struct profile *profile,
                        const struct metric *metric)
{
    size_t count = profile->site_count;
    struct sort_entry *entries = calloc(count + 1, sizeof *entries);
    size_t *order = calloc(count + 1, sizeof *order);
    if (!entries || !order) {
        free(entries);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        entries[i].site = i;
        entries[i].runtime_only = profile->sites[i].runtime_only;
        entries[i].available =
            metric->site_value(profile, &profile->sites[i], &entries[i].value);
    }
    qsort(entries, count, sizeof *entries, compare_sort_entries);
    for (size_t i = 0; i < count; i++)
        order[i] = entries[i].site;
    free(entries);
    return order;
}

void metric_print_json(FILE *out, const struct metric *metric, bool available,
                       double value)
{
    if (!available)
        fprintf(out, "null");
    else if (metric->unit == UNIT_PERCENT_OF_RUN)
        fprintf(out, "%.4f", value);
    else
        fprintf(out, "%.0f", value);
}
