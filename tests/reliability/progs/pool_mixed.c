/* Mempool trim and move, and block records shared by heap and custom
   blocks (a freed block's record is the next new block's, whatever the
   origin of either).
   SITE scratch: one malloc'd block of 16 bytes, written, then freed; the
     next block (resize_user's) takes its record.
   SITE resize_user: one VALGRIND_MALLOCLIKE_BLOCK of 40 bytes, resized in
     place to 24 (RESIZEINPLACE), then freed (FREELIKE).
   SITE trim_user: 6 chunks of 64 bytes at arena offsets 64, 128, ..., 384
     in a mempool; the pool moves to a second anchor (MOVE_MEMPOOL), then
     MEMPOOL_TRIM to [arena + 128, arena + 300) frees the chunks wholly
     outside it (offsets 64, 320, 384) and keeps the one straddling its end
     (256..320) whole: 3 freed, 3 (192 bytes) live at exit.
   SITE heap_user: 4 malloc'd blocks of 24 bytes made after those frees
     (the first takes resize_user's record); the last is realloc'd to 200
     bytes (its 32-byte slot is too small: it moves, 24 bytes copied); all
     live at exit.
   SITE arena: one malloc'd arena of 4096 bytes, live at exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/valgrind.h>

static char* arena;

static void* scratch(void) { return malloc(16); }                 /* SITE scratch */

static void* resize_user(void)                                    /* SITE resize_user */
{
   void* p = arena;
   VALGRIND_MALLOCLIKE_BLOCK(p, 40, 0, 0);
   return p;
}

static void* trim_user(void* pool, size_t offset)                 /* SITE trim_user */
{
   void* p = arena + offset;
   VALGRIND_MEMPOOL_ALLOC(pool, p, 64);
   return p;
}

static void* heap_user(void) { return malloc(24); }               /* SITE heap_user */

int main(void)
{
   int anchor, new_anchor;
   void* s;
   void* r;
   void* h[4];
   int i;
   arena = malloc(4096);                                          /* SITE arena */

   s = scratch();
   memset(s, 1, 16);
   free(s);
   r = resize_user();
   VALGRIND_RESIZEINPLACE_BLOCK(r, 40, 24, 0);

   VALGRIND_CREATE_MEMPOOL(&anchor, 0, 0);
   for (i = 1; i <= 6; i++) trim_user(&anchor, 64 * (size_t)i);
   VALGRIND_MOVE_MEMPOOL(&anchor, &new_anchor);
   printf("old anchor: %u, new anchor: %u\n",
          (unsigned)VALGRIND_MEMPOOL_EXISTS(&anchor),
          (unsigned)VALGRIND_MEMPOOL_EXISTS(&new_anchor));
   VALGRIND_MEMPOOL_TRIM(&new_anchor, arena + 128, 300 - 128);

   VALGRIND_FREELIKE_BLOCK(r, 0);
   for (i = 0; i < 4; i++) h[i] = heap_user();
   h[3] = realloc(h[3], 200);
   printf("%s\n", h[3] != NULL ? "realloc ok" : "realloc failed");
   return 0;
}
