/* gateway_loop.c - a long-running event loop with a slow leak under traffic.
 *
 * A protocol gateway: at start-up it loads its routing table and TLS-ish
 * settings (gateway_init: one-time blocks held for the whole run). Then its
 * event loop handles 40,000 events: each event decodes a frame into a
 * temporary buffer (decode_frame, freed at the end of the event - short-
 * lived churn), and each client connect records the peer's address in a
 * small heap string (remember_peer, 48 bytes) that is meant to be freed on
 * disconnect. The disconnect handler frees the connection but forgets the
 * peer string: memory grows by a few bytes per connection, slowly, for as
 * long as traffic flows - the classic slow leak of a daemon that has to be
 * restarted every week.
 *
 * Verdict: leak on remember_peer; short-lived-churn on decode_frame (~14,300
 * temporaries, one per data event); and no leak on the one-time gateway_init
 * blocks nor on decode_frame's temporaries. Not unused-capacity on
 * remember_peer either: its 48-byte strings hold ~20 bytes, which only
 * matters because thousands of them leak - the leak is the one cause, and
 * a report that leads with "size your 48-byte buffer" sends the user the
 * wrong way (the fixed twin holds at most 64 of them).
 * Twin: gateway_loop_fixed.c (disconnect frees the peer string).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENTS 20000
#define MAX_CONNECTIONS 64

struct route { uint32_t prefix, mask; int port; };
struct settings { char cipher_list[4096]; char ca_bundle[60000]; };

struct connection {
    int in_use;
    char *peer;
    uint64_t bytes;
};

static struct route *routes;
static size_t route_count;
static struct settings *settings;
static struct connection connections[MAX_CONNECTIONS];

static void gateway_init(void)
{
    route_count = 4096;
    routes = malloc(route_count * sizeof *routes);
    settings = malloc(sizeof *settings);
    if (!routes || !settings) { perror("malloc"); exit(1); }
    for (size_t i = 0; i < route_count; i++) {
        routes[i].prefix = (uint32_t)(i << 20);
        routes[i].mask = 0xFFF00000u;
        routes[i].port = (int)(i % 8);
    }
    memset(settings->cipher_list, 'c', sizeof settings->cipher_list);
    memset(settings->ca_bundle, 'b', sizeof settings->ca_bundle);
}

static char *remember_peer(uint32_t address, int port)
{
    char *peer = malloc(48);
    if (!peer) { perror("malloc"); exit(1); }
    snprintf(peer, 48, "%u.%u.%u.%u:%d", address >> 24, (address >> 16) & 255,
             (address >> 8) & 255, address & 255, port);
    return peer;
}

static unsigned char *decode_frame(uint32_t event, size_t *length)
{
    *length = 256 + event % 512;
    unsigned char *frame = malloc(*length);
    if (!frame) { perror("malloc"); exit(1); }
    for (size_t i = 0; i < *length; i++)
        frame[i] = (unsigned char)(event + i * 7);
    return frame;
}

static int route_of(const unsigned char *frame, size_t length)
{
    uint32_t destination = 0;
    for (size_t i = 0; i < length; i++) destination = destination * 31 + frame[i];
    const struct route *r = &routes[(destination >> 20) % route_count];
    return (destination & r->mask) == r->prefix ? r->port : -1;
}

static void on_connect(uint32_t event)
{
    struct connection *c = &connections[event % MAX_CONNECTIONS];
    c->in_use = 1;
    c->peer = remember_peer(0x0A000000u + event, 40000 + (int)(event % 20000));
    c->bytes = 0;
}

static void on_disconnect(uint32_t event)
{
    struct connection *c = &connections[event % MAX_CONNECTIONS];
    c->in_use = 0;
    c->peer = NULL;            /* BUG: the peer string is not freed */
}

int main(void)
{
    gateway_init();
    uint64_t routed = 0;
    for (uint32_t event = 0; event < EVENTS; event++) {
        struct connection *c = &connections[event % MAX_CONNECTIONS];
        if (!c->in_use) {
            on_connect(event);
        } else if (event % 7 == 3) {
            on_disconnect(event);
        } else {
            size_t length;
            unsigned char *frame = decode_frame(event, &length);
            int port = route_of(frame, length);
            c->bytes += length;
            routed += (uint64_t)(port + 1) * length;
            free(frame);
        }
    }
    for (int i = 0; i < MAX_CONNECTIONS; i++)
        if (connections[i].in_use) on_disconnect((uint32_t)i);
    printf("gateway_loop: %d events, %llu routed\n", EVENTS, (unsigned long long)routed);
    return 0;                  /* routes and settings live until exit, by design */
}
