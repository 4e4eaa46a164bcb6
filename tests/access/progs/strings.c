/* String functions read exactly the bytes they logically need (glibc's
   would read whole words past the NUL).  "make_text" holds "hello world"
   (12 bytes with the NUL) in a 64-byte block: strlen reads 12, memchr for
   'w' reads 7, strcmp against "help" stops at the 4th byte: 23 reads, map
   reads 3 at offsets 0-3, 2 at 4-6, 1 at 7-11.  "make_other" holds "help"
   (5 bytes) in 32: strcmp reads 4 of them. */
#include <stdlib.h>
#include <string.h>

static char* put(volatile char* p, const char* s)
{
   int i = 0;
   do { p[i] = s[i]; } while (s[i++] != 0);
   return (char*)p;
}

static char* make_text(void)  { return put(malloc(64), "hello world"); }
static char* make_other(void) { return put(malloc(32), "help"); }

int main(void)
{
   char* text = make_text();
   char* other = make_other();
   size_t n = strlen(text);
   char* w = memchr(text, 'w', 64);
   int c = strcmp(text, other);
   int ok = n == 11 && w == text + 6 && c < 0;
   free(text);
   free(other);
   return ok ? 0 : 1;
}
