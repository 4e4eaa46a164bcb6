/* Sessions opened through the run, each with an 80 KiB receive window of
   which only the first 64 bytes are ever read (the whole window is zeroed
   with memset at open: written once, never read back).  120 sessions,
   freed at the end.  The live bytes climb all run long, but the cause is
   the preallocation: one finding, oversized-preallocation on session_open
   (blocks 120, mean block 81,920, never read 120 x 81,856 = 9,822,720),
   and no unbounded-growth listed for the same site. */
#include <stdlib.h>
#include <string.h>

#define SESSIONS     120
#define WINDOW_BYTES 81920
#define HEADER_BYTES 64

static volatile unsigned long sink;

static unsigned char* session_open(void)
{
   unsigned char* window = malloc(WINDOW_BYTES);
   memset(window, 0, WINDOW_BYTES);
   return window;
}

static void serve(unsigned char* window, int n)
{
   int i, k;
   for (k = 0; k < 2000; k++) sink += (unsigned long)k * n;  /* other work */
   for (i = 0; i < HEADER_BYTES; i++) sink += window[i];
}

int main(void)
{
   static unsigned char* sessions[SESSIONS];
   int i;
   for (i = 0; i < SESSIONS; i++) {
      sessions[i] = session_open();
      serve(sessions[i], i);
   }
   for (i = 0; i < SESSIONS; i++) free(sessions[i]);
   return 0;
}
