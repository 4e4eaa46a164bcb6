/* Ends in the way argv[1] says, after allocating known blocks:
   KNOWN: 3 blocks of 100 bytes from alloc_known (one freed), and in "atexit"
   mode 2 more of 700 bytes from the atexit handler.
     exit N | _exit N | segv | abort | thread-exit N | segv-after-thread |
     term (raise SIGTERM) | atexit */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void* keep[8];

static void* alloc_known(size_t n) { return malloc(n); }   /* SITE known */

static void* exit_from_thread(void* code)
{
   exit((int)(long)code);
}

static void* quiet_thread(void* unused) { return unused; }

static void in_atexit(void)
{
   int i;
   for (i = 5; i < 7; i++) keep[i] = malloc(700);             /* SITE atexit */
}

int main(int argc, char** argv)
{
   const char* mode = argc > 1 ? argv[1] : "exit";
   int code = argc > 2 ? atoi(argv[2]) : 0;
   int i;
   for (i = 0; i < 3; i++) keep[i] = alloc_known(100);
   free(keep[1]);
   if (strcmp(mode, "exit") == 0) exit(code);
   if (strcmp(mode, "_exit") == 0) _exit(code);
   if (strcmp(mode, "segv") == 0) { *(volatile int*)16 = 1; }
   if (strcmp(mode, "abort") == 0) abort();
   if (strcmp(mode, "term") == 0) raise(SIGTERM);
   if (strcmp(mode, "thread-exit") == 0) {
      pthread_t t;
      pthread_create(&t, NULL, exit_from_thread, (void*)(long)code);
      for (;;) pause();
   }
   if (strcmp(mode, "segv-after-thread") == 0) {
      pthread_t t;
      pthread_create(&t, NULL, quiet_thread, NULL);
      pthread_join(t, NULL);
      *(volatile int*)16 = 1;
   }
   if (strcmp(mode, "atexit") == 0) { atexit(in_atexit); return 4; }
   return 99;
}
