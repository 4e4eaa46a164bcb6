/* A small program's one big buffer: 65,000 bytes (a few bytes under the
   absolute 64 KiB floor) of which only the first 100 are ever written and
   read, next to a 260,000-byte table that is used in full.  The buffer is
   65,000 / 325,000 = 20% of the peak: material by its share of the run,
   so it gets unused-capacity: measured 65,000, unused 64,900, all of it
   live at the peak.  The table gets nothing (every byte written and read).
   Build with -O0: every store and load stays. */
#include <stdlib.h>
#include <string.h>

#define BUFFER_BYTES 65000
#define USED_BYTES   100
#define TABLE_BYTES  260000

static char* reply_buffer_new(void)
{
   return malloc(BUFFER_BYTES);
}

static unsigned char* table_new(void)
{
   return malloc(TABLE_BYTES);
}

int main(void)
{
   char* buffer = reply_buffer_new();
   unsigned char* table = table_new();
   unsigned long sum = 0;
   int i;
   for (i = 0; i < TABLE_BYTES; i++) table[i] = (unsigned char)i;
   for (i = 0; i < TABLE_BYTES; i++) sum += table[i];
   for (i = 0; i < USED_BYTES; i++) buffer[i] = (char)('a' + i % 26);
   for (i = 0; i < USED_BYTES; i++) sum += (unsigned char)buffer[i];
   free(table);
   free(buffer);
   return (int)(sum & 1);
}
