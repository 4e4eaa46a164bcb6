/* A site's own maximum after an earlier, higher global peak set by another
   site: "big" holds 1 MiB and frees it (the global peak); later "small"
   grows to 10 blocks of 10 KiB, its own maximum, far below the peak.
   DHAT reports 0 as small's maximum; lifeheap must report 102400. */
#include <stdlib.h>

int main(void)
{
   void* small[10];
   int i;
   void* big = malloc(1 << 20);                 /* SITE big */
   free(big);
   for (i = 0; i < 10; i++) small[i] = malloc(10240);   /* SITE small */
   for (i = 0; i < 10; i++) free(small[i]);
   return 0;
}
