/* realloc keeps the access state.
   Site "grow_moved": 100 bytes written, realloc'd to 100000 (moves), then
   bytes 0..49 read and 100..199 written.  Expected: measured 100000,
   written 200, read 50, never written 99800, never read 99950, unused
   capacity 99800 (high-water mark 200), a "buckets" map (sizes differ).
   Site "shrink_regrow": 64 bytes written, shrunk to 32, grown to 48 (in
   place: the chunk has room), nothing more.  Expected: measured 48,
   written 64, never written 16 (the bytes cut off by the shrink are not
   "written" when they come back), unused capacity 16. */
#include <stdlib.h>

static char* grow_moved(void)
{
   volatile char* p = malloc(100);
   for (int i = 0; i < 100; i++) p[i] = 1;
   p = realloc((char*)p, 100000);
   int sum = 0;
   for (int i = 0; i < 50; i++) sum += p[i];
   for (int i = 100; i < 200; i++) p[i] = 2;
   return sum == 50 ? (char*)p : NULL;
}

static char* shrink_regrow(void)
{
   volatile char* q = malloc(64);
   for (int i = 0; i < 64; i++) q[i] = 3;
   q = realloc((char*)q, 32);
   q = realloc((char*)q, 48);
   return (char*)q;
}

int main(void)
{
   char* p = grow_moved();
   char* q = shrink_regrow();
   if (p == NULL || q == NULL) return 1;
   free(p);
   free(q);
   return 0;
}
