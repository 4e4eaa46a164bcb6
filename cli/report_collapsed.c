/* `lifeheap report --format collapsed`: one line per site in the "folded
 * stacks" format read by flamegraph.pl, inferno and speedscope:
 *
 *     main;run_queue;push_message 1048576
 *
 * frames outermost first, separated by ';', then a space and the weight
 * (the chosen metric, an integer). Sites whose weight is 0 are left out, as
 * a flame graph would not show them. Frame names are the function names
 * ("???" when unknown); ';' inside a name (which would split the frame) is
 * written as ':' and control characters as '?'.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "report_output.h"
#include "util.h"

static void print_frame_name(FILE *out, const struct frame *frame)
{
    const char *name = frame->function ? frame->function : "???";
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p == ';')
            fputc(':', out);
        else if (*p < 0x20 || *p == 0x7f)
            fputc('?', out);
        else
            fputc(*p, out);
    }
}

bool report_collapsed(FILE *out, const struct profile *profile,
                      const struct metric *weight)
{
    if (weight->unit == UNIT_PERCENT_OF_RUN) {
        fprintf(stderr, "lifeheap report: %s is a percentage and cannot "
                        "weight a flame graph; use a size or count metric\n",
                weight->name);
        return false;
    }
    for (size_t s = 0; s < profile->site_count; s++) {
        const struct site *site = &profile->sites[s];
        double value = 0;
        if (!weight->site_value(profile, site, &value) || value <= 0)
            continue;
        if (site->stack_len == 0)
            fprintf(out, "[no stack]");
        for (size_t i = site->stack_len; i-- > 0;) {
            print_frame_name(out, &profile->frames[site->stack[i]]);
            if (i)
                fputc(';', out);
        }
        fprintf(out, " %.0f\n", value);
    }
    return true;
}
