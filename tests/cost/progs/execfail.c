/* execfail PATH: execs PATH (meant not to exist) and exits 127 when the exec
   fails.  Under lifeheap with --trace-children=yes and
   --trace-children-skip=PATTERN, the tool asks the core whether PATH is to
   be traced, which matches PATTERN against PATH with VG_(string_match): the
   tool says "... excludes it" exactly when the pattern matches. */
#include <unistd.h>

int main(int argc, char** argv)
{
   if (argc > 1) execl(argv[1], argv[1], (char*)0);
   return 127;
}
