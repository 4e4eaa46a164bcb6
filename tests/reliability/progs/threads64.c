/* 64 threads allocate and free at the same time.  Thread t (0..63) does
   ROUNDS rounds of: malloc(16 + t) at SITE churn, freed at once by the
   same thread; and keeps one block of 1000 + t bytes (SITE kept) that the
   main thread frees after the joins.  Exact answers:
     churn: 64 * ROUNDS blocks, ROUNDS * sum(16 + t) bytes, all freed
     kept:  64 blocks, sum(1000 + t) = 66016 bytes, all freed (cross-thread) */
#include <pthread.h>
#include <stdlib.h>

#define THREADS 64
#define ROUNDS 2000

static void* kept[THREADS];
static pthread_barrier_t start_together;

static void* churn_alloc(size_t n) { return malloc(n); }   /* SITE churn */
static void* keep_alloc(size_t n) { return malloc(n); }    /* SITE kept */

static void* worker(void* arg)
{
   long t = (long)arg;
   int r;
   pthread_barrier_wait(&start_together);
   for (r = 0; r < ROUNDS; r++) {
      char* p = churn_alloc(16 + t);
      p[0] = (char)r;
      free(p);
   }
   kept[t] = keep_alloc(1000 + t);
   return NULL;
}

int main(void)
{
   pthread_t th[THREADS];
   long t;
   pthread_barrier_init(&start_together, NULL, THREADS);
   for (t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, worker, (void*)t);
   for (t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
   for (t = 0; t < THREADS; t++) free(kept[t]);
   return 0;
}
