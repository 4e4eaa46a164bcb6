/* The "at_peak" figures count only the blocks live at the latest global
   peak.  "early_block" (100 bytes, written) lives and dies before a higher
   peak: its at-peak figures are 0.  "peak_big" (8000 bytes, 1000 written)
   and "peak_small" (2000 bytes, untouched) are live at the peak (10000
   bytes).  "after_peak" (500 bytes) comes after it.  Expected at_peak:
   peak_big bytes 8000, never read 8000, never written 7000, never accessed
   7000, unused capacity 7000; peak_small 2000 for each; the others 0. */
#include <stdlib.h>

static char* early_block(void) { return malloc(100); }
static char* peak_big(void)    { return malloc(8000); }
static char* peak_small(void)  { return malloc(2000); }
static char* after_peak(void)  { return malloc(500); }

int main(void)
{
   volatile char* d = early_block();
   for (int i = 0; i < 100; i++) d[i] = 1;
   free((char*)d);
   volatile char* a = peak_big();
   char* b = peak_small();
   for (int i = 0; i < 1000; i++) a[i] = 2;
   free((char*)a);
   free(b);
   char* c = after_peak();
   free(c);
   return 0;
}
