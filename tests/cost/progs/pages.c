/* pages: the read/written bits of blocks of a few KiB, which share their
   64 KiB stretches with a few others (a database's page cache).
   48 pages of 4,368 bytes (site alloc_page) are written in full and
   read at their first 100 and last 268 bytes.  Then:
     - the odd pages are freed, and three 400-byte fillers (site
       alloc_filler) are allocated for each, written in full, never read;
       they fill the freed pages' places, so a 1 KiB stretch holds parts of
       three blocks;
     - pages 2, 6, 10, ... shrink to 2,000 bytes in place (the tail read
       is cut off) and grow back to 4,368 in place: bytes 2,000 on are new,
       never read nor written.
   Everything else stays live to the end.  Exactly, per page at its end:
     odd (24, freed) and 0, 4, 8, ... (12): never read 4,000, never
                                      written 0, written never read 4,000;
     2, 6, 10, ... (12):              never read 4,268, never written
                                      2,368, written never read 1,900.
   Site alloc_page: bytes written 48 x 4,368 = 209,664, read 48 x 368 =
   17,664; never read 195,216, never written 28,416, written never read
   166,800.  Site alloc_filler: 72 blocks, 28,800 bytes written and never
   read. */
#include <stdlib.h>

#define COUNT 48
#define SIZE 4368
#define HEAD 100
#define TAIL 268
#define FILL 400
#define SHRUNK 2000

static __attribute__((noinline)) char* alloc_page(void)
{
   return malloc(SIZE);
}

static __attribute__((noinline)) char* alloc_filler(void)
{
   return malloc(FILL);
}

int main(void)
{
   static char* page[COUNT];
   static char* filler[COUNT / 2 * 3];
   unsigned long sum = 0;
   int i, j, k, fillers = 0;
   for (i = 0; i < COUNT; i++)
      if ((page[i] = alloc_page()) == NULL) return 1;
   for (i = 0; i < COUNT; i++)
      for (j = 0; j < SIZE; j++) page[i][j] = (char)(i + j);
   for (i = 0; i < COUNT; i++) {
      for (j = 0; j < HEAD; j++) sum += (unsigned char)page[i][j];
      for (j = SIZE - TAIL; j < SIZE; j++) sum += (unsigned char)page[i][j];
   }
   for (i = 1; i < COUNT; i += 2) free(page[i]);
   for (i = 1; i < COUNT; i += 2)
      for (k = 0; k < 3; k++) {
         char* f = alloc_filler();
         if (f == NULL) return 1;
         for (j = 0; j < FILL; j++) f[j] = (char)j;
         filler[fillers++] = f;
      }
   for (i = 2; i < COUNT; i += 4) {
      char* shrunk = realloc(page[i], SHRUNK);
      char* grown;
      if (shrunk != page[i]) return 1;        /* shrinking stays in place */
      grown = realloc(shrunk, SIZE);
      if (grown != shrunk) return 1;          /* and so does growing back */
      page[i] = grown;
   }
   return sum == 0;   /* keeps the reads; the pages and fillers stay live */
}
