/* calloc's zero fill is not a program write, but it initialises the
   block: calloc(100, 4), then 40 bytes read.  Expected per site
   "make_zeroed": written 0, read 40, never written 400, unused capacity 0
   (the written high-water mark of a zeroed block is its size), never read
   360. */
#include <stdlib.h>

static char* make_zeroed(void)
{
   return calloc(100, 4);
}

int main(void)
{
   volatile char* p = make_zeroed();
   int sum = 0;
   for (int i = 0; i < 40; i++) sum += p[i];
   free((char*)p);
   return sum;
}
