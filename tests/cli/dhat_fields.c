/* `lifeheap report --format dhat` against `valgrind --tool=dhat` on the same
   program, field for field (tests/cli/e2e.sh): blocks of 0 bytes (1 byte to
   DHAT: zero_kept live at the peak and at exit, zero_freed freed at once),
   a block never accessed (untouched: "acc" of 40 zeros), a stack deeper than
   --num-callers (deep: DHAT keeps malloc's frame and 11 of the program's),
   a realloc (grown: DHAT counts its copy, 100 bytes, as read and written).
   Linked with -z now, so that no lazy binding (whose string functions DHAT
   counts in its clock and lifeheap does not) falls inside a block's life:
   lifetimes ("tl") agree too. */
#include <stdlib.h>
static void* zero_kept(void) { return malloc(0); }
static void* zero_freed(void) { return malloc(0); }
static char* untouched(void) { return malloc(40); }
static char* deep(int n) { return n == 0 ? malloc(24) : deep(n - 1); }
static char* grown(void) { return malloc(100); }
int main(void)
{
   void* z1 = zero_kept(); void* z2 = zero_kept();
   free(zero_freed());
   char* u = untouched();
   char* d = deep(20);
   for (int i = 0; i < 24; i++) d[i] = (char)i;
   char* g = grown();
   for (int i = 0; i < 100; i++) g[i] = 1;
   g = realloc(g, 300);
   char* big = malloc(5000);
   free(big);
   free(g);
   free(d);
   return (z1 == z2) + (u == 0);
}
