/* leak_cache.c - a slow leak: a cache that never evicts.
 *
 * Problem: every request looks up a session in a cache; a miss computes the
 * session's value and inserts a new entry. Nothing is ever evicted, so the
 * cache grows by one entry every other request for the whole run and is
 * still holding all of it at exit. The memory stays reachable (a global
 * points at the cache), so a leak checker reports nothing.
 *
 * Fix: leak_cache_evicting.c - the cache holds at most 256 entries and evicts
 * the oldest one when full.
 *
 * Numbers a profiler must find (by construction, 20,000 requests for 10,000
 * distinct sessions; request r asks for session r / 2, so every session is a
 * miss and then a hit):
 *   - session_cache_insert (leak): 10,000 blocks x 256 bytes = 2,560,000
 *     bytes, inserted at an even pace through the run, all still live at
 *     exit. Each block is written once (256 bytes) and its 240-byte value is
 *     read once, on the hit.
 *   - config_load (one-time initialisation, NOT a leak): 1 block of 16,384
 *     bytes allocated before the first request, read on every miss, never
 *     freed. Same in leak_cache_evicting.c.
 *   - session_cache_new (one-time, NOT a leak): 1 block of 8,192 bytes (1,024
 *     bucket heads), allocated at start-up and never freed here.
 *   Live at exit: 2,560,000 + 16,384 + 8,192 = 2,584,576 bytes in 10,002
 *   blocks.
 *
 * Output (deterministic): hits, misses and a checksum of the values.
 *
 * Build: cc -O0 -g -fno-builtin leak_cache.c -o leak_cache
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum {
    REQUEST_COUNT = 20000,
    BUCKET_COUNT = 1024,
    VALUE_BYTES = 240,
    CONFIG_WEIGHTS = 4096,
};

struct cache_entry {
    struct cache_entry *next; /* hash chain */
    uint64_t key;
    unsigned char value[VALUE_BYTES];
};

struct session_cache {
    struct cache_entry **buckets; /* BUCKET_COUNT chain heads */
    uint32_t hits;
    uint32_t misses;
};

struct config {
    uint32_t weights[CONFIG_WEIGHTS];
};

/* Loaded once at start-up and used until exit: deliberately never freed. */
static struct config *global_config;
static struct session_cache global_cache;

static void *checked(void *block, const char *what)
{
    if (block == NULL) {
        perror(what);
        exit(1);
    }
    return block;
}

/* One-time initialisation: allocated once, never freed, not a leak. */
__attribute__((noinline)) static void config_load(void)
{
    struct config *config = checked(malloc(sizeof *config), "config_load");
    uint32_t state = 12345;
    for (int i = 0; i < CONFIG_WEIGHTS; i++) {
        state = state * 1103515245u + 12345u;
        config->weights[i] = state >> 16;
    }
    global_config = config;
}

__attribute__((noinline)) static void session_cache_new(struct session_cache *cache)
{
    cache->buckets =
        checked(calloc(BUCKET_COUNT, sizeof *cache->buckets), "session_cache_new");
    cache->hits = 0;
    cache->misses = 0;
}

static struct cache_entry *session_cache_find(struct session_cache *cache, uint64_t key)
{
    for (struct cache_entry *entry = cache->buckets[key % BUCKET_COUNT];
         entry != NULL; entry = entry->next)
        if (entry->key == key)
            return entry;
    return NULL;
}

/* The expensive computation a cache is there to avoid repeating. */
static void compute_session_value(unsigned char *value, uint64_t key)
{
    const uint32_t *weights = global_config->weights;
    for (uint32_t i = 0; i < VALUE_BYTES; i++)
        value[i] = (unsigned char)(key * 31u + weights[(key + i) % CONFIG_WEIGHTS]);
}

/* The interesting allocation: one entry per new session, never evicted. */
__attribute__((noinline)) static struct cache_entry *
session_cache_insert(struct session_cache *cache, uint64_t key)
{
    struct cache_entry *entry =
        checked(malloc(sizeof *entry), "session_cache_insert");
    entry->key = key;
    compute_session_value(entry->value, key);
    entry->next = cache->buckets[key % BUCKET_COUNT];
    cache->buckets[key % BUCKET_COUNT] = entry;
    return entry;
}

static uint32_t handle_request(struct session_cache *cache, uint64_t key)
{
    struct cache_entry *entry = session_cache_find(cache, key);
    if (entry == NULL) {
        cache->misses++;
        session_cache_insert(cache, key);
        return 0;
    }
    cache->hits++;
    uint32_t digest = 0;
    for (int i = 0; i < VALUE_BYTES; i++)
        digest = digest * 31u + entry->value[i];
    return digest;
}

int main(void)
{
    config_load();
    session_cache_new(&global_cache);

    uint32_t checksum = 0;
    for (uint64_t request = 0; request < REQUEST_COUNT; request++)
        checksum ^= handle_request(&global_cache, request / 2);

    printf("leak_cache: %u hits, %u misses, checksum %08x\n",
           (unsigned)global_cache.hits, (unsigned)global_cache.misses,
           (unsigned)checksum);
    /* Returns with the cache and the config still allocated. */
    return 0;
}
