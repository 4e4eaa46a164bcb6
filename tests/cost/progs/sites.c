/* sites DEPTH [keep]: 3^DEPTH allocation sites (every path of a three-way
   recursion DEPTH deep allocates at its own stack), one 16-byte block
   each, written and read; the blocks are freed before exit unless "keep"
   is given.  No site has a note (one small block each).  The tool's memory
   must grow by a bounded amount per site, and what it keeps only for
   live blocks or for sites with notes must not be kept for the others. */
#include <stdlib.h>
#include <string.h>

static unsigned char** blocks;
static long n_blocks;

static void leaf(void)
{
   unsigned char* b = malloc(16);
   if (b == NULL) exit(1);
   memset(b, (int)(n_blocks & 0xff), 16);
   blocks[n_blocks++] = b;
}

static void node(int depth)
{
   if (depth == 0) { leaf(); return; }
   node(depth - 1);
   node(depth - 1);
   node(depth - 1);
}

int main(int argc, char** argv)
{
   int depth = argc > 1 ? atoi(argv[1]) : 1, keep = argc > 2, d;
   long count = 1, i;
   unsigned long sum = 0;
   for (d = 0; d < depth; d++) count *= 3;
   blocks = malloc((size_t)count * sizeof *blocks);
   if (blocks == NULL) return 1;
   node(depth);
   for (i = 0; i < n_blocks; i++) sum += blocks[i][i % 16];
   if (!keep) {
      for (i = 0; i < n_blocks; i++) free(blocks[i]);
      free(blocks);
   }
   return sum == 1;   /* keeps the reads */
}
