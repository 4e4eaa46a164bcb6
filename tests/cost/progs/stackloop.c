/* stackloop: the ways an allocation's stack is found again
   (tool/lh_site_stacks.c).

   1. One stack, 1,000 times: malloc and free in a loop.  The first
      allocation makes the site, the second finds it in the table (and
      copies it into its recent entry: found there twice in a row), the
      third finds it among the recent stacks, and the other 997 as the
      last lookup's answer.
   2. A three-way recursion 5 deep allocating at each of its 243 leaves,
      three times over: 243 new sites, then 486 lookups of stacks that
      come round only after all the others.  Each entry of the recent
      stacks sees about 15 of them in turn, so none is found there twice
      in a row: the table answers all 486 and no stack is copied.

   No other allocation happens (no stdio): every lookup is one of these.
   The blocks are freed at once. */
#include <stdlib.h>

static void leaf(void)
{
   void* block = malloc(16);
   if (block == NULL) exit(1);
   free(block);
}

static void node(int depth)
{
   if (depth == 0) { leaf(); return; }
   node(depth - 1);
   node(depth - 1);
   node(depth - 1);
}

int main(void)
{
   int i, round;
   for (i = 0; i < 1000; i++) {
      void* block = malloc(32);
      if (block == NULL) return 1;
      free(block);
   }
   for (round = 0; round < 3; round++) node(5);
   return 0;
}
