/* The run's clock against DHAT's (tests/access/run.sh).
   clock K S M: K (a digit) times 100 iterations, each allocating 1 MiB,
   writing one byte in 16 of it with a plain loop, memset-ing S (a digit)
   MiB of it when M is 1, and freeing it.  The digits are read with the
   same instructions whatever their values, so two runs differ only in
   the iterations, in whether memset is called and in the size it fills:
     - the plain loop, malloc and free are counted as DHAT counts them:
       with M = 0, 100 more iterations add exactly the same number of
       instructions under both tools;
     - lifeheap does not count its memset's instructions: with M = 1 the
       duration does not depend on S, where DHAT's grows with it. */
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
   if (argc < 4) return 2;
   int iterations = (argv[1][0] - '0') * 100;
   size_t fill = (size_t)(argv[2][0] - '0') << 20;
   int call_memset = argv[3][0] - '0';
   for (int i = 0; i < iterations; i++) {
      volatile char* p = malloc(1 << 20);
      for (int j = 0; j < (1 << 20); j += 16) p[j] = 1;
      if (call_memset) memset((char*)p, i, fill);
      free((char*)p);
   }
   return 0;
}
