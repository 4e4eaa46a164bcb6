/* A small service with known answers for tests/sql (docs/sql.md's queries).
 *
 *   warm-up (first few % of the run, main thread):
 *     load_config    200 blocks of 64 B, read, live until exit
 *     start the worker (thread 2) and the consumer (thread 3)
 *   work (the rest of the run):
 *     worker: make_message  1,000 blocks of 256 B, each handed to the
 *                           consumer through a queue; the consumer reads
 *                           and frees it (alloc_thread 2, free_thread 3)
 *     worker: open_session  500 blocks of 48 B, read and written; every
 *                           10th is never closed: 50 blocks, 2,400 B live
 *                           at exit, all allocated after the warm-up
 *     main:   make_scratch  30 blocks of 1,000 B, written in full, never
 *                           read, freed
 *     main:   grow_buffer   one buffer realloc'ed 16 -> 32 -> 64 -> 128
 *                           -> 256 B, read, freed: a chain of 5 records
 *     main:   crunch        pure computation, so that the warm-up is well
 *                           inside the first 10% of the run
 * The end of the warm-up is marked with LIFEHEAP_MARK("warm-up done").
 * Nothing is printed: stdio's buffer would be one more block.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "lifeheap.h"

#define CONFIG_BLOCKS 200
#define MESSAGES 1000
#define SESSIONS 500
#define SCRATCH_BLOCKS 30

static volatile unsigned long sink;

/* --- a queue of messages between the worker and the consumer ----------- */
static void *queue[MESSAGES];
static int queue_head, queue_tail;
static int producing = 1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int go;   /* the warm-up is over */

static void wait_for_go(void)
{
    pthread_mutex_lock(&lock);
    while (!go)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
}

__attribute__((noinline)) static char *load_config(int i)
{
    char *entry = malloc(64);
    memset(entry, i, 64);
    return entry;
}

__attribute__((noinline)) static char *make_message(int i)
{
    char *message = malloc(256);
    memset(message, i, 256);
    return message;
}

__attribute__((noinline)) static char *open_session(int i)
{
    char *session = malloc(48);
    memset(session, i, 48);
    return session;
}

__attribute__((noinline)) static char *make_scratch(int i)
{
    char *scratch = malloc(1000);
    memset(scratch, i, 1000);
    return scratch;
}

__attribute__((noinline)) static char *grow_buffer(void)
{
    char *buffer = malloc(16);
    memset(buffer, 1, 16);
    for (size_t size = 32; size <= 256; size *= 2) {
        buffer = realloc(buffer, size);
        memset(buffer, 2, size);
    }
    return buffer;
}

static void *worker(void *unused)
{
    (void)unused;
    wait_for_go();
    for (int i = 0; i < MESSAGES; i++) {
        char *message = make_message(i);
        pthread_mutex_lock(&lock);
        queue[queue_tail++] = message;
        pthread_cond_signal(&changed);
        pthread_mutex_unlock(&lock);
        if (i % 2 == 0) {
            char *session = open_session(i);
            sink += (unsigned char)session[5];
            if ((i / 2) % 10 != 9)
                free(session);
        }
    }
    pthread_mutex_lock(&lock);
    producing = 0;
    pthread_cond_signal(&changed);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *consumer(void *unused)
{
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (queue_head == queue_tail && producing)
            pthread_cond_wait(&changed, &lock);
        if (queue_head == queue_tail) {
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        char *message = queue[queue_head++];
        pthread_mutex_unlock(&lock);
        for (int k = 0; k < 256; k++)
            sink += (unsigned char)message[k];
        free(message);
    }
}

__attribute__((noinline)) static void crunch(void)
{
    unsigned long x = 1;
    for (long i = 0; i < 3000000; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink += x;
}

int main(void)
{
    static char *config[CONFIG_BLOCKS];
    pthread_t worker_thread, consumer_thread;
    for (int i = 0; i < CONFIG_BLOCKS; i++) {
        config[i] = load_config(i);
        sink += (unsigned char)config[i][0];
    }
    pthread_create(&worker_thread, NULL, worker, NULL);
    pthread_create(&consumer_thread, NULL, consumer, NULL);
    crunch();
    LIFEHEAP_MARK("warm-up done");
    pthread_mutex_lock(&lock);
    go = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);

    for (int i = 0; i < SCRATCH_BLOCKS; i++)
        free(make_scratch(i));
    char *buffer = grow_buffer();
    sink += (unsigned char)buffer[255];
    free(buffer);
    pthread_join(worker_thread, NULL);
    pthread_join(consumer_thread, NULL);
    crunch();
    crunch();
    return 0;
}
