/* A 256 KiB table (65536 four-byte entries) written once, entry by entry,
   then read in 8 entries.  Expected per site "make_table": written 262144,
   read 32, never read 262112, unused capacity 0; a "buckets" map (the
   block is larger than 4096 bytes) with 4096 bytes written per bucket. */
#include <stdlib.h>

#define ENTRIES 65536

static int* make_table(void)
{
   volatile int* table = malloc(ENTRIES * sizeof(int));
   for (int i = 0; i < ENTRIES; i++) table[i] = i;
   return (int*)table;
}

int main(void)
{
   volatile int* table = make_table();
   /* entries 0, 8192, ..., 57344: one per 32 KiB, i.e. every 8th bucket */
   long sum = 0;
   for (int i = 0; i < 8; i++) sum += table[i * 8192];
   free((void*)table);
   return sum == 229376 ? 0 : 1;
}
