/* stacks: the main thread and THREADS more (3), each allocating, writing
   and freeing one 64-byte block.  Valgrind gives every thread a stack of
   its own for the core's and the tool's work, made when the thread starts
   (the main thread's before main) and reused by a later thread once its
   thread has ended; lifeheap asks for 256 KiB each instead of the core's
   1 MiB, unless the user sets --valgrind-stacksize.  The threads wait for
   each other at a barrier before they end, so all four are alive at once
   and a run makes exactly 1 + THREADS stacks.  Site work: 4 blocks. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 3

static pthread_barrier_t all_alive;

static __attribute__((noinline)) void* work(void* arg)
{
   char* p = malloc(64);
   if (p == NULL) return NULL;
   memset(p, 1, 64);
   free(p);
   return arg;
}

static void* thread_main(void* arg)
{
   work(arg);
   pthread_barrier_wait(&all_alive);
   return arg;
}

int main(void)
{
   pthread_t thread[THREADS];
   int i;
   pthread_barrier_init(&all_alive, NULL, THREADS + 1);
   for (i = 0; i < THREADS; i++)
      if (pthread_create(&thread[i], NULL, thread_main, NULL) != 0) return 1;
   work(NULL);
   pthread_barrier_wait(&all_alive);
   for (i = 0; i < THREADS; i++)
      pthread_join(thread[i], NULL);
   return 0;
}
