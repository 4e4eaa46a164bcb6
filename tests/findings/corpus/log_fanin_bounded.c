/* log_fanin_bounded.c - log_fanin.c with a bounded log list.
 *
 * The same server, but at most 64 lines wait for the writer: log_submit
 * blocks (log_not_full) while the list is full, so handlers slow down to
 * the writer's pace instead of piling lines up.
 *
 * Verdict: no missing-backpressure (same four-to-one hand-off, at most ~68
 * lines live), no growth or leak. Twin of log_fanin.c, described below.
 *
 * A server's four request-handler threads each format an access-log line
 * for every request they serve (log_submit: a heap copy of the line, ~300
 * bytes) and append it to a shared list; one log-writer thread takes lines
 * off the list, redacts and hashes them for the audit trail and frees them.
 * The list has no bound: four producers together outrun the one writer, and
 * lines pile up.
 *
 * Verdict: missing-backpressure on log_submit (allocated by four threads,
 * all freed by the writer thread, hundreds waiting at once).
 * Twin: log_fanin_bounded.c (at most 64 lines waiting; handlers block).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HANDLERS 4
#define REQUESTS_PER_HANDLER 700

struct log_line {
    struct log_line *next;
    size_t length;
    char text[];
};

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t log_ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t log_not_full = PTHREAD_COND_INITIALIZER;
static int log_count;
#define LOG_CAPACITY 64
static struct log_line *log_head, *log_tail;
static int handlers_left = HANDLERS;
static uint64_t audit_hash;

/* Queues one line for the writer. */
static void log_submit(const char *text, size_t length)
{
    struct log_line *line = malloc(sizeof *line + length + 1);
    if (!line) { perror("malloc"); exit(1); }
    line->next = NULL;
    line->length = length;
    memcpy(line->text, text, length + 1);
    pthread_mutex_lock(&log_lock);
    while (log_count == LOG_CAPACITY)
        pthread_cond_wait(&log_not_full, &log_lock);
    log_count++;
    if (log_tail) log_tail->next = line; else log_head = line;
    log_tail = line;
    pthread_cond_signal(&log_ready);
    pthread_mutex_unlock(&log_lock);
}

static void *handler_main(void *arg)
{
    int handler = (int)(intptr_t)arg;
    char text[512];
    for (int request = 0; request < REQUESTS_PER_HANDLER; request++) {
        int status = (request % 17 == 0) ? 404 : 200;
        int length = snprintf(text, sizeof text,
            "10.0.%d.%d - - [24/Nov/2026:09:%02d:%02d +0000] \"GET /api/v2/orders/%d?expand=items,customer"
            "&page=%d HTTP/1.1\" %d %d \"-\" \"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 "
            "(KHTML, like Gecko) Chrome/120.0 Safari/537.36\" handler=%d",
            handler, request % 250, request / 60 % 60, request % 60, request * 13 + handler,
            request % 9, status, 512 + request % 4096, handler);
        log_submit(text, (size_t)length);
    }
    pthread_mutex_lock(&log_lock);
    handlers_left--;
    pthread_cond_broadcast(&log_ready);
    pthread_mutex_unlock(&log_lock);
    return NULL;
}

/* Masks the client address and hashes the line for the audit trail. */
static uint64_t audit(struct log_line *line)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < line->length && line->text[i] != ' '; i++)
        if (line->text[i] >= '0' && line->text[i] <= '9') line->text[i] = 'x';
    for (int round = 0; round < 12; round++)
        for (size_t i = 0; i < line->length; i++)
            h = (h ^ (unsigned char)line->text[i]) * 0x100000001B3ull;
    return h;
}

static void *writer_main(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&log_lock);
        while (!log_head && handlers_left > 0)
            pthread_cond_wait(&log_ready, &log_lock);
        struct log_line *line = log_head;
        if (line) {
            log_head = line->next;
            if (!log_head) log_tail = NULL;
            log_count--;
            pthread_cond_signal(&log_not_full);
        }
        pthread_mutex_unlock(&log_lock);
        if (!line) break;
        audit_hash += audit(line);   /* the order of lines does not matter */
        free(line);
    }
    return NULL;
}

int main(void)
{
    pthread_t writer, handlers[HANDLERS];
    pthread_create(&writer, NULL, writer_main, NULL);
    for (int i = 0; i < HANDLERS; i++)
        pthread_create(&handlers[i], NULL, handler_main, (void *)(intptr_t)i);
    for (int i = 0; i < HANDLERS; i++)
        pthread_join(handlers[i], NULL);
    pthread_join(writer, NULL);
    printf("log_fanin_bounded: %d lines audited, audit sum %016llx\n", HANDLERS * REQUESTS_PER_HANDLER,
           (unsigned long long)audit_hash);
    return 0;
}
