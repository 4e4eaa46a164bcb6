/* Frees CHURN blocks of 4,321 bytes (a size nothing else uses), says
 * "ready" on stdout and waits to be killed: tests/sql kills it with
 * SIGKILL and reads its block file up to the last flush. */
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

int main(void)
{
    churn();
    if (write(1, "ready\n", 6) != 6)
        return 1;
    for (;;)
        pause();
}
