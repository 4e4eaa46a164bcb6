/* growth_reserve.c - the fix for growth_noreserve.c: reserve up front.
 *
 * Problem fixed: growth_noreserve.c grows its array with realloc by one
 * 16-byte element per append, 4,999 reallocs that copy the array again and
 * again, although the final count (5,000) is known before the loop.
 *
 * Fix: reading_log_reserve allocates room for all 5,000 readings once;
 * reading_log_append only stores. Readings and output are identical.
 *
 * Numbers a profiler must find (by construction):
 *   - site: reading_log_reserve: 1 block of 80,000 bytes (5,000 x 16), no
 *     realloc at all, 0 bytes copied; every byte written once by
 *     reading_log_append and read once by reading_log_mean; freed before exit.
 *   - reading_log_append allocates nothing.
 *
 * Output (deterministic): the same line as growth_noreserve, renamed.
 *
 * Build: cc -O0 -g -fno-builtin growth_reserve.c -o growth_reserve
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
    size_t capacity;
};

/* The interesting allocation, and the fix: one block for every reading. */
__attribute__((noinline)) static void
reading_log_reserve(struct reading_log *log, size_t capacity)
{
    log->items = malloc(capacity * sizeof *log->items);
    if (log->items == NULL) {
        perror("reading_log_reserve: malloc");
        exit(1);
    }
    log->count = 0;
    log->capacity = capacity;
}

__attribute__((noinline)) static void
reading_log_append(struct reading_log *log, struct reading reading)
{
    if (log->count == log->capacity) {
        fprintf(stderr, "reading_log_append: log is full (%zu readings)\n",
                log->capacity);
        exit(1);
    }
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
    struct reading_log log;
    reading_log_reserve(&log, READING_COUNT);
    for (uint32_t i = 0; i < READING_COUNT; i++) {
        struct reading reading = { 1000u * (uint64_t)i, sample_sensor(i) };
        reading_log_append(&log, reading);
    }
    uint64_t span;
    double mean = reading_log_mean(&log, &span);
    printf("growth_reserve: %zu readings over %llu us, mean %.4f\n", log.count,
           (unsigned long long)span, mean);
    free(log.items);
    return 0;
}
