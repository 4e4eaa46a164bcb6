/* blocks COUNT: COUNT blocks of 24 bytes at one site, kept live to the
   end, each written and read; then every other one is freed and
   allocated again and every fourth reallocated within its size class, and
   the new ones are touched too.  The tool's own memory for them must grow
   by a bounded amount per live block, whatever was done to them. */
#include <stdlib.h>

int main(int argc, char** argv)
{
   long count = argc > 1 ? atol(argv[1]) : 0, i;
   unsigned char** blocks = malloc((size_t)count * sizeof *blocks);
   unsigned long sum = 0;
   int j;
   if (blocks == NULL) return 1;
   for (i = 0; i < count; i++) {
      blocks[i] = malloc(24);
      if (blocks[i] == NULL) return 1;
      for (j = 0; j < 24; j++) blocks[i][j] = (unsigned char)j;
      for (j = 0; j < 24; j++) sum += blocks[i][j];
   }
   for (i = 0; i < count; i += 2) {
      if (i % 4 == 0) {
         free(blocks[i]);
         blocks[i] = malloc(24);
      } else {
         blocks[i] = realloc(blocks[i], 20);
      }
      if (blocks[i] == NULL) return 1;
      for (j = 0; j < 20; j++) blocks[i][j] = (unsigned char)(j + 1);
      for (j = 0; j < 20; j++) sum += blocks[i][j];
   }
   return sum == 0;   /* keeps the reads */
}
