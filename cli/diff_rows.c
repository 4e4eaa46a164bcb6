/* The rows of a diff (diff_rows.h).
 *
 * match.c leaves two maps: each site of one run to its matched site of the
 * other, or NO_MATCH. A pair is two sites that map to each other; a twin is
 * a site mapped to a site that maps elsewhere (match.c step 3: the twin's
 * sibling holds the pair). So each pair is one row, each twin joins the row
 * of the site it maps to, and each unmatched site is a row of its own:
 *
 *     BASE 4 <-> NEW 7      pair             row {4 | 7}
 *     BASE 5  -> NEW 7      twin of 4        row {4, 5 | 7}
 *     BASE 9     (none)     vanished         row {9 | -}
 *
 * A row with twins on a side reads that side through one combined site
 * (site_twins_add).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "diff_rows.h"

#include <stdlib.h>
#include <string.h>

static uint64_t larger(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t smaller(uint64_t a, uint64_t b) { return a < b ? a : b; }

void site_twins_add(struct site *into, const struct site *twin)
{
    /* Of sites with blocks only: a site's min of no blocks is no figure. */
    if (twin->total_blocks && into->total_blocks) {
        into->lifetime_min = smaller(into->lifetime_min, twin->lifetime_min);
        into->first_alloc_time =
            smaller(into->first_alloc_time, twin->first_alloc_time);
    } else if (twin->total_blocks) {
        into->lifetime_min = twin->lifetime_min;
        into->first_alloc_time = twin->first_alloc_time;
    }
    into->total_blocks += twin->total_blocks;
    into->total_bytes += twin->total_bytes;
    into->bytes_at_peak += twin->bytes_at_peak;
    into->blocks_at_peak += twin->blocks_at_peak;
    into->max_bytes += twin->max_bytes;
    into->max_blocks += twin->max_blocks;
    into->max_time = larger(into->max_time, twin->max_time);
    into->bytes_at_exit += twin->bytes_at_exit;
    into->blocks_at_exit += twin->blocks_at_exit;
    into->freed_blocks += twin->freed_blocks;
    into->lifetime_sum += twin->lifetime_sum;
    into->lifetime_max = larger(into->lifetime_max, twin->lifetime_max);
    into->reallocs += twin->reallocs;
    into->realloc_requested_bytes += twin->realloc_requested_bytes;
    into->realloc_bytes_copied += twin->realloc_bytes_copied;
    into->realloc_growth_bytes += twin->realloc_growth_bytes;
    into->has_realloc_growth &= twin->has_realloc_growth;
    into->last_alloc_time = larger(into->last_alloc_time, twin->last_alloc_time);
    into->allocating_threads =
        larger(into->allocating_threads, twin->allocating_threads);
    into->cross_thread_frees += twin->cross_thread_frees;
    into->zero_size_total += twin->zero_size_total;
    into->zero_size_at_peak += twin->zero_size_at_peak;
    into->zero_size_at_exit += twin->zero_size_at_exit;
    into->has_zero_size &= twin->has_zero_size;

    struct site_access *access = &into->access;
    const struct site_access *other = &twin->access;
    access->bytes_read += other->bytes_read;
    access->bytes_written += other->bytes_written;
    access->measured_bytes += other->measured_bytes;
    access->never_read_bytes += other->never_read_bytes;
    access->never_written_bytes += other->never_written_bytes;
    access->never_accessed_bytes += other->never_accessed_bytes;
    access->written_never_read_bytes += other->written_never_read_bytes;
    access->unused_capacity_bytes += other->unused_capacity_bytes;
    access->idle_before_free += other->idle_before_free;
    access->first_access_delay += other->first_access_delay;
    access->at_peak_bytes += other->at_peak_bytes;
    access->at_peak_never_read_bytes += other->at_peak_never_read_bytes;
    access->at_peak_never_written_bytes += other->at_peak_never_written_bytes;
    access->at_peak_never_accessed_bytes += other->at_peak_never_accessed_bytes;
    access->at_peak_unused_capacity_bytes +=
        other->at_peak_unused_capacity_bytes;
    access->has_block_size = access->has_block_size && other->has_block_size &&
                             access->block_size == other->block_size;
    access->offset_accesses = NULL;
    access->offset_access_count = 0;
    into->has_access &= twin->has_access;
    into->has_growth = false;
    into->timeline_live_bytes = NULL;
}

static bool append_id(size_t **ids, size_t *count, size_t id)
{
    size_t *grown = realloc(*ids, (*count + 1) * sizeof **ids);
    if (!grown)
        return false;
    grown[(*count)++] = id;
    *ids = grown;
    return true;
}

static int compare_ids(const void *left, const void *right)
{
    size_t a = *(const size_t *)left, b = *(const size_t *)right;
    return a < b ? -1 : a > b;
}

/* The row's site on one side: the site, or the twins combined into
 * rows->combined. */
static const struct site *row_site(const struct profile *profile,
                                   const size_t *ids, size_t count,
                                   struct diff_rows *rows)
{
    if (count == 0)
        return NULL;
    if (count == 1)
        return &profile->sites[ids[0]];
    struct site *combined = &rows->combined[rows->combined_count++];
    *combined = profile->sites[ids[0]];
    for (size_t i = 1; i < count; i++)
        site_twins_add(combined, &profile->sites[ids[i]]);
    return combined;
}

bool diff_rows_build(const struct profile *base, const struct profile *changed,
                     const struct site_matching *matching,
                     struct diff_rows *rows)
{
    const size_t *base_to_new = matching->base_to_new;
    const size_t *new_to_base = matching->new_to_base;
    size_t most = base->site_count + changed->site_count + 1;
    size_t *row_of_changed = malloc((changed->site_count + 1) * sizeof(size_t));
    size_t *row_of_base = malloc((base->site_count + 1) * sizeof(size_t));
    memset(rows, 0, sizeof *rows);
    rows->rows = calloc(most, sizeof *rows->rows);
    rows->combined = calloc(most, sizeof *rows->combined);
    bool ok = row_of_changed && row_of_base && rows->rows && rows->combined;
    /* Pairs and new sites, in NEW's order; then twins join their rows;
     * then the vanished sites. */
    for (size_t i = 0; ok && i < changed->site_count; i++) {
        size_t b = new_to_base[i];
        if (b != NO_MATCH && base_to_new[b] != i)
            continue;   /* a twin */
        struct diff_row *row = &rows->rows[rows->count];
        row_of_changed[i] = rows->count++;
        ok = append_id(&row->changed_ids, &row->changed_count, i);
        if (ok && b != NO_MATCH) {
            row_of_base[b] = row_of_changed[i];
            ok = append_id(&row->base_ids, &row->base_count, b);
        }
    }
    for (size_t i = 0; ok && i < changed->site_count; i++) {
        size_t b = new_to_base[i];
        if (b != NO_MATCH && base_to_new[b] != i) {
            struct diff_row *row = &rows->rows[row_of_base[b]];
            ok = append_id(&row->changed_ids, &row->changed_count, i);
        }
    }
    for (size_t i = 0; ok && i < base->site_count; i++) {
        size_t c = base_to_new[i];
        if (c == NO_MATCH) {
            struct diff_row *row = &rows->rows[rows->count++];
            ok = append_id(&row->base_ids, &row->base_count, i);
        } else if (new_to_base[c] != i) {
            struct diff_row *row = &rows->rows[row_of_changed[c]];
            ok = append_id(&row->base_ids, &row->base_count, i);
        }
    }
    for (size_t r = 0; ok && r < rows->count; r++) {
        struct diff_row *row = &rows->rows[r];
        /* Twins join after their sibling: put each side in id order (a
         * side without sites has no array to sort). */
        if (row->base_count > 1)
            qsort(row->base_ids, row->base_count, sizeof(size_t), compare_ids);
        if (row->changed_count > 1)
            qsort(row->changed_ids, row->changed_count, sizeof(size_t),
                  compare_ids);
        row->base_site = row_site(base, row->base_ids, row->base_count, rows);
        row->changed_site =
            row_site(changed, row->changed_ids, row->changed_count, rows);
        if (row->base_site && row->changed_site)
            rows->matched++;
        else if (row->changed_site)
            rows->added++;
        else
            rows->vanished++;
    }
    free(row_of_changed);
    free(row_of_base);
    if (!ok)
        diff_rows_free(rows);
    return ok;
}

void diff_rows_free(struct diff_rows *rows)
{
    for (size_t r = 0; rows->rows && r < rows->count; r++) {
        free(rows->rows[r].base_ids);
        free(rows->rows[r].changed_ids);
    }
    free(rows->rows);
    free(rows->combined);
    memset(rows, 0, sizeof *rows);
}
