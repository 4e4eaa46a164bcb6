/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * steady: a long-running loop over a small, steady live set, the shape of
 * an event loop or a game's frame loop.
 *
 * LIVE blocks (sizes 8 to 200 bytes) stay live as a ring; each of STEPS
 * steps frees the oldest block, allocates its replacement (a size picked
 * by a fixed pseudo-random sequence), writes it, and reads eight blocks of
 * the ring.  Nothing accumulates: a tool whose state grows with the
 * number of allocations rather than with the live heap shows it here.
 *
 * Usage: steady LIVE STEPS   (prints a checksum)
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    unsigned long live, steps, step, i, oldest = 0, state = 99, sum = 0;
    unsigned char **ring;
    unsigned long *sizes;
    if (argc != 3) {
        fprintf(stderr, "usage: steady LIVE STEPS\n");
        return 2;
    }
    live = strtoul(argv[1], NULL, 10);
    steps = strtoul(argv[2], NULL, 10);
    ring = calloc(live, sizeof *ring);
    sizes = calloc(live, sizeof *sizes);
    if (live == 0 || ring == NULL || sizes == NULL)
        return 2;
    for (step = 0; step < steps + live; step++) {
        unsigned long size, j;
        state = state * 6364136223846793005UL + 1442695040888963407UL;
        size = 8 + (state >> 40) % 193;
        free(ring[oldest]);
        ring[oldest] = malloc(size);
        if (ring[oldest] == NULL)
            return 1;
        sizes[oldest] = size;
        for (j = 0; j < size; j++)
            ring[oldest][j] = (unsigned char)(step + j);
        oldest = (oldest + 1) % live;
        if (step >= live)
            for (i = 0; i < 8; i++) {
                unsigned long k = (state >> (8 * i)) % live;
                sum += ring[k][sizes[k] / 2];
            }
    }
    printf("%lu live blocks, %lu steps, checksum %lu\n", live, steps, sum);
    for (i = 0; i < live; i++)
        free(ring[i]);
    free(ring);
    free(sizes);
    return 0;
}
