/* number_format.c: prints common/lh_numbers.h's text for each number read
 * from stdin, one per line: "bytes N", "signed_bytes N" (N may be
 * negative), "percent F" or "count N"; tests/viewer/number_format.test.js
 * compares the lines with the viewer's format.js on the same numbers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lh_numbers.h"

int main(void)
{
    char kind[32], number[64], text[64];
    while (scanf("%31s %63s", kind, number) == 2) {
        if (strcmp(kind, "bytes") == 0) {
            lh_numbers_bytes(text, sizeof text, strtoull(number, NULL, 10));
        } else if (strcmp(kind, "signed_bytes") == 0) {
            int negative = number[0] == '-';
            lh_numbers_bytes_signed(text, sizeof text,
                                    strtoull(number + negative, NULL, 10),
                                    negative);
        } else if (strcmp(kind, "percent") == 0) {
            lh_numbers_percent(text, sizeof text, strtod(number, NULL));
        } else if (strcmp(kind, "count") == 0) {
            lh_numbers_count(text, sizeof text, strtoull(number, NULL, 10));
        } else {
            fprintf(stderr, "number_format: unknown kind %s\n", kind);
            return 2;
        }
        printf("%s\n", text);
    }
    return 0;
}
