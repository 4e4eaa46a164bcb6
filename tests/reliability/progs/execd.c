/* The program a forked child execs: one block of 2000 bytes. */
#include <stdlib.h>
static void* keep;
static void* execd_alloc(void) { return malloc(2000); }   /* SITE execd */
int main(void)
{
   keep = execd_alloc();
   return 0;
}
