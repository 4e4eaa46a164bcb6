/* A subcommand's options and operands, parsed the same way by every
 * command that takes options (report, diff, check, view, sql): getopt_long
 * with its messages turned off, -h/--help printing the command's usage, and
 * one form for usage errors:
 *
 *     lifeheap report: unknown option '--frob'
 *     (see lifeheap report --help)
 *
 * with exit status 2 (docs/cli.md). A command loops over args_next() and
 * handles its own options; the rest is here:
 *
 *     struct command_args args = {
 *         .command = "report", .usage = report_usage, .options = options};
 *     while ((option = args_next(&args, argc, argv)) != ARGS_END) {
 *         switch (option) {
 *         case 't': ... break;
 *         default: return args.status;   (ARGS_STOP)
 *         }
 *     }
 *     if (!args_operands(&args, argc, 1, "missing FILE"))
 *         return args.status;
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_COMMAND_ARGS_H
#define LIFEHEAP_COMMAND_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "metrics.h"

struct command_args {
    const char *command;            /* "report": the name in messages */
    const char *usage;              /* what -h/--help prints */
    const struct option *options;   /* getopt_long's table; every option
                                       with a one-letter val that is also
                                       a short option is listed in
                                       short_options */
    const char *short_options;      /* NULL: "h" (-h and the long ones) */
    int status;                     /* the exit status after ARGS_STOP or
                                       a failed args_operands() */
};

/* The last entries of every command's option table: -h/--help (which
 * args_next() answers) and the table's end. */
#define ARGS_HELP_AND_END                                                     \
    {"help", no_argument, NULL, 'h'},                                         \
    {NULL, 0, NULL, 0}

/* args_next()'s answers besides an option's val. */
enum { ARGS_END = -1, ARGS_STOP = -2 };

/* The next option's val (optarg holds its value). ARGS_END after the last
 * option (optind is then the first operand). ARGS_STOP when parsing is
 * over and the command must return args->status: -h/--help was printed
 * (status 0), or an unknown option or a missing value was reported
 * (status 2). */
int args_next(struct command_args *args, int argc, char **argv);

/* Prints "lifeheap COMMAND: MESSAGE" and the --help hint to stderr; sets
 * and returns args->status = 2. */
int args_usage_error(struct command_args *args, const char *message);

/* True when exactly `count` operands follow the options; otherwise a usage
 * error, `missing` when there are fewer ("missing FILE"), "too many
 * arguments" when there are more. */
bool args_operands(struct command_args *args, int argc, int count,
                   const char *missing);

/* The options of the commands that list sites (report, diff): --sort
 * METRIC, --top N, --format F. Their option tables start with
 * LISTING_OPTIONS; their loops hand every option they do not take
 * themselves to listing_take(). */
#define LISTING_OPTIONS                                                       \
    {"sort", required_argument, NULL, 's'},                                   \
    {"top", required_argument, NULL, 't'},                                    \
    {"format", required_argument, NULL, 'f'}

struct listing_args {
    const char *sort_name;   /* a site metric's name (not checked here) */
    const char *format;      /* text, json, ... (not checked here) */
    uint64_t top;            /* how many sites; 0: all */
};

#define LISTING_DEFAULTS {.sort_name = "peak_bytes", .format = "text", .top = 10}

/* True when `option` is one of LISTING_OPTIONS and its value was taken
 * into `listing`. False otherwise: ARGS_STOP, another option, or a bad
 * --top (reported; args->status is then 2). */
bool listing_take(struct command_args *args, int option,
                  struct listing_args *listing);

/* The site metric --sort names; NULL, with the list of metrics printed
 * and args->status 2, when it names none. */
const struct metric *listing_sort(struct command_args *args,
                                  const struct listing_args *listing);

#endif
