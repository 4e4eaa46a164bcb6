/* `lifeheap report FILE [--sort METRIC] [--top N] [--format FORMAT]`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "command_args.h"
#include "commands.h"
#include "report_output.h"
#include "util.h"

const char report_usage[] =
    "usage: lifeheap report FILE [--sort METRIC] [--top N] [--format FORMAT]\n"
    "\n"
    "Shows a profile: the run, the top sites with every metric, notes on\n"
    "why they are big and their stacks, and the findings. The text trims\n"
    "stacks (from the frame that names the site, up to main) and long names;\n"
    "--format json keeps every frame exact. FILE may be - for standard\n"
    "input.\n"
    "\n"
    "  --sort METRIC   order sites by METRIC, largest first (default\n"
    "                  peak_bytes); with --format collapsed, the weight\n"
    "  --top N         show the N top sites (default 10; 0 = all)\n"
    "  --format F      text (default), json (the same for scripts),\n"
    "                  collapsed (folded stacks for flamegraph.pl, inferno,\n"
    "                  speedscope; every site), or dhat (DHAT's JSON format\n"
    "                  version 2, for dh_view.html and the Firefox Profiler)\n"
    "  -h, --help      this text\n"
    "\n"
    "Exit status: 0 on success, 2 on a usage error or a bad profile.\n";

int cmd_report(int argc, char **argv)
{
    static const struct option options[] = {
        LISTING_OPTIONS,
        ARGS_HELP_AND_END,
    };
    struct listing_args listing = LISTING_DEFAULTS;
    struct command_args args = {
        .command = "report", .usage = report_usage, .options = options};
    int option;
    while ((option = args_next(&args, argc, argv)) != ARGS_END)
        if (!listing_take(&args, option, &listing))
            return args.status;   /* ARGS_STOP or a bad value */
    if (!args_operands(&args, argc, 1, "missing FILE"))
        return args.status;
    const struct metric *sort = listing_sort(&args, &listing);
    if (!sort)
        return args.status;
    enum { TEXT, JSON, COLLAPSED, DHAT } kind;
    if (strcmp(listing.format, "text") == 0)
        kind = TEXT;
    else if (strcmp(listing.format, "json") == 0)
        kind = JSON;
    else if (strcmp(listing.format, "collapsed") == 0)
        kind = COLLAPSED;
    else if (strcmp(listing.format, "dhat") == 0)
        kind = DHAT;
    else
        return args_usage_error(&args, "--format must be text, json, "
                                       "collapsed or dhat");

    char error[1024];
    struct profile *profile = profile_load(argv[optind], error, sizeof error);
    if (!profile) {
        print_error(error);
        return EXIT_USAGE;
    }
    int status = EXIT_OK;
    if (kind == COLLAPSED) {
        if (!report_collapsed(stdout, profile, sort))
            status = EXIT_USAGE;
    } else if (kind == DHAT) {
        if (!report_dhat(stdout, profile))
            status = EXIT_USAGE;
    } else {
        size_t *order = sites_sorted_by(profile, sort);
        if (!order) {
            fprintf(stderr, "lifeheap report: out of memory\n");
            status = EXIT_USAGE;
        } else {
            size_t count = profile->site_count;
            if (listing.top && listing.top < count)
                count = (size_t)listing.top;
            if (kind == TEXT)
                report_text(stdout, profile, sort, order, count);
            else
                report_json(stdout, profile, sort, order, count);
            free(order);
        }
    }
    profile_free(profile);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "lifeheap report: error writing the output\n");
        return EXIT_USAGE;
    }
    return status;
}
