/* A 1000-byte block written byte by byte, then read only through memcpy
   into a second 1000-byte block, which is never read.  Expected: site
   "make_source" read 1000 (each byte once, however memcpy is written),
   written 1000; site "make_copy" written 1000, read 0. */
#include <stdlib.h>
#include <string.h>

static char* make_source(void)
{
   volatile char* src = malloc(1000);
   for (int i = 0; i < 1000; i++) src[i] = (char)(i * 7);
   return (char*)src;
}

static char* make_copy(const char* src)
{
   char* dst = malloc(1000);
   memcpy(dst, src, 1000);
   return dst;
}

int main(void)
{
   char* src = make_source();
   char* dst = make_copy(src);
   free(src);
   free(dst);
   return 0;
}
