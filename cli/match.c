/* Site identity across two runs (used by `lifeheap diff`).
 *
 * Two builds of a program move code addresses and shift line numbers, so a
 * site is identified by the key the tool writes for it (sites[].match_key:
 * one "function path, tab, file or object, newline" line per frame that
 * survives a rebuild; tool/lh_match_key.c and docs/format.md say which) and
 * the lines of those frames (sites[].match_lines). Profiles written before
 * the key existed get the same key and lines computed here from their
 * stacks by the same rules (identity_frames, computed_key), so old and new
 * profiles can be compared; tests/cli/match_keys.sh checks, on every site
 * of real profiles, that this gives exactly the tool's keys. This is the
 * one reader that re-derives keys: the viewer pairs by the profile's keys
 * only and points a user with an older profile here.
 *
 * Several sites of one run can share that identity: two malloc calls in the
 * same function, or one helper called from two lines of the same caller.
 * They form a group, and groups are paired deterministically:
 *
 *     base group (sorted by lines)    new group (sorted by lines)
 *       f:10 <- g:40   ---------------->  f:10 <- g:40     1. identical lines
 *       f:12 <- g:40   ------+    +---->  f:14 <- g:40     2. the rest in line
 *                            +----+                           order
 *
 * 1. sites whose line sequences are identical pair first (in order when
 *    even those repeat);
 * 2. the remaining sites pair in the order of their line sequences, which
 *    survives an edit that shifts lines (it moves them all the same way);
 * 3. a site left over whose lines equal those of a paired site of the same
 *    run (code the compiler duplicated: two addresses, one source stack)
 *    maps to that site's counterpart as well;
 * 4. what is left is matched again in a second round that ignores files
 *    (functions only), for code moved to another file or two variants of a
 *    program in two source files (queue_unbounded.c, queue_bounded.c);
 * 5. what is left then is a vanished site (base) or a new site (new).
 *
 * Sorting all sites by (identity, lines, id) puts each group together in
 * that order, so matching two runs costs two sorts and one merge.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "match.h"
#include "names.h"
#include "text_builder.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct keyed_site {
    char *identity;                 /* the match key, places dropped in the
                                     * second round */
    const struct profile *profile;
    const struct site *site;
    uint64_t *lines;                /* the key frames' lines, 0 unknown */
    size_t lines_len;
};

static bool named(const struct frame *frame)
{
    return frame->function && strcmp(frame->function, "UnknownInlinedFun");
}

static bool program_frame(const struct frame *frame)
{
    return named(frame) && !frame->library;
}

/* The stack positions that make the site's identity (see the top of the
 * file); their number in *kept_len. NULL when out of memory. */
static size_t *identity_frames(const struct profile *profile,
                               const struct site *site, size_t *kept_len)
{
    size_t *kept = calloc(site->stack_len + 1, sizeof *kept);
    size_t outermost = site->stack_len, n = 0;
    if (!kept)
        return NULL;
    for (size_t i = 0; i < site->stack_len; i++)
        if (program_frame(&profile->frames[site->stack[i]]))
            outermost = i;
    for (size_t i = 0; i < site->stack_len; i++) {
        const struct frame *frame = &profile->frames[site->stack[i]];
        if (!named(frame))
            continue;
        if (outermost < site->stack_len) {
            if (i > outermost)
                break;
            if (frame->library &&
                !program_frame(&profile->frames[site->stack[i + 1]]))
                continue;
        }
        kept[n++] = i;
    }
    *kept_len = n;
    return kept;
}

/* The match key of a profile without one, by the tool's rules: one
 * "function path \t file-or-object \n" line per kept stack position. */
static char *computed_key(const struct profile *profile,
                          const struct site *site, const size_t *kept,
                          size_t kept_len)
{
    struct text_builder key = {0};
    text_append(&key, "", 0);
    for (size_t k = 0; k < kept_len; k++) {
        const struct frame *frame = &profile->frames[site->stack[kept[k]]];
        const char *place = frame->file     ? frame->file
                            : frame->object ? frame->object
                                            : "";
        char path[1024];
        function_path(frame->function, path, sizeof path);
        text_append_string(&key, path);
        text_append_string(&key, "\t");
        text_append_string(&key, place);
        text_append_string(&key, "\n");
    }
    return text_take(&key);
}

char *match_key_from_stack(const struct profile *profile,
                           const struct site *site, uint64_t **lines,
                           size_t *lines_len)
{
    size_t kept_len = 0;
    size_t *kept = identity_frames(profile, site, &kept_len);
    if (!kept)
        return NULL;
    *lines = malloc((kept_len + 1) * sizeof **lines);
    char *key = *lines ? computed_key(profile, site, kept, kept_len) : NULL;
    for (size_t k = 0; *lines && k < kept_len; k++) {
        int64_t line = profile->frames[site->stack[kept[k]]].line;
        (*lines)[k] = line > 0 ? (uint64_t)line : 0;
    }
    *lines_len = kept_len;
    free(kept);
    return key;
}

/* The key with each line's place dropped (the second round: functions
 * only). */
static char *functions_only(const char *key)
{
    char *out = malloc(strlen(key) + 1);
    size_t n = 0;
    bool in_place = false;
    if (!out)
        return NULL;
    for (const char *c = key; *c; c++) {
        if (*c == '\t')
            in_place = true;
        else if (*c == '\n')
            in_place = false;
        if (!in_place)
            out[n++] = *c;
    }
    out[n] = '\0';
    return out;
}

/* Sets keyed->identity and keyed->lines from the profile's key, or
 * computes them; false when out of memory. */
static bool key_site(struct keyed_site *keyed, bool with_places)
{
    const struct profile *profile = keyed->profile;
    const struct site *site = keyed->site;
    char *key;
    if (site->match_key) {
        keyed->lines = malloc((site->match_lines_len + 1) * sizeof *keyed->lines);
        if (!keyed->lines)
            return false;
        memcpy(keyed->lines, site->match_lines,
               site->match_lines_len * sizeof *keyed->lines);
        keyed->lines_len = site->match_lines_len;
        key = strdup(site->match_key);
    } else {
        key = match_key_from_stack(profile, site, &keyed->lines,
                                   &keyed->lines_len);
    }
    if (key && !with_places) {
        char *functions = functions_only(key);
        free(key);
        key = functions;
    }
    keyed->identity = key;
    return key != NULL;
}

static int compare_lines(const struct keyed_site *a, const struct keyed_site *b)
{
    /* Same identity, hence the same number of key frames. */
    for (size_t i = 0; i < a->lines_len && i < b->lines_len; i++)
        if (a->lines[i] != b->lines[i])
            return a->lines[i] < b->lines[i] ? -1 : 1;
    return 0;
}

static int compare_keyed(const void *left, const void *right)
{
    const struct keyed_site *a = left, *b = right;
    int order = strcmp(a->identity, b->identity);
    if (order)
        return order;
    order = compare_lines(a, b);
    if (order)
        return order;
    return a->site->id < b->site->id ? -1 : a->site->id > b->site->id;
}

/* The sites of `profile` not matched yet (matched[i] == NO_MATCH), keyed
 * and sorted; their number in *count. */
static struct keyed_site *sorted_sites(const struct profile *profile,
                                       const size_t *matched, bool with_places,
                                       size_t *count)
{
    struct keyed_site *keyed = calloc(profile->site_count + 1, sizeof *keyed);
    if (!keyed)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < profile->site_count; i++) {
        if (matched[i] != NO_MATCH)
            continue;
        keyed[n].profile = profile;
        keyed[n].site = &profile->sites[i];
        if (!key_site(&keyed[n], with_places)) {
            free(keyed[n].identity);
            free(keyed[n].lines);
            for (size_t j = 0; j < n; j++) {
                free(keyed[j].identity);
                free(keyed[j].lines);
            }
            free(keyed);
            return NULL;
        }
        n++;
    }
    qsort(keyed, n, sizeof *keyed, compare_keyed);
    *count = n;
    return keyed;
}

/* Step 3 of pairing a group, for the sites of one run (to_other: that
 * run's map to the other run): each site still unmapped takes the
 * counterpart of a mapped site of the same run with the same lines. */
static void map_duplicates(const struct keyed_site *sites, size_t count,
                           size_t *to_other)
{
    for (size_t i = 0; i < count; i++) {
        if (to_other[sites[i].site->id] != NO_MATCH)
            continue;
        for (size_t k = 0; k < count; k++)
            if (to_other[sites[k].site->id] != NO_MATCH &&
                compare_lines(&sites[i], &sites[k]) == 0) {
                to_other[sites[i].site->id] = to_other[sites[k].site->id];
                break;
            }
    }
}

static void pair(struct site_matching *matching, const struct keyed_site *base,
                 const struct keyed_site *changed)
{
    matching->base_to_new[base->site->id] = changed->site->id;
    matching->new_to_base[changed->site->id] = base->site->id;
}

/* Pairs the group base[0..base_count) with changed[0..changed_count). */
static void match_group(struct site_matching *matching,
                        const struct keyed_site *base, size_t base_count,
                        const struct keyed_site *changed, size_t changed_count)
{
    /* 1. Identical line sequences: a merge of two sorted lists. */
    size_t i = 0, j = 0;
    while (i < base_count && j < changed_count) {
        int order = compare_lines(&base[i], &changed[j]);
        if (order == 0)
            pair(matching, &base[i++], &changed[j++]);
        else if (order < 0)
            i++;
        else
            j++;
    }
    /* 2. The rest, in line order. */
    i = 0, j = 0;
    for (;;) {
        while (i < base_count &&
               matching->base_to_new[base[i].site->id] != NO_MATCH)
            i++;
        while (j < changed_count &&
               matching->new_to_base[changed[j].site->id] != NO_MATCH)
            j++;
        if (i == base_count || j == changed_count)
            break;
        pair(matching, &base[i++], &changed[j++]);
    }
    /* 3. A site left over whose lines equal a paired site's of its own run
     * is one code location the compiler duplicated (a peeled loop, a
     * function inlined twice into one caller): it maps to that site's
     * counterpart too, instead of reading as new or vanished. */
    map_duplicates(base, base_count, matching->base_to_new);
    map_duplicates(changed, changed_count, matching->new_to_base);
}

static void free_keyed(struct keyed_site *keyed, size_t count)
{
    if (!keyed)
        return;
    for (size_t i = 0; i < count; i++) {
        free(keyed[i].identity);
        free(keyed[i].lines);
    }
    free(keyed);
}

/* One round of matching over the sites still unmatched. */
static bool match_round(const struct profile *base,
                        const struct profile *changed,
                        struct site_matching *matching, bool with_places)
{
    size_t base_count = 0, changed_count = 0;
    struct keyed_site *base_keyed = sorted_sites(base, matching->base_to_new,
                                                 with_places, &base_count);
    struct keyed_site *changed_keyed = sorted_sites(
        changed, matching->new_to_base, with_places, &changed_count);
    if (!base_keyed || !changed_keyed) {
        free_keyed(base_keyed, base_count);
        free_keyed(changed_keyed, changed_count);
        return false;
    }
    size_t i = 0, j = 0;
    while (i < base_count && j < changed_count) {
        int order = strcmp(base_keyed[i].identity, changed_keyed[j].identity);
        if (order < 0) {
            i++;
        } else if (order > 0) {
            j++;
        } else {
            size_t base_end = i, changed_end = j;
            while (base_end < base_count &&
                   strcmp(base_keyed[base_end].identity,
                          base_keyed[i].identity) == 0)
                base_end++;
            while (changed_end < changed_count &&
                   strcmp(changed_keyed[changed_end].identity,
                          changed_keyed[j].identity) == 0)
                changed_end++;
            match_group(matching, &base_keyed[i], base_end - i,
                        &changed_keyed[j], changed_end - j);
            i = base_end;
            j = changed_end;
        }
    }
    free_keyed(base_keyed, base_count);
    free_keyed(changed_keyed, changed_count);
    return true;
}

bool match_sites(const struct profile *base, const struct profile *changed,
                 struct site_matching *matching)
{
    matching->base_to_new = malloc((base->site_count + 1) * sizeof(size_t));
    matching->new_to_base = malloc((changed->site_count + 1) * sizeof(size_t));
    if (!matching->base_to_new || !matching->new_to_base) {
        site_matching_free(matching);
        return false;
    }
    for (size_t i = 0; i < base->site_count; i++)
        matching->base_to_new[i] = NO_MATCH;
    for (size_t i = 0; i < changed->site_count; i++)
        matching->new_to_base[i] = NO_MATCH;
    if (!match_round(base, changed, matching, true) ||
        !match_round(base, changed, matching, false)) {
        site_matching_free(matching);
        return false;
    }
    return true;
}

void site_matching_free(struct site_matching *matching)
{
    free(matching->base_to_new);
    free(matching->new_to_base);
    matching->base_to_new = matching->new_to_base = NULL;
}

const struct finding *finding_on_site(const struct profile *profile,
                                      size_t site, const char *kind)
{
    for (size_t i = 0; i < profile->finding_count; i++)
        if (profile->findings[i].site == site &&
            strcmp(profile->findings[i].kind, kind) == 0)
            return &profile->findings[i];
    return NULL;
}

bool finding_unmatched(const struct finding *finding,
                       const size_t *from_to_to, const struct profile *to)
{
    size_t other = from_to_to[finding->site];
    return other == NO_MATCH || !finding_on_site(to, other, finding->kind);
}
