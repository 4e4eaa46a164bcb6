/* The consistency rules of a profile (docs/profile-rules.json): relations
 * between fields, enforced identically by the CLI and the viewer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_PROFILE_RULES_H
#define LIFEHEAP_PROFILE_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"

/* True when every relation holds; otherwise writes the first broken one to
 * `message` ("peak.time: 300 is more than run.duration (100): the peak
 * cannot come after the end of the run") and returns false. */
bool profile_check_rules(const struct profile *profile, char *message,
                         size_t size);

/* The longest text (in characters) a profile string is shown with. */
size_t profile_display_max_chars(void);

#endif
