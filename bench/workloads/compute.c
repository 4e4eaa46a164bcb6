/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compute: arithmetic and array access over a handful of heap blocks.
 *
 * Four arrays of doubles (allocated once) go through repeated passes of a
 * 1-D three-point stencil, a dot product and a strided gather. Almost no
 * allocation happens, so this measures what a tool costs per memory access
 * (the instrumentation itself), not its allocation bookkeeping.
 *
 * Usage: compute N PASSES   (prints a checksum, so results stay observable)
 */
#include <stdio.h>
#include <stdlib.h>

static double *new_array(long n)
{
    double *array = malloc((size_t)n * sizeof *array);
    if (array == NULL) {
        fprintf(stderr, "compute: out of memory\n");
        exit(1);
    }
    return array;
}

static long parse_positive(const char *text)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return (*end == '\0' && value > 0) ? value : -1;
}

int main(int argc, char **argv)
{
    long n = argc == 3 ? parse_positive(argv[1]) : -1;
    long passes = argc == 3 ? parse_positive(argv[2]) : -1;
    if (n < 16 || passes < 1) {
        fprintf(stderr, "usage: compute N PASSES   (N >= 16, PASSES >= 1)\n");
        return 2;
    }

    double *current = new_array(n);
    double *next = new_array(n);
    double *weights = new_array(n);
    long *gather_index = malloc((size_t)n * sizeof *gather_index);
    if (gather_index == NULL) {
        fprintf(stderr, "compute: out of memory\n");
        return 1;
    }

    for (long i = 0; i < n; i++) {
        current[i] = (double)(i % 1000) / 1000.0;
        weights[i] = 1.0 / (double)(1 + i % 7);
        /* A fixed permutation-like stride so gathers are not sequential. */
        gather_index[i] = (i * 7919) % n;
    }

    double checksum = 0.0;
    for (long pass = 0; pass < passes; pass++) {
        next[0] = current[0];
        next[n - 1] = current[n - 1];
        for (long i = 1; i < n - 1; i++)
            next[i] = 0.25 * current[i - 1] + 0.5 * current[i] + 0.25 * current[i + 1];

        double dot = 0.0;
        for (long i = 0; i < n; i++)
            dot += next[i] * weights[i];

        double gathered = 0.0;
        for (long i = 0; i < n; i++)
            gathered += next[gather_index[i]];

        checksum += dot + 0.5 * gathered;
        double *swap = current;
        current = next;
        next = swap;
    }

    printf("compute n=%ld passes=%ld checksum=%.6f\n", n, passes, checksum);
    free(current);
    free(next);
    free(weights);
    free(gather_index);
    return 0;
}
