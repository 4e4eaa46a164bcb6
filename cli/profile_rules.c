/* The consistency rules of a profile (docs/profile-rules.json), checked on
 * the loaded model.
 *
 * The rules file is built into the binary (profile_rules.inc, made from
 * docs/profile-rules.json by the Makefile) and parsed once with json-c. Each
 * relation "field <= at_most" names document fields: "peak.time",
 * "run.duration", or "sites[].max_bytes" for every site. The viewer reads
 * the same file and words a broken relation the same way:
 *
 *   sites[3].bytes_at_peak: 500 is more than sites[3].max_bytes (400): why
 *
 * The fields are found where the reader finds them (profile_counts.c). A
 * field name that is not there is a build error in spirit:
 * the check says so ("internal error") instead of skipping the rule, and the
 * CLI tests load a profile through every rule.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "profile_rules.h"
#include "profile_counts.h"

#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char rules_text[] =
#include "profile_rules.inc"
    ;

#define SITE_PREFIX "sites[]."

/* A resolved side of a relation. */
struct operand {
    const char *name;      /* as in the rules file */
    bool per_site;
    size_t offset;
};

static bool resolve(const char *name, struct operand *operand)
{
    operand->name = name;
    operand->per_site = strncmp(name, SITE_PREFIX, strlen(SITE_PREFIX)) == 0;
    const char *key = operand->per_site ? name + strlen(SITE_PREFIX) : name;
    return profile_count_offset(key, operand->per_site, &operand->offset);
}

static uint64_t value_of(const struct operand *operand,
                         const struct profile *profile, const struct site *site)
{
    const char *base = operand->per_site ? (const char *)site
                                         : (const char *)profile;
    uint64_t value;
    memcpy(&value, base + operand->offset, sizeof value);
    return value;
}

/* "sites[].max_bytes" for site 3 -> "sites[3].max_bytes". */
static void name_of(const struct operand *operand, size_t site_index,
                    char *buffer, size_t size)
{
    if (operand->per_site)
        snprintf(buffer, size, "sites[%zu].%s", site_index,
                 operand->name + strlen(SITE_PREFIX));
    else
        snprintf(buffer, size, "%s", operand->name);
}

static json_object *rules(void)
{
    static json_object *parsed;
    if (!parsed)
        parsed = json_tokener_parse(rules_text);
    return parsed;
}

size_t profile_display_max_chars(void)
{
    json_object *limit = NULL;
    if (rules() && json_object_object_get_ex(rules(), "display_max_chars", &limit))
        return (size_t)json_object_get_int64(limit);
    return 4096;
}

bool profile_check_rules(const struct profile *profile, char *message,
                         size_t size)
{
    json_object *relations = NULL;
    if (!rules() ||
        !json_object_object_get_ex(rules(), "relations", &relations)) {
        snprintf(message, size, "internal error: the built-in profile rules "
                                "do not parse");
        return false;
    }
    size_t count = json_object_array_length(relations);
    for (size_t r = 0; r < count; r++) {
        json_object *relation = json_object_array_get_idx(relations, r);
        json_object *field = NULL, *at_most = NULL, *why = NULL;
        json_object_object_get_ex(relation, "field", &field);
        json_object_object_get_ex(relation, "at_most", &at_most);
        json_object_object_get_ex(relation, "why", &why);
        struct operand left, right;
        if (!field || !at_most ||
            !resolve(json_object_get_string(field), &left) ||
            !resolve(json_object_get_string(at_most), &right)) {
            snprintf(message, size, "internal error: profile rule %zu names "
                                    "a field this lifeheap does not know",
                     r);
            return false;
        }
        bool per_site = left.per_site || right.per_site;
        size_t sites = per_site ? profile->site_count : 1;
        for (size_t s = 0; s < sites; s++) {
            const struct site *site = per_site ? &profile->sites[s] : NULL;
            uint64_t a = value_of(&left, profile, site);
            uint64_t b = value_of(&right, profile, site);
            if (a <= b)
                continue;
            char left_name[96], right_name[96];
            name_of(&left, s, left_name, sizeof left_name);
            name_of(&right, s, right_name, sizeof right_name);
            snprintf(message, size, "%s: %llu is more than %s (%llu): %s",
                     left_name, (unsigned long long)a, right_name,
                     (unsigned long long)b,
                     why ? json_object_get_string(why) : "");
            return false;
        }
    }
    return true;
}
