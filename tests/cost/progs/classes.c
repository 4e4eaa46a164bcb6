/* classes: one live block of each small size class, the shape of a
   program with a few blocks of many sizes live (a thread pipeline's
   messages, a parser's nodes).  Blocks of 16, 32, 48, ... 256 bytes are
   allocated in that order (one per class of lh_small_alloc.c), written
   in full and kept to the end; their addresses go to stdout, one a line
   in hex (written with write(2): stdio would allocate a buffer).
   Each class's first run of slots is 1 KiB, cut one after the other from
   one 64 KiB chunk, so block k (0-based) lies exactly k KiB after block 0,
   the client arena holds that one chunk (65,536 bytes), and the shadow
   needs one shared chunk per 64 KiB stretch the 16 KiB span touches:
   one or two, where a chunk per class took sixteen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLASSES 16

int main(void)
{
   static char* block[CLASSES];
   static char line[64];
   int k;
   for (k = 0; k < CLASSES; k++) {
      block[k] = malloc(16 * (k + 1));
      if (block[k] == NULL) return 1;
      memset(block[k], k, 16 * (k + 1));
   }
   for (k = 0; k < CLASSES; k++) {
      int n = snprintf(line, sizeof line, "%lx\n", (unsigned long)block[k]);
      if (write(1, line, n) != n) return 1;
   }
   return 0;
}
