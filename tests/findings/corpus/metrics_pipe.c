/* metrics_pipe.c - a metrics agent: a parser thread feeding a slower writer.
 *
 * main() parses incoming measurement lines at a steady pace and groups them
 * into batches of 64 samples (1 KiB); each batch goes onto a list that the
 * writer thread drains, encoding every batch into its storage format (a
 * delta + varint pass, then a checksum) before freeing it. The list has no
 * bound and the writer costs about three times what the parser does per
 * batch, so batches pile up steadily for as long as input arrives.
 *
 * Verdict: missing-backpressure on batch_flush (allocated by main, freed by
 * the writer thread, hundreds waiting).
 * Twin: metrics_pipe_bounded.c (at most 16 batches queued).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_SAMPLES 64
#define BATCHES 2000

struct sample { uint64_t timestamp; double value; };

struct batch {
    struct batch *next;
    uint32_t count;
    struct sample samples[BATCH_SAMPLES];
};

static pthread_mutex_t pipe_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pipe_ready = PTHREAD_COND_INITIALIZER;
static struct batch *pipe_head, *pipe_tail;
static int input_done;

static uint64_t bytes_written;

/* The parser: one "line" of input per sample ("cpu.load 1712345678 0.73"). */
static struct sample parse_line(uint64_t n)
{
    char line[64];
    snprintf(line, sizeof line, "cpu.load %llu %llu.%02llu", (unsigned long long)(1712345678 + n),
             (unsigned long long)(n % 4), (unsigned long long)(n * 7 % 100));
    struct sample s;
    char *end;
    strtok(line, " ");
    s.timestamp = strtoull(strtok(NULL, " "), &end, 10);
    s.value = strtod(strtok(NULL, " "), &end);
    return s;
}

/* Hands the collected samples to the writer. */
static void batch_flush(const struct sample *samples, uint32_t count)
{
    struct batch *b = malloc(sizeof *b);
    if (!b) { perror("malloc"); exit(1); }
    b->next = NULL;
    b->count = count;
    memcpy(b->samples, samples, count * sizeof *samples);
    pthread_mutex_lock(&pipe_lock);
    if (pipe_tail) pipe_tail->next = b; else pipe_head = b;
    pipe_tail = b;
    pthread_cond_signal(&pipe_ready);
    pthread_mutex_unlock(&pipe_lock);
}

static size_t encode_batch(const struct batch *b, unsigned char *out)
{
    size_t n = 0;
    uint64_t previous = 0;
    for (uint32_t i = 0; i < b->count; i++) {
        uint64_t delta = b->samples[i].timestamp - previous;
        previous = b->samples[i].timestamp;
        uint64_t bits;
        memcpy(&bits, &b->samples[i].value, sizeof bits);
        for (int round = 0; round < 1500; round++)   /* the storage cipher's rounds */
            bits = (bits ^ (bits >> 29)) * 0xBF58476D1CE4E5B9ull;
        do { out[n++] = (unsigned char)(delta | 0x80); delta >>= 7; } while (delta);
        for (int k = 0; k < 8; k++) out[n++] = (unsigned char)(bits >> (8 * k));
    }
    return n;
}

static void *writer_main(void *arg)
{
    (void)arg;
    static unsigned char encoded[BATCH_SAMPLES * 20];
    for (;;) {
        pthread_mutex_lock(&pipe_lock);
        while (!pipe_head && !input_done)
            pthread_cond_wait(&pipe_ready, &pipe_lock);
        struct batch *b = pipe_head;
        if (b) { pipe_head = b->next; if (!pipe_head) pipe_tail = NULL; }
        pthread_mutex_unlock(&pipe_lock);
        if (!b) break;
        bytes_written += encode_batch(b, encoded);
        free(b);
    }
    return NULL;
}

int main(void)
{
    pthread_t writer;
    pthread_create(&writer, NULL, writer_main, NULL);
    struct sample pending[BATCH_SAMPLES];
    uint32_t count = 0;
    for (uint64_t n = 0; n < (uint64_t)BATCHES * BATCH_SAMPLES; n++) {
        pending[count++] = parse_line(n);
        if (count == BATCH_SAMPLES) {
            batch_flush(pending, count);
            count = 0;
        }
    }
    pthread_mutex_lock(&pipe_lock);
    input_done = 1;
    pthread_cond_broadcast(&pipe_ready);
    pthread_mutex_unlock(&pipe_lock);
    pthread_join(writer, NULL);
    printf("metrics_pipe: %d batches, %llu bytes written\n", BATCHES, (unsigned long long)bytes_written);
    return 0;
}
