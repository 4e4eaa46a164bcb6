/* audit_log_reuse.c - audit_log.c with one reused record buffer.
 *
 * The same logger; format_record writes into a 160-byte buffer that main
 * allocates once (record_buffer_new) and frees at the end.
 *
 * Verdict: no short-lived-churn (one block for the whole run), no leak.
 * Twin of audit_log.c, described below.
 *
 * An audit logger formats each event into a newly allocated string
 * (format_record: malloc, snprintf), appends it to the log file's buffer
 * and frees it. 30,000 events, each string living for a few hundred
 * instructions: allocator traffic for nothing, since one reusable buffer
 * would do.
 *
 * Verdict: short-lived-churn on format_record.
 * Twin: audit_log_reuse.c (one buffer, allocated once, reused).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENTS 30000

static char *record_buffer_new(void)
{
    char *record = malloc(160);
    if (!record) { perror("malloc"); exit(1); }
    return record;
}

static char *format_record(char *record, unsigned n)
{
    snprintf(record, 160, "%u|user%u|%s|/srv/data/%u", n, n % 97, n % 5 ? "read" : "write", n % 1000);
    return record;
}

int main(void)
{
    static char file_buffer[8192];
    size_t used = 0;
    uint64_t flushed = 0;
    char *buffer = record_buffer_new();
    for (unsigned n = 0; n < EVENTS; n++) {
        char *record = format_record(buffer, n);
        size_t length = strlen(record);
        if (used + length + 1 > sizeof file_buffer) {
            for (size_t i = 0; i < used; i++) flushed += (unsigned char)file_buffer[i];
            used = 0;
        }
        memcpy(file_buffer + used, record, length);
        file_buffer[used + length] = '\n';
        used += length + 1;
    }
    free(buffer);
    printf("audit_log_reuse: %d events, %llu\n", EVENTS, (unsigned long long)flushed);
    return 0;
}
