/* Site identity across two runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_MATCH_H
#define LIFEHEAP_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

#define NO_MATCH SIZE_MAX

struct site_matching {
    size_t *base_to_new;   /* per base site: the new site, or NO_MATCH */
    size_t *new_to_base;   /* per new site: the base site, or NO_MATCH */
};

/* Matches the sites of `base` and `changed`; false when out of memory. */
bool match_sites(const struct profile *base, const struct profile *changed,
                 struct site_matching *matching);

void site_matching_free(struct site_matching *matching);

/* The finding of `kind` on site `site` of `profile`, or NULL. */
const struct finding *finding_on_site(const struct profile *profile,
                                      size_t site, const char *kind);

/* True when `to` has no finding of `finding`'s kind on the site matching
 * `finding`'s site (from_to_to: the matching's map from finding's profile
 * to `to`): a new finding (from NEW to BASE) or a resolved one (from BASE
 * to NEW), as lifeheap diff lists them and a finding: rule judges them. */
bool finding_unmatched(const struct finding *finding,
                       const size_t *from_to_to, const struct profile *to);

/* The match key and lines the tool writes for `site` (sites[].match_key,
 * match_lines), computed from its stack by the same rules, for profiles
 * written before the tool wrote them. Both malloc'ed; NULL when out of
 * memory. */
char *match_key_from_stack(const struct profile *profile,
                           const struct site *site, uint64_t **lines,
                           size_t *lines_len);

#endif
