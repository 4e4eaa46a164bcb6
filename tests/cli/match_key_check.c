/* match_key_check.c PROFILE...: for every site of each profile, compares
 * the match key and lines the tool wrote (sites[].match_key, match_lines)
 * with those cli/match.c computes from the stack for profiles without
 * them. Prints "N sites, N differ" per profile and each difference; exits
 * 1 when a key differs or a site has no key, 2 when a profile cannot be
 * read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "profile.h"

int main(int argc, char **argv)
{
    int status = 0;
    for (int a = 1; a < argc; a++) {
        char error[512];
        struct profile *profile = profile_load(argv[a], error, sizeof error);
        if (!profile) {
            fprintf(stderr, "%s: %s\n", argv[a], error);
            return 2;
        }
        size_t differ = 0;
        for (size_t i = 0; i < profile->site_count; i++) {
            const struct site *site = &profile->sites[i];
            uint64_t *lines = NULL;
            size_t lines_len = 0;
            char *key = match_key_from_stack(profile, site, &lines, &lines_len);
            if (!key) {
                fprintf(stderr, "out of memory\n");
                return 2;
            }
            int same = site->match_key && strcmp(site->match_key, key) == 0 &&
                       site->match_lines_len == lines_len &&
                       (lines_len == 0 ||
                        memcmp(site->match_lines, lines,
                               lines_len * sizeof *lines) == 0);
            if (!same) {
                differ++;
                printf("site %zu: tool %s\n         cli  %s\n", i,
                       site->match_key ? site->match_key : "(none)", key);
            }
            free(key);
            free(lines);
        }
        printf("%s: %zu sites, %zu differ\n", argv[a], profile->site_count,
               differ);
        if (differ)
            status = 1;
        profile_free(profile);
    }
    return status;
}
