/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unitcost: one kind of operation, repeated COUNT times, so that the
 * difference between two counts under one tool is that operation's cost
 * (bench/costmodel.sh).  Pointers live in static arrays, not on the heap,
 * so bookkeeping of the loop itself is not a heap access.
 *
 *   pairs N      N x { p = malloc(24); p[0] = i; free(p) } at one site
 *   allocs N     N x malloc(24), kept live (no free): a malloc and the
 *                live block it leaves (N <= 4,000,000)
 *   reads N      N 8-byte reads, round robin over 1,024 live 24-byte blocks
 *   bigreads N   N 8-byte reads, sequential, wrapping over one 1 MiB block
 *
 * Usage: unitcost MODE COUNT   (prints a checksum)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEPT 4000000
static long *kept[MAX_KEPT];
static long *small_blocks[1024];

int main(int argc, char **argv)
{
    long count, i;
    unsigned long sum = 0;
    const char *mode;
    if (argc != 3) {
        fprintf(stderr, "usage: unitcost pairs|allocs|reads|bigreads COUNT\n");
        return 2;
    }
    mode = argv[1];
    count = atol(argv[2]);
    if (strcmp(mode, "pairs") == 0) {
        for (i = 0; i < count; i++) {
            long *p = malloc(24);
            if (p == NULL)
                return 1;
            p[0] = i;
            sum += (unsigned long)p[0];
            free(p);
        }
    } else if (strcmp(mode, "allocs") == 0) {
        if (count > MAX_KEPT)
            return 2;
        for (i = 0; i < count; i++) {
            kept[i] = malloc(24);
            if (kept[i] == NULL)
                return 1;
        }
        sum = (unsigned long)count;
    } else if (strcmp(mode, "reads") == 0) {
        for (i = 0; i < 1024; i++) {
            small_blocks[i] = malloc(24);
            if (small_blocks[i] == NULL)
                return 1;
            small_blocks[i][0] = i;
        }
        for (i = 0; i < count; i++)
            sum += (unsigned long)small_blocks[i & 1023][0];
    } else if (strcmp(mode, "bigreads") == 0) {
        long words = (1L << 20) / (long)sizeof(long);
        long *big = calloc((size_t)words, sizeof(long));
        if (big == NULL)
            return 1;
        for (i = 0; i < count; i++)
            sum += (unsigned long)big[i & (words - 1)] + (unsigned long)i;
    } else {
        fprintf(stderr, "unitcost: unknown mode '%s'\n", mode);
        return 2;
    }
    printf("%s %ld: checksum %lu\n", mode, count, sum);
    return 0;
}
