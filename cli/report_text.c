/* `lifeheap report --format text`: the run in a few lines, the top sites in
 * a table with every metric, their stacks, and the findings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "report_output.h"
#include "util.h"

struct column {
    const char *metric;
    const char *heading;
};

/* Every per-site metric a reader compares across sites. */
static const struct column columns[] = {
    {"peak_bytes", "at peak"},
    {"max_bytes", "max"},
    {"end_bytes", "at exit"},
    {"total_bytes", "total"},
    {"total_blocks", "blocks"},
    {"avg_lifetime", "avg life"},
    {"max_lifetime", "max life"},
    {"bytes_read", "read"},
    {"bytes_written", "written"},
    {"never_read_bytes", "never read"},
    {"unused_capacity_bytes", "unused cap"},
    {"reallocs", "reallocs"},
    {"realloc_bytes_copied", "copied"},
    {"cross_thread_frees", "x-thread"},
};
enum { COLUMN_COUNT = sizeof columns / sizeof columns[0], COLUMN_WIDTH = 10 };

/* "block" or "blocks" for a count. */
static const char *blocks(uint64_t count)
{
    return count == 1 ? "block" : "blocks";
}

static void print_exit(FILE *out, const struct profile *profile)
{
    switch (profile->exit_status) {
    case EXIT_STATUS_EXITED:
        fprintf(out, "exited with code %lld", (long long)profile->exit_code);
        break;
    case EXIT_STATUS_SIGNAL:
        fprintf(out, "killed by ");
        if (profile->exit_signal_name)
            print_text(out, profile->exit_signal_name);
        else
            fprintf(out, "a signal");
        if (profile->exit_code >= 0)
            fprintf(out, " (signal %lld)", (long long)profile->exit_code);
        break;
    case EXIT_STATUS_RUNNING:
        fprintf(out, "still running (partial profile)");
        break;
    }
}

static void print_header(FILE *out, const struct profile *profile,
                         const struct metric *sort, size_t shown)
{
    char a[32], b[32], c[32];
    fprintf(out, "command   ");
    for (size_t i = 0; i < profile->command_len; i++) {
        fputc(' ', out);
        print_text(out, profile->command[i]);
    }
    fprintf(out, "\nexit       ");
    print_exit(out, profile);
    fprintf(out, "\nduration   %llu instructions, %llu thread%s\n",
            (unsigned long long)profile->duration,
            (unsigned long long)profile->threads,
            profile->threads == 1 ? "" : "s");
    format_size((double)profile->peak_bytes, a, sizeof a);
    format_percent((double)profile->peak_time, (double)profile->duration, b,
                   sizeof b);
    fprintf(out, "peak       %s in %llu %s at %s of the run\n", a,
            (unsigned long long)profile->peak_blocks,
            blocks(profile->peak_blocks), b);
    format_size((double)profile->exit_bytes, a, sizeof a);
    fprintf(out, "at exit    %s in %llu %s\n", a,
            (unsigned long long)profile->exit_blocks,
            blocks(profile->exit_blocks));
    format_size((double)profile->total_bytes, a, sizeof a);
    format_size((double)profile->total_realloc_bytes_copied, b, sizeof b);
    fprintf(out, "totals     %s in %llu %s, %llu frees, %llu reallocs "
                 "(%s copied)\n",
            a, (unsigned long long)profile->total_blocks,
            blocks(profile->total_blocks),
            (unsigned long long)profile->total_frees,
            (unsigned long long)profile->total_reallocs, b);
    format_size((double)profile->total_bytes_read, a, sizeof a);
    format_size((double)profile->total_bytes_written, c, sizeof c);
    fprintf(out, "access     %s read, %s written\n", a, c);
    fprintf(out, "sites      %zu (top %zu by %s)\n", profile->site_count, shown,
            sort->name);
    fprintf(out, "findings   %zu\n", profile->finding_count);
}

static void print_table(FILE *out, const struct profile *profile,
                        const size_t *order, size_t count)
{
    const struct metric *column_metrics[COLUMN_COUNT];
    for (size_t c = 0; c < COLUMN_COUNT; c++)
        column_metrics[c] = metric_find(columns[c].metric);

    fprintf(out, "%6s", "site");
    for (size_t c = 0; c < COLUMN_COUNT; c++) {
        fprintf(out, " %*s", COLUMN_WIDTH, columns[c].heading);
        if (c == 0)
            fprintf(out, " %6s", "%peak");
    }
    fprintf(out, "  name\n");

    for (size_t row = 0; row < count; row++) {
        const struct site *site = &profile->sites[order[row]];
        fprintf(out, "%6zu", site->id);
        for (size_t c = 0; c < COLUMN_COUNT; c++) {
            char cell[32];
            double value = 0;
            bool available =
                column_metrics[c]->site_value(profile, site, &value);
            format_metric(column_metrics[c], available, value, cell,
                          sizeof cell);
            fprintf(out, " %*s", COLUMN_WIDTH, cell);
            if (c == 0) {
                format_percent(value, (double)profile->peak_bytes, cell,
                               sizeof cell);
                fprintf(out, " %6s", cell);
            }
        }
        char name[1024];
        format_site_name(profile, site, name, sizeof name);
        fprintf(out, "  ");
        print_text(out, name);
        fputc('\n', out);
    }
}

/* Every figure the profile has for a site, in sentences, so the text
 * report shows what the table has no room for. */
static void print_site_details(FILE *out, const struct profile *profile,
                               const struct site *site)
{
    char a[32], b[32], c[32], d[32];
    double run = (double)profile->duration;
    format_size((double)site->bytes_at_peak, a, sizeof a);
    format_size((double)site->max_bytes, b, sizeof b);
    format_percent((double)site->max_time, run, c, sizeof c);
    format_size((double)site->bytes_at_exit, d, sizeof d);
    fprintf(out, "  at the peak %s in %llu %s; own max %s in %llu %s at %s of "
                 "the run; at exit %s in %llu %s\n",
            a, (unsigned long long)site->blocks_at_peak,
            blocks(site->blocks_at_peak), b,
            (unsigned long long)site->max_blocks, blocks(site->max_blocks), c,
            d, (unsigned long long)site->blocks_at_exit,
            blocks(site->blocks_at_exit));
    format_size((double)site->total_bytes, a, sizeof a);
    format_percent((double)site->first_alloc_time, run, b, sizeof b);
    format_percent((double)site->last_alloc_time, run, c, sizeof c);
    fprintf(out, "  allocated %s in %llu %s from %s to %s of the run by "
                 "%llu thread%s; %llu freed, %llu by another thread\n",
            a, (unsigned long long)site->total_blocks,
            blocks(site->total_blocks), b, c,
            (unsigned long long)site->allocating_threads,
            site->allocating_threads == 1 ? "" : "s",
            (unsigned long long)site->freed_blocks,
            (unsigned long long)site->cross_thread_frees);
    format_percent((double)site->lifetime_min, run, a, sizeof a);
    format_percent(site->total_blocks ? (double)site->lifetime_sum /
                                            (double)site->total_blocks
                                      : 0,
                   run, b, sizeof b);
    format_percent((double)site->lifetime_max, run, c, sizeof c);
    fprintf(out, "  lifetime min %s, avg %s, max %s of the run\n", a, b, c);
    if (site->reallocs) {
        format_size((double)site->realloc_requested_bytes, a, sizeof a);
        format_size((double)site->realloc_bytes_copied, b, sizeof b);
        fprintf(out, "  %llu reallocs: %s requested, %s copied\n",
                (unsigned long long)site->reallocs, a, b);
    }
    if (site->has_access) {
        const struct site_access *access = &site->access;
        format_size((double)access->bytes_read, a, sizeof a);
        format_size((double)access->bytes_written, b, sizeof b);
        format_size((double)access->measured_bytes, c, sizeof c);
        fprintf(out, "  read %s, written %s; of %s:", a, b, c);
        format_size((double)access->never_read_bytes, a, sizeof a);
        format_size((double)access->never_written_bytes, b, sizeof b);
        format_size((double)access->never_accessed_bytes, c, sizeof c);
        format_size((double)access->unused_capacity_bytes, d, sizeof d);
        fprintf(out, " never read %s, never written %s, never accessed %s, "
                     "unused capacity %s\n",
                a, b, c, d);
        format_size((double)access->at_peak_bytes, a, sizeof a);
        format_size((double)access->at_peak_never_read_bytes, b, sizeof b);
        format_size((double)access->at_peak_unused_capacity_bytes, c,
                    sizeof c);
        fprintf(out, "  of the %s live at the peak: never read %s, unused "
                     "capacity %s\n",
                a, b, c);
    }
    if (site->has_growth)
        fprintf(out, "  growth: rising in %.0f%% of the intervals, %.1f "
                     "bytes per million instructions, ends at %.0f%% of its "
                     "max\n",
                100.0 * site->growth.rising_fraction,
                site->growth.slope_bytes_per_million_instructions,
                100.0 * site->growth.end_to_max_ratio);
}

static void print_stacks(FILE *out, const struct profile *profile,
                         const size_t *order, size_t count)
{
    for (size_t row = 0; row < count; row++) {
        const struct site *site = &profile->sites[order[row]];
        fprintf(out, "\nsite %zu:\n", site->id);
        print_site_details(out, profile, site);
        if (site->stack_len == 0)
            fprintf(out, "  [no stack]\n");
        for (size_t i = 0; i < site->stack_len; i++) {
            char text[1024];
            const struct frame *frame = &profile->frames[site->stack[i]];
            format_frame(frame, text, sizeof text);
            fprintf(out, "  %s ", i == 0 ? "at" : "by");
            print_text(out, text);
            if (frame->inlined)
                fprintf(out, " [inlined]");
            fputc('\n', out);
        }
    }
}

static void print_findings(FILE *out, const struct profile *profile)
{
    if (profile->finding_count == 0) {
        fprintf(out, "\nno findings\n");
        return;
    }
    fprintf(out, "\nfindings:\n");
    for (size_t i = 0; i < profile->finding_count; i++) {
        const struct finding *finding = &profile->findings[i];
        char name[1024];
        format_site_name(profile, &profile->sites[finding->site], name,
                         sizeof name);
        fprintf(out, "  [");
        print_text(out, finding->severity);
        fprintf(out, "] ");
        print_text(out, finding->kind);
        fprintf(out, " at site %zu, ", finding->site);
        print_text(out, name);
        fprintf(out, "\n    ");
        print_text(out, finding->summary);
        fputc('\n', out);
    }
}

void report_text(FILE *out, const struct profile *profile,
                 const struct metric *sort, const size_t *order, size_t count)
{
    print_header(out, profile, sort, count);
    fputc('\n', out);
    print_table(out, profile, order, count);
    print_stacks(out, profile, order, count);
    print_findings(out, profile);
}
