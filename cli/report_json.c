/* `lifeheap report --format json`: the same content as the text report for
 * scripts: whole-run metrics, the top sites with every metric and their
 * stacks, and the findings. Sizes and counts are exact integers; lifetimes
 * are percentages of the run; a metric the profile has no data for is
 * null.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "report_output.h"
#include "util.h"

static void print_optional_string(FILE *out, const char *text)
{
    if (text)
        print_json_string(out, text);
    else
        fprintf(out, "null");
}

static void print_frame(FILE *out, const struct frame *frame)
{
    fprintf(out, "{\"function\": ");
    print_optional_string(out, frame->function);
    fprintf(out, ", \"file\": ");
    print_optional_string(out, frame->file);
    fprintf(out, ", \"line\": ");
    if (frame->line >= 0)
        fprintf(out, "%lld", (long long)frame->line);
    else
        fprintf(out, "null");
    fprintf(out, ", \"object\": ");
    print_optional_string(out, frame->object);
    fprintf(out, ", \"address\": ");
    print_json_string(out, frame->address);
    fprintf(out, ", \"inlined\": %s}", frame->inlined ? "true" : "false");
}

void report_json(FILE *out, const struct profile *profile,
                 const struct metric *sort, const size_t *order, size_t count)
{
    fprintf(out, "{\n  \"format\": \"lifeheap-report\",\n"
                 "  \"format_version\": 1,\n  \"profile\": ");
    print_json_string(out, profile->path);
    fprintf(out, ",\n  \"command\": [");
    for (size_t i = 0; i < profile->command_len; i++) {
        fprintf(out, "%s", i ? ", " : "");
        print_json_string(out, profile->command[i]);
    }
    fprintf(out, "],\n  \"complete\": %s,\n",
            profile->complete ? "true" : "false");
    fprintf(out, "  \"site_count\": %zu,\n  \"sort\": \"%s\",\n",
            profile->site_count, sort->name);

    fprintf(out, "  \"global\": {");
    const char *separator = "";
    for (unsigned m = 0; m < metric_count; m++) {
        if (!metrics[m].global_value)
            continue;
        double value = 0;
        bool available = metrics[m].global_value(profile, &value);
        fprintf(out, "%s\"%s\": ", separator, metrics[m].name);
        metric_print_json(out, &metrics[m], available, value);
        separator = ", ";
    }
    fprintf(out, "},\n  \"sites\": [");

    for (size_t row = 0; row < count; row++) {
        const struct site *site = &profile->sites[order[row]];
        char name[1024];
        format_site_name(profile, site, name, sizeof name);
        fprintf(out, "%s\n    {\"id\": %zu, \"name\": ", row ? "," : "",
                site->id);
        print_json_string(out, name);
        fprintf(out, ",\n     \"metrics\": {");
        separator = "";
        for (unsigned m = 0; m < metric_count; m++) {
            if (!metrics[m].site_value)
                continue;
            double value = 0;
            bool available = metrics[m].site_value(profile, site, &value);
            fprintf(out, "%s\"%s\": ", separator, metrics[m].name);
            metric_print_json(out, &metrics[m], available, value);
            separator = ", ";
        }
        fprintf(out, "},\n     \"stack\": [");
        for (size_t i = 0; i < site->stack_len; i++) {
            fprintf(out, "%s\n       ", i ? "," : "");
            print_frame(out, &profile->frames[site->stack[i]]);
        }
        fprintf(out, "]}");
    }
    fprintf(out, "\n  ],\n  \"findings\": [");
    for (size_t i = 0; i < profile->finding_count; i++) {
        const struct finding *finding = &profile->findings[i];
        fprintf(out, "%s\n    {\"kind\": ", i ? "," : "");
        print_json_string(out, finding->kind);
        fprintf(out, ", \"severity\": ");
        print_json_string(out, finding->severity);
        fprintf(out, ", \"site\": %zu, \"summary\": ", finding->site);
        print_json_string(out, finding->summary);
        fprintf(out, "}");
    }
    fprintf(out, "\n  ]\n}\n");
}
