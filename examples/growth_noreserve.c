/* growth_noreserve.c - realloc growth: a vector grown one element at a time.
 *
 * Problem: reading_log_append grows the log's array with realloc by exactly
 * one 16-byte element per call. The final size (5,000 readings) is known
 * before the loop starts, but nobody reserves it, so the array is reallocated
 * 4,999 times, and every move copies everything appended so far.
 *
 * Fix: growth_reserve.c - reading_log_reserve allocates room for all 5,000
 * readings once, before the loop.
 *
 * Numbers a profiler must find (by construction):
 *   - site: reading_log_append (the realloc): 5,000 calls; the first is
 *     realloc(NULL, 16), a plain allocation; the other 4,999 grow the block
 *     from k x 16 to (k + 1) x 16 bytes for k = 1 .. 4,999.
 *   - when every growing realloc moves the block (as Valgrind's replacement
 *     allocator does), the bytes copied are 16 x (1 + 2 + ... + 4,999) =
 *     16 x 12,497,500 = 199,960,000 bytes, for an array that ends at 80,000
 *     bytes (5,000 x 16). glibc natively often grows in place instead.
 *     (DHAT counts this site as 5,000 blocks totalling 200,040,000 bytes:
 *     every size the block passed through, 16 x (1 + ... + 5,000).)
 *   - the final block (80,000 bytes) is fully written once and read once by
 *     reading_log_mean, then freed before exit.
 *
 * Output (deterministic): the number of readings and their mean.
 *
 * Build: cc -O0 -g -fno-builtin growth_noreserve.c -o growth_noreserve
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { READING_COUNT = 5000 };

struct reading {
    uint64_t timestamp;
    double value;
};

struct reading_log {
    struct reading *items;
    size_t count;
};

/* The interesting allocation: grows the array by one element per call. */
__attribute__((noinline)) static void
reading_log_append(struct reading_log *log, struct reading reading)
{
    struct reading *grown = realloc(log->items, (log->count + 1) * sizeof *grown);
    if (grown == NULL) {
        perror("reading_log_append: realloc");
        exit(1);
    }
    log->items = grown;
    log->items[log->count++] = reading;
}

/* Mean value, and the time span covered; reads every byte of the array. */
static double reading_log_mean(const struct reading_log *log, uint64_t *span_out)
{
    double sum = 0;
    uint64_t first = 0, last = 0;
    for (size_t i = 0; i < log->count; i++) {
        struct reading reading = log->items[i]; /* reads all 16 bytes */
        if (i == 0)
            first = reading.timestamp;
        last = reading.timestamp;
        sum += reading.value;
    }
    *span_out = last - first;
    return log->count ? sum / (double)log->count : 0;
}

/* A deterministic stand-in for a sensor. */
static double sample_sensor(uint32_t index)
{
    return (double)((index * 2654435761u) % 1000u) / 10.0;
}

int main(void)
{
    struct reading_log log = { NULL, 0 };
    for (uint32_t i = 0; i < READING_COUNT; i++) {
        struct reading reading = { 1000u * (uint64_t)i, sample_sensor(i) };
        reading_log_append(&log, reading);
    }
    uint64_t span;
    double mean = reading_log_mean(&log, &span);
    printf("growth_noreserve: %zu readings over %llu us, mean %.4f\n", log.count,
           (unsigned long long)span, mean);
    free(log.items);
    return 0;
}
