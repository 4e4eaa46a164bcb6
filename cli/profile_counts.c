/* Document names of a profile's counts and where the model keeps them
 * (profile_counts.h). A member whose model field is the member's name
 * with a prefix is written COUNT(struct, prefix, name), so a table row
 * cannot name one field and read another.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "profile_counts.h"

#include <string.h>

#include "profile.h"

#define COUNT(type, prefix, key) {#key, offsetof(type, prefix##key)}
#define TABLE(rows) {rows, sizeof rows / sizeof rows[0]}

static const struct count_member run_rows[] = {
    COUNT(struct profile, , duration), COUNT(struct profile, , threads)};
static const struct count_member totals_rows[] = {
    COUNT(struct profile, total_, blocks),
    COUNT(struct profile, total_, bytes),
    COUNT(struct profile, total_, frees),
    COUNT(struct profile, total_, reallocs),
    COUNT(struct profile, total_, realloc_requested_bytes),
    COUNT(struct profile, total_, realloc_bytes_copied),
    COUNT(struct profile, total_, bytes_read),
    COUNT(struct profile, total_, bytes_written)};
static const struct count_member peak_rows[] = {
    COUNT(struct profile, peak_, bytes), COUNT(struct profile, peak_, blocks),
    COUNT(struct profile, peak_, time)};
static const struct count_member at_exit_rows[] = {
    COUNT(struct profile, exit_, bytes), COUNT(struct profile, exit_, blocks)};

const struct count_members run_counts = TABLE(run_rows);
const struct count_members totals_counts = TABLE(totals_rows);
const struct count_members peak_counts = TABLE(peak_rows);
const struct count_members at_exit_counts = TABLE(at_exit_rows);

#define SITE(key) COUNT(struct site, , key)
static const struct count_member site_rows[] = {
    SITE(total_blocks),   SITE(total_bytes),    SITE(bytes_at_peak),
    SITE(blocks_at_peak), SITE(max_bytes),      SITE(max_blocks),
    SITE(max_time),       SITE(bytes_at_exit),  SITE(blocks_at_exit),
    SITE(freed_blocks),   SITE(reallocs),       SITE(realloc_requested_bytes),
    SITE(realloc_bytes_copied)};
static const struct count_member site_late_rows[] = {
    SITE(first_alloc_time), SITE(last_alloc_time), SITE(allocating_threads),
    SITE(cross_thread_frees)};
static const struct count_member lifetime_rows[] = {
    COUNT(struct site, lifetime_, sum), COUNT(struct site, lifetime_, min),
    COUNT(struct site, lifetime_, max)};
static const struct count_member zero_size_rows[] = {
    COUNT(struct site, zero_size_, total),
    COUNT(struct site, zero_size_, at_peak),
    COUNT(struct site, zero_size_, at_exit)};

const struct count_members site_counts = TABLE(site_rows);
const struct count_members site_late_counts = TABLE(site_late_rows);
const struct count_members lifetime_counts = TABLE(lifetime_rows);
const struct count_members zero_size_counts = TABLE(zero_size_rows);

#define ACCESS(prefix, key) COUNT(struct site_access, prefix, key)
static const struct count_member access_rows[] = {
    ACCESS(, bytes_read),           ACCESS(, bytes_written),
    ACCESS(, measured_bytes),       ACCESS(, never_read_bytes),
    ACCESS(, never_written_bytes),  ACCESS(, never_accessed_bytes),
    ACCESS(, written_never_read_bytes), ACCESS(, unused_capacity_bytes),
    ACCESS(, idle_before_free),     ACCESS(, first_access_delay)};
static const struct count_member access_at_peak_rows[] = {
    ACCESS(at_peak_, bytes),               ACCESS(at_peak_, never_read_bytes),
    ACCESS(at_peak_, never_written_bytes), ACCESS(at_peak_, never_accessed_bytes),
    ACCESS(at_peak_, unused_capacity_bytes)};

const struct count_members access_counts = TABLE(access_rows);
const struct count_members access_at_peak_counts = TABLE(access_at_peak_rows);

/* The tables a field name reaches: "object.member", or "member" for an
 * object of its own (a site). */
static const struct {
    const char *object;   /* "" for the site itself */
    bool per_site;
    const struct count_members *counts;
} named_tables[] = {
    {"run", false, &run_counts},         {"totals", false, &totals_counts},
    {"peak", false, &peak_counts},       {"at_exit", false, &at_exit_counts},
    {"", true, &site_counts},            {"", true, &site_late_counts},
    {"lifetime", true, &lifetime_counts},
};

bool profile_count_offset(const char *name, bool per_site, size_t *offset)
{
    const char *dot = strchr(name, '.');
    size_t object_length = dot ? (size_t)(dot - name) : 0;
    const char *key = dot ? dot + 1 : name;
    for (size_t t = 0; t < sizeof named_tables / sizeof named_tables[0]; t++) {
        if (named_tables[t].per_site != per_site ||
            strlen(named_tables[t].object) != object_length ||
            strncmp(named_tables[t].object, name, object_length) != 0)
            continue;
        const struct count_members *counts = named_tables[t].counts;
        for (size_t m = 0; m < counts->count; m++) {
            if (strcmp(counts->members[m].key, key) == 0) {
                *offset = counts->members[m].offset;
                return true;
            }
        }
    }
    return false;
}
