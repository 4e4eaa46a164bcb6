/* The kinds of finding the tool reports (docs/findings.md), so that a gate
 * naming a kind (`check --forbid KIND`, `diff --fail-on finding:KIND`)
 * can refuse a word that is not one: a typo must not pass silently.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_FINDING_KINDS_H
#define LIFEHEAP_FINDING_KINDS_H

#include <stdbool.h>
#include <stdio.h>

/* True for a kind of docs/findings.md, or "any" (every kind). */
bool finding_kind_known(const char *word);

/* Prints the valid words, comma-separated, "any" last, and a newline. */
void finding_kinds_list(FILE *stream);

#endif
