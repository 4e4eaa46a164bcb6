/* prealloc_live.c: an oversized preallocation still live at exit.
 *
 * table_create allocates 8 tables of 131,072 bytes, fills each completely
 * once (memset: written, never read), then the program reads 16 bytes of
 * each and exits without freeing them (many programs never free at exit).
 * By construction (site table_create): blocks 8, mean_block_bytes 131,072,
 * bytes_at_peak 1,048,576, bytes_read 128, never_read_bytes 1,048,448
 * (all of it written once, so written_never_read_bytes too).  Only 8 blocks
 * and no growth after start-up: not a leak.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

enum { TABLES = 8, TABLE_BYTES = 131072, USED_BYTES = 16 };

static unsigned char *tables[TABLES];

__attribute__((noinline)) static unsigned char *table_create(void)
{
    unsigned char *table = malloc(TABLE_BYTES);
    if (table == NULL) exit(1);
    memset(table, 0, TABLE_BYTES);
    return table;
}

int main(void)
{
    unsigned sum = 0;
    for (int t = 0; t < TABLES; t++)
        tables[t] = table_create();
    for (int t = 0; t < TABLES; t++)
        for (int i = 0; i < USED_BYTES; i++)
            sum += tables[t][i];
    return (int)sum;   /* 0: the tables stay allocated */
}
