/* 0-byte allocations: malloc(0) gives distinct non-NULL blocks of no
   bytes; realloc(p, 0) frees. */
#include <stdlib.h>

int main(void)
{
   void* a = malloc(0);                         /* SITE zero */
   void* b = malloc(0);                         /* SITE zero2 */
   void* c = malloc(0);                         /* SITE zero_realloc */
   if (a == NULL || b == NULL || a == b) return 2;
   free(a);
   c = realloc(c, 0);
   if (c != NULL) return 3;
   /* b stays live at exit: 1 block, 0 bytes */
   return 0;
}
