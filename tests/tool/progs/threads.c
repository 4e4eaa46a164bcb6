/* Two threads.  The worker allocates 5 blocks that main frees after the
   join (cross-thread frees).  Both threads also allocate through
   make_block() (called via shared_alloc()), which is one site when the
   stack is cut at 2 frames (--num-callers=2): 2 allocating threads. */
#include <pthread.h>
#include <stdlib.h>

#define HANDED_OVER 5

static void* make_block(size_t n)
{
   return malloc(n);                            /* SITE make_block */
}

static void* shared_alloc(size_t n)
{
   return make_block(n);                        /* SITE shared_alloc */
}

static void* worker(void* arg)
{
   void** out = arg;
   int i;
   for (i = 0; i < HANDED_OVER; i++) out[i] = malloc(100);   /* SITE handover */
   free(shared_alloc(7));
   return NULL;
}

int main(void)
{
   void* blocks[HANDED_OVER];
   pthread_t t;
   int i;
   free(shared_alloc(7));
   if (pthread_create(&t, NULL, worker, blocks) != 0) return 2;
   pthread_join(t, NULL);
   for (i = 0; i < HANDED_OVER; i++) free(blocks[i]);
   return 0;
}
