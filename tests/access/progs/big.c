/* A block larger than 1 MiB: 3 MiB + 100 bytes, whose first MiB is written
   with 8-byte stores and whose last 8 bytes are read.  Expected per site
   "make_big": written 1048576, read 8, never written 2097252, unused
   capacity 2097252, never accessed 2097244. */
#include <stdlib.h>

#define SIZE (3 * 1024 * 1024 + 100)

static char* make_big(void)
{
   char* p = malloc(SIZE);
   volatile long* words = (long*)p;
   for (int i = 0; i < 1024 * 1024 / 8; i++) words[i] = i;
   return p;
}

int main(void)
{
   char* p = make_big();
   volatile long* last = (long*)(p + SIZE - 8);
   long v = *last;
   free(p);
   return (int)(v & 0);
}
