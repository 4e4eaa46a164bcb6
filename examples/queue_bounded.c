/* queue_bounded.c - the fix for queue_unbounded.c: backpressure.
 *
 * Problem fixed: in queue_unbounded.c the producer thread never waits, so
 * messages pile up in the queue while the slower consumer thread works.
 *
 * Fix: the queue holds at most QUEUE_CAPACITY = 8 messages; queue_push_message
 * blocks on a condition variable while the queue is full, so the producer runs
 * at the consumer's pace. Everything else (payloads, work per message, the
 * output) is identical to queue_unbounded.c.
 *
 * Numbers a profiler must find (by construction):
 *   - site: queue_push_message (the malloc of struct message), same as the bad
 *     version: 2,000 blocks of 4,112 bytes (16-byte header + 4,096-byte
 *     payload), 8,224,000 bytes in total, allocated on the producer thread,
 *     freed on the consumer thread after every payload byte was read once.
 *   - at most 10 messages live at any time (8 queued, 1 being built by the
 *     producer - it is allocated before the producer waits for room - and 1
 *     being processed by the consumer): at most 41,120 bytes, against ~1,000
 *     messages (~4 MB) in queue_unbounded. Live bytes stay flat through the
 *     run and each message lives a tiny fraction of it.
 *   - producer_main's one 4,096-byte staging buffer is the program's only other
 *     allocation (libc's thread and stdio bookkeeping aside); everything is
 *     freed before exit.
 *
 * Output (deterministic): same count and checksum as queue_unbounded.
 *
 * Build: cc -O0 -g -fno-builtin -pthread queue_bounded.c -o queue_bounded
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MESSAGE_COUNT = 2000,
    PAYLOAD_BYTES = 4096,
    /* Extra consumer work per message, in mix_word() rounds, on top of reading
     * the payload; tuned so the consumer is clearly the slower side both
     * natively and under Valgrind's one-thread-at-a-time scheduler. */
    SEND_WORK_ROUNDS = 5000,
    /* The fix: the most messages the queue may hold before the producer waits. */
    QUEUE_CAPACITY = 8,
};

struct message {
    struct message *next;
    uint32_t sequence;
    uint32_t length;
    unsigned char payload[]; /* PAYLOAD_BYTES */
};

struct queue {
    pthread_mutex_t lock;
    pthread_cond_t not_empty;
    pthread_cond_t not_full;
    struct message *head;
    struct message *tail;
    int depth; /* messages queued, at most QUEUE_CAPACITY */
    int closed; /* producer finished: consumer stops once the queue drains */
};

static struct queue message_queue = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
    PTHREAD_COND_INITIALIZER, NULL, NULL, 0, 0
};

/* One step of a cheap integer hash; the unit of "work" on both threads. */
static uint32_t mix_word(uint32_t state, uint32_t value)
{
    state ^= value;
    state *= 0x9e3779b1u;
    return state ^ (state >> 15);
}

/* The producer's own work: generate the next payload in its staging buffer. */
static void fill_payload(unsigned char *payload, uint32_t sequence)
{
    uint32_t state = sequence;
    for (int i = 0; i < PAYLOAD_BYTES; i++) {
        state = mix_word(state, (uint32_t)i);
        payload[i] = (unsigned char)state;
    }
}

/* The interesting allocation: one heap copy of the payload per message,
 * handed to the consumer thread. The producer waits here while the queue is
 * full: that wait is the backpressure. */
__attribute__((noinline)) static void
queue_push_message(struct queue *queue, const unsigned char *payload,
                   uint32_t length, uint32_t sequence)
{
    struct message *message = malloc(sizeof *message + length);
    if (message == NULL) {
        perror("queue_push_message: malloc");
        exit(1);
    }
    message->next = NULL;
    message->sequence = sequence;
    message->length = length;
    memcpy(message->payload, payload, length);

    pthread_mutex_lock(&queue->lock);
    while (queue->depth == QUEUE_CAPACITY)
        pthread_cond_wait(&queue->not_full, &queue->lock);
    queue->depth++;
    if (queue->tail != NULL)
        queue->tail->next = message;
    else
        queue->head = message;
    queue->tail = message;
    pthread_cond_signal(&queue->not_empty);
    pthread_mutex_unlock(&queue->lock);
}

static void queue_close(struct queue *queue)
{
    pthread_mutex_lock(&queue->lock);
    queue->closed = 1;
    pthread_cond_signal(&queue->not_empty);
    pthread_mutex_unlock(&queue->lock);
}

/* Blocks until a message is available; NULL once closed and drained. */
static struct message *queue_pop_message(struct queue *queue)
{
    pthread_mutex_lock(&queue->lock);
    while (queue->head == NULL && !queue->closed)
        pthread_cond_wait(&queue->not_empty, &queue->lock);
    struct message *message = queue->head;
    if (message != NULL) {
        queue->head = message->next;
        if (queue->head == NULL)
            queue->tail = NULL;
        queue->depth--;
        pthread_cond_signal(&queue->not_full);
    }
    pthread_mutex_unlock(&queue->lock);
    return message;
}

static void *producer_main(void *unused)
{
    (void)unused;
    unsigned char *staging = malloc(PAYLOAD_BYTES);
    if (staging == NULL) {
        perror("producer_main: malloc");
        exit(1);
    }
    for (uint32_t sequence = 0; sequence < MESSAGE_COUNT; sequence++) {
        fill_payload(staging, sequence);
        queue_push_message(&message_queue, staging, PAYLOAD_BYTES, sequence);
    }
    free(staging);
    queue_close(&message_queue);
    return NULL;
}

struct consumer_result {
    uint32_t messages;
    uint32_t checksum;
};

/* Reads every payload byte, "sends" the message (deliberate work), frees it. */
__attribute__((noinline)) static void *consume_messages(void *result_out)
{
    struct consumer_result *result = result_out;
    struct message *message;
    while ((message = queue_pop_message(&message_queue)) != NULL) {
        uint32_t digest = message->sequence;
        uint32_t length = message->length; /* read once, not per byte */
        for (uint32_t i = 0; i < length; i++)
            digest = mix_word(digest, message->payload[i]);
        for (int round = 0; round < SEND_WORK_ROUNDS; round++)
            digest = mix_word(digest, (uint32_t)round);
        result->checksum ^= digest;
        result->messages++;
        free(message);
    }
    return NULL;
}

int main(void)
{
    struct consumer_result result = { 0, 0 };
    pthread_t producer, consumer;
    if (pthread_create(&consumer, NULL, consume_messages, &result) != 0 ||
        pthread_create(&producer, NULL, producer_main, NULL) != 0) {
        fprintf(stderr, "queue_bounded: cannot create threads\n");
        return 1;
    }
    pthread_join(producer, NULL);
    pthread_join(consumer, NULL);
    printf("queue_bounded: consumed %u messages, checksum %08x\n",
           (unsigned)result.messages, (unsigned)result.checksum);
    return result.messages == MESSAGE_COUNT ? 0 : 1;
}
