/* prealloc_oversized.c - an oversized preallocation per connection
 * (a server that "fits 3,000 connections instead of 40,000").
 *
 * Problem: the connection constructor, connection_new, preallocates state for
 * the worst case: a packet table with one 4-byte slot for every possible
 * 16-bit sequence number (65,536 x 4 = 256 KiB), marked empty entry by entry;
 * a 100-entry event queue; and a 10 KiB write buffer. A connection never has
 * more than 8 packets in flight, records 8 events and writes 32-byte frames,
 * so almost none of that memory is used after construction. Every connection
 * stays open for the whole run, so all of it counts at the peak.
 *
 * Fix: prealloc_sized.c - every table sized to what a connection needs.
 *
 * Numbers a profiler must find (by construction, 64 connections):
 *   - connection_new, packet table (oversized-preallocation):
 *     64 blocks x 262,144 bytes = 16,777,216 bytes, all live at the peak.
 *     Every byte is written once at initialisation (the empty marks); after
 *     that each connection writes 8 slots twice (64 bytes) and reads them once:
 *     32 bytes read per block, 2,048 bytes read in all (0.012% of its bytes).
 *   - connection_new, write buffer (unused capacity):
 *     64 blocks x 10,240 bytes = 655,360 bytes; only the first 32 bytes of
 *     each are ever written (8 frames of 32 bytes, each read once when
 *     "sent": 256 bytes written and 256 read per block), so 10,208 bytes per
 *     block, 653,312 bytes in all, are never touched.
 *   - connection_new, event queue: 64 blocks x 1,600 bytes (100 x 16-byte
 *     events, calloc) = 102,400 bytes; only the first 128 bytes (8 events)
 *     of each are written and read. Small; a finding on it is optional.
 *   - connection_new, struct connection: 64 blocks x 40 bytes, fully used.
 *   Everything is freed by connection_close before exit.
 *
 * Output (deterministic): a checksum of the traffic.
 *
 * Build: cc -O0 -g -fno-builtin prealloc_oversized.c -o prealloc_oversized
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum {
    CONNECTION_COUNT = 64,
    PACKET_TABLE_SLOTS = 65536,  /* one per 16-bit sequence number */
    EVENT_QUEUE_ENTRIES = 100,
    WRITE_BUFFER_BYTES = 10240,
    PACKETS_IN_FLIGHT = 8,       /* what a connection actually uses */
    FRAME_BYTES = 32,
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
    uint32_t *packet_table;      /* PACKET_TABLE_SLOTS slots */
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

/* The interesting allocations: every table sized for the worst case. */
__attribute__((noinline)) static struct connection *connection_new(uint32_t id)
{
    struct connection *connection =
        checked(malloc(sizeof *connection), "connection_new");
    connection->id = id;
    connection->events_recorded = 0;
    connection->bytes_sent = 0;

    uint32_t *packet_table =
        checked(malloc(PACKET_TABLE_SLOTS * sizeof(uint32_t)), "packet table");
    for (uint32_t slot = 0; slot < PACKET_TABLE_SLOTS; slot++)
        packet_table[slot] = PACKET_SLOT_EMPTY;
    connection->packet_table = packet_table;

    connection->event_queue =
        checked(calloc(EVENT_QUEUE_ENTRIES, sizeof(struct event)), "event queue");
    connection->write_buffer =
        checked(malloc(WRITE_BUFFER_BYTES), "write buffer");
    return connection;
}

static void connection_close(struct connection *connection)
{
    free(connection->packet_table);
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
    connection->packet_table[sequence] = connection->id * 1000u + sequence;

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
    uint32_t in_flight = connection->packet_table[sequence];
    connection->packet_table[sequence] = PACKET_SLOT_EMPTY;
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
    printf("prealloc_oversized: %d connections, %llu bytes sent, checksum %08x\n",
           CONNECTION_COUNT, (unsigned long long)bytes_sent, (unsigned)checksum);
    return 0;
}
