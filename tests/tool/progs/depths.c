/* Allocations at three stack depths, each site with a known stack:
     shallow: main
     middle:  alloc_middle <- main
     deep:    alloc_deep <- level2 <- level1 <- main
   Each site allocates and frees its blocks, some kept live at exit. */
#include <stdlib.h>

static void* alloc_middle(size_t n)
{
   return malloc(n);                            /* SITE middle */
}

static void* alloc_deep(size_t n)
{
   return malloc(n);                            /* SITE deep */
}

static void* level2(size_t n) { return alloc_deep(n); }     /* SITE level2 */
static void* level1(size_t n) { return level2(n); }         /* SITE level1 */

int main(void)
{
   void* kept[3];
   int i;
   for (i = 0; i < 4; i++) {
      void* p = malloc(10);                     /* SITE shallow */
      free(p);
   }
   kept[0] = alloc_middle(200);                 /* SITE call_middle */
   for (i = 0; i < 2; i++) free(alloc_middle(300));  /* SITE call_middle2 */
   kept[1] = level1(3000);                      /* SITE call_deep */
   kept[2] = level1(5);                         /* SITE call_deep2 */
   free(kept[2]);
   return kept[0] == NULL || kept[1] == NULL;
}
