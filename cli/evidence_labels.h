/* What people read for a finding's kind and evidence: the table of
 * docs/evidence-labels.json (built in), shared with the viewer, which
 * formats each value by its unit in the same words (docs/viewer.md,
 * "Headline").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_EVIDENCE_LABELS_H
#define LIFEHEAP_EVIDENCE_LABELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* "Missing backpressure" for "missing-backpressure"; the kind itself when
 * the table does not know it. */
const char *evidence_kind_title(const char *kind);

/* The label of an evidence key for a kind ("Queue depth (messages waited
 * behind)"); a key the table does not know is its name with spaces. */
void evidence_label(const char *kind, const char *key, char *buffer,
                    size_t size);

/* The value in the key's unit: "3.6 MiB", "2,000", "26%",
 * "26% of the run", "176,204,217 instr (26% of the run)", "2.00",
 * "1.2 KiB per million instr". duration: the run's, in instructions. */
void evidence_value(const char *key, double value, uint64_t duration,
                    char *buffer, size_t size);

/* The path in sites[] of the site field holding the same figure as
 * evidence `key` ("access.at_peak.bytes"), or NULL when the figure is the
 * finding's own (the table's site_field). */
const char *evidence_site_field(const char *key);

/* The figure `key` for `site` from its own fields (evidence_site_field);
 * false when the key names none or the site lacks it (no growth, no
 * access data). */
bool evidence_site_value(const struct site *site, const char *key,
                         double *value);

/* Indexes into finding->evidence of the figures a headline shows (the
 * kind's "headline" keys present, a label shown once); returns how many,
 * at most `max`. Unknown kinds: the first `max` values. */
size_t evidence_headline(const struct finding *finding, size_t *indexes,
                         size_t max);

#endif
