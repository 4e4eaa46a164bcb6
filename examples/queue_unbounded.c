/* queue_unbounded.c - missing backpressure between two threads.
 *
 * Problem: a producer thread copies each 4 KiB payload into a heap message and
 * pushes it onto an UNBOUNDED queue; a consumer thread pops one message at a
 * time, reads every payload byte, does some per-message work ("sending") and
 * frees it. The consumer is slower than the producer and the producer never
 * waits, so messages pile up in the queue and live bytes climb for as long as
 * the producer runs.
 *
 * Fix: queue_bounded.c - the same program with a queue capacity of 8 messages;
 * the producer blocks while the queue is full.
 *
 * Numbers a profiler must find (by construction):
 *   - site: queue_push_message (the malloc of struct message)
 *   - 2,000 blocks of 4,112 bytes (16-byte header + 4,096-byte payload),
 *     8,224,000 bytes in total; every block allocated on the producer thread
 *     and freed on the consumer thread (consume_messages), each payload byte
 *     read exactly once there (4,096 payload bytes + the 16-byte header read
 *     per block, 8,224,000 bytes read in all).
 *   - the consumer costs about 2.2x the producer per message (4,096 + 5,000
 *     mix_word rounds against 4,096), so about half of all messages
 *     (2,000 x (1 - 1/2.2) = ~1,090) are still queued when the producer
 *     finishes: live bytes of this site rise through roughly the first 70% of
 *     the run, then drain. The exact peak depends on how Valgrind hands the
 *     CPU between the two threads. With --fair-sched=yes (strict turns) it
 *     varies little: 10 runs under valgrind --tool=dhat gave 885 to 979
 *     blocks (3.6 to 4.0 MB) live at the peak, the peak at 68-71% of the
 *     run, a mean lifetime of 22-25% of the run, on an idle and on a busy
 *     machine. With the default scheduler the kernel decides which thread
 *     takes Valgrind's lock next: 11 runs on an idle machine gave 807 to
 *     1,061 blocks at the peak; 24 runs on a busy one gave 710 to 2,000, and
 *     in two of them the consumer was starved until the producer was nearly
 *     done (1,940 and 2,000 blocks live at the peak).
 *     Tests should run it with --fair-sched=yes and assert a floor (say at
 *     least 500 blocks live at the peak), not an exact count. Natively the
 *     pile-up depends on the OS scheduler; the output below does not.
 *   - producer_main's one 4,096-byte staging buffer is the program's only other
 *     allocation (libc's thread and stdio bookkeeping aside); everything is
 *     freed before exit.
 *
 * Output (deterministic): the message count and a checksum of all payloads.
 *
 * Build: cc -O0 -g -fno-builtin -pthread queue_unbounded.c -o queue_unbounded
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
    struct message *head;
    struct message *tail;
    int closed; /* producer finished: consumer stops once the queue drains */
};

static struct queue message_queue = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0
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
 * handed to the consumer thread. The producer never waits here. */
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
        fprintf(stderr, "queue_unbounded: cannot create threads\n");
        return 1;
    }
    pthread_join(producer, NULL);
    pthread_join(consumer, NULL);
    printf("queue_unbounded: consumed %u messages, checksum %08x\n",
           (unsigned)result.messages, (unsigned)result.checksum);
    return result.messages == MESSAGE_COUNT ? 0 : 1;
}
