/* `lifeheap diff BASE NEW [--sort METRIC] [--top N] [--format text|json]
 * [--fail-on RULE]...`: what changed between a baseline run and a changed
 * run, whole-run and per site (sites matched by match.c), and whether the
 * change passes the rules (rules.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "command_args.h"
#include "commands.h"
#include "diff_headline.h"
#include "match.h"
#include "rules.h"
#include "util.h"

const char diff_usage[] =
    "usage: lifeheap diff BASE NEW [--sort METRIC] [--top N]\n"
    "                     [--format text|json] [--fail-on RULE]...\n"
    "\n"
    "Compares a baseline profile with a changed one: whole-run deltas for\n"
    "every metric, per-site deltas (sites matched by function and file of\n"
    "each frame, so rebuilds that move addresses or lines still match), new\n"
    "and vanished sites, new and resolved findings.\n"
    "\n"
    "  --sort METRIC    order sites by the size of their change in METRIC\n"
    "                   (default peak_bytes)\n"
    "  --top N          list the N most changed sites (default 10; 0 = all)\n"
    "  --format F       text (default) or json\n"
    "  --fail-on RULE   exit 1 when RULE fails (repeatable). RULE is\n"
    "                     [site:]METRIC OP THRESHOLD  with OP one of > >= < <=\n"
    "                     finding:KIND               (or finding:any)\n"
    "                   A signed threshold is a change from BASE: +10% (of\n"
    "                   BASE), +1MiB, -5%. An unsigned one is NEW's value:\n"
    "                   0, 64KiB, 50% (lifetimes). site: applies the rule to\n"
    "                   every site. finding:KIND fails on a KIND finding in\n"
    "                   NEW whose site had no such finding in BASE.\n"
    "                   Examples: peak_bytes>+10%  end_bytes>0\n"
    "                   site:peak_bytes>+1MiB  finding:missing-backpressure\n"
    "  -h, --help       this text\n"
    "\n"
    "Exit status: 0 when every rule holds, 1 when a rule fails (each failure\n"
    "is printed with its numbers), 2 on a usage error, a bad profile, or\n"
    "profiles of different format versions.\n";

/*--- Per-site changes ----------------------------------------------------*/

struct site_change {
    const struct site *base_site;     /* NULL for a new site */
    const struct site *changed_site;  /* NULL for a vanished site */
    double change;                    /* in the sort metric */
};

static double site_metric(const struct metric *metric,
                          const struct profile *profile,
                          const struct site *site, bool *available)
{
    double value = 0;
    *available = site ? metric->site_value(profile, site, &value) : true;
    return value;
}

static int compare_changes(const void *left, const void *right)
{
    const struct site_change *a = left, *b = right;
    if (fabs(a->change) != fabs(b->change))
        return fabs(a->change) > fabs(b->change) ? -1 : 1;
    /* Ties: matched and new sites by NEW id, then vanished by BASE id. */
    if (!a->changed_site != !b->changed_site)
        return a->changed_site ? -1 : 1;
    size_t id_a = a->changed_site ? a->changed_site->id : a->base_site->id;
    size_t id_b = b->changed_site ? b->changed_site->id : b->base_site->id;
    return id_a < id_b ? -1 : id_a > id_b;
}

struct diff {
    const struct profile *base, *changed;
    struct site_matching matching;
    struct site_change *changes;
    size_t change_count, matched, added, vanished;
};

static bool build_changes(struct diff *diff, const struct metric *sort)
{
    const struct profile *base = diff->base, *changed = diff->changed;
    diff->changes = calloc(base->site_count + changed->site_count + 1,
                           sizeof *diff->changes);
    if (!diff->changes)
        return false;
    for (size_t i = 0; i < changed->site_count; i++) {
        size_t b = diff->matching.new_to_base[i];
        struct site_change *change = &diff->changes[diff->change_count++];
        change->changed_site = &changed->sites[i];
        change->base_site = b == NO_MATCH ? NULL : &base->sites[b];
        if (b == NO_MATCH)
            diff->added++;
        else
            diff->matched++;
    }
    for (size_t i = 0; i < base->site_count; i++) {
        if (diff->matching.base_to_new[i] != NO_MATCH)
            continue;
        struct site_change *change = &diff->changes[diff->change_count++];
        change->base_site = &base->sites[i];
        diff->vanished++;
    }
    for (size_t i = 0; i < diff->change_count; i++) {
        struct site_change *change = &diff->changes[i];
        bool base_has, changed_has;
        double before = site_metric(sort, base, change->base_site, &base_has);
        double after = site_metric(sort, changed, change->changed_site,
                                   &changed_has);
        change->change = base_has && changed_has ? after - before : 0;
    }
    qsort(diff->changes, diff->change_count, sizeof *diff->changes,
          compare_changes);
    return true;
}

static const char *change_status(const struct site_change *change)
{
    return !change->base_site      ? "new"
           : !change->changed_site ? "vanished"
                                   : "matched";
}

/* "+15.9 KiB (+4.5%)", "-42 (-84%)", "-22.5 pts": the change in the
 * metric's unit (sizes, counts and shares as everywhere, common/
 * lh_numbers.h), then relative to the base; percentages of the run change
 * by points. */
static void format_change(const struct metric *metric, double before,
                          double after, char *buffer, size_t size)
{
    char amount[64], relative[32];
    double delta = after - before;
    const char *sign = delta > 0 ? "+" : delta < 0 ? "-" : "";
    if (metric->unit == UNIT_BYTES) {
        format_size_delta(delta, amount, sizeof amount);
    } else if (metric->unit == UNIT_PERCENT_OF_RUN) {
        snprintf(amount, sizeof amount, "%+.1f pts", delta);
    } else {
        format_count((unsigned long long)(fabs(delta) + 0.5), relative,
                     sizeof relative);
        snprintf(amount, sizeof amount, "%s%s", sign, relative);
    }
    if (before != 0 && metric->unit != UNIT_PERCENT_OF_RUN) {
        format_share(fabs(delta / before), relative, sizeof relative);
        snprintf(buffer, size, "%s (%s%s)", amount, sign, relative);
    } else {
        snprintf(buffer, size, "%s", amount);
    }
}

/*--- Text output ----------------------------------------------------------*/

static void print_site_label(FILE *out, const struct diff *diff,
                             const struct site_change *change)
{
    char name[1024];
    if (change->changed_site)
        format_site_name(diff->changed, change->changed_site, name,
                         sizeof name);
    else
        format_site_name(diff->base, change->base_site, name, sizeof name);
    print_text(out, name);
}

/* A run-wide metric of both runs; a run may lack it (base_has false). */
struct global_pair {
    const struct metric *metric;
    bool base_has, changed_has;
    double before, after;
};

/* The next run-wide metric from metrics[*index] on, in both runs; false
 * after the last. The text and JSON outputs list the same ones. */
static bool next_global_pair(const struct diff *diff, unsigned *index,
                             struct global_pair *pair)
{
    while (*index < metric_count) {
        const struct metric *metric = &metrics[(*index)++];
        if (!metric->global_value)
            continue;
        pair->metric = metric;
        pair->before = pair->after = 0;
        pair->base_has = metric->global_value(diff->base, &pair->before);
        pair->changed_has = metric->global_value(diff->changed, &pair->after);
        return true;
    }
    return false;
}

static void print_text_diff(FILE *out, const struct diff *diff,
                            const struct metric *sort, size_t top)
{
    const struct profile *base = diff->base, *changed = diff->changed;
    fprintf(out, "base  ");
    print_text(out, base->path);
    fprintf(out, "\nnew   ");
    print_text(out, changed->path);
    fprintf(out, "\n\n");
    struct diff_headline headline;
    diff_headline_pick(base, changed, &diff->matching, &headline);
    diff_headline_print(out, &headline, base, changed);
    fprintf(out, "\n%-28s %12s %12s  %s\n", "metric", "base", "new",
            "change");
    struct global_pair pair;
    for (unsigned m = 0; next_global_pair(diff, &m, &pair);) {
        char a[32], b[32], c[112];
        format_metric(pair.metric, pair.base_has, pair.before, a, sizeof a);
        format_metric(pair.metric, pair.changed_has, pair.after, b, sizeof b);
        if (pair.base_has && pair.changed_has)
            format_change(pair.metric, pair.before, pair.after, c, sizeof c);
        else
            snprintf(c, sizeof c, "-");
        fprintf(out, "%-28s %12s %12s  %s\n", pair.metric->name, a, b, c);
    }

    size_t shown = top && top < diff->change_count ? top : diff->change_count;
    fprintf(out, "\nsites: %zu matched, %zu new, %zu vanished; %zu most "
                 "changed in %s:\n",
            diff->matched, diff->added, diff->vanished, shown, sort->name);
    fprintf(out, "%-9s %6s %6s %12s %12s  %-22s %s\n", "status", "base", "new",
            "base", "new", "change", "name");
    for (size_t i = 0; i < shown; i++) {
        const struct site_change *change = &diff->changes[i];
        bool base_has, changed_has;
        double before = site_metric(sort, base, change->base_site, &base_has);
        double after = site_metric(sort, changed, change->changed_site,
                                   &changed_has);
        char base_id[24] = "-", new_id[24] = "-", a[32], b[32], c[112];
        if (change->base_site)
            snprintf(base_id, sizeof base_id, "%zu", change->base_site->id);
        if (change->changed_site)
            snprintf(new_id, sizeof new_id, "%zu", change->changed_site->id);
        format_metric(sort, base_has, before, a, sizeof a);
        format_metric(sort, changed_has, after, b, sizeof b);
        format_change(sort, before, after, c, sizeof c);
        fprintf(out, "%-9s %6s %6s %12s %12s  %-22s ", change_status(change),
                base_id, new_id, a, b, c);
        print_site_label(out, diff, change);
        fputc('\n', out);
        /* Every other metric that changed, so a site's story is complete. */
        for (unsigned m = 0; m < metric_count; m++) {
            const struct metric *metric = &metrics[m];
            if (!metric->site_value || metric == sort)
                continue;
            double x = site_metric(metric, base, change->base_site, &base_has);
            double y = site_metric(metric, changed, change->changed_site,
                                   &changed_has);
            if (!base_has || !changed_has || x == y)
                continue;
            format_metric(metric, true, x, a, sizeof a);
            format_metric(metric, true, y, b, sizeof b);
            /* A change too small to see at this precision is noise here
             * (the JSON output keeps it). */
            if (strcmp(a, b) == 0)
                continue;
            format_change(metric, x, y, c, sizeof c);
            fprintf(out, "%23s%-26s %12s -> %-12s %s\n", "", metric->name, a,
                    b, c);
        }
    }
}

/* Findings of `from` with no finding of the same kind on the matching site
 * of `to`: new findings (from = NEW) or resolved ones (from = BASE). */
static size_t print_finding_changes(FILE *out, const char *label,
                                    const struct profile *from,
                                    const struct profile *to,
                                    const size_t *from_to_to)
{
    size_t printed = 0;
    for (size_t i = 0; i < from->finding_count; i++) {
        const struct finding *finding = &from->findings[i];
        if (!finding_unmatched(finding, from_to_to, to))
            continue;
        char name[1024];
        format_site_name(from, &from->sites[finding->site], name, sizeof name);
        fprintf(out, "  %s ", label);
        print_finding_heading(out, finding, name);
        fputc('\n', out);
        printed++;
    }
    return printed;
}

/*--- JSON output ----------------------------------------------------------*/

static void print_json_metric(FILE *out, const struct metric *metric,
                              bool base_has, double before, bool changed_has,
                              double after)
{
    fprintf(out, "\"%s\": {\"base\": ", metric->name);
    metric_print_json(out, metric, base_has, before);
    fprintf(out, ", \"new\": ");
    metric_print_json(out, metric, changed_has, after);
    fprintf(out, ", \"change\": ");
    metric_print_json(out, metric, base_has && changed_has, after - before);
    fprintf(out, ", \"change_percent\": ");
    if (base_has && changed_has && before != 0)
        fprintf(out, "%.4f", 100.0 * (after - before) / before);
    else
        fprintf(out, "null");
    fprintf(out, "}");
}

static void print_json_findings(FILE *out, const struct profile *from,
                                const struct profile *to,
                                const size_t *from_to_to)
{
    const char *separator = "";
    fputc('[', out);
    for (size_t i = 0; i < from->finding_count; i++) {
        const struct finding *finding = &from->findings[i];
        if (!finding_unmatched(finding, from_to_to, to))
            continue;
        fprintf(out, "%s{\"kind\": ", separator);
        print_json_string(out, finding->kind);
        fprintf(out, ", \"severity\": ");
        print_json_string(out, finding->severity);
        fprintf(out, ", \"site\": %zu, \"summary\": ", finding->site);
        print_json_string(out, finding->summary);
        fputc('}', out);
        separator = ", ";
    }
    fputc(']', out);
}

static void print_json_diff(FILE *out, const struct diff *diff,
                            const struct metric *sort, size_t top,
                            const char *rule_text, const struct rule *rules,
                            const bool *holds, size_t rule_count)
{
    const struct profile *base = diff->base, *changed = diff->changed;
    fprintf(out, "{\n  \"format\": \"lifeheap-diff\",\n"
                 "  \"format_version\": 1,\n  \"base\": ");
    print_json_string(out, base->path);
    fprintf(out, ",\n  \"new\": ");
    print_json_string(out, changed->path);
    struct diff_headline headline;
    diff_headline_pick(base, changed, &diff->matching, &headline);
    fprintf(out, ",\n  \"headline\": ");
    if (headline.state == HEADLINE_NONE) {
        fprintf(out, "null");
    } else {
        fprintf(out, "{\"state\": \"%s\", \"kind\": ",
                diff_headline_state_name(headline.state));
        print_json_string(out, headline.finding->kind);
        fprintf(out, ", \"severity\": ");
        print_json_string(out, headline.finding->severity);
        fprintf(out, ", \"base_site\": ");
        if (headline.base_site)
            fprintf(out, "%zu", headline.base_site->id);
        else
            fprintf(out, "null");
        fprintf(out, ", \"new_site\": ");
        if (headline.new_site)
            fprintf(out, "%zu", headline.new_site->id);
        else
            fprintf(out, "null");
        fputc('}', out);
    }
    fprintf(out, ",\n  \"sort\": \"%s\",\n  \"global\": {", sort->name);
    const char *separator = "";
    struct global_pair pair;
    for (unsigned m = 0; next_global_pair(diff, &m, &pair);) {
        fprintf(out, "%s\n    ", separator);
        print_json_metric(out, pair.metric, pair.base_has, pair.before,
                          pair.changed_has, pair.after);
        separator = ",";
    }
    fprintf(out, "\n  },\n  \"matched_sites\": %zu,\n  \"new_sites\": %zu,\n"
                 "  \"vanished_sites\": %zu,\n  \"sites\": [",
            diff->matched, diff->added, diff->vanished);
    size_t shown = top && top < diff->change_count ? top : diff->change_count;
    for (size_t i = 0; i < shown; i++) {
        const struct site_change *change = &diff->changes[i];
        char name[1024];
        if (change->changed_site)
            format_site_name(changed, change->changed_site, name, sizeof name);
        else
            format_site_name(base, change->base_site, name, sizeof name);
        fprintf(out, "%s\n    {\"status\": \"%s\", \"base_id\": ",
                i ? "," : "", change_status(change));
        if (change->base_site)
            fprintf(out, "%zu", change->base_site->id);
        else
            fprintf(out, "null");
        fprintf(out, ", \"new_id\": ");
        if (change->changed_site)
            fprintf(out, "%zu", change->changed_site->id);
        else
            fprintf(out, "null");
        fprintf(out, ", \"name\": ");
        print_json_string(out, name);
        fprintf(out, ",\n     \"metrics\": {");
        separator = "";
        for (unsigned m = 0; m < metric_count; m++) {
            const struct metric *metric = &metrics[m];
            if (!metric->site_value)
                continue;
            bool base_has, changed_has;
            double before = site_metric(metric, base, change->base_site,
                                        &base_has);
            double after = site_metric(metric, changed, change->changed_site,
                                       &changed_has);
            fprintf(out, "%s\n       ", separator);
            print_json_metric(out, metric, base_has, before, changed_has,
                              after);
            separator = ",";
        }
        fprintf(out, "}}");
    }
    fprintf(out, "\n  ],\n  \"findings\": {\"new\": ");
    print_json_findings(out, changed, base, diff->matching.new_to_base);
    fprintf(out, ", \"resolved\": ");
    print_json_findings(out, base, changed, diff->matching.base_to_new);
    fprintf(out, "},\n  \"rules\": [");
    for (size_t i = 0; i < rule_count; i++) {
        fprintf(out, "%s\n    {\"rule\": ", i ? "," : "");
        print_json_string(out, rules[i].text);
        fprintf(out, ", \"holds\": %s}", holds[i] ? "true" : "false");
    }
    fprintf(out, "\n  ],\n  \"failures\": ");
    print_json_string(out, rule_text ? rule_text : "");
    fprintf(out, "\n}\n");
}

/*--- The command ----------------------------------------------------------*/

struct load_job {
    const char *path;
    struct profile *profile;
    char error[1024];
};

static void *load_job_run(void *argument)
{
    struct load_job *job = argument;
    job->profile = profile_load(job->path, job->error, sizeof job->error);
    return NULL;
}

static void load_both(struct load_job jobs[2])
{
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, load_job_run, &jobs[1]) == 0;
    load_job_run(&jobs[0]);
    if (threaded)
        pthread_join(thread, NULL);
    else
        load_job_run(&jobs[1]);
}

int cmd_diff(int argc, char **argv)
{
    static const struct option options[] = {
        LISTING_OPTIONS,
        {"fail-on", required_argument, NULL, 'r'},
        ARGS_HELP_AND_END,
    };
    struct listing_args listing = LISTING_DEFAULTS;
    struct rule *rules = calloc((size_t)argc + 1, sizeof *rules);
    bool *holds = calloc((size_t)argc + 1, sizeof *holds);
    size_t rule_count = 0;
    int status = EXIT_USAGE, option;
    struct profile *base = NULL, *changed = NULL;
    struct diff diff = {0};
    char *rule_text = NULL;
    if (!rules || !holds) {
        fprintf(stderr, "lifeheap diff: out of memory\n");
        goto done;
    }
    struct command_args args = {
        .command = "diff", .usage = diff_usage, .options = options};
    while ((option = args_next(&args, argc, argv)) != ARGS_END) {
        if (option == 'r') {
            if (!rule_parse(optarg, &rules[rule_count++]))
                goto done;
        } else if (!listing_take(&args, option, &listing)) {
            status = args.status;   /* ARGS_STOP or a bad value */
            goto done;
        }
    }
    if (!args_operands(&args, argc, 2, "needs BASE and NEW")) {
        status = args.status;
        goto done;
    }
    bool json = strcmp(listing.format, "json") == 0;
    if (!json && strcmp(listing.format, "text") != 0) {
        status = args_usage_error(&args, "--format must be text or json");
        goto done;
    }
    const struct metric *sort = listing_sort(&args, &listing);
    if (!sort)
        goto done;

    /* The two profiles load in parallel: loading is most of a diff's time
     * and the loader shares nothing between calls. */
    struct load_job jobs[2] = {{.path = argv[optind]},
                               {.path = argv[optind + 1]}};
    load_both(jobs);
    base = jobs[0].profile;
    changed = jobs[1].profile;
    if (!base || !changed) {
        /* Report the first file's problem first, as a serial load would. */
        print_error(base ? jobs[1].error : jobs[0].error);
        goto done;
    }
    diff.base = base;
    diff.changed = changed;
    if (!match_sites(base, changed, &diff.matching) ||
        !build_changes(&diff, sort)) {
        fprintf(stderr, "lifeheap diff: out of memory\n");
        goto done;
    }

    /* Rule verdicts are printed after the comparison (text) or embedded in
     * it (json), so collect them first. */
    size_t rule_text_size = 0;
    FILE *verdicts = open_memstream(&rule_text, &rule_text_size);
    if (!verdicts) {
        fprintf(stderr, "lifeheap diff: out of memory\n");
        goto done;
    }
    bool all_hold = true;
    for (size_t i = 0; i < rule_count; i++) {
        holds[i] = rule_evaluate(&rules[i], base, changed, &diff.matching,
                                 verdicts);
        if (holds[i])
            fprintf(verdicts, "PASS %s\n", rules[i].text);
        all_hold &= holds[i];
    }
    fclose(verdicts);

    if (json) {
        print_json_diff(stdout, &diff, sort, (size_t)listing.top, rule_text, rules,
                        holds, rule_count);
    } else {
        print_text_diff(stdout, &diff, sort, (size_t)listing.top);
        fprintf(stdout, "\nfindings:\n");
        size_t listed = print_finding_changes(stdout, "new     ", changed,
                                              base, diff.matching.new_to_base);
        listed += print_finding_changes(stdout, "resolved", base, changed,
                                        diff.matching.base_to_new);
        if (listed == 0)
            fprintf(stdout, "  no new or resolved findings\n");
        if (rule_count) {
            fprintf(stdout, "\nrules:\n");
            fputs(rule_text, stdout);
        }
    }
    if (!all_hold)
        fprintf(stderr, "lifeheap diff: %s\n", "a rule failed");
    status = all_hold ? EXIT_OK : EXIT_RULE_FAILED;
    if (fflush(stdout) != 0) {
        fprintf(stderr, "lifeheap diff: error writing the output\n");
        status = EXIT_USAGE;
    }

done:
    free(rule_text);
    free(diff.changes);
    site_matching_free(&diff.matching);
    profile_free(base);
    profile_free(changed);
    free(rules);
    free(holds);
    return status;
}
