/* What lifeheap sees of a program linked with jemalloc (docs/reliability.md
   section 8): 5 blocks of 1000 bytes through the standard malloc (SITE std),
   one of 4000 through jemalloc's own mallocx (SITE own_api), all kept. */
#include <stdlib.h>
#include <jemalloc/jemalloc.h>

static void* keep[6];
static void* std_alloc(size_t n) { return malloc(n); }          /* SITE std */
static void* own_api_alloc(size_t n) { return mallocx(n, 0); }  /* SITE own_api */

int main(void)
{
   int i;
   for (i = 0; i < 5; i++) keep[i] = std_alloc(1000);
   keep[5] = own_api_alloc(4000);
   return 0;
}
