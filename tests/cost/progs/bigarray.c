/* bigarray: the read/written bits of big blocks.  A 32 MiB block is
   written from end to end, then read from end to end but for one byte in
   its middle (offset 16 MiB + 5); a 1 MiB + 8 byte block is written in
   full and reallocated to 3 MiB (its bits move with the data).  Both stay
   live to the end.  Exactly: the first block has 1 byte never read (and
   written), the second 3 MiB never read and 3 MiB - (1 MiB + 8) never
   written.  Only the 64 KiB stretches where some but not all bits are
   set need arrays of bits of their own: the hole's, the one where the
   grown block's written bytes stop, and the blocks' partly owned end
   stretches (tests/cost/check.py counts them). */
#include <stdlib.h>

#define BIG (32ul << 20)
#define SMALL ((1ul << 20) + 8)
#define GROWN (3ul << 20)
#define HOLE ((16ul << 20) + 5)

int main(void)
{
   unsigned long* big = malloc(BIG);
   unsigned long* small = malloc(SMALL);
   unsigned char* bytes;
   unsigned long i, sum = 0;
   if (big == NULL || small == NULL) return 1;
   for (i = 0; i < BIG / 8; i++) big[i] = i;
   for (i = 0; i < BIG / 8; i++)
      if (i != HOLE / 8) sum += big[i];
   bytes = (unsigned char*)big + HOLE / 8 * 8;
   for (i = 0; i < 8; i++)
      if (i != HOLE % 8) sum += bytes[i];
   for (i = 0; i < SMALL / 8; i++) small[i] = i;
   small = realloc(small, GROWN);
   if (small == NULL) return 1;
   return sum == 0;   /* keeps the reads; both blocks stay live */
}
