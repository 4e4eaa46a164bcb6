/* A small pool allocator that tells Valgrind tools about its blocks.
   The pool's memory is one malloc'd arena of 4096 bytes (SITE arena).
   MALLOCLIKE part: pool_alloc hands out 5 blocks of 48 bytes (SITE pool_user),
     frees 2 (FREELIKE), resizes one in place to 32 (RESIZEINPLACE).
   Mempool part: 4 chunks of 100 bytes (SITE mp_user) in a mempool, 1 freed
     with MEMPOOL_FREE, 1 moved with MEMPOOL_CHANGE to 120 bytes, then the pool
     destroyed (the other chunks die with it); EXISTS before and after. */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/valgrind.h>

static char* arena;
static size_t used;

static void* bump(size_t n)
{
   void* p = arena + used;
   used += (n + 15) & ~(size_t)15;
   return p;
}

static void* pool_alloc(size_t n)
{
   void* p = bump(n);
   VALGRIND_MALLOCLIKE_BLOCK(p, n, 0, 0);
   return p;
}

static void pool_free(void* p) { VALGRIND_FREELIKE_BLOCK(p, 0); }

static void* mp_alloc(void* pool, size_t n)
{
   void* p = bump(n);
   VALGRIND_MEMPOOL_ALLOC(pool, p, n);
   return p;
}

static void* pool_user(size_t n) { return pool_alloc(n); }       /* SITE pool_user */
static void* mp_user(void* pool, size_t n) { return mp_alloc(pool, n); }  /* SITE mp_user */

int main(void)
{
   void* b[5];
   void* c[4];
   int i;
   int anchor;
   arena = malloc(4096);                                          /* SITE arena */
   for (i = 0; i < 5; i++) b[i] = pool_user(48);
   pool_free(b[1]);
   pool_free(b[3]);
   VALGRIND_RESIZEINPLACE_BLOCK(b[0], 48, 32, 0);

   VALGRIND_CREATE_MEMPOOL(&anchor, 0, 0);
   printf("exists before destroy: %u\n", (unsigned)VALGRIND_MEMPOOL_EXISTS(&anchor));
   for (i = 0; i < 4; i++) c[i] = mp_user(&anchor, 100);
   VALGRIND_MEMPOOL_FREE(&anchor, c[2]);
   {
      void* moved = bump(120);
      VALGRIND_MEMPOOL_CHANGE(&anchor, c[1], moved, 120);
   }
   VALGRIND_DESTROY_MEMPOOL(&anchor);
   printf("exists after destroy: %u\n", (unsigned)VALGRIND_MEMPOOL_EXISTS(&anchor));
   return 0;
}
