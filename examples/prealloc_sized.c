/* prealloc_sized.c - the fix for prealloc_oversized.c: size state to need.
 *
 * Problem fixed: prealloc_oversized.c's connection_new preallocates a
 * 256 KiB packet table (a slot per possible 16-bit sequence number), a
 * 100-entry event queue and a 10 KiB write buffer per connection, and uses
 * almost none of it.
 *
 * Fix: a connection has at most 8 packets in flight, records 8 events and
 * writes 32-byte frames, so connection_new allocates exactly that: an 8-slot
 * packet window indexed by sequence number modulo 8, an 8-entry event queue
 * and a 32-byte write buffer. The traffic and the output are identical to
 * prealloc_oversized.c.
 *
 * Numbers a profiler must find (by construction, 64 connections):
 *   - connection_new, packet window: 64 blocks x 32 bytes = 2,048 bytes
 *     (was 16,777,216); each block written at initialisation (32 bytes), then
 *     64 bytes written and 32 read by the traffic: every byte is read.
 *   - connection_new, write buffer: 64 blocks x 32 bytes = 2,048 bytes
 *     (was 655,360); every byte written 8 times and read 8 times.
 *   - connection_new, event queue: 64 blocks x 128 bytes (8 x 16-byte events,
 *     calloc) = 8,192 bytes (was 102,400); every byte written and read once.
 *   - connection_new, struct connection: 64 blocks x 40 bytes, fully used.
 *   Peak heap: 64 x (32 + 32 + 128 + 40) = 14,848 bytes of connection state,
 *   against 17,537,536 in prealloc_oversized. No block has unused bytes.
 *   Everything is freed by connection_close before exit.
 *
 * Output (deterministic): the same checksum as prealloc_oversized.
 *
 * Build: cc -O0 -g -fno-builtin prealloc_sized.c -o prealloc_sized
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum {
    CONNECTION_COUNT = 64,
    PACKETS_IN_FLIGHT = 8,       /* what a connection actually uses */
    FRAME_BYTES = 32,
    /* The fix: sized to need, not to the worst case. */
    PACKET_WINDOW_SLOTS = PACKETS_IN_FLIGHT,
    EVENT_QUEUE_ENTRIES = PACKETS_IN_FLIGHT,
    WRITE_BUFFER_BYTES = FRAME_BYTES,
};

#define PACKET_SLOT_EMPTY 0xffffffffu

struct event {
    uint32_t kind;
    uint32_t sequence;
    uint64_t timestamp;
};

struct connection {
    uint32_t id;
    uint32_t events_recorded;
    uint32_t *packet_window;     /* PACKET_WINDOW_SLOTS slots */
    struct event *event_queue;   /* EVENT_QUEUE_ENTRIES entries */
    unsigned char *write_buffer; /* WRITE_BUFFER_BYTES bytes */
    uint64_t bytes_sent;
};

static void *checked(void *block, const char *what)
{
    if (block == NULL) {
        perror(what);
        exit(1);
    }
    return block;
}

/* The interesting allocations: every table sized to what is used. */
__attribute__((noinline)) static struct connection *connection_new(uint32_t id)
{
    struct connection *connection =
        checked(malloc(sizeof *connection), "connection_new");
    connection->id = id;
    connection->events_recorded = 0;
    connection->bytes_sent = 0;

    uint32_t *packet_window =
        checked(malloc(PACKET_WINDOW_SLOTS * sizeof(uint32_t)), "packet window");
    for (uint32_t slot = 0; slot < PACKET_WINDOW_SLOTS; slot++)
        packet_window[slot] = PACKET_SLOT_EMPTY;
    connection->packet_window = packet_window;

    connection->event_queue =
        checked(calloc(EVENT_QUEUE_ENTRIES, sizeof(struct event)), "event queue");
    connection->write_buffer =
        checked(malloc(WRITE_BUFFER_BYTES), "write buffer");
    return connection;
}

static void connection_close(struct connection *connection)
{
    free(connection->packet_window);
    free(connection->event_queue);
    free(connection->write_buffer);
    free(connection);
}

/* Reads the frame back byte by byte, as a socket write would. */
static uint32_t send_frame(struct connection *connection)
{
    uint32_t digest = 0;
    for (int i = 0; i < FRAME_BYTES; i++)
        digest = digest * 31u + connection->write_buffer[i];
    connection->bytes_sent += FRAME_BYTES;
    return digest;
}

static uint32_t send_packet(struct connection *connection, uint32_t sequence)
{
    connection->packet_window[sequence % PACKET_WINDOW_SLOTS] =
        connection->id * 1000u + sequence;

    struct event *event = &connection->event_queue[connection->events_recorded++];
    event->kind = 1;
    event->sequence = sequence;
    event->timestamp = (uint64_t)connection->id << 32 | sequence;

    for (int i = 0; i < FRAME_BYTES; i++)
        connection->write_buffer[i] = (unsigned char)(sequence + (uint32_t)i);
    return send_frame(connection);
}

static uint32_t acknowledge_packet(struct connection *connection, uint32_t sequence)
{
    uint32_t *slot = &connection->packet_window[sequence % PACKET_WINDOW_SLOTS];
    uint32_t in_flight = *slot;
    *slot = PACKET_SLOT_EMPTY;
    return in_flight;
}

static uint32_t replay_events(const struct connection *connection)
{
    uint32_t digest = 0;
    for (uint32_t i = 0; i < connection->events_recorded; i++) {
        struct event event = connection->event_queue[i]; /* 16 bytes read */
        digest ^= event.kind + event.sequence + (uint32_t)event.timestamp +
                  (uint32_t)(event.timestamp >> 32);
    }
    return digest;
}

int main(void)
{
    struct connection *connections[CONNECTION_COUNT];
    uint32_t checksum = 0;

    for (uint32_t id = 0; id < CONNECTION_COUNT; id++)
        connections[id] = connection_new(id);

    for (uint32_t id = 0; id < CONNECTION_COUNT; id++)
        for (uint32_t sequence = 0; sequence < PACKETS_IN_FLIGHT; sequence++)
            checksum = checksum * 7u + send_packet(connections[id], sequence);
    for (uint32_t id = 0; id < CONNECTION_COUNT; id++) {
        for (uint32_t sequence = 0; sequence < PACKETS_IN_FLIGHT; sequence++)
            checksum += acknowledge_packet(connections[id], sequence);
        checksum ^= replay_events(connections[id]);
    }

    uint64_t bytes_sent = 0;
    for (uint32_t id = 0; id < CONNECTION_COUNT; id++) {
        bytes_sent += connections[id]->bytes_sent;
        connection_close(connections[id]);
    }
    printf("prealloc_sized: %d connections, %llu bytes sent, checksum %08x\n",
           CONNECTION_COUNT, (unsigned long long)bytes_sent, (unsigned)checksum);
    return 0;
}
