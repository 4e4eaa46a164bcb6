/* Small helpers shared by the subcommands: sizes, percentages, names.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "util.h"
#include "lh_numbers.h"
#include "profile_rules.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

struct unit {
    const char *name;
    double factor;
};

/* Case matters only between "kB"-style decimal and "KiB"-style binary
 * units; "MB" and "mb" both mean 10^6. */
static const struct unit units[] = {
    {"", 1},          {"B", 1},
    {"K", 1024.0},    {"KiB", 1024.0},           {"KB", 1e3},
    {"M", 1048576.0}, {"MiB", 1048576.0},        {"MB", 1e6},
    {"G", 1073741824.0}, {"GiB", 1073741824.0},  {"GB", 1e9},
    {"T", 1099511627776.0}, {"TiB", 1099511627776.0}, {"TB", 1e12},
};

bool parse_size(const char *text, uint64_t *bytes)
{
    if (!text || !isdigit((unsigned char)text[0]))
        return false;
    char *end = NULL;
    double number = strtod(text, &end);
    if (end == text || !isfinite(number) || number < 0)
        return false;
    while (*end == ' ')
        end++;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(end, units[i].name) == 0) {
            double value = number * units[i].factor;
            if (value > 9.2e18)
                return false;
            *bytes = (uint64_t)llround(value);
            return true;
        }
    }
    return false;
}

bool parse_count(const char *text, uint64_t *count)
{
    if (!text || !*text)
        return false;
    uint64_t value = 0;
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p) || value > (UINT64_MAX - 9) / 10)
            return false;
        value = value * 10 + (uint64_t)(*p - '0');
    }
    *count = value;
    return true;
}

/* Rounds half away from zero to whole bytes (an average may have a
 * fraction), then writes the size as common/lh_numbers.h does. */
void format_size(double bytes, char *buffer, size_t size)
{
    double magnitude = fabs(bytes) + 0.5;
    unsigned long long whole =
        magnitude >= 1.8e19 ? ~0ULL : (unsigned long long)magnitude;
    lh_numbers_bytes_signed(buffer, size, whole, bytes < 0);
}

void format_size_delta(double bytes, char *buffer, size_t size)
{
    char magnitude[32];
    format_size(fabs(bytes), magnitude, sizeof magnitude);
    snprintf(buffer, size, "%s%s",
             bytes > 0 && strcmp(magnitude, "0 B") != 0 ? "+"
             : bytes < 0 && strcmp(magnitude, "0 B") != 0 ? "-" : "",
             magnitude);
}

void format_percent(double part, double whole, char *buffer, size_t size)
{
    if (whole == 0)
        snprintf(buffer, size, "-");
    else
        lh_numbers_percent(buffer, size, part / whole);
}

void format_share(double fraction, char *buffer, size_t size)
{
    lh_numbers_percent(buffer, size, fraction);
}

void format_count(unsigned long long count, char *buffer, size_t size)
{
    lh_numbers_count(buffer, size, count);
}

struct count_text count_text(unsigned long long count)
{
    struct count_text text;
    format_count(count, text.text, sizeof text.text);
    return text;
}

void format_frame(const struct frame *frame, char *buffer, size_t size)
{
    const char *function = frame->function ? frame->function : "???";
    if (frame->file && frame->line >= 0)
        snprintf(buffer, size, "%s (%s:%lld)", function, frame->file,
                 (long long)frame->line);
    else if (frame->file)
        snprintf(buffer, size, "%s (%s)", function, frame->file);
    else if (frame->object)
        snprintf(buffer, size, "%s (in %s)", function, frame->object);
    else
        snprintf(buffer, size, "%s (%s)", function, frame->address);
}

void format_site_name(const struct profile *profile, const struct site *site,
                      char *buffer, size_t size)
{
    /* The tool's label, unique in the profile (absent from profiles
     * written before labels). */
    if (site->label) {
        snprintf(buffer, size, "%s", site->label);
        return;
    }
    const struct frame *frame = site_name_frame(profile, site);
    if (frame)
        format_frame(frame, buffer, size);
    else
        snprintf(buffer, size, "[no stack]");
}

void print_text(FILE *stream, const char *text)
{
    size_t limit = profile_display_max_chars(), characters = 0;
    const unsigned char *p = (const unsigned char *)text;
    for (; *p; p++) {
        /* A character starts at every byte that is not a continuation. */
        if ((*p & 0xC0) != 0x80 && characters++ == limit)
            break;
        fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, stream);
    }
    if (*p) {
        size_t rest = 0;
        for (; *p; p++)
            rest += (*p & 0xC0) != 0x80;
        fprintf(stream, "\xe2\x80\xa6 [%zu more characters]", rest);   /* … */
    }
}

void print_json_string(FILE *stream, const char *text)
{
    fputc('"', stream);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", stream); break;
        case '\\': fputs("\\\\", stream); break;
        case '\n': fputs("\\n", stream); break;
        case '\t': fputs("\\t", stream); break;
        case '\r': fputs("\\r", stream); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(stream, "\\u%04x", *p);
            else
                fputc(*p, stream);
        }
    }
    fputc('"', stream);
}

void print_finding_heading(FILE *out, const struct finding *finding,
                           const char *site_name)
{
    fputc('[', out);
    print_text(out, finding->severity);
    fprintf(out, "] ");
    print_text(out, finding->kind);
    fprintf(out, " at site %zu, ", finding->site);
    print_text(out, site_name);
}

void print_error(const char *message)
{
    print_text(stderr, message);
    fputc('\n', stderr);
}

bool is_regular_file(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}

/*--- Shortening long generic names ------------------------------------------
 *
 * Demangled C++ and Rust names carry their template / generic arguments,
 * which in library code run to hundreds of characters:
 *
 *   call_once<(), (dyn core::ops::function::Fn<(), Output=i32> + core::marker::Sync)>
 *     level 2 shortened:  call_once<(), (dyn core::ops::function::Fn<...> + core::marker::Sync)>
 *     level 1 shortened:  call_once<...>
 *
 * Each '<' that opens an argument list gets a level (1 = outermost). From the
 * deepest level up, every list at that level or deeper is replaced by
 * "<...>" until the name fits the limit; lists of 3 characters or fewer
 * (<T>, <u8>) stay, as "..." would not be shorter. A '<' that follows no
 * identifier starts a Rust qualified path, "<Vec<T> as FromIterator<T>>::
 * from_iter": it says which implementation runs, so it is never replaced
 * itself (only the lists inside it). Operators (operator<<, operator->, and
 * "->" in a Rust fn type) are not brackets. Still too long at level 1, a
 * C++ name's parameter list (the last "(...)" outside any <...>) becomes
 * "(...)". A name whose brackets do not pair up, or that is still too long,
 * loses its middle instead: "head...tail", keeping the end, where the
 * function's own name is. */

static bool is_identifier_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Fills close[i] (index of the matching '>') and level[i] for each '<' that
 * opens a list, and -1 elsewhere; collapsible[i] tells whether that list
 * may become "<...>" (it follows a name, "::" or an operator, as in
 * "operator<< <char_traits<char> >"; not a qualified path's "<T as
 * Trait>"). Returns the deepest level, 0 when there is no list or the
 * brackets do not pair up. */
static int match_angle_brackets(const char *name, size_t length, long *close,
                                int *level, bool *collapsible)
{
    size_t *open = malloc((length + 1) * sizeof *open);
    if (!open)
        return 0;
    size_t depth = 0;
    int deepest = 0;
    size_t operator_end = 0;   /* one past the latest operator's symbol */
    for (size_t i = 0; i < length; i++) {
        close[i] = -1;
        level[i] = 0;
        collapsible[i] = false;
    }
    for (size_t i = 0; i < length; i++) {
        char c = name[i];
        if (strncmp(name + i, "operator", 8) == 0 &&
            (i == 0 || !is_identifier_char(name[i - 1]))) {
            /* operator<, operator<<=, operator->*, ...: not brackets. */
            i += 8;
            while (i < length && name[i] != '\0' && strchr("<>=-*!", name[i]))
                i++;
            operator_end = i;
            i--;
            continue;
        }
        if (c == '<') {
            open[depth++] = i;
            level[i] = (int)depth;
            collapsible[i] =
                i > 0 && (is_identifier_char(name[i - 1]) ||
                          name[i - 1] == ':' ||
                          (operator_end > 0 && i == operator_end + 1 &&
                           name[i - 1] == ' '));
            if ((int)depth > deepest)
                deepest = (int)depth;
        } else if (c == '>' && !(i > 0 && name[i - 1] == '-')) {
            if (depth == 0) {
                deepest = 0;
                break;
            }
            close[open[--depth]] = (long)i;
        }
    }
    if (depth != 0)
        deepest = 0;
    free(open);
    return deepest;
}

/* Writes `name` into `out` with the lists at `from_level` and deeper
 * replaced by "<...>"; returns the length written. */
static size_t collapse_lists(const char *name, size_t length, const long *close,
                             const int *level, const bool *collapsible,
                             int from_level, char *out)
{
    size_t used = 0;
    for (size_t i = 0; i < length; i++) {
        if (close[i] >= 0 && collapsible[i] && level[i] >= from_level &&
            (size_t)close[i] - i - 1 > 3) {
            memcpy(out + used, "<...>", 5);
            used += 5;
            i = (size_t)close[i];
            continue;
        }
        out[used++] = name[i];
    }
    out[used] = '\0';
    return used;
}

/* Replaces the contents of the last parenthesised list outside any <...>
 * (a C++ function's parameters) by "..." in place; returns the new length. */
static size_t collapse_parameters(char *text, size_t length, long *close,
                                  int *level, bool *collapsible)
{
    match_angle_brackets(text, length, close, level, collapsible);
    size_t depth = 0, open = 0, last_open = 0, last_close = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] == '<' && close[i] >= 0) {
            i = (size_t)close[i];
        } else if (text[i] == '(') {
            if (depth++ == 0)
                open = i;
        } else if (text[i] == ')' && depth > 0) {
            if (--depth == 0) {
                last_open = open;
                last_close = i;
            }
        }
    }
    if (last_close <= last_open + 4)
        return length;
    memcpy(text + last_open + 1, "...", 3);
    memmove(text + last_open + 4, text + last_close, length - last_close + 1);
    return length - (last_close - last_open - 4);
}

void shorten_name(const char *name, size_t limit, char *buffer, size_t size)
{
    size_t length = strlen(name);
    if (length <= limit || limit < 16) {
        snprintf(buffer, size, "%s", name);
        return;
    }
    char *shortened = malloc(length + 1);
    long *close = malloc(length * sizeof *close);
    int *level = malloc(length * sizeof *level);
    bool *collapsible = malloc(length * sizeof *collapsible);
    if (!shortened || !close || !level || !collapsible) {
        free(shortened);
        free(close);
        free(level);
        free(collapsible);
        snprintf(buffer, size, "%s", name);
        return;
    }
    size_t shortened_length = length;
    memcpy(shortened, name, length + 1);
    int deepest = match_angle_brackets(name, length, close, level, collapsible);
    for (int from_level = deepest; from_level >= 1; from_level--) {
        shortened_length = collapse_lists(name, length, close, level,
                                          collapsible, from_level, shortened);
        if (shortened_length <= limit)
            break;
    }
    if (shortened_length > limit)
        shortened_length = collapse_parameters(shortened, shortened_length,
                                               close, level, collapsible);
    if (shortened_length <= limit) {
        snprintf(buffer, size, "%s", shortened);
    } else {
        /* Keep a third of the room for the start, the rest for the end,
         * without splitting a UTF-8 character. */
        size_t head = (limit - 3) / 3;
        size_t tail = shortened_length - (limit - 3 - head);
        while (head > 0 && ((unsigned char)shortened[head] & 0xC0) == 0x80)
            head--;
        while (tail < shortened_length &&
               ((unsigned char)shortened[tail] & 0xC0) == 0x80)
            tail++;
        snprintf(buffer, size, "%.*s...%s", (int)head, shortened,
                 shortened + tail);
    }
    free(shortened);
    free(close);
    free(level);
    free(collapsible);
}
