/* lh_numbers.h: how lifeheap writes sizes, percentages and counts for
 * people: one implementation, compiled into the Valgrind tool (no libc:
 * this file calls no library function and includes no header) and into the
 * lifeheap command; the viewer's viewer/src/model/format.js follows the same
 * rules and tests/viewer/number_format.test.js feeds both the same numbers.
 * docs/format.md, "Numbers for people", states the rules:
 *
 *   sizes     "512 B", "1.5 KiB", "306.1 KiB", "23.0 MiB": whole bytes
 *             below 1 KiB; above, one decimal in the largest binary unit
 *             (KiB, MiB, GiB, TiB, PiB) whose rounded value stays below
 *             1024.0 (1,048,575 B is "1.0 MiB", not "1024.0 KiB").  Tenths
 *             are rounded half up, exactly (integer arithmetic).
 *   percents  "0%", "<0.1%", "0.4%", "9.9%", "62%", "99.4%", "100%",
 *             "250%": tenths below 10% and from 99% to just below 100%,
 *             whole percents between and from 100% up, half up; a share
 *             above 0 never reads "0%" and one below 1 never reads "100%".
 *   counts    "1,234,567": every digit, grouped by three with commas.
 *
 * Negative values take a leading "-" before the magnitude's text.  Every
 * function writes at most size-1 characters and a NUL (size > 0).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LH_NUMBERS_H
#define LH_NUMBERS_H

/* Appends 'text' at out[*at], truncating at size-1; keeps the NUL. */
static inline void lh_numbers_put(char *out, unsigned long size,
                                  unsigned long *at, const char *text)
{
    while (*text && *at + 1 < size)
        out[(*at)++] = *text++;
    out[*at] = '\0';
}

/* Appends 'value' in decimal, with commas between groups of three digits
 * when 'grouped'. */
static inline void lh_numbers_put_unsigned(char *out, unsigned long size,
                                           unsigned long *at,
                                           unsigned long long value,
                                           int grouped)
{
    char reversed[32], text[32];
    int digits = 0, length = 0;
    do {
        if (grouped && digits > 0 && digits % 3 == 0)
            reversed[length++] = ',';
        reversed[length++] = (char)('0' + value % 10);
        value /= 10;
        digits++;
    } while (value > 0);
    for (int i = 0; i < length; i++)
        text[i] = reversed[length - 1 - i];
    text[length] = '\0';
    lh_numbers_put(out, size, at, text);
}

/* "N.T" from a number of tenths. */
static inline void lh_numbers_put_tenths(char *out, unsigned long size,
                                         unsigned long *at,
                                         unsigned long long tenths)
{
    char digit[2] = {(char)('0' + tenths % 10), '\0'};
    lh_numbers_put_unsigned(out, size, at, tenths / 10, 0);
    lh_numbers_put(out, size, at, ".");
    lh_numbers_put(out, size, at, digit);
}

/* A size in bytes, negative when 'negative' (a difference). */
static inline void lh_numbers_bytes_signed(char *out, unsigned long size,
                                           unsigned long long bytes,
                                           int negative)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    unsigned long at = 0;
    unsigned long long divisor = 1024, tenths;
    int unit = 0;
    out[0] = '\0';
    if (negative && bytes > 0)
        lh_numbers_put(out, size, &at, "-");
    if (bytes < 1024) {
        lh_numbers_put_unsigned(out, size, &at, bytes, 0);
        lh_numbers_put(out, size, &at, " B");
        return;
    }
    for (;;) {
        /* bytes / divisor in tenths, rounded half up, without overflow. */
        tenths = (bytes / divisor) * 10 +
                 ((bytes % divisor) * 10 + divisor / 2) / divisor;
        if (tenths < 10240 || unit == 4)
            break;
        divisor *= 1024;
        unit++;
    }
    lh_numbers_put_tenths(out, size, &at, tenths);
    lh_numbers_put(out, size, &at, " ");
    lh_numbers_put(out, size, &at, units[unit]);
}

static inline void lh_numbers_bytes(char *out, unsigned long size,
                                    unsigned long long bytes)
{
    lh_numbers_bytes_signed(out, size, bytes, 0);
}

/* A share (0.62 is "62%"); NaN reads "0%". */
static inline void lh_numbers_percent(char *out, unsigned long size,
                                      double fraction)
{
    unsigned long at = 0;
    unsigned long long tenths;
    out[0] = '\0';
    if (fraction < 0) {
        lh_numbers_put(out, size, &at, "-");
        fraction = -fraction;
    }
    if (!(fraction > 0)) {
        lh_numbers_put(out, size, &at, "0%");
        return;
    }
    if (fraction > 1e15)                       /* keeps the cast defined */
        fraction = 1e15;
    tenths = (unsigned long long)(fraction * 1000.0 + 0.5);
    if (tenths == 0) {
        lh_numbers_put(out, size, &at, "<0.1%");
        return;
    }
    if (tenths < 100 || (tenths >= 990 && fraction < 1.0)) {
        if (tenths > 999)                     /* "99.9%", not "100.0%" */
            tenths = 999;
        lh_numbers_put_tenths(out, size, &at, tenths);
    } else {
        unsigned long long whole =
            (unsigned long long)(fraction * 100.0 + 0.5);
        lh_numbers_put_unsigned(out, size, &at, whole, 0);
    }
    lh_numbers_put(out, size, &at, "%");
}

/* A count: "1,234,567". */
static inline void lh_numbers_count(char *out, unsigned long size,
                                    unsigned long long count)
{
    unsigned long at = 0;
    out[0] = '\0';
    lh_numbers_put_unsigned(out, size, &at, count, 1);
}

#endif /* LH_NUMBERS_H */
