/* flow_control.c - a serial link's receive buffer with XON/XOFF flow
 * control: the sender stops at a high watermark and resumes at a low one
 * (innocent).
 *
 * The sender thread (main) frames telemetry packets (frame_packet: a
 * 200-byte malloc'd packet) onto the link. The receiver thread decodes
 * each packet (a checksum over its bytes, repeated per field: several
 * times the cost of framing one) and frees it. The receiver sends XOFF
 * when 1,000 packets wait in its buffer, and XON only once the buffer is
 * down to 50: the sender then stops until the receiver has caught up, as
 * serial links, TCP windows and message brokers with high/low watermarks
 * do. 8,000 packets.
 *
 * It looks alarming: every packet is freed by another thread, the buffer
 * swings between 1,000 and 50 (its mean fill about half its maximum, like
 * a pile-up that rises and drains), and a packet waits behind hundreds of
 * others. But the watermark is the bound: the buffer returns to 1,000 and
 * never beyond, eight times over the run.
 *
 * Verdict: no missing-backpressure, leak or unbounded-growth on
 * frame_packet.
 *
 * Known false finding: missing-backpressure on frame_packet, in some runs
 * under either scheduler. Its occupancy is about 0.5, like a pile-up's;
 * what tells a bound is that the buffer comes back to the same maximum
 * again and again (docs/findings.md, missing-backpressure), but eight
 * cycles in a run are eight returns in sixteen windows, and the timeline,
 * sampled at the end of each interval, misses some of the short peaks:
 * 7 or 8 of the 16 windows reach the maximum, on the edge of the half
 * that the rule asks for. A link that runs longer cycles more often.
 * The parallel clock (a CPU per thread) does not tell it either: the
 * buffer really fills to 1,000 while the receiver works (parallel queue
 * depth 640-1,230 measured), as it would on a real machine.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PACKETS 8000
#define HIGH_WATERMARK 1000
#define LOW_WATERMARK 50
#define PAYLOAD 184

struct packet { struct packet *next; uint32_t sequence, length; unsigned char payload[PAYLOAD]; };

static pthread_mutex_t link_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t link_xon = PTHREAD_COND_INITIALIZER;
static pthread_cond_t link_data = PTHREAD_COND_INITIALIZER;
static struct packet *buffer_head, *buffer_tail;
static unsigned buffered;
static int xoff, link_closed;

static struct packet *frame_packet(uint32_t sequence)
{
    struct packet *p = malloc(sizeof *p);
    if (!p) { perror("malloc"); exit(1); }
    p->next = NULL;
    p->sequence = sequence;
    p->length = PAYLOAD;
    uint32_t x = sequence * 2654435761u | 1;
    for (int i = 0; i < PAYLOAD; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        p->payload[i] = (unsigned char)x;
    }
    return p;
}

static void link_send(struct packet *p)
{
    pthread_mutex_lock(&link_lock);
    while (xoff)
        pthread_cond_wait(&link_xon, &link_lock);
    if (buffer_tail) buffer_tail->next = p; else buffer_head = p;
    buffer_tail = p;
    if (++buffered >= HIGH_WATERMARK) xoff = 1;
    pthread_cond_signal(&link_data);
    pthread_mutex_unlock(&link_lock);
}

static struct packet *link_receive(void)
{
    pthread_mutex_lock(&link_lock);
    while (!buffer_head && !link_closed)
        pthread_cond_wait(&link_data, &link_lock);
    struct packet *p = buffer_head;
    if (p) {
        buffer_head = p->next;
        if (!buffer_head) buffer_tail = NULL;
        if (--buffered <= LOW_WATERMARK && xoff) {
            xoff = 0;
            pthread_cond_signal(&link_xon);
        }
    }
    pthread_mutex_unlock(&link_lock);
    return p;
}

static uint32_t decode_packet(const struct packet *p)
{
    uint32_t sum = p->sequence;
    for (int field = 0; field < 12; field++)
        for (uint32_t i = 0; i < p->length; i++)
            sum = (sum << 5 | sum >> 27) ^ (p->payload[i] + (uint32_t)field);
    return sum;
}

static void *receiver_main(void *arg)
{
    (void)arg;
    uint32_t checksum = 0;
    struct packet *p;
    while ((p = link_receive())) {
        checksum ^= decode_packet(p);
        free(p);
    }
    printf("flow_control: %d packets received, checksum %08x\n", PACKETS, checksum);
    return NULL;
}

int main(void)
{
    pthread_t receiver;
    pthread_create(&receiver, NULL, receiver_main, NULL);
    for (uint32_t sequence = 0; sequence < PACKETS; sequence++)
        link_send(frame_packet(sequence));
    pthread_mutex_lock(&link_lock);
    link_closed = 1;
    pthread_cond_broadcast(&link_data);
    pthread_mutex_unlock(&link_lock);
    pthread_join(receiver, NULL);
    return 0;
}
