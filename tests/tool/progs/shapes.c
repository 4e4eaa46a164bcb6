/* Block sizes in known log2 buckets (bucket 0 holds size 0, bucket i holds
   2^(i-1) <= size < 2^i: docs/format.md, size_histogram).
   - "mixed": one block of each size in SIZES, each freed at once:
       0 -> 0, 1 -> 1, 2 3 -> 2, 4 7 -> 3, 8 -> 4, 1000 1023 -> 10,
       1024 -> 11, 4096 -> 13.
   - "grown": malloc(10) then realloc to 100, freed: one block, counted at
     its last size, 100 -> bucket 7.
   - "kept": five blocks of 48 never freed (counted when the profile is
     written): bucket 6 holds 5. */
#include <stdlib.h>

static const size_t SIZES[] = { 0, 1, 2, 3, 4, 7, 8, 1000, 1023, 1024, 4096 };

int main(void)
{
   unsigned i;
   void* kept[5];
   char* grown;
   for (i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
      void* p = malloc(SIZES[i]);               /* SITE mixed */
      free(p);
   }
   grown = malloc(10);                          /* SITE grown */
   grown = realloc(grown, 100);
   free(grown);
   for (i = 0; i < 5; i++)
      kept[i] = malloc(48);                     /* SITE kept */
   return kept[4] == NULL;
}
