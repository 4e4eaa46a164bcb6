/* A 1 MiB buffer filled from both ends, as GNU sort fills its buffer (lines
   from the front, line records from the back): 100 KiB written and read
   at each end, the 824 KiB between never touched.  Its written high-water
   mark is the end of the block, so it has no unused capacity; 80% never
   touched is below the oversized-preallocation threshold (90% never read),
   so it gets no finding, and the summary's note says what is untouched:
   843,776 bytes = 824.0 KiB (80%). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUFFER_BYTES (1024 * 1024)
#define END_BYTES    (100 * 1024)

static __attribute__((noinline)) char* buffer_new(void)
{
   return malloc(BUFFER_BYTES);
}

int main(void)
{
   char* buffer = buffer_new();
   unsigned long sum = 0;
   memset(buffer, 1, END_BYTES);
   memset(buffer + BUFFER_BYTES - END_BYTES, 2, END_BYTES);
   for (int i = 0; i < END_BYTES; i++)
      sum += (unsigned char)buffer[i] + (unsigned char)buffer[BUFFER_BYTES - 1 - i];
   printf("%lu\n", sum);
   free(buffer);
   return sum == 3UL * END_BYTES ? 0 : 1;
}
