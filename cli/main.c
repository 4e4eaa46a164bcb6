/* lifeheap: the command line. A thin dispatcher: each subcommand lives in
 * its own cmd_*.c file (see commands.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "util.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
    const char *summary;
};

static const struct command commands[] = {
    {"run", cmd_run, run_usage, "profile a program under the lifeheap tool"},
    {"report", cmd_report, report_usage,
     "show a profile (text, json, folded stacks or DHAT's format)"},
    {"diff", cmd_diff, diff_usage,
     "compare a baseline and a changed profile; gate on rules"},
    {"check", cmd_check, check_usage, "gate one profile on absolute budgets"},
    {"view", cmd_view, view_usage,
     "write a self-contained HTML report with the viewer"},
    {"sql", cmd_sql, sql_usage,
     "every block's life and the profile in an SQLite database"},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

static void print_usage(FILE *stream)
{
    fprintf(stream, "usage: lifeheap COMMAND [ARGS...]\n\ncommands:\n");
    for (int i = 0; i < COMMAND_COUNT; i++)
        fprintf(stream, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(stream, "\n'lifeheap COMMAND --help' or 'lifeheap help COMMAND' "
                    "describes a command.\n'lifeheap --version' prints the "
                    "version.\n");
}

static const struct command *find_command(const char *name)
{
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    /* Loading a large profile builds and frees millions of small json-c
     * objects; without fastbins, glibc skips the repeated consolidation
     * passes that otherwise cost a quarter of the load time. */
    mallopt(M_MXFAST, 0);
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        print_usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("lifeheap %s\n", PACKAGE_VERSION);
        return EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        if (argc == 2) {
            print_usage(stdout);
            return EXIT_OK;
        }
        const struct command *command = find_command(argv[2]);
        if (!command) {
            fprintf(stderr, "lifeheap: unknown command '%s'\n", argv[2]);
            return EXIT_USAGE;
        }
        fputs(command->usage, stdout);
        return EXIT_OK;
    }
    const struct command *command = find_command(name);
    if (!command) {
        fprintf(stderr, "lifeheap: unknown command '");
        print_text(stderr, name);
        fprintf(stderr, "'\n");
        print_usage(stderr);
        return EXIT_USAGE;
    }
    return command->run(argc - 1, argv + 1);
}
