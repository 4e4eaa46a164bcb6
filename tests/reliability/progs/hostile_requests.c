/* Requests lifeheap cannot or must not honour end in a clear message, a
   failure the program can see, and a written profile, never a stop of the
   whole run (tests/reliability/run.sh).

   - alignments beyond Valgrind's allocator (16 MiB): memalign(1 GiB),
     aligned_alloc(32 MiB), posix_memalign(1 TiB) fail (NULL, ENOMEM);
   - sizes no allocator can give: malloc(2^62), calloc overflowing,
     realloc to 2^50 (NULL, the old block intact);
   - custom-allocator requests past the address space or 2^53:
     VALGRIND_MALLOCLIKE_BLOCK of 2^63 and of 2^53 + 1 bytes are ignored,
     a RESIZEINPLACE_BLOCK of a good block to 2^62 is ignored (it keeps
     its 100 bytes).

   What stays, and what the profile must show: "kept" 64 bytes, "grown"
   10 bytes (its realloc failed), the custom block "custom_ok" of 100
   bytes, freed: 3 blocks, 174 bytes.  Prints each outcome. */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/valgrind.h>

static char area[256];

static char* kept(void) { return malloc(64); }
static char* grown(void) { return malloc(10); }
static void custom_ok(void) { VALGRIND_MALLOCLIKE_BLOCK(area + 128, 100, 0, 0); }
static void custom_huge(void)
{
   VALGRIND_MALLOCLIKE_BLOCK(area, 1ULL << 63, 0, 0);
   VALGRIND_MALLOCLIKE_BLOCK(area + 16, (1ULL << 53) + 1, 0, 0);
}

int main(void)
{
   void* p = NULL;
   volatile size_t half = 1UL << 40;   /* calloc(half, half) overflows */
   setvbuf(stdout, NULL, _IONBF, 0);   /* no stdio buffer from malloc */
   char* k = kept();
   printf("memalign 1 GiB: %s\n", memalign(1UL << 30, 10) ? "served" : "NULL");
   printf("aligned_alloc 32 MiB: %s\n",
          aligned_alloc(1UL << 25, 1UL << 25) ? "served" : "NULL");
   int rc = posix_memalign(&p, 1UL << 40, 8);
   printf("posix_memalign 1 TiB: %s\n", rc == ENOMEM && p == NULL ? "ENOMEM" : "other");
   printf("malloc 2^62: %s\n", malloc(1UL << 62) ? "served" : "NULL");
   printf("calloc overflow: %s\n", calloc(half, half) ? "served" : "NULL");
   char* g = grown();
   g[0] = 'g';
   printf("realloc 2^50: %s\n", realloc(g, 1UL << 50) ? "served" : "NULL");
   custom_huge();
   custom_ok();
   VALGRIND_RESIZEINPLACE_BLOCK(area + 128, 100, 1ULL << 62, 0);
   VALGRIND_FREELIKE_BLOCK(area + 128, 0);
   printf("still running: %c\n", g[0]);
   free(g);
   free(k);
   return 0;
}
