/* The rules of `lifeheap diff --fail-on RULE` (docs/cli.md):
 *
 *     [site:]METRIC OP THRESHOLD     OP is >, >=, < or <=
 *     finding:KIND                   KIND or "any"
 *
 * A THRESHOLD with a sign (+10%, +1MiB, -5%) compares the change from BASE
 * to NEW, in percent of BASE or in the metric's unit; one without a sign
 * (0, 1MiB, 50%) compares NEW's value itself. A rule names the failure:
 * it fails when the comparison is true.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_RULES_H
#define LIFEHEAP_RULES_H

#include <stdbool.h>
#include <stdio.h>

#include "diff_rows.h"
#include "match.h"
#include "metrics.h"
#include "profile.h"

enum rule_comparison { RULE_GREATER, RULE_GREATER_EQUAL, RULE_LESS,
                       RULE_LESS_EQUAL };

struct rule {
    const char *text;             /* as the user wrote it */
    bool is_finding;
    const char *finding_kind;     /* for finding: rules; "any" matches all */
    bool per_site;
    const struct metric *metric;
    enum rule_comparison comparison;
    bool relative_to_base;        /* signed threshold: a change */
    bool percent;                 /* threshold in percent */
    double threshold;             /* signed; bytes, count or percent */
};

/* Parses `text` into `rule`; false after printing the reason. */
bool rule_parse(const char *text, struct rule *rule);

/* Evaluates the rule and prints one line per violation to `out`
 * ("FAIL peak_bytes>+10%: 1.0 MiB -> 1.5 MiB (+50.0%)"); a site: rule
 * judges each row of the diff (`rows`, in their order: twins as one).
 * Returns true when the rule holds. */
bool rule_evaluate(const struct rule *rule, const struct profile *base,
                   const struct profile *changed,
                   const struct site_matching *matching,
                   const struct diff_rows *rows, FILE *out);

#endif
