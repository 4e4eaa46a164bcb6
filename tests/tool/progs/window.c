/* window: one site's blocks with very different lifetimes, the longest
   first, so the site's lifetime histogram (kept as the window of buckets
   it uses, tool/lh_histogram.c) grows downwards, then fills a bucket in
   the middle.  Blocks 2 and 4 do nothing between malloc and free: same
   lifetime, same bucket. */
#include <stdlib.h>

int main(void)
{
   static const long waits[4] = { 100000, 0, 1000, 0 };
   volatile long sink = 0;
   long i;
   int k;
   for (k = 0; k < 4; k++) {
      void* p = malloc(8);                         /* SITE window */
      for (i = 0; i < waits[k]; i++) sink += i;
      free(p);
   }
   return 0;
}
