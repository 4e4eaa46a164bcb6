/* Small helpers shared by the subcommands: sizes, percentages, names.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_UTIL_H
#define LIFEHEAP_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"

/* Exit codes shared by every subcommand (docs/cli.md). */
enum { EXIT_OK = 0, EXIT_RULE_FAILED = 1, EXIT_USAGE = 2 };

/* Parses a size: a number (a fraction allowed) followed by an optional unit,
 * with or without a space: B; KiB, MiB, GiB, TiB (binary); K, M, G, T
 * (binary too, as in most tools); kB/KB, MB, GB, TB (decimal). Rejects
 * negative numbers, unknown units and values above 2^63. */
bool parse_size(const char *text, uint64_t *bytes);

/* Parses a non-negative decimal integer (no sign, no unit). */
bool parse_count(const char *text, uint64_t *count);

/* Numbers for people, as the tool and the viewer write them (the rules:
 * common/lh_numbers.h and docs/format.md, "Numbers for people"). */

/* "512 B", "1.5 KiB", "12.0 MiB": one decimal from KiB up. */
void format_size(double bytes, char *buffer, size_t size);

/* Signed size: "+1.5 KiB", "-512 B", "0 B". */
void format_size_delta(double bytes, char *buffer, size_t size);

/* part/whole as a percentage ("0.4%", "62%"); "-" when whole is zero. */
void format_percent(double part, double whole, char *buffer, size_t size);

/* A share (0.62 is "62%"). */
void format_share(double fraction, char *buffer, size_t size);

/* "1,234,567". */
void format_count(unsigned long long count, char *buffer, size_t size);

/* format_count() as a value, for printf's arguments:
 * printf("%s blocks", count_text(n).text). */
struct count_text {
    char text[32];
};
struct count_text count_text(unsigned long long count);

/* A frame for people: "function (file:line)", "function (in object)",
 * "??? (in object)" or "??? (0x4011a6)". */
void format_frame(const struct frame *frame, char *buffer, size_t size);

/* The name of a site: its name frame, formatted as above; "[no stack]"
 * for an empty stack. */
void format_site_name(const struct profile *profile, const struct site *site,
                      char *buffer, size_t size);

/* A long C++ template or Rust generic name made readable: when `name` is
 * longer than `limit` bytes, the argument lists <...> are shortened to
 * "<...>", the most deeply nested level first, until it fits (see util.c);
 * when even that is too long, its middle is cut. Shorter names are copied
 * unchanged. For text meant for people only: JSON outputs keep names
 * exact. */
void shorten_name(const char *name, size_t limit, char *buffer, size_t size);

/* A finding's heading for people, "[severity] kind at site N, NAME" with
 * the site's name given (report, diff and check print findings so). */
void print_finding_heading(FILE *out, const struct finding *finding,
                           const char *site_name);

/* Writes `text` to a terminal-bound stream with control characters shown
 * as '?', so a hostile name cannot move the cursor or clear the screen, and
 * at most display_max_chars characters of it (docs/profile-rules.json),
 * then "… [N more characters]", as the viewer shows it. */
void print_text(FILE *stream, const char *text);

/* Writes `text` as a JSON string literal (quotes included). */
void print_json_string(FILE *stream, const char *text);

/* executable_directory(): the directory holding the running lifeheap
 * binary, used to find the build tree's tool and viewer. */
#include "self_directory.h"

/* True when `path` names an existing regular file. */
bool is_regular_file(const char *path);

/* Prints the one-line error of a failed load (or any message) to stderr. */
void print_error(const char *message);

#endif
