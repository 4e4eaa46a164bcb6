/* Parsing and evaluating diff rules (see rules.h).
 *
 * A per-site rule is evaluated on every site of NEW (a new site's BASE
 * value is 0) and, for rules on a change, on every vanished site too (its
 * NEW value is 0), so `site:peak_bytes<-50%` sees a site that disappeared.
 * A relative change from a BASE of 0 is +infinity when NEW is larger (a
 * new allocation exceeds every +N% threshold) and 0 when both are 0.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "finding_kinds.h"
#include "util.h"

static bool parse_failure(const char *text, const char *reason)
{
    fprintf(stderr, "lifeheap diff: bad rule '%s': %s\n", text, reason);
    return false;
}

static bool parse_threshold(const char *text, struct rule *rule,
                            const char *threshold)
{
    double sign = 1;
    if (*threshold == '+' || *threshold == '-') {
        rule->relative_to_base = true;
        sign = *threshold == '-' ? -1 : 1;
        threshold++;
    }
    size_t length = strlen(threshold);
    if (length && threshold[length - 1] == '%') {
        char number[64];
        if (length >= sizeof number)
            return parse_failure(text, "threshold too long");
        memcpy(number, threshold, length - 1);
        number[length - 1] = '\0';
        char *end = NULL;
        double value = strtod(number, &end);
        if (!*number || *end || !isfinite(value) || value < 0)
            return parse_failure(text, "bad percentage");
        /* "50%" of a size means nothing; of a lifetime it is its value. */
        if (!rule->relative_to_base &&
            rule->metric->unit != UNIT_PERCENT_OF_RUN)
            return parse_failure(text, "a percentage without a sign (+/-) "
                                       "only fits lifetime metrics; write "
                                       "+N% for a change");
        rule->percent = rule->relative_to_base;
        rule->threshold = sign * value;
        return true;
    }
    uint64_t amount = 0;
    if (rule->metric->unit == UNIT_BYTES) {
        if (!parse_size(threshold, &amount))
            return parse_failure(text, "bad size (examples: 0, 4096, "
                                       "1.5MiB, 10MB)");
        rule->threshold = sign * (double)amount;
    } else {
        char *end = NULL;
        double value = strtod(threshold, &end);
        if (!*threshold || *end || !isfinite(value) || value < 0)
            return parse_failure(text, "bad number");
        rule->threshold = sign * value;
    }
    return true;
}

bool rule_parse(const char *text, struct rule *rule)
{
    memset(rule, 0, sizeof *rule);
    rule->text = text;
    if (strncmp(text, "finding:", 8) == 0) {
        rule->is_finding = true;
        rule->finding_kind = text + 8;
        if (!*rule->finding_kind)
            return parse_failure(text, "missing finding kind");
        if (!finding_kind_known(rule->finding_kind)) {
            fprintf(stderr, "lifeheap diff: bad rule '%s': unknown finding "
                            "kind '%s'; one of: ",
                    text, rule->finding_kind);
            finding_kinds_list(stderr);
            return false;
        }
        return true;
    }
    const char *metric_start = text;
    if (strncmp(text, "site:", 5) == 0) {
        rule->per_site = true;
        metric_start += 5;
    }
    /* "sites:peak_bytes>0", "findings:leak": a prefix that is not one of
     * the two rule words would otherwise read as an unknown metric. */
    size_t word_length = strcspn(metric_start, ":<>");
    if (metric_start[word_length] == ':') {
        fprintf(stderr, "lifeheap diff: bad rule '%s': unknown rule word "
                        "'%.*s:'; one of: site:METRIC, finding:KIND, or a "
                        "whole-run METRIC\n",
                text, (int)word_length, metric_start);
        return false;
    }
    size_t name_length = strcspn(metric_start, "<>");
    if (metric_start[name_length] == '\0')
        return parse_failure(text, "expected METRIC>THRESHOLD or "
                                   "METRIC<THRESHOLD");
    char name[64];
    if (name_length >= sizeof name)
        return parse_failure(text, "unknown metric");
    memcpy(name, metric_start, name_length);
    name[name_length] = '\0';
    rule->metric = metric_find(name);
    if (!rule->metric ||
        (rule->per_site ? !rule->metric->site_value
                        : !rule->metric->global_value)) {
        fprintf(stderr, "lifeheap diff: bad rule '%s': unknown %s metric "
                        "'%s'; one of: ",
                text, rule->per_site ? "site" : "whole-run", name);
        metric_list_names(stderr, rule->per_site);
        return false;
    }
    const char *op = metric_start + name_length;
    bool or_equal = op[1] == '=';
    if (*op == '>')
        rule->comparison = or_equal ? RULE_GREATER_EQUAL : RULE_GREATER;
    else
        rule->comparison = or_equal ? RULE_LESS_EQUAL : RULE_LESS;
    const char *threshold = op + (or_equal ? 2 : 1);
    if (!*threshold)
        return parse_failure(text, "missing threshold");
    return parse_threshold(text, rule, threshold);
}

static bool compare(enum rule_comparison comparison, double value,
                    double threshold)
{
    switch (comparison) {
    case RULE_GREATER: return value > threshold;
    case RULE_GREATER_EQUAL: return value >= threshold;
    case RULE_LESS: return value < threshold;
    case RULE_LESS_EQUAL: return value <= threshold;
    }
    return false;
}

/* The quantity the rule compares with its threshold. */
static double measured(const struct rule *rule, double base, double changed)
{
    if (!rule->relative_to_base)
        return changed;
    if (!rule->percent)
        return changed - base;
    if (base == 0)
        return changed > 0 ? INFINITY : 0;
    return 100.0 * (changed - base) / base;
}

static void print_values(FILE *out, const struct rule *rule, double base,
                         double changed)
{
    char base_text[32], changed_text[32], change[32];
    format_metric(rule->metric, true, base, base_text, sizeof base_text);
    format_metric(rule->metric, true, changed, changed_text,
                  sizeof changed_text);
    fprintf(out, "%s -> %s", base_text, changed_text);
    if (base != 0) {
        snprintf(change, sizeof change, "%+.1f%%",
                 100.0 * (changed - base) / base);
        fprintf(out, " (%s)", change);
    } else if (changed != 0) {
        fprintf(out, " (new)");
    }
}

static bool evaluate_global(const struct rule *rule,
                            const struct profile *base,
                            const struct profile *changed, FILE *out)
{
    double base_value = 0, changed_value = 0;
    bool base_has = rule->metric->global_value(base, &base_value);
    bool changed_has = rule->metric->global_value(changed, &changed_value);
    if (!changed_has || (rule->relative_to_base && !base_has)) {
        fprintf(out, "SKIP %s: the profiles have no data for %s\n",
                rule->text, rule->metric->name);
        return true;
    }
    if (!compare(rule->comparison, measured(rule, base_value, changed_value),
                 rule->threshold))
        return true;
    fprintf(out, "FAIL %s: ", rule->text);
    print_values(out, rule, base_value, changed_value);
    fputc('\n', out);
    return false;
}

static bool check_site(const struct rule *rule, const struct profile *base,
                       const struct site *base_site,
                       const struct profile *changed,
                       const struct site *changed_site, FILE *out)
{
    double base_value = 0, changed_value = 0;
    if (base_site && !rule->metric->site_value(base, base_site, &base_value))
        return true;
    if (changed_site &&
        !rule->metric->site_value(changed, changed_site, &changed_value))
        return true;
    if (!compare(rule->comparison, measured(rule, base_value, changed_value),
                 rule->threshold))
        return true;
    char name[1024];
    if (changed_site) {
        format_site_name(changed, changed_site, name, sizeof name);
        fprintf(out, "FAIL %s: site %zu ", rule->text, changed_site->id);
    } else {
        format_site_name(base, base_site, name, sizeof name);
        fprintf(out, "FAIL %s: vanished base site %zu ", rule->text,
                base_site->id);
    }
    print_text(out, name);
    fprintf(out, ": ");
    print_values(out, rule, base_value, changed_value);
    fputc('\n', out);
    return false;
}

/* Each row of the diff (a site of NEW and its match, twins combined, or a
 * new site), and for a change rule each vanished site too. */
static bool evaluate_sites(const struct rule *rule, const struct profile *base,
                           const struct profile *changed,
                           const struct diff_rows *rows, FILE *out)
{
    bool holds = true;
    for (size_t i = 0; i < rows->count; i++) {
        const struct diff_row *row = &rows->rows[i];
        if (row->changed_site || rule->relative_to_base)
            holds &= check_site(rule, base, row->base_site, changed,
                                row->changed_site, out);
    }
    return holds;
}

/* A finding of NEW fails the rule unless BASE has the same kind of finding
 * on the matching site. */
static bool evaluate_findings(const struct rule *rule,
                              const struct profile *base,
                              const struct profile *changed,
                              const struct site_matching *matching, FILE *out)
{
    bool holds = true;
    bool any = strcmp(rule->finding_kind, "any") == 0;
    for (size_t i = 0; i < changed->finding_count; i++) {
        const struct finding *finding = &changed->findings[i];
        if (!any && strcmp(finding->kind, rule->finding_kind) != 0)
            continue;
        if (!finding_unmatched(finding, matching->new_to_base, base))
            continue;
        char name[1024];
        format_site_name(changed, &changed->sites[finding->site], name,
                         sizeof name);
        fprintf(out, "FAIL %s: new finding ", rule->text);
        print_finding_heading(out, finding, name);
        fprintf(out, ": ");
        print_text(out, finding->summary);
        fputc('\n', out);
        holds = false;
    }
    return holds;
}

bool rule_evaluate(const struct rule *rule, const struct profile *base,
                   const struct profile *changed,
                   const struct site_matching *matching,
                   const struct diff_rows *rows, FILE *out)
{
    if (rule->is_finding)
        return evaluate_findings(rule, base, changed, matching, out);
    if (rule->per_site)
        return evaluate_sites(rule, base, changed, rows, out);
    return evaluate_global(rule, base, changed, out);
}
