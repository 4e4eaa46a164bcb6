/* report_fmt_fixed.c - report_fmt.c with the line sized by snprintf.
 *
 * The same report; format_summary asks snprintf for the length first and
 * allocates exactly that (about 100 bytes).
 *
 * Verdict: no oversized-preallocation, no unused-capacity (the samples are
 * all read; the line is all written and read). Twin of report_fmt.c:
 *
 * A latency report: the program holds 32,768 samples (256 KiB, every one
 * read by the statistics), then format_summary formats a one-line summary
 * (~100 bytes) into a 64 KiB buffer allocated "to be safe", prints it and
 * frees it. The buffer is a fifth of this small program's peak and 99.8%
 * of it is never touched.
 *
 * Verdict: oversized-preallocation on format_summary. The block is exactly
 * 64 KiB and its waste just under 64 KiB: what makes it worth reporting is
 * its share of the run (~20% of the peak), not an absolute size - a
 * demanding user of a small program wants it named.
 * Twin: report_fmt_fixed.c (snprintf sizes the line first: 104 bytes).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLES 32768

static char *format_summary(const uint64_t *samples, size_t n)
{
    uint64_t min = UINT64_MAX, max = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (samples[i] < min) min = samples[i];
        if (samples[i] > max) max = samples[i];
        sum += samples[i];
    }
    const char *format = "latency: %zu samples, min %llu us, max %llu us, mean %llu us, total %llu us";
    int length = snprintf(NULL, 0, format, n, (unsigned long long)min, (unsigned long long)max,
                          (unsigned long long)(sum / n), (unsigned long long)sum);
    char *line = malloc((size_t)length + 1);
    if (!line) { perror("malloc"); exit(1); }
    snprintf(line, (size_t)length + 1, "latency: %zu samples, min %llu us, max %llu us, mean %llu us, total %llu us",
             n, (unsigned long long)min, (unsigned long long)max, (unsigned long long)(sum / n),
             (unsigned long long)sum);
    return line;
}

int main(void)
{
    uint64_t *samples = malloc(SAMPLES * sizeof *samples);
    if (!samples) { perror("malloc"); return 1; }
    uint32_t state = 12345;
    for (size_t i = 0; i < SAMPLES; i++) {
        state = state * 1103515245u + 12345u;
        samples[i] = 100 + (state >> 16) % 5000;
    }
    char *line = format_summary(samples, SAMPLES);
    puts(line);
    free(line);
    free(samples);
    return 0;
}
