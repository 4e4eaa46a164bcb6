/* `lifeheap check FILE [--max-peak SIZE] [--max-end SIZE]
 * [--max-site-peak SIZE] [--forbid FINDING]...`: absolute budgets for CI,
 * in the spirit of memray's limit_memory and limit_leaks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "command_args.h"
#include "commands.h"
#include "finding_kinds.h"
#include "util.h"

const char check_usage[] =
    "usage: lifeheap check FILE [--max-peak SIZE] [--max-end SIZE]\n"
    "                      [--max-site-peak SIZE] [--forbid FINDING]...\n"
    "\n"
    "Checks one profile against absolute budgets.\n"
    "\n"
    "  --max-peak SIZE       fail when the heap peak is above SIZE\n"
    "  --max-end SIZE        fail when more than SIZE is live at exit\n"
    "                        (--max-end 0: nothing may be left)\n"
    "  --max-site-peak SIZE  fail for each site holding more than SIZE at the\n"
    "                        peak\n"
    "  --forbid FINDING      fail when the profile has a finding of this kind\n"
    "                        (repeatable; 'any' forbids every finding)\n"
    "  -h, --help            this text\n"
    "\n"
    "SIZE: a number of bytes with an optional unit: 4096, 64KiB, 1.5MiB,\n"
    "10MB (KiB/MiB/GiB and K/M/G are powers of 1024, kB/MB/GB of 1000).\n"
    "\n"
    "Exit status: 0 when every budget holds, 1 when one is exceeded (each is\n"
    "printed, naming the offending sites), 2 on a usage error or a bad\n"
    "profile.\n";

static bool check_budget(const char *what, uint64_t value, uint64_t limit)
{
    char a[32], b[32];
    format_size((double)value, a, sizeof a);
    format_size((double)limit, b, sizeof b);
    bool holds = value <= limit;
    printf("%s %s: %s (%s bytes), limit %s (%s bytes)\n",
           holds ? "PASS" : "FAIL", what, a, count_text(value).text, b,
           count_text(limit).text);
    return holds;
}

int cmd_check(int argc, char **argv)
{
    static const struct option options[] = {
        {"max-peak", required_argument, NULL, 'p'},
        {"max-end", required_argument, NULL, 'e'},
        {"max-site-peak", required_argument, NULL, 's'},
        {"forbid", required_argument, NULL, 'f'},
        ARGS_HELP_AND_END,
    };
    bool has_max_peak = false, has_max_end = false, has_max_site = false;
    uint64_t max_peak = 0, max_end = 0, max_site = 0;
    const char **forbidden = calloc((size_t)argc + 1, sizeof *forbidden);
    size_t forbidden_count = 0;
    int option;
    if (!forbidden) {
        fprintf(stderr, "lifeheap check: out of memory\n");
        return EXIT_USAGE;
    }
    struct command_args args = {
        .command = "check", .usage = check_usage, .options = options};
    while ((option = args_next(&args, argc, argv)) != ARGS_END) {
        uint64_t *target = NULL;
        switch (option) {
        case 'p': target = &max_peak; has_max_peak = true; break;
        case 'e': target = &max_end; has_max_end = true; break;
        case 's': target = &max_site; has_max_site = true; break;
        case 'f':
            if (!finding_kind_known(optarg)) {
                fprintf(stderr, "lifeheap check: unknown finding kind '%s' "
                                "for --forbid; one of: ",
                        optarg);
                finding_kinds_list(stderr);
                free(forbidden);
                return EXIT_USAGE;
            }
            forbidden[forbidden_count++] = optarg;
            break;
        default:   /* ARGS_STOP */
            free(forbidden);
            return args.status;
        }
        if (target && !parse_size(optarg, target)) {
            fprintf(stderr, "lifeheap check: bad size '%s' (examples: 0, "
                            "4096, 64KiB, 1.5MiB, 10MB)\n",
                    optarg);
            free(forbidden);
            return EXIT_USAGE;
        }
    }
    if (!args_operands(&args, argc, 1, "missing FILE")) {
        free(forbidden);
        return args.status;
    }
    if (!has_max_peak && !has_max_end && !has_max_site && !forbidden_count) {
        free(forbidden);
        return args_usage_error(&args, "no budget given (--max-peak, "
                                       "--max-end, --max-site-peak or "
                                       "--forbid)");
    }
    char error[1024];
    struct profile *profile = profile_load(argv[optind], error, sizeof error);
    if (!profile) {
        print_error(error);
        free(forbidden);
        return EXIT_USAGE;
    }

    bool holds = true;
    if (has_max_peak)
        holds &= check_budget("peak", profile->peak_bytes, max_peak);
    if (has_max_end)
        holds &= check_budget("live at exit", profile->exit_bytes, max_end);
    if (has_max_site) {
        size_t offenders = 0;
        for (size_t i = 0; i < profile->site_count; i++) {
            const struct site *site = &profile->sites[i];
            if (site->bytes_at_peak <= max_site)
                continue;
            char size[32], name[1024];
            format_size((double)site->bytes_at_peak, size, sizeof size);
            format_site_name(profile, site, name, sizeof name);
            printf("FAIL site %zu holds %s (%s bytes) at the peak: ",
                   site->id, size, count_text(site->bytes_at_peak).text);
            print_text(stdout, name);
            putchar('\n');
            offenders++;
        }
        char limit[32];
        format_size((double)max_site, limit, sizeof limit);
        if (offenders == 0)
            printf("PASS site peak: no site above %s\n", limit);
        holds &= offenders == 0;
    }
    for (size_t f = 0; f < forbidden_count; f++) {
        bool any = strcmp(forbidden[f], "any") == 0;
        bool found = false;
        for (size_t i = 0; i < profile->finding_count; i++) {
            const struct finding *finding = &profile->findings[i];
            if (!any && strcmp(finding->kind, forbidden[f]) != 0)
                continue;
            char name[1024];
            format_site_name(profile, &profile->sites[finding->site], name,
                             sizeof name);
            printf("FAIL finding ");
            print_text(stdout, finding->kind);
            printf(" at site %zu, ", finding->site);
            print_text(stdout, name);
            printf(": ");
            print_text(stdout, finding->summary);
            putchar('\n');
            found = true;
        }
        if (!found) {
            printf("PASS no ");
            print_text(stdout, forbidden[f]);
            printf(" finding\n");
        }
        holds &= !found;
    }
    profile_free(profile);
    free(forbidden);
    return holds ? EXIT_OK : EXIT_RULE_FAILED;
}
