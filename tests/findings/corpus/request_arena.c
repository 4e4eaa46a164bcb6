/* request_arena.c - a per-request arena reused across requests (innocent).
 *
 * An HTTP-ish server parses each request into an arena: arena_new
 * allocates 256 KiB once; every request bump-allocates its header table,
 * strings and body copy out of it (between ~60 and ~250 KiB, depending on
 * the request), and arena_reset rewinds it for the next request. One big
 * block held all run, filled and refilled - nearly all of it written and
 * read by the larger requests - and no per-request malloc at all.
 *
 * Verdict: no oversized-preallocation, no unused-capacity, no
 * short-lived-churn, no leak on arena_new.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena { unsigned char *base; size_t size, used; };

static struct arena arena_new(size_t size)
{
    struct arena a = {malloc(size), size, 0};
    if (!a.base) { perror("malloc"); exit(1); }
    return a;
}

static void *arena_alloc(struct arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (a->used + n > a->size) return NULL;
    void *p = a->base + a->used;
    a->used += n;
    return p;
}

static void arena_reset(struct arena *a) { a->used = 0; }

static uint64_t handle_request(struct arena *a, unsigned n)
{
    size_t body_length = 60000 + (size_t)(n * 7919) % 190000;
    unsigned char *body = arena_alloc(a, body_length);
    char **headers = arena_alloc(a, 32 * sizeof *headers);
    if (!body || !headers) return 0;
    for (int h = 0; h < 32; h++) {
        headers[h] = arena_alloc(a, 64);
        snprintf(headers[h], 64, "X-Header-%d: value-%u", h, n);
    }
    for (size_t i = 0; i < body_length; i++) body[i] = (unsigned char)(n + i);
    uint64_t sum = 0;
    for (size_t i = 0; i < body_length; i++) sum += body[i];
    for (int h = 0; h < 32; h++) sum += strlen(headers[h]);
    return sum;
}

int main(void)
{
    struct arena a = arena_new(256 * 1024);
    uint64_t total = 0;
    for (unsigned n = 0; n < 60; n++) {
        total += handle_request(&a, n);
        arena_reset(&a);
    }
    printf("request_arena: 60 requests, %llu\n", (unsigned long long)total);
    free(a.base);
    return 0;
}
