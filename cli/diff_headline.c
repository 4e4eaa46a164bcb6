/* The headline of a diff (diff_headline.h).
 *
 * Which finding: the finding changes in order of severity (high, medium,
 * low); at equal severity a new finding before a worsened one before a
 * resolved one, then in their profile's order (the tool lists findings
 * most severe first). A finding in both runs is worsened when it is more
 * severe in NEW, or as severe with a larger first headline figure (the
 * kind's first key in docs/evidence-labels.json); otherwise it is
 * unchanged, and an unchanged finding heads the diff only when nothing
 * changed (NEW's most severe). The viewer applies the same rule
 * (viewer/src/model/diff.js, Diff.prototype.headline).
 *
 * Figures: for each of the finding's headline keys, the BASE run's and
 * the NEW run's. A run with the finding gives its evidence; a run whose
 * matching site lacks the finding gives the site's own field when the
 * figure is one (evidence_site_value), else "not computed" (the tool
 * computes that figure only with a finding); a run without the site
 * reads "no such site".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "diff_headline.h"

#include <stdlib.h>
#include <string.h>

#include "evidence_labels.h"
#include "report_output.h"
#include "util.h"

static int severity_rank(const char *severity)
{
    return strcmp(severity, "high") == 0     ? 0
           : strcmp(severity, "medium") == 0 ? 1
           : strcmp(severity, "low") == 0    ? 2
                                             : 3;
}

/* The value of the kind's first headline key, or false. */
static bool first_figure(const struct finding *finding, const char **key,
                         double *value)
{
    size_t index;
    if (evidence_headline(finding, &index, 1) == 0)
        return false;
    *key = finding->evidence[index].name;
    *value = finding->evidence[index].value;
    return true;
}

static bool worsened(const struct finding *before, const struct finding *after)
{
    int was = severity_rank(before->severity), is = severity_rank(after->severity);
    if (is != was)
        return is < was;
    const char *key;
    double now;
    if (!first_figure(after, &key, &now))
        return false;
    for (size_t i = 0; i < before->evidence_count; i++)
        if (strcmp(before->evidence[i].name, key) == 0)
            return now > before->evidence[i].value;
    return false;
}

struct candidate {
    enum headline_state state;
    int severity;
    size_t order;
};

/* Whether a is shown before b. */
static bool before(const struct candidate *a, const struct candidate *b)
{
    bool a_same = a->state == HEADLINE_UNCHANGED;
    bool b_same = b->state == HEADLINE_UNCHANGED;
    if (a_same != b_same)
        return b_same;
    if (a->severity != b->severity)
        return a->severity < b->severity;
    if (a->state != b->state)
        return a->state < b->state;
    return a->order < b->order;
}

/* Makes `shown` (the finding at `order` in its profile) the headline when
 * it comes before the best so far. */
static void consider(struct diff_headline *headline, struct candidate *best,
                     const struct diff_headline *shown, size_t order)
{
    struct candidate c = {shown->state, severity_rank(shown->finding->severity),
                          order};
    if (best->state != HEADLINE_NONE && !before(&c, best))
        return;
    *best = c;
    *headline = *shown;
}

void diff_headline_pick(const struct profile *base,
                        const struct profile *changed,
                        const struct site_matching *matching,
                        struct diff_headline *headline)
{
    struct candidate best = {HEADLINE_NONE, 0, 0};
    memset(headline, 0, sizeof *headline);
    for (size_t i = 0; i < changed->finding_count; i++) {
        const struct finding *finding = &changed->findings[i];
        size_t other = matching->new_to_base[finding->site];
        const struct finding *was =
            other == NO_MATCH ? NULL : finding_on_site(base, other, finding->kind);
        struct diff_headline shown = {
            .state = !was                     ? HEADLINE_NEW
                     : worsened(was, finding) ? HEADLINE_WORSENED
                                              : HEADLINE_UNCHANGED,
            .finding = finding, .new_finding = finding, .base_finding = was,
            .profile = changed, .new_site = &changed->sites[finding->site],
            .base_site = other == NO_MATCH ? NULL : &base->sites[other]};
        consider(headline, &best, &shown, i);
    }
    for (size_t i = 0; i < base->finding_count; i++) {
        const struct finding *finding = &base->findings[i];
        size_t other = matching->base_to_new[finding->site];
        if (other != NO_MATCH && finding_on_site(changed, other, finding->kind))
            continue;
        struct diff_headline shown = {
            .state = HEADLINE_RESOLVED, .finding = finding,
            .base_finding = finding, .profile = base,
            .base_site = &base->sites[finding->site],
            .new_site = other == NO_MATCH ? NULL : &changed->sites[other]};
        consider(headline, &best, &shown, i);
    }
}

const char *diff_headline_state_name(enum headline_state state)
{
    switch (state) {
    case HEADLINE_NEW: return "new";
    case HEADLINE_WORSENED: return "worsened";
    case HEADLINE_RESOLVED: return "resolved";
    case HEADLINE_UNCHANGED: return "unchanged";
    case HEADLINE_NONE: break;
    }
    return "none";
}

/* One run's text of figure `key`. */
static void figure_text(const char *key, const struct finding *finding,
                        const struct site *site, uint64_t duration,
                        char *buffer, size_t size)
{
    double value;
    if (finding) {
        for (size_t i = 0; i < finding->evidence_count; i++) {
            if (strcmp(finding->evidence[i].name, key) == 0) {
                evidence_value(key, finding->evidence[i].value, duration,
                               buffer, size);
                return;
            }
        }
        snprintf(buffer, size, "not recorded");
    } else if (!site) {
        snprintf(buffer, size, "no such site");
    } else if (evidence_site_value(site, key, &value)) {
        evidence_value(key, value, duration, buffer, size);
    } else {
        snprintf(buffer, size, "not computed");
    }
}

static void headline_lines(FILE *out, const struct diff_headline *headline,
                           const struct profile *base,
                           const struct profile *changed)
{
    if (headline->state == HEADLINE_NONE) {
        fprintf(out, "no findings in either run\n");
        return;
    }
    const struct finding *finding = headline->finding;
    const struct site *site = headline->profile == base ? headline->base_site
                                                        : headline->new_site;
    char name[1024];
    format_site_name(headline->profile, site, name, sizeof name);
    if (headline->state == HEADLINE_UNCHANGED)
        fprintf(out, "no finding changed; most severe, in both runs ");
    else
        fprintf(out, "most severe change: %s finding ",
                diff_headline_state_name(headline->state));
    print_headline_finding(out, finding, name);
    fprintf(out, "\n    %-40s %s -> %s", "", "base", "new");
    size_t indexes[8];
    size_t shown = evidence_headline(finding, indexes, 8);
    for (size_t i = 0; i < shown; i++) {
        const char *key = finding->evidence[indexes[i]].name;
        char label[256], was[128], now[128];
        evidence_label(finding->kind, key, label, sizeof label);
        figure_text(key, headline->base_finding, headline->base_site,
                    base->duration, was, sizeof was);
        figure_text(key, headline->new_finding, headline->new_site,
                    changed->duration, now, sizeof now);
        fprintf(out, "\n    %-40s ", label);
        print_text(out, was);
        fprintf(out, " -> ");
        print_text(out, now);
    }
    fprintf(out, "\n");
}

void diff_headline_print(FILE *out, const struct diff_headline *headline,
                         const struct profile *base,
                         const struct profile *changed)
{
    char *text = NULL;
    size_t size = 0;
    FILE *buffer = open_memstream(&text, &size);
    if (!buffer) {   /* no memory for the buffer: unwrapped, still whole */
        headline_lines(out, headline, base, changed);
        return;
    }
    headline_lines(buffer, headline, base, changed);
    fclose(buffer);
    print_wrapped(out, text, REPORT_WIDTH);
    free(text);
}
