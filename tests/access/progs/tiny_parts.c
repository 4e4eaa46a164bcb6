/* tiny_parts: a site whose blocks have different sizes keeps a map of 64
   parts per block (docs/metrics.md), so a 40-byte block has parts of less
   than a byte: part j covers offsets [j*40/64, (j+1)*40/64), and some are
   empty.  Each 8-byte access spans several parts; every part must get
   exactly the bytes of the access that fall in it, once: 0 or 1 per part
   for the writes (each byte written once) and for the reads. */
#include <stdlib.h>

static unsigned long* make_tiny(size_t bytes)
{
   return malloc(bytes);                           /* SITE make_tiny */
}

int main(void)
{
   static const size_t sizes[2] = { 5000, 40 };    /* two sizes: parts */
   unsigned long* blocks[2];
   volatile unsigned long* small;
   unsigned long sum = 0;
   int i;
   for (i = 0; i < 2; i++) blocks[i] = make_tiny(sizes[i]);
   small = blocks[1];
   for (i = 0; i < 5; i++) small[i] = (unsigned long)i;
   for (i = 0; i < 5; i++) sum += small[i];
   for (i = 0; i < 2; i++) free(blocks[i]);
   return sum == 10 ? 0 : 1;
}
