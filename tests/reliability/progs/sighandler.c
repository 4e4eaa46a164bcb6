/* Allocation inside a signal handler: SIGUSR1 is raised 10 times; the
   handler allocates 333 bytes each time (SITE in_handler) and keeps them. */
#include <signal.h>
#include <stdlib.h>

static void* kept[10];
static volatile int n;

static void on_usr1(int sig)
{
   kept[n++] = malloc(333);                     /* SITE in_handler */
}

int main(void)
{
   int i;
   signal(SIGUSR1, on_usr1);
   for (i = 0; i < 10; i++) raise(SIGUSR1);
   return n == 10 ? 0 : 1;
}
