/* small: blocks of up to 256 bytes come from runs of one size class
   (tool/lh_small_alloc.c): slots of 16, 32, ... 256 bytes.  Checks that
   every size from 0 to 300 gets a 16-aligned block of its own whose bytes
   no other block shares, that a freed slot is reused first by its class,
   and that realloc stays in place within a slot and moves (copying) when
   it outgrows it.  The program reports what happened on stdout; every
   byte is written and read once by a plain loop (no memset, whose
   overlapping vector stores would count some bytes twice). */
#include <stdio.h>
#include <stdlib.h>

#define MAX_SIZE 300

static const char* yes_no(int ok) { return ok ? "yes" : "no"; }

int main(void)
{
   char* blocks[MAX_SIZE + 1];
   int aligned = 1, distinct = 1, intact = 1;
   int n, i;

   for (n = 0; n <= MAX_SIZE; n++) {
      blocks[n] = malloc(n);                       /* SITE sizes */
      if (blocks[n] == NULL || ((unsigned long)blocks[n] & 15) != 0) aligned = 0;
      for (i = 0; i < n; i++) blocks[n][i] = (char)n;
   }
   for (n = 0; n <= MAX_SIZE; n++) {
      for (i = 0; i < n; i++)
         if (blocks[n][i] != (char)n) intact = 0;
      for (i = 0; i < n; i++)
         if (blocks[i] == blocks[n]) distinct = 0;
   }
   printf("aligned %s\ndistinct %s\nintact %s\n", yes_no(aligned),
          yes_no(distinct), yes_no(intact));
   for (n = 0; n <= MAX_SIZE; n++) free(blocks[n]);

   {
      char* first = malloc(40);                    /* SITE reuse_first */
      char* second;
      free(first);
      second = malloc(48);                         /* SITE reuse_second */
      printf("reuse %s\n", second == first ? "same" : "other");
      free(second);
   }

   {
      char* p = malloc(20);                        /* SITE classes */
      char* q;
      for (i = 0; i < 20; i++) p[i] = 5;
      q = realloc(p, 30);                          /* same 32-byte slot */
      printf("grow30 %s\n", q == p ? "inplace" : "moved");
      p = q;
      q = realloc(p, 33);                          /* outgrows it: 48 */
      printf("grow33 %s\n", q == p ? "inplace" : "moved");
      p = q;
      q = realloc(p, 300);                         /* Valgrind's allocator */
      printf("grow300 %s\n", q == p ? "inplace" : "moved");
      p = q;
      q = realloc(p, 100);                         /* shrinks in place */
      printf("shrink100 %s\n", q == p ? "inplace" : "moved");
      for (i = 0; i < 20; i++)
         if (q[i] != 5) intact = 0;
      printf("kept %s\n", yes_no(intact));
      free(q);
   }
   fflush(stdout);
   return 0;
}
