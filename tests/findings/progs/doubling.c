/* A buffer grown by doubling, 16 reallocs from 64 bytes to 4 MiB: it copies
   64 x (2^16 - 1) = 4,194,240 bytes, less than the final 4,194,304 bytes,
   the amortised growth every vector uses.  It meets the realloc-growth
   thresholds (16 reallocs per block, over 1 MiB copied) at low severity,
   and the sentence must not tell it to "grow geometrically": it does.
   realloc continues a block at its first site: the site is main's malloc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __attribute__((noinline)) char* buffer_double(char* buffer, size_t size)
{
   char* grown = realloc(buffer, size);
   if (grown == NULL) abort();
   return grown;
}

int main(void)
{
   size_t size = 64;
   char* buffer = malloc(size);
   memset(buffer, 1, size);
   for (int i = 0; i < 16; i++) {
      buffer = buffer_double(buffer, size * 2);
      memset(buffer + size, 1, size);
      size *= 2;
   }
   unsigned long sum = 0;
   for (size_t i = 0; i < size; i++) sum += (unsigned char)buffer[i];
   printf("%zu %lu\n", size, sum);
   free(buffer);
   return 0;
}
