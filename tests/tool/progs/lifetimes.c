/* Lifetimes freed at known points.
   - "same": three blocks, each allocated, kept over the same amount of
     work, then freed, on the same code path: equal lifetimes (min == max).
     A warm-up malloc/free first, so the first iteration does not also pay
     for binding malloc and free in the dynamic linker.
   - "outer" is allocated before and freed after "inner": it lives longer.
   - "forever" is never freed: it lives until the end of the run. */
#include <stdlib.h>

static volatile unsigned long sink;

static void work(int n)
{
   int i;
   for (i = 0; i < n; i++) sink += i;
}

int main(void)
{
   int i;
   void* outer;
   void* inner;
   void* forever;
   free(malloc(1));                             /* SITE warmup */
   for (i = 0; i < 3; i++) {
      void* p = malloc(32);                     /* SITE same */
      work(1000);
      free(p);
   }
   outer = malloc(64);                          /* SITE outer */
   work(100);
   inner = malloc(64);                          /* SITE inner */
   work(5000);
   free(inner);
   work(100);
   free(outer);
   forever = malloc(16);                        /* SITE forever */
   work(100);
   return forever == NULL;
}
