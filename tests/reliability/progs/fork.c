/* fork: the parent allocates 1000 bytes before the fork (kept), the child
   2000, the parent 3000 after it.  "exec PROG" makes the child exec PROG
   instead of allocating (then the child's 2000 come from PROG).  The parent
   waits for the child, then exits 0.  "execnow PROG": no fork, the process
   execs PROG right after its 1000 bytes (exit status 127 if exec fails). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void* keep[4];

static void* before_fork_alloc(void) { return malloc(1000); }   /* SITE before_fork */
static void* child_alloc(void) { return malloc(2000); }         /* SITE in_child */
static void* parent_alloc(void) { return malloc(3000); }        /* SITE parent_after */

int main(int argc, char** argv)
{
   pid_t child;
   keep[0] = before_fork_alloc();
   if (argc > 2 && strcmp(argv[1], "execnow") == 0) {
      execl(argv[2], argv[2], (char*)NULL);
      _exit(127);
   }
   child = fork();
   if (child == 0) {
      if (argc > 2 && strcmp(argv[1], "exec") == 0) {
         execl(argv[2], argv[2], (char*)NULL);
         _exit(127);
      }
      keep[1] = child_alloc();
      return 0;
   }
   keep[2] = parent_alloc();
   waitpid(child, NULL, 0);
   return 0;
}
