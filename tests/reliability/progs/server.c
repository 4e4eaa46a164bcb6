/* A server-like program that never ends: it keeps a growing list of
   64-byte "sessions" (SITE session, one per iteration, never freed) and a
   short-lived 256-byte request buffer per iteration (SITE request).  Each
   iteration computes a while (so periodic dumps by instructions fire) and
   argv[1] == "sleep" makes it sleep 10 ms per iteration instead.  It
   prints "ready" once it has made 100 sessions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct session { struct session* next; char data[56]; };

static struct session* new_session(void) { return malloc(sizeof(struct session)); }  /* SITE session */
static char* new_request(void) { return malloc(256); }                             /* SITE request */

int main(int argc, char** argv)
{
   struct session* sessions = NULL;
   int sleeping = argc > 1 && strcmp(argv[1], "sleep") == 0;
   unsigned long n = 0;
   volatile unsigned long work = 0;
   for (;;) {
      struct session* s = new_session();
      char* request = new_request();
      unsigned long i;
      memset(request, 'r', 256);
      s->next = sessions;
      sessions = s;
      free(request);
      if (++n == 100) { printf("ready\n"); fflush(stdout); }
      if (sleeping) usleep(10000);
      else for (i = 0; i < 200000; i++) work += i;
   }
}
