/* symbol_table.c - a hash table preallocated for a million buckets.
 *
 * An assembler's symbol table: symtab_create allocates the bucket array for
 * 1,048,576 buckets up front with calloc ("so it never has to rehash",
 * 8 MiB), then the program defines 3,000 symbols and resolves 30,000
 * references. Only the ~3,000 buckets that the symbols hash to are ever
 * read; the rest of the 8 MiB is zero-filled by calloc and never looked at.
 *
 * Verdict: oversized-preallocation on symtab_create (the bucket array:
 * >99% of its bytes never read, nearly all of the peak).
 * Twin: symbol_table_growing.c (starts at 1,024 buckets, doubles at 3/4
 * load).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct symbol {
    struct symbol *next;
    struct symbol *defined_before;   /* definition order, for listings */
    uint64_t value;
    char name[32];
};

struct symtab {
    struct symbol **buckets;
    struct symbol *last_defined;
    size_t bucket_count;
    size_t count;
};

static uint64_t hash_name(const char *name)
{
    uint64_t h = 1469598103934665603ull;
    while (*name) h = (h ^ (unsigned char)*name++) * 1099511628211ull;
    return h;
}

static struct symtab *symtab_create(void)
{
    struct symtab *t = malloc(sizeof *t);
    if (!t) { perror("malloc"); exit(1); }
    t->bucket_count = 1u << 20;
    t->buckets = calloc(t->bucket_count, sizeof *t->buckets);
    if (!t->buckets) { perror("calloc"); exit(1); }
    t->count = 0;
    t->last_defined = NULL;
    return t;
}

static void symtab_define(struct symtab *t, const char *name, uint64_t value)
{
    struct symbol *s = malloc(sizeof *s);
    if (!s) { perror("malloc"); exit(1); }
    snprintf(s->name, sizeof s->name, "%s", name);
    s->value = value;
    size_t b = hash_name(name) & (t->bucket_count - 1);
    s->next = t->buckets[b];
    t->buckets[b] = s;
    s->defined_before = t->last_defined;
    t->last_defined = s;
    t->count++;
}

static const struct symbol *symtab_lookup(const struct symtab *t, const char *name)
{
    for (const struct symbol *s = t->buckets[hash_name(name) & (t->bucket_count - 1)]; s; s = s->next)
        if (strcmp(s->name, name) == 0) return s;
    return NULL;
}

static void symtab_destroy(struct symtab *t)
{
    for (struct symbol *s = t->last_defined, *before; s; s = before) {
        before = s->defined_before;
        free(s);
    }
    free(t->buckets);
    free(t);
}

int main(void)
{
    struct symtab *t = symtab_create();
    char name[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(name, sizeof name, "%s_%d", i % 3 ? "label" : "func", i);
        symtab_define(t, name, 0x400000u + (uint64_t)i * 16);
    }
    uint64_t resolved = 0;
    for (int r = 0; r < 30000; r++) {
        int i = (r * 7919) % 3000;
        snprintf(name, sizeof name, "%s_%d", i % 3 ? "label" : "func", i);
        const struct symbol *s = symtab_lookup(t, name);
        resolved += s ? s->value : 0;
    }
    printf("symbol_table: %zu symbols, %llu\n", t->count, (unsigned long long)resolved);
    symtab_destroy(t);
    return 0;
}
