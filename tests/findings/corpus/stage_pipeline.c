/* stage_pipeline.c - a three-stage log pipeline where only the last stage is
 * slow.
 *
 * main() reads access-log lines (generated here: a copy into a malloc'd
 * line buffer per line, read_line) and queues them for the parser thread;
 * the parser turns each line into a struct record (parse_record: method,
 * path, status, size, a lower-cased copy of the path for the index), frees
 * the line and queues the record for the indexer thread; the indexer
 * updates a full-text index for every record (the expensive part, about
 * four times the cost of reading a line) and frees it. Both queues are
 * plain linked lists under a mutex and condition variable, without a
 * bound.
 *
 * The reader and the parser keep up with each other: lines wait only while
 * the scheduler runs another thread. The indexer does not: records pile up
 * between the parser and the indexer for as long as lines arrive.
 *
 * Verdict: missing-backpressure on parse_record (allocated by the parser
 * thread, freed by the indexer thread, thousands waiting); none on
 * read_line, whose lines the parser consumes faster than they come (a
 * line costs the reader 4,100 instructions, the parser 1,700) although
 * they cross threads too.
 *
 * Under Valgrind the lines pile up too, under either scheduler: Valgrind
 * runs one thread at a time and hands the CPU over in long slices; the
 * reader fills a slice's worth of lines (up to ~2,900) while the parser
 * waits for its turn, and the indexer's slice comes in between, so a line
 * waits about one round of the three threads: 6-10% of this short run,
 * behind 760-1,480 others. lifeheap once reported that as a missing
 * backpressure. On the parallel clock (a CPU per thread, docs/metrics.md)
 * the parser takes each line as it comes: its lines wait behind none
 * (parallel queue depth 0), its records behind ~1,425.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINES 4000

struct line { struct line *next; size_t length; char text[200]; };

struct record {
    struct record *next;
    char method[8];
    char path[160];
    char path_key[160];
    int status;
    long size;
};

struct queue {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    void *head, *tail;
    int closed;
};

/* Both item types start with their next pointer. */
struct link { struct link *next; };

static struct queue lines_queue = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0 };
static struct queue records_queue = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0 };

static void queue_put(struct queue *q, void *item)
{
    ((struct link *)item)->next = NULL;
    pthread_mutex_lock(&q->lock);
    if (q->tail) ((struct link *)q->tail)->next = item; else q->head = item;
    q->tail = item;
    pthread_cond_signal(&q->ready);
    pthread_mutex_unlock(&q->lock);
}

static void *queue_take(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    while (!q->head && !q->closed)
        pthread_cond_wait(&q->ready, &q->lock);
    struct link *item = q->head;
    if (item) { q->head = item->next; if (!q->head) q->tail = NULL; }
    pthread_mutex_unlock(&q->lock);
    return item;
}

static void queue_close(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->closed = 1;
    pthread_cond_broadcast(&q->ready);
    pthread_mutex_unlock(&q->lock);
}

static const char *paths[] = { "/index.html", "/api/v1/orders", "/static/app.js",
                               "/api/v1/users/42/Profile", "/images/Logo.png", "/healthz" };

static struct line *read_line(unsigned n)
{
    struct line *l = malloc(sizeof *l);
    if (!l) { perror("malloc"); exit(1); }
    int length = snprintf(l->text, sizeof l->text,
                          "10.0.%u.%u - - [25/Nov/2026:00:%02u:%02u +0000] \"%s %s?id=%u HTTP/1.1\" %d %u",
                          n % 256, n * 7 % 256, n / 60 % 60, n % 60, n % 5 ? "GET" : "POST",
                          paths[n % 6], n, n % 17 ? 200 : 404, 200 + n * 37 % 9000);
    l->length = (size_t)length;
    return l;
}

static struct record *parse_record(const struct line *l)
{
    struct record *r = calloc(1, sizeof *r);
    if (!r) { perror("calloc"); exit(1); }
    const char *quote = strchr(l->text, '"');
    const char *space = strchr(quote + 1, ' ');
    size_t method_length = (size_t)(space - quote - 1);
    memcpy(r->method, quote + 1, method_length < 7 ? method_length : 7);
    const char *path_end = strchr(space + 1, ' ');
    size_t path_length = (size_t)(path_end - space - 1);
    if (path_length > 159) path_length = 159;
    memcpy(r->path, space + 1, path_length);
    for (size_t i = 0; i < path_length; i++) {
        char c = r->path[i];
        r->path_key[i] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
    }
    const char *status = strchr(path_end + 1, ' ') + 1;
    r->status = atoi(status);
    r->size = atol(strchr(status, ' ') + 1);
    return r;
}

static void *parser_main(void *arg)
{
    (void)arg;
    struct line *l;
    while ((l = queue_take(&lines_queue))) {
        struct record *r = parse_record(l);
        free(l);
        queue_put(&records_queue, r);
    }
    queue_close(&records_queue);
    return NULL;
}

/* The index: term hashes folded into a table of counters, with the
 * tokenizer run once per n-gram length as a real full-text index does. */
static uint32_t term_counts[1 << 16];

static void index_record(const struct record *r)
{
    for (int gram = 2; gram <= 9; gram++) {
        size_t length = strlen(r->path_key);
        for (size_t start = 0; start + (size_t)gram <= length; start++) {
            uint32_t h = 2166136261u;
            for (int k = 0; k < gram; k++) h = (h ^ (unsigned char)r->path_key[start + k]) * 16777619u;
            term_counts[h & 0xffff]++;
        }
    }
    term_counts[(uint32_t)r->status & 0xffff]++;
}

static void *indexer_main(void *arg)
{
    (void)arg;
    struct record *r;
    long bytes = 0;
    while ((r = queue_take(&records_queue))) {
        index_record(r);
        bytes += r->size;
        free(r);
    }
    printf("stage_pipeline: indexed %ld bytes of responses\n", bytes);
    return NULL;
}

int main(void)
{
    pthread_t parser, indexer;
    pthread_create(&parser, NULL, parser_main, NULL);
    pthread_create(&indexer, NULL, indexer_main, NULL);
    for (unsigned n = 0; n < LINES; n++)
        queue_put(&lines_queue, read_line(n));
    queue_close(&lines_queue);
    pthread_join(parser, NULL);
    pthread_join(indexer, NULL);
    return 0;
}
