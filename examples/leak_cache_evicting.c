/* leak_cache_evicting.c - the fix for leak_cache.c: a bounded cache.
 *
 * Problem fixed: leak_cache.c inserts a 256-byte entry for every new session
 * and never evicts, so the cache grows through the whole run and is still
 * holding every entry at exit.
 *
 * Fix: the cache holds at most CACHE_CAPACITY = 256 entries; inserting into a
 * full cache first evicts (frees) the oldest entry, and the cache is destroyed
 * before exit. Requests, values and the output are identical to leak_cache.c
 * (each session is hit right after its miss, long before it is evicted).
 *
 * Numbers a profiler must find (by construction, 20,000 requests for 10,000
 * distinct sessions):
 *   - session_cache_insert: the same 10,000 blocks x 256 bytes = 2,560,000
 *     bytes in total, but at most 256 live at once (65,536 bytes): the live
 *     bytes stop growing after the first 512 requests and stay flat. 9,744
 *     blocks are freed by session_cache_evict_oldest during the run, the last
 *     256 by session_cache_destroy; none live at exit.
 *   - config_load (one-time initialisation, NOT a leak): 1 block of 16,384
 *     bytes allocated before the first request, read on every miss, never
 *     freed - exactly as in leak_cache.c. It is the only block live at exit.
 *   - session_cache_new: 1 block of 8,192 bytes (1,024 bucket heads) and 1
 *     block of 2,048 bytes (256 eviction-ring slots), freed at exit.
 *
 * Output (deterministic): the same hits, misses and checksum as leak_cache.
 *
 * Build: cc -O0 -g -fno-builtin leak_cache_evicting.c -o leak_cache_evicting
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
    /* The fix: the most entries the cache keeps. */
    CACHE_CAPACITY = 256,
};

struct cache_entry {
    struct cache_entry *next; /* hash chain */
    uint64_t key;
    unsigned char value[VALUE_BYTES];
};

struct session_cache {
    struct cache_entry **buckets; /* BUCKET_COUNT chain heads */
    /* Entries in insertion order, a ring of CACHE_CAPACITY slots. The next
     * entry goes to next_slot; once the ring is full, that slot holds the
     * oldest entry. */
    struct cache_entry **eviction_ring;
    uint32_t entry_count;
    uint32_t next_slot;
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
    cache->eviction_ring = checked(calloc(CACHE_CAPACITY, sizeof *cache->eviction_ring),
                                   "session_cache_new");
    cache->entry_count = 0;
    cache->next_slot = 0;
    cache->hits = 0;
    cache->misses = 0;
}

/* Unlinks the oldest entry from its hash chain and frees it. */
__attribute__((noinline)) static void
session_cache_evict_oldest(struct session_cache *cache)
{
    struct cache_entry *oldest = cache->eviction_ring[cache->next_slot];
    struct cache_entry **link = &cache->buckets[oldest->key % BUCKET_COUNT];
    while (*link != oldest)
        link = &(*link)->next;
    *link = oldest->next;
    free(oldest);
    cache->eviction_ring[cache->next_slot] = NULL;
    cache->entry_count--;
}

static void session_cache_destroy(struct session_cache *cache)
{
    for (uint32_t slot = 0; slot < CACHE_CAPACITY; slot++)
        free(cache->eviction_ring[slot]); /* NULL in unused slots */
    free(cache->eviction_ring);
    free(cache->buckets);
    cache->eviction_ring = NULL;
    cache->buckets = NULL;
    cache->entry_count = 0;
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

/* The interesting allocation: one entry per new session; the oldest entry
 * makes room for it once the cache is full. */
__attribute__((noinline)) static struct cache_entry *
session_cache_insert(struct session_cache *cache, uint64_t key)
{
    if (cache->entry_count == CACHE_CAPACITY)
        session_cache_evict_oldest(cache);
    struct cache_entry *entry =
        checked(malloc(sizeof *entry), "session_cache_insert");
    entry->key = key;
    compute_session_value(entry->value, key);
    entry->next = cache->buckets[key % BUCKET_COUNT];
    cache->buckets[key % BUCKET_COUNT] = entry;
    cache->eviction_ring[cache->next_slot] = entry;
    cache->next_slot = (cache->next_slot + 1) % CACHE_CAPACITY;
    cache->entry_count++;
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

    session_cache_destroy(&global_cache);
    printf("leak_cache_evicting: %u hits, %u misses, checksum %08x\n",
           (unsigned)global_cache.hits, (unsigned)global_cache.misses,
           (unsigned)checksum);
    /* The config stays allocated until exit, on purpose. */
    return 0;
}
