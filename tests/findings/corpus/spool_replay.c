/* spool_replay.c - an uploader that replays its spool at start-up.
 *
 * A telemetry agent keeps records it could not upload in a spool. At
 * start-up, main() replays the whole spool (3,000 records of ~1 KiB) into the
 * upload queue as fast as it can read it, while the uploader thread first
 * connects (a slow handshake) and then uploads one record at a time. The
 * queue has no bound, so nearly the whole spool is in memory at once: a
 * burst of 3,000 live records, drained slowly afterwards.
 *
 * Verdict: missing-backpressure on enqueue_record (the records are
 * allocated by main and freed by the uploader; thousands wait at once).
 * Twin: spool_replay_bounded.c (queue of 32: replay waits for the uploader).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPOOL_RECORDS 3000
#define RECORD_MAX 1024

struct record {
    struct record *next;
    uint32_t seq;
    uint32_t len;
    unsigned char body[];
};

struct upload_queue {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    struct record *head, *tail;
    int done;
};

static struct upload_queue queue = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0};
static uint32_t uploaded_sum;

static uint32_t crc_step(uint32_t crc, unsigned char byte)
{
    crc ^= byte;
    for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
    return crc;
}

/* Reads record number seq from the spool (generated here) and queues it. */
static void enqueue_record(uint32_t seq)
{
    uint32_t len = 768 + (seq * 37) % (RECORD_MAX - 768);
    struct record *r = malloc(sizeof *r + len);
    if (!r) { perror("malloc"); exit(1); }
    r->next = NULL;
    r->seq = seq;
    r->len = len;
    for (uint32_t i = 0; i < len; i++)
        r->body[i] = (unsigned char)(seq * 31 + i);

    pthread_mutex_lock(&queue.lock);
    if (queue.tail) queue.tail->next = r; else queue.head = r;
    queue.tail = r;
    pthread_cond_signal(&queue.ready);
    pthread_mutex_unlock(&queue.lock);
}

static struct record *dequeue_record(void)
{
    pthread_mutex_lock(&queue.lock);
    while (!queue.head && !queue.done)
        pthread_cond_wait(&queue.ready, &queue.lock);
    struct record *r = queue.head;
    if (r) {
        queue.head = r->next;
        if (!queue.head) queue.tail = NULL;
    }
    pthread_mutex_unlock(&queue.lock);
    return r;
}

static uint32_t handshake(void)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (int i = 0; i < 200000; i++)
        crc = crc_step(crc, (unsigned char)i);
    return crc;
}

/* "Uploads" a record: checksums it as the wire encoder would. */
static uint32_t upload(const struct record *r)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < r->len; i++)
        crc = crc_step(crc, r->body[i]);
    return crc ^ r->seq;
}

static void *uploader_main(void *arg)
{
    (void)arg;
    uint32_t sum = handshake();
    struct record *r;
    while ((r = dequeue_record()) != NULL) {
        sum += upload(r);
        free(r);
    }
    uploaded_sum = sum;
    return NULL;
}

int main(void)
{
    pthread_t uploader;
    pthread_create(&uploader, NULL, uploader_main, NULL);
    for (uint32_t seq = 0; seq < SPOOL_RECORDS; seq++)
        enqueue_record(seq);
    pthread_mutex_lock(&queue.lock);
    queue.done = 1;
    pthread_cond_broadcast(&queue.ready);
    pthread_mutex_unlock(&queue.lock);
    pthread_join(uploader, NULL);
    printf("spool_replay: %d records uploaded, checksum %08x\n", SPOOL_RECORDS, uploaded_sum);
    return 0;
}
