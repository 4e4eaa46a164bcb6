/* Worker threads compute results into a shared array; the main thread
   joins them and frees every result at the end.  The results are handed to
   another thread (all 4,000 freed by main, allocated by 4 workers) and all
   live at once, but nothing consumes them while they wait: they are
   released together at teardown.  That is accumulation, not a queue
   without backpressure: unbounded-growth on make_result (max 4,000 blocks
   of 512 bytes = 2,048,000 bytes, freed 4,000, cross-thread 4,000), no
   missing-backpressure. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define WORKERS     4
#define PER_WORKER  1000
#define RESULT_BYTES 512

static char* results[WORKERS * PER_WORKER];
static int n_results;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long sink;

static char* make_result(int i)
{
   char* r = malloc(RESULT_BYTES);
   memset(r, 'a' + i % 26, RESULT_BYTES);
   return r;
}

static void* worker(void* arg)
{
   int i, k;
   (void)arg;
   for (i = 0; i < PER_WORKER; i++) {
      char* r;
      for (k = 0; k < 3000; k++) sink += (unsigned long)k * i;   /* compute */
      r = make_result(i);
      pthread_mutex_lock(&lock);
      results[n_results++] = r;
      pthread_mutex_unlock(&lock);
   }
   return NULL;
}

int main(void)
{
   pthread_t threads[WORKERS];
   unsigned long total = 0;
   int i;
   for (i = 0; i < WORKERS; i++) pthread_create(&threads[i], NULL, worker, NULL);
   for (i = 0; i < WORKERS; i++) pthread_join(threads[i], NULL);
   for (i = 0; i < n_results; i++) {
      total += (unsigned char)results[i][0];
      free(results[i]);
   }
   return (int)(total & 1);
}
