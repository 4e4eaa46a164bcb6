/* A 4096-byte buffer filled only in its first quarter (byte by byte) and
   read back in its first eighth.  Expected per site "fill_quarter":
   written 1024, read 512, never written 3072, never read 3584, never
   accessed 3072, written-never-read 512, unused capacity 3072. */
#include <stdlib.h>

static char* fill_quarter(void)
{
   volatile char* buf = malloc(4096);
   for (int i = 0; i < 1024; i++) buf[i] = (char)i;
   return (char*)buf;
}

int main(void)
{
   volatile char* buf = fill_quarter();
   int sum = 0;
   for (int i = 0; i < 512; i++) sum += buf[i];
   free((void*)buf);
   return sum == 0 ? 1 : 0;
}
