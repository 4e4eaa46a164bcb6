/* kv_server.c - a request loop that leaks its request buffer on errors.
 *
 * A small key-value server's main loop reads each request into a heap
 * buffer (read_request: 512 bytes), parses it and answers. On success the
 * handler frees the buffer; on a malformed request (about one in eight) it
 * logs and returns early - without freeing it. Nothing ever points at those
 * buffers again: under traffic the server loses 512 bytes every few
 * requests, for as long as it runs.
 *
 * Verdict: leak on read_request (blocks allocated all through the run, the
 * error path's never freed; they are most of what is live at exit). Not
 * unused-capacity on read_request: its 512-byte buffers hold ~40 bytes, but
 * one is live at a time in the fixed twin - the waste is the leak's, and
 * the leak is the one cause to report.
 * Twin: kv_server_fixed.c (the error path frees the buffer too).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REQUEST_BYTES 512
#define SLOTS 1024

static char *values[SLOTS];
static unsigned long errors;

static char *read_request(unsigned n)
{
    char *buffer = malloc(REQUEST_BYTES);
    if (!buffer) { perror("malloc"); exit(1); }
    /* Every eighth request is garbage from a misbehaving client. */
    if (n % 8 == 5)
        snprintf(buffer, REQUEST_BYTES, "PUTT key%u", n);
    else if (n % 3 == 0)
        snprintf(buffer, REQUEST_BYTES, "GET key%u", (n * 7) % SLOTS);
    else
        snprintf(buffer, REQUEST_BYTES, "PUT key%u value-%u-%s", n % SLOTS, n,
                 "padding-padding-padding-padding");
    return buffer;
}

static unsigned slot_of(const char *key)
{
    unsigned h = 2166136261u;
    while (*key && *key != ' ') h = (h ^ (unsigned char)*key++) * 16777619u;
    return h % SLOTS;
}

static int handle_request(unsigned n, unsigned long *answered)
{
    char *request = read_request(n);
    if (strncmp(request, "GET ", 4) == 0) {
        const char *value = values[slot_of(request + 4)];
        *answered += value ? strlen(value) : 0;
    } else if (strncmp(request, "PUT ", 4) == 0) {
        char *key = request + 4;
        char *value = strchr(key, ' ');
        if (!value) goto bad;
        unsigned slot = slot_of(key);
        free(values[slot]);
        values[slot] = strdup(value + 1);
    } else {
        goto bad;
    }
    free(request);
    return 0;
bad:
    errors++;
    return -1;                 /* the request buffer is lost here */
}

int main(void)
{
    unsigned long answered = 0;
    for (unsigned n = 0; n < 20000; n++)
        handle_request(n, &answered);
    for (int i = 0; i < SLOTS; i++) free(values[i]);
    printf("kv_server: %lu bytes answered, %lu bad requests\n", answered, errors);
    return 0;
}
