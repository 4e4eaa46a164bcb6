/* pagesets: the read/written bits of blocks of a few KiB are kept per
   1 KiB page, and only a page whose bits are neither all clear nor all
   set has a set of its own (lh_shadow_medium.c).
   60 blocks of 4,064 bytes (site alloc_block), each at a 1 KiB boundary
   (posix_memalign), so that block i covers pages 4i..4i+3 of its own and
   the last 32 bytes of its fourth page belong to no block.  Each block is
   written in full, then read at its first 100 and its last 268 bytes
   (4,064 - 268 = 3,796: in its fourth page).  All stay live to the end.
   Exactly, per block: bytes read 368, never read 3,696 (written, never
   read), never written 0.  The shadow at exit: no written set of its own
   (every page's owned bytes are written: the fourth page's 32 bytes of no
   block do not count), two read sets (the first and the fourth page, read
   in part), none for the second and the third (never read): 120 sets of
   128 bytes, two slabs of 64 (tests/cost/check.py). */
#include <stdlib.h>

#define COUNT 60
#define SIZE 4064
#define HEAD 100
#define TAIL 268

static __attribute__((noinline)) char* alloc_block(void)
{
   void* p = NULL;
   return posix_memalign(&p, 1024, SIZE) == 0 ? p : NULL;
}

int main(void)
{
   static char* block[COUNT];
   unsigned long sum = 0;
   int i, j;
   for (i = 0; i < COUNT; i++)
      if ((block[i] = alloc_block()) == NULL) return 1;
   for (i = 0; i < COUNT; i++)
      for (j = 0; j < SIZE; j++) block[i][j] = (char)(i + j);
   for (i = 0; i < COUNT; i++) {
      for (j = 0; j < HEAD; j++) sum += (unsigned char)block[i][j];
      for (j = SIZE - TAIL; j < SIZE; j++) sum += (unsigned char)block[i][j];
   }
   return sum == 0;   /* keeps the reads; the blocks stay live */
}
