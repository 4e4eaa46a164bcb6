/* Small helpers shared by the subcommands: sizes, percentages, names.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "util.h"

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

void format_size(double bytes, char *buffer, size_t size)
{
    static const char *const names[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double magnitude = fabs(bytes);
    if (magnitude < 1024) {
        snprintf(buffer, size, "%.0f B", bytes);
        return;
    }
    int unit = -1;
    while (magnitude >= 1024 && unit < 4) {
        magnitude /= 1024;
        bytes /= 1024;
        unit++;
    }
    snprintf(buffer, size, "%.1f %s", bytes, names[unit]);
}

void format_size_delta(double bytes, char *buffer, size_t size)
{
    char magnitude[32];
    format_size(fabs(bytes), magnitude, sizeof magnitude);
    snprintf(buffer, size, "%s%s", bytes > 0 ? "+" : bytes < 0 ? "-" : "",
             magnitude);
}

void format_percent(double part, double whole, char *buffer, size_t size)
{
    if (whole == 0)
        snprintf(buffer, size, "-");
    else
        snprintf(buffer, size, "%.1f%%", 100.0 * part / whole);
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
    const struct frame *frame = site_name_frame(profile, site);
    if (frame)
        format_frame(frame, buffer, size);
    else
        snprintf(buffer, size, "[no stack]");
}

void print_text(FILE *stream, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, stream);
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

void print_error(const char *message)
{
    print_text(stderr, message);
    fputc('\n', stderr);
}

bool executable_directory(char *buffer, size_t size)
{
    ssize_t length = readlink("/proc/self/exe", buffer, size - 1);
    if (length <= 0 || (size_t)length >= size - 1)
        return false;
    buffer[length] = '\0';
    char *slash = strrchr(buffer, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return true;
}

bool is_regular_file(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}
