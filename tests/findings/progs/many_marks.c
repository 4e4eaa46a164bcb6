/* many_marks.c: more LIFEHEAP_MARK requests than the tool keeps.
 *
 * 10,005 marks labelled "m0" ... "m10004", one 32-byte block allocated and
 * freed between two marks.  The tool keeps the first 10,000 (the last kept
 * is "m9999"), says so once on stderr, and the program runs to the end.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include "lifeheap.h"

enum { MARKS = 10005 };

int main(void)
{
    char label[32];
    unsigned sum = 0;
    for (int i = 0; i < MARKS; i++) {
        snprintf(label, sizeof label, "m%d", i);
        LIFEHEAP_MARK(label);
        unsigned char *block = malloc(32);
        if (block == NULL) return 1;
        block[0] = (unsigned char)i;
        sum += block[0];
        free(block);
    }
    return sum == 0 ? 1 : 0;
}
