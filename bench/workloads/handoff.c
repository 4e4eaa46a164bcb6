/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * handoff: blocks allocated by one thread and freed by another, the shape
 * of a server's request pipeline.
 *
 * PAIRS producer/consumer pairs.  Each producer allocates ITEMS messages
 * (a 48-byte header and a body of 16 to 511 bytes), fills them and pushes
 * them into its pair's bounded queue (64 slots, mutex and condition
 * variables); the consumer pops each one, reads its body, checks it and
 * frees both blocks.  So every block crosses threads and lives a short
 * while, with up to 64 messages per pair in flight.
 *
 * Usage: handoff PAIRS ITEMS   (prints a checksum)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUEUE_SLOTS 64

struct message {
    unsigned long sequence;
    unsigned long length;
    unsigned char *body;
    unsigned long check;
    unsigned long padding[2];
};

struct queue {
    struct message *slots[QUEUE_SLOTS];
    unsigned head, count;
    pthread_mutex_t lock;
    pthread_cond_t not_empty, not_full;
    unsigned long items;
    unsigned long checksum;   /* the consumer's */
    unsigned id;
};

static void *producer(void *arg)
{
    struct queue *q = arg;
    unsigned long i, state = 7 + q->id;
    for (i = 0; i < q->items; i++) {
        struct message *m = malloc(sizeof *m);
        unsigned long j;
        if (m == NULL)
            exit(1);
        state = state * 6364136223846793005UL + 1442695040888963407UL;
        m->sequence = i;
        m->length = 16 + (state >> 33) % 496;
        m->body = malloc(m->length);
        if (m->body == NULL)
            exit(1);
        m->check = 0;
        for (j = 0; j < m->length; j++) {
            m->body[j] = (unsigned char)(i + j);
            m->check += m->body[j];
        }
        pthread_mutex_lock(&q->lock);
        while (q->count == QUEUE_SLOTS)
            pthread_cond_wait(&q->not_full, &q->lock);
        q->slots[(q->head + q->count) % QUEUE_SLOTS] = m;
        q->count++;
        pthread_cond_signal(&q->not_empty);
        pthread_mutex_unlock(&q->lock);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    struct queue *q = arg;
    unsigned long i;
    for (i = 0; i < q->items; i++) {
        struct message *m;
        unsigned long j, check = 0;
        pthread_mutex_lock(&q->lock);
        while (q->count == 0)
            pthread_cond_wait(&q->not_empty, &q->lock);
        m = q->slots[q->head];
        q->head = (q->head + 1) % QUEUE_SLOTS;
        q->count--;
        pthread_cond_signal(&q->not_full);
        pthread_mutex_unlock(&q->lock);
        for (j = 0; j < m->length; j++)
            check += m->body[j];
        if (check != m->check || m->sequence != i) {
            fprintf(stderr, "handoff: message %lu corrupted\n", i);
            exit(1);
        }
        q->checksum += check;
        free(m->body);
        free(m);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned pairs, p;
    unsigned long items, total = 0;
    struct queue *queues;
    pthread_t *threads;
    if (argc != 3) {
        fprintf(stderr, "usage: handoff PAIRS ITEMS\n");
        return 2;
    }
    pairs = (unsigned)atoi(argv[1]);
    items = strtoul(argv[2], NULL, 10);
    queues = calloc(pairs, sizeof *queues);
    threads = calloc(2 * (size_t)pairs, sizeof *threads);
    if (pairs == 0 || queues == NULL || threads == NULL)
        return 2;
    for (p = 0; p < pairs; p++) {
        queues[p].items = items;
        queues[p].id = p;
        pthread_mutex_init(&queues[p].lock, NULL);
        pthread_cond_init(&queues[p].not_empty, NULL);
        pthread_cond_init(&queues[p].not_full, NULL);
        if (pthread_create(&threads[2 * p], NULL, producer, &queues[p]) != 0
            || pthread_create(&threads[2 * p + 1], NULL, consumer, &queues[p]) != 0)
            return 1;
    }
    for (p = 0; p < 2 * pairs; p++)
        pthread_join(threads[p], NULL);
    for (p = 0; p < pairs; p++)
        total += queues[p].checksum;
    printf("%u pairs x %lu messages, checksum %lu\n", pairs, items, total);
    free(threads);
    free(queues);
    return 0;
}
