/* Compare-and-swap reads its operand and writes it only when the swap
   happens.  "make_counters": two 4-byte ints written (8 bytes), a CAS on
   the first that succeeds (read 4, write 4) and one on the second that
   fails (read 4, no write), then an atomic add on the first (lock xadd:
   read 4, write 4).  Expected: read 12, written 16; map writes 3 at
   offsets 0-3 and 1 at 4-7, reads 2 at 0-3 and 1 at 4-7. */
#include <stdlib.h>

static int* make_counters(void)
{
   volatile int* c = malloc(2 * sizeof(int));
   c[0] = 0;
   c[1] = 0;
   return (int*)c;
}

int main(void)
{
   int* c = make_counters();
   int expected = 0;
   int swapped = __atomic_compare_exchange_n(&c[0], &expected, 1, 0,
                                             __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
   expected = 5;
   int failed = !__atomic_compare_exchange_n(&c[1], &expected, 1, 0,
                                             __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
   int old = __atomic_fetch_add(&c[0], 10, __ATOMIC_SEQ_CST);
   free(c);
   return swapped && failed && old == 1 && expected == 0 ? 0 : 1;
}
