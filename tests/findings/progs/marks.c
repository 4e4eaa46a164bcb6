/* marks.c: LIFEHEAP_MARK at known places around known allocations.
 *
 *   mark "start"
 *   big_alloc: 1 MiB, written in full      <- the global peak (1 MiB + stdio)
 *   mark "big allocated"
 *   free the big block
 *   mark "big freed \"quoted\" é"          (quotes and UTF-8 survive)
 *   small_alloc: 64 bytes
 *   mark <299 x 'y'>                       (cut to 255 bytes by the tool)
 *   free the small block
 *
 * Run natively, the marks do nothing (exit status 0).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>
#include "lifeheap.h"

enum { BIG_BYTES = 1 << 20, SMALL_BYTES = 64 };

__attribute__((noinline)) static char *big_alloc(void)
{
    char *block = malloc(BIG_BYTES);
    if (block == NULL) exit(1);
    memset(block, 1, BIG_BYTES);
    return block;
}

__attribute__((noinline)) static char *small_alloc(void)
{
    char *block = malloc(SMALL_BYTES);
    if (block == NULL) exit(1);
    memset(block, 2, SMALL_BYTES);
    return block;
}

int main(void)
{
    char long_label[300];
    LIFEHEAP_MARK("start");
    char *big = big_alloc();
    LIFEHEAP_MARK("big allocated");
    int sum = big[BIG_BYTES - 1];
    free(big);
    LIFEHEAP_MARK("big freed \"quoted\" \xc3\xa9");
    char *small = small_alloc();
    memset(long_label, 'y', sizeof long_label - 1);
    long_label[sizeof long_label - 1] = '\0';
    LIFEHEAP_MARK(long_label);
    sum += small[0];
    free(small);
    return sum == 3 ? 0 : 1;
}
