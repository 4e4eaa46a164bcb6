/* The hot-block cache (tool/lh_access.c): a big block read all over three
   times (its read bits all set, so later reads skip the bits), shrunk,
   grown back and read again; then freed, and a new block (likely at the
   same address) read a little.  A stale cache entry would count the
   regrown bytes as already read or charge the new block's reads to the
   freed one.
   Site "make_buffer": 8192 bytes written, 3 x 8192 read, realloc'd to
   1000 then to 8192, bytes 0..4095 read.  Expected: measured 8192,
   written 8192, read 28672, never read 4096 (4096..8191 came back new),
   never written 7192, never accessed 4096, written never read 0, unused
   capacity 7192.
   Site "make_second": 8192 bytes, 100 read.  Expected: read 100, never
   read 8092, never written 8192. */
#include <stdlib.h>

static volatile unsigned char sink;

__attribute__((noinline)) static unsigned char* make_buffer(void)
{
   return malloc(8192);
}

__attribute__((noinline)) static unsigned char* make_second(void)
{
   return malloc(8192);
}

int main(void)
{
   unsigned char* b = make_buffer();
   unsigned char* c;
   int i, pass;
   for (i = 0; i < 8192; i++) b[i] = 1;
   for (pass = 0; pass < 3; pass++)
      for (i = 0; i < 8192; i++) sink += b[i];
   b = realloc(b, 1000);
   b = realloc(b, 8192);
   for (i = 0; i < 4096; i++) sink += b[i];
   free(b);
   c = make_second();
   for (i = 0; i < 100; i++) sink += c[i];
   free(c);
   return 0;
}
