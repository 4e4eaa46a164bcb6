/* geo_table.c - a big lookup table that is really used (innocent).
 *
 * An IP-to-region resolver builds a 4 MiB table at start-up (one 4-byte
 * region code per /24 of a 2^20 range) and answers 300,000 lookups spread
 * over the whole range, then reports per-region counts by scanning the
 * table. It is one huge block, allocated once and held all run - but every
 * byte of it is written and read.
 *
 * Verdict: no oversized-preallocation, no unused-capacity, no leak, no
 * growth on geo_table_build.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PREFIXES (1u << 20)

static uint32_t *geo_table_build(void)
{
    uint32_t *table = malloc(PREFIXES * sizeof *table);
    if (!table) { perror("malloc"); exit(1); }
    for (uint32_t p = 0; p < PREFIXES; p++)
        table[p] = (p * 2654435761u) >> 28;            /* 16 regions */
    return table;
}

int main(void)
{
    uint32_t *table = geo_table_build();
    uint64_t per_region[16] = {0};
    uint32_t address = 1;
    for (int i = 0; i < 300000; i++) {
        address = address * 1664525u + 1013904223u;
        per_region[table[address >> 12]]++;
    }
    uint64_t prefixes_per_region[16] = {0};
    for (uint32_t p = 0; p < PREFIXES; p++) prefixes_per_region[table[p]]++;
    printf("geo_table: region 0 %llu lookups over %llu prefixes, region 15 %llu over %llu\n",
           (unsigned long long)per_region[0], (unsigned long long)prefixes_per_region[0],
           (unsigned long long)per_region[15], (unsigned long long)prefixes_per_region[15]);
    free(table);
    return 0;
}
