/* Scale: scale TOTAL LIVE SITES
   Makes LIVE blocks of 16 bytes that stay live to the end, spread over
   SITES distinct allocation stacks (SITES <= 100000), then TOTAL - LIVE
   malloc/free pairs of 32 bytes at one more site (SITE churn), so the
   profile has SITES + 1 program sites (plus the C library's own).
   Distinct stacks: a chain of 5 levels, each with 10 functions; the digits
   of the site number choose the function at each level, so each of the
   100,000 paths through the chain has its own return addresses. */
#include <stdio.h>
#include <stdlib.h>

static void** live_blocks;

static void* churn_alloc(size_t n) { return malloc(n); }        /* SITE churn */

#define D10(M, k) M(k,0) M(k,1) M(k,2) M(k,3) M(k,4) M(k,5) M(k,6) M(k,7) M(k,8) M(k,9)

static void* level6(unsigned n, size_t size) { (void)n; return malloc(size); }
#define DECL(k, d) static void* L##k##_##d(unsigned n, size_t size);
D10(DECL, 1) D10(DECL, 2) D10(DECL, 3) D10(DECL, 4) D10(DECL, 5)
#define CASE(k, d) case d: return L##k##_##d(n / 10, size);
#define DISPATCH(k) \
   static void* level##k(unsigned n, size_t size) \
   { switch (n % 10) { D10(CASE, k) } return NULL; }
DISPATCH(1) DISPATCH(2) DISPATCH(3) DISPATCH(4) DISPATCH(5)
#define DEF2(d) static void* L1_##d(unsigned n, size_t s) { return level2(n, s); }
#define DEF(k, d, next) static void* L##k##_##d(unsigned n, size_t s) { return next(n, s); }
#define DEF_1(k, d) DEF(k, d, level2)
#define DEF_2(k, d) DEF(k, d, level3)
#define DEF_3(k, d) DEF(k, d, level4)
#define DEF_4(k, d) DEF(k, d, level5)
#define DEF_5(k, d) DEF(k, d, level6)
D10(DEF_1, 1) D10(DEF_2, 2) D10(DEF_3, 3) D10(DEF_4, 4) D10(DEF_5, 5)

int main(int argc, char** argv)
{
   unsigned long total = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
   unsigned long live = argc > 2 ? strtoul(argv[2], NULL, 10) : 100;
   unsigned long sites = argc > 3 ? strtoul(argv[3], NULL, 10) : 10;
   unsigned long i;
   if (sites == 0 || sites > 100000 || live > total) return 2;
   live_blocks = malloc(live * sizeof(void*));            /* SITE index */
   for (i = 0; i < live; i++) live_blocks[i] = level1((unsigned)(i % sites), 16);
   for (i = live; i < total; i++) free(churn_alloc(32));
   printf("done\n");
   return 0;
}
