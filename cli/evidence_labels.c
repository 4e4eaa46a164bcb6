/* The evidence table (docs/evidence-labels.json) for the text report.
 *
 * The JSON file is built into the binary (evidence_labels.inc, made by the
 * Makefile as profile_rules.inc is) and parsed once with json-c on first
 * use. The viewer builds the same file in (viewer/build.js) and formats
 * each unit with the same rules (viewer/src/model/evidence.js): sizes as
 * format_size, counts as format_count, shares as format_share,
 * durations as instructions with their share of the run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "evidence_labels.h"

#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char table_text[] =
#include "evidence_labels.inc"
    ;

/* The parsed table; NULL when it did not parse (a build error in spirit:
 * every label then reads as its key, which the CLI tests would show). */
static json_object *table(void)
{
    static json_object *parsed;
    static int tried;
    if (!tried) {
        tried = 1;
        parsed = json_tokener_parse(table_text);
    }
    return parsed;
}

static json_object *lookup(json_object *object, const char *key)
{
    json_object *value = NULL;
    if (object && json_object_object_get_ex(object, key, &value))
        return value;
    return NULL;
}

static const char *string_of(json_object *object, const char *key)
{
    json_object *value = lookup(object, key);
    return value && json_object_is_type(value, json_type_string)
               ? json_object_get_string(value)
               : NULL;
}

const char *evidence_kind_title(const char *kind)
{
    const char *title =
        string_of(lookup(lookup(table(), "kinds"), kind), "title");
    return title ? title : kind;
}

void evidence_label(const char *kind, const char *key, char *buffer,
                    size_t size)
{
    json_object *kind_entry = lookup(lookup(table(), "kinds"), kind);
    const char *label = string_of(lookup(kind_entry, "labels"), key);
    if (!label)
        label = string_of(lookup(lookup(table(), "evidence"), key), "label");
    if (label) {
        snprintf(buffer, size, "%s", label);
        return;
    }
    snprintf(buffer, size, "%s", key);
    for (char *c = buffer; *c; c++)
        if (*c == '_')
            *c = ' ';
}

/* A count, grouped by thousands as everywhere (format_count), from a value
 * rounded to a whole number. */
static void grouped(double value, char *buffer, size_t size)
{
    format_count(value > 0 ? (unsigned long long)llround(value) : 0, buffer,
                 size);
}

/* As the viewer's format.ratio: two decimals under 10, one under 100. */
static void ratio(double value, char *buffer, size_t size)
{
    double magnitude = fabs(value);
    snprintf(buffer, size, "%.*f",
             magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2, value);
}

void evidence_value(const char *key, double value, uint64_t duration,
                    char *buffer, size_t size)
{
    const char *unit =
        string_of(lookup(lookup(table(), "evidence"), key), "unit");
    char a[48], b[48];
    if (!unit)
        unit = "count";
    if (strcmp(unit, "bytes") == 0) {
        format_size(value, buffer, size);
    } else if (strcmp(unit, "share") == 0) {
        format_share(value, buffer, size);
    } else if (strcmp(unit, "run_share") == 0) {
        format_share(value, a, sizeof a);
        snprintf(buffer, size, "%s of the run", a);
    } else if (strcmp(unit, "instructions") == 0) {
        grouped(value, a, sizeof a);
        if (duration > 0) {
            format_percent(value, (double)duration, b, sizeof b);
            snprintf(buffer, size, "%s instr (%s of the run)", a, b);
        } else {
            snprintf(buffer, size, "%s instr", a);
        }
    } else if (strcmp(unit, "ratio") == 0) {
        ratio(value, buffer, size);
    } else if (strcmp(unit, "rate") == 0) {
        format_size(round(value), a, sizeof a);
        snprintf(buffer, size, "%s per million instr", a);
    } else {
        grouped(value, buffer, size);
    }
}

size_t evidence_headline(const struct finding *finding, size_t *indexes,
                         size_t max)
{
    json_object *keys =
        lookup(lookup(lookup(table(), "kinds"), finding->kind), "headline");
    size_t count = 0;
    if (!keys || !json_object_is_type(keys, json_type_array)) {
        for (size_t i = 0; i < finding->evidence_count && count < max; i++)
            indexes[count++] = i;
        return count;
    }
    for (size_t k = 0; k < json_object_array_length(keys) && count < max;
         k++) {
        const char *key =
            json_object_get_string(json_object_array_get_idx(keys, k));
        for (size_t i = 0; i < finding->evidence_count; i++) {
            if (!key || strcmp(finding->evidence[i].name, key) != 0)
                continue;
            char label[256], other[256];
            evidence_label(finding->kind, key, label, sizeof label);
            int repeated = 0;
            for (size_t j = 0; j < count; j++) {
                evidence_label(finding->kind,
                               finding->evidence[indexes[j]].name, other,
                               sizeof other);
                repeated |= strcmp(label, other) == 0;
            }
            if (!repeated)
                indexes[count++] = i;
            break;
        }
    }
    return count;
}

const char *evidence_site_field(const char *key)
{
    return string_of(lookup(lookup(table(), "evidence"), key), "site_field");
}

bool evidence_site_value(const struct site *site, const char *key,
                         double *value)
{
    /* The paths the table names, each to its member of struct site. */
    static const struct {
        const char *path;
        size_t offset;
        enum { TOP, ACCESS, GROWTH } part;
    } fields[] = {
#define SITE(name) {#name, offsetof(struct site, name), TOP}
#define ACCESS(path, name) {path, offsetof(struct site_access, name), ACCESS}
#define GROWTH(name) {"growth." #name, offsetof(struct site_growth, name), GROWTH}
        SITE(max_bytes), SITE(max_blocks), SITE(freed_blocks),
        SITE(cross_thread_frees), SITE(allocating_threads),
        SITE(bytes_at_exit), SITE(blocks_at_exit), SITE(reallocs),
        SITE(realloc_bytes_copied), SITE(realloc_requested_bytes),
        SITE(total_blocks), SITE(total_bytes), SITE(bytes_at_peak),
        SITE(blocks_at_peak),
        ACCESS("access.at_peak.bytes", at_peak_bytes),
        ACCESS("access.at_peak.unused_capacity_bytes",
               at_peak_unused_capacity_bytes),
        ACCESS("access.at_peak.never_read_bytes", at_peak_never_read_bytes),
        ACCESS("access.at_peak.never_accessed_bytes",
               at_peak_never_accessed_bytes),
        ACCESS("access.unused_capacity_bytes", unused_capacity_bytes),
        ACCESS("access.never_read_bytes", never_read_bytes),
        ACCESS("access.never_accessed_bytes", never_accessed_bytes),
        ACCESS("access.written_never_read_bytes", written_never_read_bytes),
        ACCESS("access.measured_bytes", measured_bytes),
        ACCESS("access.bytes_read", bytes_read),
        GROWTH(rising_fraction), GROWTH(end_to_max_ratio),
        GROWTH(slope_bytes_per_million_instructions),
#undef SITE
#undef ACCESS
#undef GROWTH
    };
    const char *path = evidence_site_field(key);
    if (!path)
        return false;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (strcmp(fields[i].path, path) != 0)
            continue;
        switch (fields[i].part) {
        case TOP:
            *value = (double)*(const uint64_t *)((const char *)site +
                                                 fields[i].offset);
            return true;
        case ACCESS:
            if (!site->has_access)
                return false;
            *value = (double)*(const uint64_t *)((const char *)&site->access +
                                                 fields[i].offset);
            return true;
        case GROWTH:
            if (!site->has_growth)
                return false;
            *value = *(const double *)((const char *)&site->growth +
                                       fields[i].offset);
            return true;
        }
    }
    return false;
}
