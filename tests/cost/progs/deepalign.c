/* deepalign: allocations 21 calls deep, where the preload's frames are
   one (malloc) or two (posix_memalign forwards to the preload's
   memalign).  The tool first unwinds --num-callers + 1 frames (13 by
   default): enough for malloc's one preload frame and 12 of the
   program's; posix_memalign's unwind fills up with two preload frames
   and only 11 of the program's, so it is unwound again to 14.  Both
   sites keep 12 frames: allocate and 11 calls of down.

   5 posix_memalign and 5 malloc calls: 10 stacks unwound, 5 of them
   again; 5 x 13 + 5 x (13 + 14) = 200 frames asked for. */
#include <stdlib.h>

static void* blocks[10];

static void allocate(void)
{
   int i;
   for (i = 0; i < 5; i++)
      if (posix_memalign(&blocks[i], 64, 100) != 0) exit(1);
   for (i = 5; i < 10; i++)
      if ((blocks[i] = malloc(100)) == NULL) exit(1);
}

static void down(int depth)
{
   if (depth == 0) { allocate(); return; }
   down(depth - 1);
}

int main(void)
{
   int i;
   down(20);
   for (i = 0; i < 10; i++) free(blocks[i]);
   return 0;
}
