/* realloc: grow in place, shrink in place, grow by moving, realloc(NULL)
   and realloc(p, 0).  Under Valgrind's allocator a 100-byte request gets a
   chunk of at least 104 usable bytes (16-byte granules), so growing to 104
   stays in place; 10000 bytes cannot fit and moves.  The program reports
   how each call went on stdout ("moved" flags) so the test checks the
   copied-bytes figure against what really happened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
   char* p = malloc(100);                       /* SITE grow */
   char* q;
   char* r;
   memset(p, 7, 100);
   q = realloc(p, 104);                         /* grow in place */
   printf("grow104 %s\n", q == p ? "inplace" : "moved");
   p = q;
   q = realloc(p, 50);                          /* shrink in place */
   printf("shrink50 %s\n", q == p ? "inplace" : "moved");
   p = q;
   q = realloc(p, 10000);                       /* grow, must move */
   printf("grow10000 %s\n", q == p ? "inplace" : "moved");
   if (q[49] != 7) return 2;                    /* contents kept */
   free(q);

   r = realloc(NULL, 64);                       /* SITE from_null */
   r = realloc(r, 0);                           /* frees, returns NULL */
   printf("realloc0 %s\n", r == NULL ? "null" : "nonnull");
   fflush(stdout);
   return 0;
}
