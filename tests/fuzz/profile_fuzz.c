/* libFuzzer target for the profile reader (cli/profile.c,
 * profile_fields.c, profile_document.c, json_split.c, profile_rules.c)
 * and everything that consumes what it reads.
 *
 * The input is up to four parts separated by the line "--8<--":
 *
 *   PROFILE_A [--8<-- PROFILE_B [--8<-- RULES [--8<-- INDEX_HTML]]]
 *
 * Each input runs:
 *   - the reader on A (and B): either a one-line error or a profile that the
 *     text, JSON, folded-stack and DHAT reports and site matching use without
 *     a crash or an out-of-bounds access (AddressSanitizer); A matched with
 *     itself pairs every site; reading frames and sites one by one (the
 *     default) and parsing the whole document give the same profile or the
 *     same error;
 *   - rule parsing on each line of RULES, and each parsed rule evaluated on
 *     A -> B (B is A when absent) with their site matching;
 *   - when there are two parts or more, the commands on files holding them:
 *     `diff A B` with the rules as
 *     --fail-on, `check A` with budgets, and `view A --baseline B` whose
 *     viewer directory holds INDEX_HTML (a fixed page when absent) and two
 *     assets, so the HTML rewriting of `view` sees hostile pages too. Each
 *     must exit 0, 1 or 2.
 *
 * See tests/fuzz/run.sh and docs/cli.md ("Fuzzing").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "match.h"
#include "metrics.h"
#include "profile.h"
#include "report_output.h"
#include "rules.h"

#define SEPARATOR "\n--8<--\n"
enum { MAX_PARTS = 4, MAX_RULES = 8 };

static FILE *sink;
static char directory[64];
static char path_a[128], path_b[128], path_viewer[128], path_index[160];

static const char default_index[] =
    "<!DOCTYPE html><html><head>"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">"
    "<link rel=\"stylesheet\" href=\"style.css\"></head>"
    "<body><script src=\"app.js\"></script></body></html>\n";

static void write_file(const char *path, const char *data, size_t size)
{
    FILE *stream = fopen(path, "wb");
    if (!stream)
        abort();
    if (size)
        fwrite(data, 1, size, stream);
    fclose(stream);
}

static void set_up(void)
{
    sink = fopen("/dev/null", "w");
    /* The commands print reports on stdout: nobody needs them here. */
    if (!sink || !freopen("/dev/null", "w", stdout))
        abort();
    snprintf(directory, sizeof directory, "/tmp/lifeheap-fuzz-XXXXXX");
    if (!mkdtemp(directory))
        abort();
    snprintf(path_a, sizeof path_a, "%s/a.json", directory);
    snprintf(path_b, sizeof path_b, "%s/b.json", directory);
    snprintf(path_viewer, sizeof path_viewer, "%s/viewer", directory);
    snprintf(path_index, sizeof path_index, "%s/index.html", path_viewer);
    char asset[192];
    if (mkdir(path_viewer, 0700) != 0)
        abort();
    snprintf(asset, sizeof asset, "%s/app.js", path_viewer);
    write_file(asset, "var x = '</script><!--';\n", 25);
    snprintf(asset, sizeof asset, "%s/style.css", path_viewer);
    write_file(asset, "body { color: red } </style>\n", 29);
    setenv("LIFEHEAP_VIEWER_DIR", path_viewer, 1);
}

/* Runs a command as main() would, and checks its exit status. */
static void run_command(int (*command)(int, char **), int argc, char **argv)
{
    optind = 0;   /* glibc: reinitialise getopt for a new argv */
    int status = command(argc, argv);
    if (status < 0 || status > 2)
        abort();
}

/* The parts of two profiles that the split reader could get wrong: every
 * frame's strings and line, every site's stack and figures. */
static bool same_frame(const struct frame *a, const struct frame *b)
{
    const char *sa[] = {a->function, a->file, a->directory, a->object, a->address};
    const char *sb[] = {b->function, b->file, b->directory, b->object, b->address};
    for (size_t i = 0; i < sizeof sa / sizeof sa[0]; i++)
        if ((sa[i] == NULL) != (sb[i] == NULL) || (sa[i] && strcmp(sa[i], sb[i])))
            return false;
    return a->line == b->line && a->inlined == b->inlined;
}

static bool same_profile(const struct profile *a, const struct profile *b)
{
    if (a->frame_count != b->frame_count || a->site_count != b->site_count ||
        a->finding_count != b->finding_count || a->duration != b->duration ||
        a->peak_bytes != b->peak_bytes || a->total_bytes != b->total_bytes)
        return false;
    for (size_t i = 0; i < a->frame_count; i++)
        if (!same_frame(&a->frames[i], &b->frames[i]))
            return false;
    for (size_t i = 0; i < a->site_count; i++) {
        const struct site *x = &a->sites[i], *y = &b->sites[i];
        if (x->stack_len != y->stack_len || x->name_frame != y->name_frame ||
            x->total_bytes != y->total_bytes || x->bytes_at_peak != y->bytes_at_peak ||
            x->max_bytes != y->max_bytes || x->lifetime_max != y->lifetime_max ||
            x->has_access != y->has_access ||
            x->access.offset_access_count != y->access.offset_access_count ||
            memcmp(x->stack, y->stack, x->stack_len * sizeof *x->stack) != 0)
            return false;
    }
    return true;
}

/* An error is one line starting with the program name and the input's name,
 * and reading frames and sites one by one (the default) gives exactly what
 * parsing the whole document gives: the same profile or the same error. */
static struct profile *load(const char *name, const char *data, size_t size)
{
    char error[1024], whole_error[1024], prefix[64];
    struct profile *profile = profile_parse(name, data, size, error,
                                            sizeof error);
    struct profile *whole = profile_parse_with(name, data, size, false,
                                               whole_error, sizeof whole_error);
    snprintf(prefix, sizeof prefix, "lifeheap: %s: ", name);
    if (!profile && (strncmp(error, prefix, strlen(prefix)) != 0 ||
                     strchr(error, '\n')))
        abort();
    if ((profile == NULL) != (whole == NULL))
        abort();
    if (!profile && strcmp(error, whole_error) != 0)
        abort();
    if (profile && !same_profile(profile, whole))
        abort();
    profile_free(whole);
    return profile;
}

static void reports(struct profile *profile)
{
    const struct metric *sort = metric_find("peak_bytes");
    size_t *order = sites_sorted_by(profile, sort);
    if (order) {
        report_text(sink, profile, sort, order, profile->site_count);
        report_json(sink, profile, sort, order, profile->site_count);
        free(order);
    }
    report_collapsed(sink, profile, metric_find("total_bytes"));
    report_dhat(sink, profile);
    struct site_matching matching = {0};
    if (match_sites(profile, profile, &matching)) {
        /* A profile matched with itself pairs every site. */
        for (size_t i = 0; i < profile->site_count; i++)
            if (matching.base_to_new[i] == NO_MATCH)
                abort();
        site_matching_free(&matching);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink)
        set_up();
    /* The parts. */
    const char *part[MAX_PARTS] = {0};
    size_t length[MAX_PARTS] = {0}, parts = 0;
    const char *text = (const char *)data, *end = text + size;
    size_t separator = strlen(SEPARATOR);
    while (parts < MAX_PARTS) {
        const char *next = parts + 1 < MAX_PARTS
                               ? memmem(text, (size_t)(end - text), SEPARATOR,
                                        separator)
                               : NULL;
        part[parts] = text;
        length[parts] = next ? (size_t)(next - text) : (size_t)(end - text);
        parts++;
        if (!next)
            break;
        text = next + separator;
    }

    struct profile *a = load("a", part[0], length[0]);
    struct profile *b = parts > 1 ? load("b", part[1], length[1]) : NULL;
    if (a)
        reports(a);
    if (b)
        reports(b);

    /* Rules: each line of part 2, parsed and evaluated on a -> b. */
    char *rule_texts[MAX_RULES];
    size_t rule_count = 0;
    if (parts > 2) {
        char *rules = strndup(part[2], length[2]);
        for (char *save = NULL, *line = strtok_r(rules, "\n", &save);
             line && rule_count < MAX_RULES; line = strtok_r(NULL, "\n", &save))
            rule_texts[rule_count++] = strdup(line);
        free(rules);
    }
    struct profile *changed = b ? b : a;
    struct site_matching matching = {0};
    struct diff_rows rows = {0};
    bool matched = a && changed && match_sites(a, changed, &matching);
    bool in_rows = matched && diff_rows_build(a, changed, &matching, &rows);
    for (size_t r = 0; r < rule_count; r++) {
        struct rule rule;
        if (rule_parse(rule_texts[r], &rule) && in_rows)
            rule_evaluate(&rule, a, changed, &matching, &rows, sink);
    }
    if (in_rows)
        diff_rows_free(&rows);
    if (matched)
        site_matching_free(&matching);

    /* The commands, on files: only for inputs of two parts or more, so the
       reader alone is fuzzed at full speed on single documents. */
    if (parts < 2)
        goto done;
    write_file(path_a, part[0], length[0]);
    write_file(path_b, part[1], length[1]);
    write_file(path_index, parts > 3 ? part[3] : default_index,
               parts > 3 ? length[3] : strlen(default_index));
    char *diff_argv[4 + 2 * MAX_RULES] = {"diff", path_a, path_b};
    int diff_argc = 3;
    for (size_t r = 0; r < rule_count; r++) {
        diff_argv[diff_argc++] = "--fail-on";
        diff_argv[diff_argc++] = rule_texts[r];
    }
    run_command(cmd_diff, diff_argc, diff_argv);
    char *check_argv[] = {"check", path_a, "--max-peak", "1MiB", "--max-end",
                          "0", "--forbid", "leak"};
    run_command(cmd_check, 8, check_argv);
    char *view_argv[] = {"view", path_a, "--baseline", path_b, "-o",
                         "/dev/null"};
    run_command(cmd_view, 6, view_argv);

done:
    for (size_t r = 0; r < rule_count; r++)
        free(rule_texts[r]);
    profile_free(a);
    profile_free(b);
    return 0;
}
