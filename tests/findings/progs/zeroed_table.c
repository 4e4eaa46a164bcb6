/* A table zero-filled by the allocator and then read in full: calloc(32768,
   8) = 262,144 bytes, every byte read, none written by the program.  The
   zero fill initialised it, so it has no unused capacity (unused 0) and no
   byte is never read: no finding.  The program writes nothing to it:
   bytes_written 0, never_written 262,144 (the fill is not a write). */
#include <stdlib.h>

#define SLOTS 32768

static unsigned long* counts_new(void)
{
   return calloc(SLOTS, sizeof(unsigned long));
}

int main(void)
{
   volatile unsigned long* counts = counts_new();
   unsigned long sum = 0;
   int i;
   for (i = 0; i < SLOTS; i++) sum += counts[i];
   free((void*)counts);
   return (int)sum;
}
