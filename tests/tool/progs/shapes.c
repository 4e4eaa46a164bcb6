/* Block sizes in known log2 buckets (bucket 0 holds size 0, bucket i holds
   2^(i-1) <= size < 2^i: docs/format.md, size_histogram).
   - "mixed": one block of each size in SIZES, each freed at once:
       0 -> 0, 1 -> 1, 2 3 -> 2, 4 7 -> 3, 8 -> 4, 1000 1023 -> 10,
       1024 -> 11, 4096 -> 13.
   - "grown": malloc(10) then realloc to 100, freed: one block, counted at
     its last size, 100 -> bucket 7.
   - "kept": five blocks of 48 never freed (counted when the profile is
     written): bucket 6 holds 5.
   Blocks by size and lifetime (sites[].blocks_by_size_and_lifetime, only
   for sites whose blocks have more than one size class):
   - "switch": four blocks of 16 (bucket 5), then three of 300 (bucket 9),
     each freed at once by the same code: each row is one cell (equal
     lifetimes), of 4 and 3 blocks; the second class arrives at a free.
   - "late": three blocks of 16 freed at once, then two of 4096 (bucket
     13) never freed: the second class arrives when the profile is
     written; row 5 is one cell of 3, row 13 holds 2.
   - "mixed" has eight classes; "grown" and "kept" one each: no grid. */
#include <stdlib.h>

static const size_t SIZES[] = { 0, 1, 2, 3, 4, 7, 8, 1000, 1023, 1024, 4096 };

int main(void)
{
   unsigned i;
   void* kept[5];
   void* late[2];
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
   for (i = 0; i < 7; i++) {
      void* p = malloc(i < 4 ? 16 : 300);       /* SITE switch */
      free(p);
   }
   for (i = 0; i < 5; i++) {
      void* p = malloc(i < 3 ? 16 : 4096);      /* SITE late */
      if (i < 3) free(p);
      else late[i - 3] = p;
   }
   return kept[4] == NULL || late[1] == NULL;
}
