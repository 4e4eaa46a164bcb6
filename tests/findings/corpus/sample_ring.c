/* sample_ring.c - a data logger's fixed-capacity ring between an
 * acquisition thread and a slower writer (innocent).
 *
 * The acquisition thread (main) captures a frame of 64 readings per tick
 * (capture_frame: a 272-byte malloc'd frame) and puts it into a ring of
 * 1,024 slots guarded by a mutex and two condition variables; when the
 * ring is full, capture waits for a free slot. The writer thread takes
 * frames out in order, compresses them (a delta + bit-packing pass with a
 * checksum, several times the cost of a capture) and frees them. 10,000 frames
 * are captured.
 *
 * It looks alarming: every frame is freed by another thread, a thousand of
 * them wait at once for most of the run, each behind a thousand others.
 * But the ring is the bound: once it is full the writer sets the pace and
 * the backlog never exceeds 1,024 frames, however long the logger runs.
 *
 * Verdict: no missing-backpressure, leak or unbounded-growth on
 * capture_frame (held at its bound: occupancy near 1).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RING_SLOTS 1024
#define FRAMES 10000
#define READINGS 64

struct frame { uint64_t tick; uint32_t channel_mask; int32_t readings[READINGS]; };

static struct frame *ring[RING_SLOTS];
static unsigned ring_head, ring_count;
static int capture_done;
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ring_not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t ring_not_empty = PTHREAD_COND_INITIALIZER;

static struct frame *capture_frame(uint64_t tick)
{
    struct frame *f = malloc(sizeof *f);
    if (!f) { perror("malloc"); exit(1); }
    f->tick = tick;
    f->channel_mask = 0xffffffffu;
    uint32_t noise = (uint32_t)tick * 2654435761u;
    for (int i = 0; i < READINGS; i++) {
        noise ^= noise << 13; noise ^= noise >> 17; noise ^= noise << 5;
        f->readings[i] = (int32_t)(1000 * i + (int32_t)(noise % 64));
    }
    return f;
}

static void ring_put(struct frame *f)
{
    pthread_mutex_lock(&ring_lock);
    while (ring_count == RING_SLOTS)
        pthread_cond_wait(&ring_not_full, &ring_lock);
    ring[(ring_head + ring_count) % RING_SLOTS] = f;
    ring_count++;
    pthread_cond_signal(&ring_not_empty);
    pthread_mutex_unlock(&ring_lock);
}

static struct frame *ring_take(void)
{
    pthread_mutex_lock(&ring_lock);
    while (ring_count == 0 && !capture_done)
        pthread_cond_wait(&ring_not_empty, &ring_lock);
    struct frame *f = NULL;
    if (ring_count) {
        f = ring[ring_head];
        ring_head = (ring_head + 1) % RING_SLOTS;
        ring_count--;
        pthread_cond_signal(&ring_not_full);
    }
    pthread_mutex_unlock(&ring_lock);
    return f;
}

static uint32_t crc_step(uint32_t crc, uint32_t word)
{
    crc ^= word;
    for (int bit = 0; bit < 32; bit++)
        crc = crc & 1 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    return crc;
}

/* Delta-encodes the readings, packs the deltas' low bits and CRCs the
 * frame: what the writer does with every frame before it goes to
 * the storage card. */
static uint32_t compress_frame(const struct frame *f, unsigned char *packed)
{
    uint32_t crc = 0;
    int32_t previous = 0;
    size_t bits = 0;
    for (int i = 0; i < READINGS; i++) {
        uint32_t delta = (uint32_t)(f->readings[i] - previous);
        previous = f->readings[i];
        for (int b = 0; b < 11; b++, bits++)
            if (delta >> b & 1) packed[bits / 8] |= (unsigned char)(1u << bits % 8);
            else packed[bits / 8] &= (unsigned char)~(1u << bits % 8);
        crc += delta;
    }
    return crc_step(crc, (uint32_t)f->tick);
}

static void *writer_main(void *arg)
{
    (void)arg;
    static unsigned char packed[READINGS * 2];
    uint32_t checksum = 0;
    struct frame *f;
    while ((f = ring_take())) {
        checksum ^= compress_frame(f, packed);
        free(f);
    }
    printf("sample_ring: %d frames written, checksum %08x\n", FRAMES, checksum);
    return NULL;
}

int main(void)
{
    pthread_t writer;
    pthread_create(&writer, NULL, writer_main, NULL);
    for (uint64_t tick = 0; tick < FRAMES; tick++)
        ring_put(capture_frame(tick));
    pthread_mutex_lock(&ring_lock);
    capture_done = 1;
    pthread_cond_broadcast(&ring_not_empty);
    pthread_mutex_unlock(&ring_lock);
    pthread_join(writer, NULL);
    return 0;
}
