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

#endif
