/* Exits with a given code, or aborts: run.exit records how it ended. */
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
   void* p = malloc(10);                        /* SITE exitcode */
   (void)p;
   if (argc > 1 && strcmp(argv[1], "abort") == 0) abort();
   return argc > 1 ? atoi(argv[1]) : 0;
}
