/* Frees CHURN blocks of 4,321 bytes (a size nothing else uses), says
 * "ready" on stdout and waits to be killed: tests/sql kills it with
 * SIGKILL and reads its block file up to the last flush.  "compute": runs
 * about 30 million instructions between the churn and "ready", so that a
 * periodic dump (every million) comes after the churn. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHURN 5000

__attribute__((noinline)) static void churn(void)
{
    for (int i = 0; i < CHURN; i++) {
        char *block = malloc(4321);
        block[0] = (char)i;
        free(block);
    }
}

int main(int argc, char **argv)
{
    churn();
    if (argc > 1 && strcmp(argv[1], "compute") == 0) {
        volatile unsigned long x = 1;
        for (long i = 0; i < 3000000; i++)
            x = x * 6364136223846793005UL + 1;
    }
    if (write(1, "ready\n", 6) != 6)
        return 1;
    for (;;)
        pause();
}
