/* pagedup: pages of a few KiB read in the same pattern share one frozen
   copy of their bits (lh_shadow_frozen.c), so the sets of their own stay
   few (tests/cost/check.py).
   1,000 blocks of 4,064 bytes (site alloc_block), each at a 1 KiB
   boundary (posix_memalign), as in pagesets.c: block i covers four 1 KiB
   pages of its own, the last 32 bytes of the fourth belong to no block.
   First pass, block by block: allocated, written in full, read at its
   first 100 and its last 268 bytes.  Each block then has two page sets
   of its own (its first and fourth pages read in part), the same 128
   bytes in every block.  Second pass, block by block: bytes 100..199
   read (the first page's set changes: a set of its own again where it
   was frozen), then the odd blocks freed.
   Exactly, per block: bytes read 468, never read 3,596 (written, never
   read), never written 0.
   The sets: without sharing, the first pass leaves 2,000 sets of their
   own (32 slabs of 64).  With it, a sweep freezes them once 480 are in
   use, at the next allocation or free (each block adds two between two
   allocations, and a written set that lives while its page is being
   filled; the second pass adds at most one per block between two frees
   or allocations), so no more than 480 + 4 are ever in use: 8 slabs. */
#include <stdlib.h>

#define COUNT 1000
#define SIZE 4064
#define HEAD 100
#define TAIL 268
#define MORE 100

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
   for (i = 0; i < COUNT; i++) {
      if ((block[i] = alloc_block()) == NULL) return 1;
      for (j = 0; j < SIZE; j++) block[i][j] = (char)(i + j);
      for (j = 0; j < HEAD; j++) sum += (unsigned char)block[i][j];
      for (j = SIZE - TAIL; j < SIZE; j++) sum += (unsigned char)block[i][j];
   }
   for (i = 0; i < COUNT; i++) {
      for (j = HEAD; j < HEAD + MORE; j++) sum += (unsigned char)block[i][j];
      if (i % 2 == 1) free(block[i]);
   }
   return sum == 0;   /* keeps the reads; the even blocks stay live */
}
