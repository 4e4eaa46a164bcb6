/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hashmap: a chained hash map that grows while it is filled and is then
 * read at random, the shape of a symbol table or a cache.
 *
 * Every entry is its own 32-byte block { key, value, next, hash }; the
 * bucket array doubles (a fresh calloc, entries relinked, the old array
 * freed) whenever the map is as full as it has buckets.  After KEYS
 * inserts it does LOOKUPS lookups of keys picked by a fixed pseudo-random
 * sequence, half of them present, and removes and re-inserts a tenth of
 * the keys, so the live heap is KEYS small blocks, all of them read, in
 * random order.
 *
 * Usage: hashmap KEYS LOOKUPS   (prints a checksum)
 */
#include <stdio.h>
#include <stdlib.h>

struct entry {
    unsigned long key;
    unsigned long value;
    struct entry *next;
    unsigned long hash;
};

struct map {
    struct entry **buckets;
    unsigned long n_buckets;   /* a power of two */
    unsigned long n_entries;
};

static unsigned long mix(unsigned long x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdUL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53UL;
    x ^= x >> 33;
    return x;
}

static void *checked(void *p)
{
    if (p == NULL) {
        fprintf(stderr, "hashmap: out of memory\n");
        exit(1);
    }
    return p;
}

static void grow(struct map *m)
{
    unsigned long n = m->n_buckets * 2, i;
    struct entry **buckets = checked(calloc(n, sizeof *buckets));
    for (i = 0; i < m->n_buckets; i++) {
        struct entry *e = m->buckets[i], *next;
        for (; e != NULL; e = next) {
            next = e->next;
            e->next = buckets[e->hash & (n - 1)];
            buckets[e->hash & (n - 1)] = e;
        }
    }
    free(m->buckets);
    m->buckets = buckets;
    m->n_buckets = n;
}

static void insert(struct map *m, unsigned long key, unsigned long value)
{
    struct entry *e = checked(malloc(sizeof *e));
    if (m->n_entries >= m->n_buckets)
        grow(m);
    e->key = key;
    e->value = value;
    e->hash = mix(key);
    e->next = m->buckets[e->hash & (m->n_buckets - 1)];
    m->buckets[e->hash & (m->n_buckets - 1)] = e;
    m->n_entries++;
}

static struct entry *find(const struct map *m, unsigned long key)
{
    unsigned long h = mix(key);
    struct entry *e = m->buckets[h & (m->n_buckets - 1)];
    for (; e != NULL; e = e->next)
        if (e->hash == h && e->key == key)
            return e;
    return NULL;
}

static int remove_key(struct map *m, unsigned long key)
{
    unsigned long h = mix(key);
    struct entry **link = &m->buckets[h & (m->n_buckets - 1)];
    for (; *link != NULL; link = &(*link)->next) {
        if ((*link)->key == key) {
            struct entry *e = *link;
            *link = e->next;
            free(e);
            m->n_entries--;
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct map m;
    unsigned long keys, lookups, i, sum = 0, found = 0, state = 12345;
    if (argc != 3) {
        fprintf(stderr, "usage: hashmap KEYS LOOKUPS\n");
        return 2;
    }
    keys = strtoul(argv[1], NULL, 10);
    lookups = strtoul(argv[2], NULL, 10);
    m.n_buckets = 16;
    m.n_entries = 0;
    m.buckets = checked(calloc(m.n_buckets, sizeof *m.buckets));

    for (i = 0; i < keys; i++)
        insert(&m, i * 2, i);              /* even keys are present */
    for (i = 0; i < lookups; i++) {
        struct entry *e;
        state = state * 6364136223846793005UL + 1442695040888963407UL;
        e = find(&m, (state >> 17) % (2 * keys));
        if (e != NULL) {
            sum += e->value;
            found++;
        }
        if (i % 10 == 0 && keys > 0) {     /* churn: a tenth of the ops */
            unsigned long k = ((state >> 7) % keys) * 2;
            if (remove_key(&m, k))
                insert(&m, k, k / 2);
        }
    }
    printf("%lu entries, %lu buckets, %lu of %lu found, checksum %lu\n",
           m.n_entries, m.n_buckets, found, lookups, sum);
    for (i = 0; i < m.n_buckets; i++) {
        struct entry *e = m.buckets[i], *next;
        for (; e != NULL; e = next) {
            next = e->next;
            free(e);
        }
    }
    free(m.buckets);
    return 0;
}
