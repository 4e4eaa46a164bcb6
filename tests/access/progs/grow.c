/* realloc keeps the access state.
   Site "grow_moved": 100 bytes written, realloc'd to 100000 (moves), then
   bytes 0..49 read and 100..199 written.  Expected: measured 100000,
   written 200, read 50, never written 99800, never read 99950, unused
   capacity 99800 (high-water mark 200), a "buckets" map (sizes differ).
   Site "shrink_regrow": 64 bytes written, shrunk to 32, grown to 48 (in
   place: the chunk has room), nothing more.  Expected: measured 48,
   written 64, never written 16 (the bytes cut off by the shrink are not
   "written" when they come back), unused capacity 16.
   Site "shrink_big": 200000 bytes written, 100 read, shrunk in place to
   100000, grown in place to 150000.  Expected: measured 150000, written
   200000, read 100, never written 50000, unused capacity 50000, never read
   149900. */
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

static char* shrink_big(void)
{
   volatile long* w = malloc(200000);
   for (int i = 0; i < 200000 / 8; i++) w[i] = i;
   volatile char* p = (volatile char*)w;
   int sum = 0;
   for (int i = 0; i < 100; i++) sum += p[i];
   p = realloc((char*)p, 100000);
   char* r = realloc((char*)p, 150000);
   return r == (char*)p && sum >= 0 ? r : NULL;
}

int main(void)
{
   char* p = grow_moved();
   char* q = shrink_regrow();
   char* r = shrink_big();
   if (p == NULL || q == NULL || r == NULL) return 1;
   free(p);
   free(q);
   free(r);
   return 0;
}
