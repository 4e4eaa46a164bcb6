/* The kinds of finding (see finding_kinds.h). The list is the profile
 * format's (docs/format.md, `findings[].kind`).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "finding_kinds.h"

#include <string.h>

static const char *const kinds[] = {
    "missing-backpressure", "leak", "unbounded-growth",
    "oversized-preallocation", "unused-capacity", "short-lived-churn",
    "realloc-growth",
};

bool finding_kind_known(const char *word)
{
    if (strcmp(word, "any") == 0)
        return true;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(word, kinds[i]) == 0)
            return true;
    return false;
}

void finding_kinds_list(FILE *stream)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        fprintf(stream, "%s, ", kinds[i]);
    fputs("any\n", stream);
}
