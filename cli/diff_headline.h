/* The headline of a diff: the one finding change a reader should see
 * first, chosen by the rule the viewer's diff headline follows
 * (docs/cli.md, "lifeheap diff"; viewer/src/views/headline.js).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_DIFF_HEADLINE_H
#define LIFEHEAP_DIFF_HEADLINE_H

#include <stdio.h>

#include "match.h"
#include "profile.h"

enum headline_state {
    HEADLINE_NONE,        /* no finding in either run */
    HEADLINE_NEW,         /* in NEW, not on the matching BASE site */
    HEADLINE_WORSENED,    /* in both, more severe or its first figure larger */
    HEADLINE_RESOLVED,    /* in BASE, not on the matching NEW site */
    HEADLINE_UNCHANGED,   /* in both, no worse: only when nothing changed */
};

struct diff_headline {
    enum headline_state state;
    const struct finding *finding;    /* the finding shown (NEW's but for
                                         a resolved one) */
    const struct profile *profile;    /* the profile it is in */
    const struct site *base_site;     /* the site in each run, or NULL */
    const struct site *new_site;
    const struct finding *base_finding, *new_finding;   /* or NULL */
};

void diff_headline_pick(const struct profile *base,
                        const struct profile *changed,
                        const struct site_matching *matching,
                        struct diff_headline *headline);

const char *diff_headline_state_name(enum headline_state state);

/* The headline as text: state, severity, kind and site in one line, the
 * finding's sentence, then each headline figure "BASE -> NEW". */
void diff_headline_print(FILE *out, const struct diff_headline *headline,
                         const struct profile *base,
                         const struct profile *changed);

#endif
