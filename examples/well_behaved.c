/* well_behaved.c - a well-behaved program: no finding should fire on it.
 *
 * It loads 50,000 samples, builds a 256-bin histogram and its cumulative
 * form, and prints the median bin and a checksum. Every allocation is made
 * once at start-up, sized exactly to need, fully written, fully read, and
 * freed before exit: no growth, no leak, no churn, no realloc, no unused
 * capacity.
 *
 * Numbers a profiler must find (by construction):
 *   - samples_load: 1 block of 200,000 bytes (50,000 x 4), written once in
 *     full, read in full twice (histogram pass and checksum pass).
 *   - histogram_new: 1 block of 1,024 bytes (256 x 4); every bin is zeroed,
 *     incremented and read.
 *   - cumulative_new: 1 block of 1,024 bytes (256 x 4), written once and
 *     read in full.
 *   - 3 blocks, 202,048 bytes in total, each allocated right before it is
 *     filled, all three freed together just before exit: 0 bytes live at
 *     exit. All three are live at the peak (202,048 bytes).
 *
 * Output (deterministic): the median bin and a checksum.
 *
 * Build: cc -O0 -g -fno-builtin well_behaved.c -o well_behaved
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum {
    SAMPLE_COUNT = 50000,
    BIN_COUNT = 256,
};

static void *checked(void *block, const char *what)
{
    if (block == NULL) {
        perror(what);
        exit(1);
    }
    return block;
}

__attribute__((noinline)) static uint32_t *samples_load(size_t count)
{
    uint32_t *samples = checked(malloc(count * sizeof *samples), "samples_load");
    uint32_t state = 2463534242u;
    for (size_t i = 0; i < count; i++) {
        state ^= state << 13; /* xorshift32 */
        state ^= state >> 17;
        state ^= state << 5;
        samples[i] = state;
    }
    return samples;
}

__attribute__((noinline)) static uint32_t *histogram_new(const uint32_t *samples, size_t count)
{
    uint32_t *bins = checked(malloc(BIN_COUNT * sizeof *bins), "histogram_new");
    for (int bin = 0; bin < BIN_COUNT; bin++)
        bins[bin] = 0;
    for (size_t i = 0; i < count; i++)
        bins[samples[i] % BIN_COUNT]++;
    return bins;
}

__attribute__((noinline)) static uint32_t *cumulative_new(const uint32_t *bins)
{
    uint32_t *cumulative = checked(malloc(BIN_COUNT * sizeof *cumulative), "cumulative_new");
    uint32_t running = 0;
    for (int bin = 0; bin < BIN_COUNT; bin++) {
        running += bins[bin];
        cumulative[bin] = running;
    }
    return cumulative;
}

static int median_bin(const uint32_t *cumulative, size_t count)
{
    int median = -1;
    for (int bin = 0; bin < BIN_COUNT; bin++) {
        uint32_t at_or_below = cumulative[bin]; /* reads every entry */
        if (median < 0 && at_or_below >= (count + 1) / 2)
            median = bin;
    }
    return median;
}

int main(void)
{
    uint32_t *samples = samples_load(SAMPLE_COUNT);
    uint32_t *bins = histogram_new(samples, SAMPLE_COUNT);
    uint32_t *cumulative = cumulative_new(bins);

    uint32_t checksum = 0;
    for (size_t i = 0; i < SAMPLE_COUNT; i++)
        checksum = checksum * 31u + samples[i];

    printf("well_behaved: %d samples, median bin %d, checksum %08x\n", SAMPLE_COUNT,
           median_bin(cumulative, SAMPLE_COUNT), (unsigned)checksum);
    free(cumulative);
    free(bins);
    free(samples);
    return 0;
}
