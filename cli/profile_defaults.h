/* profile_defaults.h: a version 2 profile's omitted site members put back
 * (profile_defaults.c).
 *
 * Copyright (C) lifeheap contributors. SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LIFEHEAP_PROFILE_DEFAULTS_H
#define LIFEHEAP_PROFILE_DEFAULTS_H

#include <json-c/json.h>
#include <stddef.h>

#include "profile.h"

/* Adds to site (element `index` of "sites") every member it leaves out,
 * with its documented default, joining the label and the key across runs
 * from frames (the profile's frame table, already read) and the allocator
 * frames from allocator_stacks (the profile's array, may be NULL). Returns
 * NULL, or what is wrong (to follow "sites[index]."). */
const char *profile_expand_site(json_object *site, size_t index,
                                const struct frame *frames, size_t frame_count,
                                json_object *allocator_stacks);

#endif
