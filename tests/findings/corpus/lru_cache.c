/* lru_cache.c - a bounded LRU cache under heavy churn of keys (innocent).
 *
 * A DNS-style resolver caches answers in an LRU of at most 1,024 entries
 * (a hash table plus a doubly linked list); 40,000 lookups over 5,000
 * names insert on every miss and evict the least recently used entry when
 * full. It looks alarming - tens of thousands of inserts, entries living a
 * long time - but the cache never holds more than 1,024 entries: it fills
 * in the first few percent of the run and stays flat.
 *
 * Verdict: no leak, no unbounded-growth, no missing-backpressure (one
 * thread), on cache_insert's entries or anywhere else.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAPACITY 1024
#define BUCKETS 2048

struct entry {
    struct entry *hash_next, *older, *newer;
    char name[48];
    uint32_t address;
    uint32_t ttl;
};

static struct entry *buckets[BUCKETS];
static struct entry *newest, *oldest;
static size_t count;

static unsigned bucket_of(const char *name)
{
    unsigned h = 5381;
    while (*name) h = h * 33 + (unsigned char)*name++;
    return h % BUCKETS;
}

static void unlink_lru(struct entry *e)
{
    if (e->older) e->older->newer = e->newer; else oldest = e->newer;
    if (e->newer) e->newer->older = e->older; else newest = e->older;
}

static void push_newest(struct entry *e)
{
    e->newer = NULL;
    e->older = newest;
    if (newest) newest->newer = e; else oldest = e;
    newest = e;
}

static struct entry *cache_find(const char *name)
{
    for (struct entry *e = buckets[bucket_of(name)]; e; e = e->hash_next)
        if (strcmp(e->name, name) == 0) {
            unlink_lru(e);
            push_newest(e);
            return e;
        }
    return NULL;
}

static void cache_evict_oldest(void)
{
    struct entry *victim = oldest;
    struct entry **link = &buckets[bucket_of(victim->name)];
    while (*link != victim) link = &(*link)->hash_next;
    *link = victim->hash_next;
    unlink_lru(victim);
    free(victim);
    count--;
}

static struct entry *cache_insert(const char *name, uint32_t address)
{
    if (count == CAPACITY) cache_evict_oldest();
    struct entry *e = malloc(sizeof *e);
    if (!e) { perror("malloc"); exit(1); }
    snprintf(e->name, sizeof e->name, "%s", name);
    e->address = address;
    e->ttl = 300;
    unsigned b = bucket_of(name);
    e->hash_next = buckets[b];
    buckets[b] = e;
    push_newest(e);
    count++;
    return e;
}

int main(void)
{
    char name[48];
    unsigned hits = 0, misses = 0;
    uint64_t sum = 0;
    uint32_t state = 7;
    for (int i = 0; i < 40000; i++) {
        state = state * 1103515245u + 12345u;
        unsigned which = (state >> 16) % 5000;
        if (which >= 1500 && (state & 0x300)) which %= 1500;   /* a popular head */
        snprintf(name, sizeof name, "host-%u.service.internal", which);
        struct entry *e = cache_find(name);
        if (e) hits++;
        else { misses++; e = cache_insert(name, 0x0A000000u + which); }
        sum += e->address;
    }
    while (count) cache_evict_oldest();
    printf("lru_cache: %u hits, %u misses, %llu\n", hits, misses, (unsigned long long)sum);
    return 0;
}
