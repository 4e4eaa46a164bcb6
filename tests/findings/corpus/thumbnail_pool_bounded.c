/* thumbnail_pool_bounded.c - thumbnail_pool.c with a bounded job queue.
 *
 * The same pool, but submit() waits (not_full) while 8 jobs are queued, so
 * the dispatcher reads tiles only as fast as the workers scale them.
 *
 * Verdict: no missing-backpressure (same hand-off to two workers, at most
 * ~11 tiles live), no growth or leak. Twin of thumbnail_pool.c, below.
 *
 * main() is the dispatcher: for each uploaded image it reads the image's
 * first 2 KiB tile (load_tile: a heap buffer) and submits a job to a pool of
 * two worker threads, which scale the tile down to a thumbnail (several
 * filter passes) and free it. The job queue has no bound and reading a tile
 * is much cheaper than scaling it, so tiles pile up in the queue.
 *
 * Verdict: missing-backpressure on load_tile (allocated by main, freed by
 * one of the two workers, hundreds waiting).
 * Twin: thumbnail_pool_bounded.c (the dispatcher waits when 8 jobs wait).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKERS 2
#define IMAGES 1000
#define TILE_SIDE 48            /* 48 x 48 pixels, 1 byte each: 2,304 bytes */

struct job {
    struct job *next;
    uint32_t image;
    unsigned char *tile;
};

struct job_queue {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    pthread_cond_t not_full;
    struct job *head, *tail;
    int count;
    int closed;
};

#define QUEUE_CAPACITY 8

static struct job_queue jobs = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0, 0};
static pthread_mutex_t result_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t thumbnail_sum;

/* Reads the first tile of an uploaded image (generated here). */
static unsigned char *load_tile(uint32_t image)
{
    unsigned char *tile = malloc(TILE_SIDE * TILE_SIDE);
    if (!tile) { perror("malloc"); exit(1); }
    for (int i = 0; i < TILE_SIDE * TILE_SIDE; i++)
        tile[i] = (unsigned char)((image * 7 + i * 13) ^ (i >> 5));
    return tile;
}

static void submit(struct job_queue *q, uint32_t image, unsigned char *tile)
{
    struct job *j = malloc(sizeof *j);
    if (!j) { perror("malloc"); exit(1); }
    j->next = NULL;
    j->image = image;
    j->tile = tile;
    pthread_mutex_lock(&q->lock);
    while (q->count == QUEUE_CAPACITY)
        pthread_cond_wait(&q->not_full, &q->lock);
    q->count++;
    if (q->tail) q->tail->next = j; else q->head = j;
    q->tail = j;
    pthread_cond_signal(&q->ready);
    pthread_mutex_unlock(&q->lock);
}

static struct job *take(struct job_queue *q)
{
    pthread_mutex_lock(&q->lock);
    while (!q->head && !q->closed)
        pthread_cond_wait(&q->ready, &q->lock);
    struct job *j = q->head;
    if (j) {
        q->head = j->next;
        if (!q->head) q->tail = NULL;
        q->count--;
        pthread_cond_signal(&q->not_full);
    }
    pthread_mutex_unlock(&q->lock);
    return j;
}

/* A 3x3 box blur, twice, then a 4:1 downscale. */
static uint64_t make_thumbnail(unsigned char *tile)
{
    unsigned char scratch[TILE_SIDE * TILE_SIDE];
    for (int pass = 0; pass < 2; pass++) {
        for (int y = 1; y < TILE_SIDE - 1; y++)
            for (int x = 1; x < TILE_SIDE - 1; x++) {
                int sum = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        sum += tile[(y + dy) * TILE_SIDE + x + dx];
                scratch[y * TILE_SIDE + x] = (unsigned char)(sum / 9);
            }
        for (int y = 1; y < TILE_SIDE - 1; y++)
            memcpy(tile + y * TILE_SIDE + 1, scratch + y * TILE_SIDE + 1, TILE_SIDE - 2);
    }
    uint64_t sum = 0;
    for (int y = 0; y < TILE_SIDE; y += 4)
        for (int x = 0; x < TILE_SIDE; x += 4)
            sum = sum * 31 + tile[y * TILE_SIDE + x];
    return sum;
}

static void *worker_main(void *arg)
{
    (void)arg;
    struct job *j;
    while ((j = take(&jobs)) != NULL) {
        uint64_t thumb = make_thumbnail(j->tile);
        free(j->tile);
        free(j);
        pthread_mutex_lock(&result_lock);
        thumbnail_sum += thumb;
        pthread_mutex_unlock(&result_lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t workers[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&workers[i], NULL, worker_main, NULL);
    for (uint32_t image = 0; image < IMAGES; image++)
        submit(&jobs, image, load_tile(image));
    pthread_mutex_lock(&jobs.lock);
    jobs.closed = 1;
    pthread_cond_broadcast(&jobs.ready);
    pthread_mutex_unlock(&jobs.lock);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(workers[i], NULL);
    printf("thumbnail_pool_bounded: %d thumbnails, sum %016llx\n", IMAGES, (unsigned long long)thumbnail_sum);
    return 0;
}
