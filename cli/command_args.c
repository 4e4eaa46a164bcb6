/* Options and operands of a subcommand: getopt_long with lifeheap's
 * messages (see command_args.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "command_args.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

int args_usage_error(struct command_args *args, const char *message)
{
    fprintf(stderr, "lifeheap %s: ", args->command);
    print_text(stderr, message);
    fprintf(stderr, "\n(see lifeheap %s --help)\n", args->command);
    args->status = EXIT_USAGE;
    return EXIT_USAGE;
}

/* The option getopt_long just refused, as the user wrote it: a long one
 * without its "=value", or "-X". */
static void refused_option(int argc, char **argv, char *buffer, size_t size)
{
    const char *argument = optind > 0 && optind <= argc ? argv[optind - 1]
                                                        : NULL;
    if (argument && strncmp(argument, "--", 2) == 0) {
        size_t length = strcspn(argument, "=");
        snprintf(buffer, size, "%.*s", (int)length, argument);
    } else if (optopt) {
        snprintf(buffer, size, "-%c", optopt);
    } else {
        snprintf(buffer, size, "%s", argument ? argument : "?");
    }
}

int args_next(struct command_args *args, int argc, char **argv)
{
    char shorts[64];
    snprintf(shorts, sizeof shorts, ":%s",
             args->short_options ? args->short_options : "h");
    opterr = 0;
    optopt = 0;
    int option = getopt_long(argc, argv, shorts, args->options, NULL);
    if (option == -1)
        return ARGS_END;
    if (option == 'h') {
        fputs(args->usage, stdout);
        args->status = EXIT_OK;
        return ARGS_STOP;
    }
    if (option == ':' || option == '?') {
        char name[256], message[300];
        refused_option(argc, argv, name, sizeof name);
        snprintf(message, sizeof message,
                 option == ':' ? "%s needs a value" : "unknown option '%s'",
                 name);
        args_usage_error(args, message);
        return ARGS_STOP;
    }
    return option;
}

bool args_operands(struct command_args *args, int argc, int count,
                   const char *missing)
{
    if (argc - optind == count)
        return true;
    args_usage_error(args, argc - optind < count ? missing
                                                 : "too many arguments");
    return false;
}

bool listing_take(struct command_args *args, int option,
                  struct listing_args *listing)
{
    switch (option) {
    case 's': listing->sort_name = optarg; return true;
    case 'f': listing->format = optarg; return true;
    case 't':
        if (parse_count(optarg, &listing->top))
            return true;
        args_usage_error(args, "--top needs a number");
        return false;
    default: return false;
    }
}

const struct metric *listing_sort(struct command_args *args,
                                  const struct listing_args *listing)
{
    const struct metric *sort = metric_find(listing->sort_name);
    if (sort && sort->site_value)
        return sort;
    fprintf(stderr, "lifeheap %s: unknown site metric '", args->command);
    print_text(stderr, listing->sort_name);
    fprintf(stderr, "'; one of: ");
    metric_list_names(stderr, true);
    args->status = EXIT_USAGE;
    return NULL;
}
