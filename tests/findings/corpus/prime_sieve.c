/* prime_sieve.c - a sieve of Eratosthenes over a 1 MB calloc'd table
 * (innocent).
 *
 * A prime-counting tool sieves every number up to 1,000,000: sieve_new
 * calloc's one flag byte per number (zero: still a candidate), the sieve
 * marks the multiples of every prime (about 2.1 million writes, all to
 * composites), then one pass reads every flag to count and checksum the
 * primes.
 *
 * It looks alarming: one 1 MB block, nearly all of the program's heap,
 * and the flags of the 78,498 primes are never written by the program.
 * But the allocator's zeros are the sieve's initial state - every flag
 * starts as "candidate" - and the counting pass reads every byte: the
 * table is used in full.
 *
 * Verdict: no oversized-preallocation and no unused-capacity on sieve_new.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LIMIT 1000000

static unsigned char *sieve_new(size_t limit)
{
    unsigned char *composite = calloc(limit + 1, 1);
    if (!composite) { perror("calloc"); exit(1); }
    return composite;
}

static void sieve_mark(unsigned char *composite, size_t limit)
{
    composite[0] = composite[1] = 1;
    for (size_t p = 2; p * p <= limit; p++)
        if (!composite[p])
            for (size_t multiple = p * p; multiple <= limit; multiple += p)
                composite[multiple] = 1;
}

int main(void)
{
    unsigned char *composite = sieve_new(LIMIT);
    sieve_mark(composite, LIMIT);
    size_t primes = 0;
    uint64_t checksum = 0;
    for (size_t n = 0; n <= LIMIT; n++)
        if (!composite[n]) {
            primes++;
            checksum = checksum * 31 + n;
        }
    printf("prime_sieve: %zu primes up to %d (checksum %llx)\n", primes, LIMIT,
           (unsigned long long)checksum);
    free(composite);
    return 0;
}
