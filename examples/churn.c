/* churn.c - short-lived churn: a temporary buffer allocated per iteration.
 *
 * Problem: for each of 200,000 records, record_encode allocates a 64-byte
 * scratch buffer, encodes the record into it, the caller digests it and frees
 * it straight away. Every block lives for a tiny fraction of the run, and the
 * program spends its allocator calls on memory it could have reused.
 *
 * Fix: churn_reuse.c - one 64-byte buffer, allocated once and reused for
 * every record.
 *
 * Numbers a profiler must find (by construction):
 *   - site: record_encode (the malloc): 200,000 blocks x 64 bytes =
 *     12,800,000 bytes in total, never more than 1 block (64 bytes) live;
 *     each block is freed in the same iteration, so it lives about
 *     1/200,000 of the run. Every block is fully written once (64 bytes) and
 *     fully read once (by record_digest).
 *   - nothing else is allocated by the program (libc's stdout buffer aside).
 *
 * Output (deterministic): the record count and a checksum.
 *
 * Build: cc -O0 -g -fno-builtin churn.c -o churn
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum {
    RECORD_COUNT = 200000,
    RECORD_WORDS = 8, /* 8 x 8 = 64-byte encoded record */
};

/* Writes the 64-byte encoding of one record into buffer. */
static void encode_record_into(uint64_t *buffer, uint32_t record)
{
    uint64_t state = record * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < RECORD_WORDS; i++) {
        state ^= state >> 29;
        state *= 0xbf58476d1ce4e5b9ull;
        buffer[i] = state;
    }
}

/* The interesting allocation: a fresh scratch buffer for every record. */
__attribute__((noinline)) static uint64_t *record_encode(uint32_t record)
{
    uint64_t *buffer = malloc(RECORD_WORDS * sizeof *buffer);
    if (buffer == NULL) {
        perror("record_encode: malloc");
        exit(1);
    }
    encode_record_into(buffer, record);
    return buffer;
}

/* Reads the whole encoded record. */
static uint64_t record_digest(const uint64_t *buffer)
{
    uint64_t digest = 0;
    for (int i = 0; i < RECORD_WORDS; i++)
        digest = digest * 31u + buffer[i];
    return digest;
}

int main(void)
{
    uint64_t checksum = 0;
    for (uint32_t record = 0; record < RECORD_COUNT; record++) {
        uint64_t *encoded = record_encode(record);
        checksum ^= record_digest(encoded);
        free(encoded);
    }
    printf("churn: %d records, checksum %016llx\n", RECORD_COUNT,
           (unsigned long long)checksum);
    return 0;
}
