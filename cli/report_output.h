/* The output formats of `lifeheap report` (report_text.c, report_json.c,
 * report_collapsed.c, report_dhat.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_REPORT_OUTPUT_H
#define LIFEHEAP_REPORT_OUTPUT_H

#include <stdio.h>

#include "metrics.h"
#include "profile.h"

/* The width the text reports fit (lifeheap report, lifeheap diff's
 * headline). */
enum { REPORT_WIDTH = 120 };

/* Writes `text` with every line longer than `width` characters wrapped at
 * its last space that fits, the continuation indented four columns past
 * the line's own indent (report_text.c). */
void print_wrapped(FILE *out, const char *text, size_t width);

/* A headline's finding: "[severity]: Kind at SITE_NAME", then its sentence
 * on the next line, indented two columns (no newline after it). */
void print_headline_finding(FILE *out, const struct finding *finding,
                            const char *site_name);

/* `order` holds `count` site indices, the top sites in display order. */
void report_text(FILE *out, const struct profile *profile,
                 const struct metric *sort, const size_t *order, size_t count);
void report_json(FILE *out, const struct profile *profile,
                 const struct metric *sort, const size_t *order, size_t count);
/* Folded stacks of every site weighted by `weight`; returns false (after
 * a message) when the metric cannot weight a flame graph. */
bool report_collapsed(FILE *out, const struct profile *profile,
                      const struct metric *weight);
/* DHAT's JSON format version 2; false when out of memory. */
bool report_dhat(FILE *out, const struct profile *profile);

#endif
