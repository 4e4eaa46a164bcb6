/* Bad frees: a double free, a free of a stack address, a realloc of a
   pointer that is not a block.  lifeheap ignores them (with one warning),
   does not crash, and counts only the real free. */
#include <stdlib.h>

int main(void)
{
   int on_stack = 0;
   void* p = malloc(40);                        /* SITE badfree */
   void* r;
   free(p);
   free(p);                                     /* double free */
   free(&on_stack);                             /* not a heap block */
   r = realloc(&on_stack, 10);                  /* not a heap block either */
   return r != NULL;
}
