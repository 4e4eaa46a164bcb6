/* libFuzzer target for the profile reader (cli/profile.c) and everything
 * that consumes a profile that loaded: the text, JSON, folded-stack and
 * DHAT reports, and site matching of the profile against itself.
 *
 * Any input must give either a one-line error or a profile the consumers
 * can use without a crash or an out-of-bounds access (AddressSanitizer).
 * See tests/fuzz/run.sh and docs/cli.md ("Fuzzing").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "metrics.h"
#include "profile.h"
#include "report_output.h"

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink)
        sink = fopen("/dev/null", "w");
    char error[1024];
    struct profile *profile = profile_parse("fuzz", (const char *)data, size,
                                            error, sizeof error);
    if (!profile) {
        /* An error is one line starting with the program name. */
        if (strncmp(error, "lifeheap: fuzz: ", 16) != 0 || strchr(error, '\n'))
            abort();
        return 0;
    }
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
    profile_free(profile);
    return 0;
}
