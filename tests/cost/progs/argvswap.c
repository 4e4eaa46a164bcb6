/* argvswap ONE TWO: 10 allocations at one stack, then argv[1] and argv[2]
   swapped (getopt permutes argv the same way), then 10 more at the same
   stack.

   An allocation's stack is unwound from malloc to main's caller
   (__libc_start_call_main, the first function below main) and no
   further: malloc (the preload's frame), allocate, main, and that frame.
   Valgrind's unwinder would go on past _start, taking the words of the
   process's first stack (argc, then the argv pointers) for return
   addresses, so the swap would make the second ten's stack another one,
   though the stack the profile names (allocate, main) is the same.  So:
   one site of 20 blocks; 20 stacks unwound, 4 frames found for each, all
   20 stopped at the function below main. */
#include <stdlib.h>

static void* blocks[20];

static void allocate(int from, int to)
{
   int i;
   for (i = from; i < to; i++)
      if ((blocks[i] = malloc(24)) == NULL) exit(1);
}

int main(int argc, char** argv)
{
   int i, round;
   char* swapped;
   if (argc < 3) return 2;
   for (round = 0; round < 2; round++) {
      allocate(round * 10, round * 10 + 10);
      swapped = argv[1];
      argv[1] = argv[2];
      argv[2] = swapped;
   }
   for (i = 0; i < 20; i++) free(blocks[i]);
   return 0;
}
