/* At-peak figures come from each block as it was at the peak, whatever
   happens to it afterwards.

   Default run: "grow_later" (1024 bytes, all written) and "shrink_later"
   (4096 bytes, 100 written) are live when "peak_maker" (10 MiB, untouched)
   makes the peak, as is the custom allocator's block "custom_later" (1000
   bytes, announced with MALLOCLIKE_BLOCK over a static array).  After the
   peak maker is freed, grow_later is realloc'ed to 8 MiB (below the peak)
   and written further, shrink_later shrinks to 50 bytes, custom_later
   shrinks to 10 bytes in place and is then freed.
   Expected at_peak (peak.bytes = 10485760 + 1024 + 4096 + 1000):
     grow_later    bytes 1024, never written 0, never read 1024,
                   never accessed 0, unused capacity 0
     shrink_later  bytes 4096, never written 3996, never read 4096,
                   never accessed 3996, unused capacity 3996
     peak_maker    bytes 10485760, every never-* figure 10485760
     custom_later  bytes 1000, never-* 0 (its accesses are not measured)

   "later-peak": grow_later is live at a first peak (the 10 MiB block),
   then realloc'ed to 20 MiB, which makes a higher, later peak: at that
   one it counts with 20 MiB, 1024 of them written (never written
   20970496, unused capacity 20970496); peak_maker's at-peak figures are
   0 (freed before it). */
#include <stdlib.h>
#include <string.h>
#include <valgrind/valgrind.h>

#define MiB (1024 * 1024)

static char custom_area[2000];

static char* grow_later(void)   { return malloc(1024); }
static char* shrink_later(void) { return malloc(4096); }
static char* peak_maker(void)   { return malloc(10 * MiB); }
static char* custom_later(void)
{
   VALGRIND_MALLOCLIKE_BLOCK(custom_area, 1000, 0, 0);
   return custom_area;
}

int main(int argc, char** argv)
{
   volatile char* a = grow_later();
   for (int i = 0; i < 1024; i++) a[i] = 1;
   if (argc > 1 && strcmp(argv[1], "later-peak") == 0) {
      char* big = peak_maker();
      free(big);
      a = realloc((char*)a, 20 * MiB);
      free((char*)a);
      return 0;
   }
   volatile char* s = shrink_later();
   for (int i = 0; i < 100; i++) s[i] = 2;
   char* c = custom_later();
   char* big = peak_maker();
   free(big);
   a = realloc((char*)a, 8 * MiB);
   for (int i = 1024; i < 2048; i++) a[i] = 3;
   s = realloc((char*)s, 50);
   VALGRIND_RESIZEINPLACE_BLOCK(c, 1000, 10, 0);
   VALGRIND_FREELIKE_BLOCK(c, 0);
   free((char*)a);
   return s[0] == 2 ? 0 : 1;
}
