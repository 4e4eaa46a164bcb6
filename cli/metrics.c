/* The metrics table (see metrics.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "util.h"

/* Site and global getters are generated per field: one line per metric
 * below instead of one function per metric written out by hand. */
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

SITE_FIELD(peak_bytes, bytes_at_peak)
SITE_FIELD(peak_blocks, blocks_at_peak)
SITE_FIELD(max_bytes, max_bytes)
SITE_FIELD(max_blocks, max_blocks)
SITE_FIELD(end_bytes, bytes_at_exit)
SITE_FIELD(end_blocks, blocks_at_exit)
SITE_FIELD(total_bytes, total_bytes)
SITE_FIELD(total_blocks, total_blocks)
SITE_FIELD(freed_blocks, freed_blocks)
SITE_FIELD(reallocs, reallocs)
SITE_FIELD(realloc_bytes_copied, realloc_bytes_copied)
SITE_FIELD(cross_thread_frees, cross_thread_frees)
SITE_FIELD(allocating_threads, allocating_threads)
SITE_ACCESS(bytes_read, bytes_read)
SITE_ACCESS(bytes_written, bytes_written)
SITE_ACCESS(never_read_bytes, never_read_bytes)
SITE_ACCESS(never_written_bytes, never_written_bytes)
SITE_ACCESS(never_accessed_bytes, never_accessed_bytes)
SITE_ACCESS(unused_capacity_bytes, unused_capacity_bytes)
SITE_ACCESS(peak_never_read_bytes, at_peak_never_read_bytes)
SITE_ACCESS(peak_unused_capacity_bytes, at_peak_unused_capacity_bytes)

GLOBAL_FIELD(peak_bytes, peak_bytes)
GLOBAL_FIELD(peak_blocks, peak_blocks)
GLOBAL_FIELD(end_bytes, exit_bytes)
GLOBAL_FIELD(end_blocks, exit_blocks)
GLOBAL_FIELD(total_bytes, total_bytes)
GLOBAL_FIELD(total_blocks, total_blocks)
GLOBAL_FIELD(freed_blocks, total_frees)
GLOBAL_FIELD(reallocs, total_reallocs)
GLOBAL_FIELD(realloc_bytes_copied, total_realloc_bytes_copied)
GLOBAL_FIELD(bytes_read, total_bytes_read)
GLOBAL_FIELD(bytes_written, total_bytes_written)
GLOBAL_FIELD(duration, duration)
GLOBAL_FIELD(threads, threads)
GLOBAL_ACCESS_SUM(never_read_bytes, never_read_bytes)
GLOBAL_ACCESS_SUM(never_written_bytes, never_written_bytes)
GLOBAL_ACCESS_SUM(never_accessed_bytes, never_accessed_bytes)
GLOBAL_ACCESS_SUM(unused_capacity_bytes, unused_capacity_bytes)
GLOBAL_ACCESS_SUM(peak_never_read_bytes, at_peak_never_read_bytes)
GLOBAL_ACCESS_SUM(peak_unused_capacity_bytes, at_peak_unused_capacity_bytes)

static double percent_of_run(const struct profile *p, double instructions)
{
    return p->duration ? 100.0 * instructions / (double)p->duration : 0.0;
}

static bool site_avg_lifetime(const struct profile *p, const struct site *s,
                              double *value)
{
    *value = s->total_blocks
                 ? percent_of_run(p, (double)s->lifetime_sum /
                                         (double)s->total_blocks)
                 : 0.0;
    return true;
}

static bool site_max_lifetime(const struct profile *p, const struct site *s,
                              double *value)
{
    *value = percent_of_run(p, (double)s->lifetime_max);
    return true;
}

/* The run's average lifetime: all sites' lifetimes over all blocks. */
static bool global_avg_lifetime(const struct profile *p, double *value)
{
    double sum = 0, blocks = 0;
    for (size_t i = 0; i < p->site_count; i++) {
        sum += (double)p->sites[i].lifetime_sum;
        blocks += (double)p->sites[i].total_blocks;
    }
    *value = blocks ? percent_of_run(p, sum / blocks) : 0.0;
    return true;
}

static bool global_max_lifetime(const struct profile *p, double *value)
{
    uint64_t longest = 0;
    for (size_t i = 0; i < p->site_count; i++)
        if (p->sites[i].lifetime_max > longest)
            longest = p->sites[i].lifetime_max;
    *value = percent_of_run(p, (double)longest);
    return true;
}

/* The whole run's maximum of live bytes is the peak. */
#define global_max_bytes global_peak_bytes

#define BOTH(name, unit, text) {#name, text, unit, site_##name, global_##name}
#define SITE_ONLY(name, unit, text) {#name, text, unit, site_##name, NULL}
#define GLOBAL_ONLY(name, unit, text) {#name, text, unit, NULL, global_##name}

const struct metric metrics[] = {
    BOTH(peak_bytes, UNIT_BYTES, "bytes live at the global peak"),
    BOTH(peak_blocks, UNIT_COUNT, "blocks live at the global peak"),
    BOTH(max_bytes, UNIT_BYTES, "the site's own maximum of live bytes"),
    SITE_ONLY(max_blocks, UNIT_COUNT, "live blocks at the site's maximum"),
    BOTH(end_bytes, UNIT_BYTES, "bytes still live at exit"),
    BOTH(end_blocks, UNIT_COUNT, "blocks still live at exit"),
    BOTH(total_bytes, UNIT_BYTES, "bytes allocated over the run"),
    BOTH(total_blocks, UNIT_COUNT, "blocks allocated over the run"),
    BOTH(freed_blocks, UNIT_COUNT, "blocks freed by the program"),
    BOTH(avg_lifetime, UNIT_PERCENT_OF_RUN, "average block lifetime"),
    BOTH(max_lifetime, UNIT_PERCENT_OF_RUN, "longest block lifetime"),
    BOTH(reallocs, UNIT_COUNT, "reallocs of existing blocks"),
    BOTH(realloc_bytes_copied, UNIT_BYTES, "bytes copied by moving reallocs"),
    BOTH(bytes_read, UNIT_BYTES, "heap bytes read"),
    BOTH(bytes_written, UNIT_BYTES, "heap bytes written"),
    BOTH(never_read_bytes, UNIT_BYTES, "bytes never read"),
    BOTH(never_written_bytes, UNIT_BYTES, "bytes never written"),
    BOTH(never_accessed_bytes, UNIT_BYTES, "bytes never read nor written"),
    BOTH(unused_capacity_bytes, UNIT_BYTES,
         "bytes above the written high-water mark"),
    BOTH(peak_never_read_bytes, UNIT_BYTES,
         "bytes live at the peak that were never read"),
    BOTH(peak_unused_capacity_bytes, UNIT_BYTES,
         "unused capacity of the blocks live at the peak"),
    SITE_ONLY(cross_thread_frees, UNIT_COUNT,
              "blocks freed by another thread than the allocating one"),
    SITE_ONLY(allocating_threads, UNIT_COUNT, "threads that allocated here"),
    GLOBAL_ONLY(duration, UNIT_INSTRUCTIONS, "instructions executed"),
    GLOBAL_ONLY(threads, UNIT_COUNT, "threads that ever existed"),
};

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
    double value;
};

static int compare_sort_entries(const void *left, const void *right)
{
    const struct sort_entry *a = left, *b = right;
    if (a->available != b->available)
        return a->available ? -1 : 1;
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
