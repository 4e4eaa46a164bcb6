/* calloc: a zeroed block, a zero-sized one, a product that overflows
   (NULL, no block) and a size too large to allocate (NULL, no block). */
#include <stdint.h>
#include <stdlib.h>

int main(void)
{
   int i;
   unsigned char* z = calloc(10, 30);           /* SITE calloc300 */
   void* empty = calloc(0, 16);                 /* SITE calloc0 */
   void* overflow = calloc(SIZE_MAX / 2, 3);    /* SITE overflow */
   void* huge = calloc(1, (size_t)1 << 50);     /* SITE huge */
   for (i = 0; i < 300; i++) if (z[i] != 0) return 2;
   if (empty == NULL || overflow != NULL || huge != NULL) return 3;
   free(z);
   free(empty);
   return 0;
}
