/* counting_sort.c - a calloc'd array read in full, mostly never written
 * by the program (innocent).
 *
 * Sorts 200,000 16-bit keys with a counting sort: counts = calloc(65,536,
 * 8) (512 KiB, zero-filled by the allocator), one increment per key - the
 * keys cluster in a few thousand values, so most counters stay at the
 * zero calloc gave them - then a prefix pass that reads every counter.
 * Every byte of the array is initialised (by calloc) and read: nothing is
 * unused, although the program itself wrote only a few percent of it.
 *
 * Verdict: no unused-capacity and no oversized-preallocation on
 * sort_keys.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define KEYS 200000

static void sort_keys(uint16_t *keys, size_t n)
{
    uint64_t *counts = calloc(65536, sizeof *counts);
    if (!counts) { perror("calloc"); exit(1); }
    for (size_t i = 0; i < n; i++) counts[keys[i]]++;
    size_t out = 0;
    for (uint32_t value = 0; value < 65536; value++)
        for (uint64_t c = counts[value]; c > 0; c--) keys[out++] = (uint16_t)value;
    free(counts);
}

int main(void)
{
    uint16_t *keys = malloc(KEYS * sizeof *keys);
    if (!keys) { perror("malloc"); return 1; }
    uint32_t state = 99;
    for (size_t i = 0; i < KEYS; i++) {
        state = state * 1103515245u + 12345u;
        keys[i] = (uint16_t)(1000 + (state >> 16) % 3000);   /* ports 1000-3999 */
    }
    sort_keys(keys, KEYS);
    int sorted = 1;
    for (size_t i = 1; i < KEYS; i++) sorted &= keys[i - 1] <= keys[i];
    printf("counting_sort: sorted %d, median %u\n", sorted, keys[KEYS / 2]);
    free(keys);
    return 0;
}
