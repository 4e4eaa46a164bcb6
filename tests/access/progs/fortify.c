/* A _FORTIFY_SOURCE check that fails ends the program under lifeheap as
   it does natively: __strcpy_chk of a 23-byte string into a destination
   the compiler knew to be 16 bytes calls glibc's __chk_fail ("buffer
   overflow detected", SIGABRT) before it writes past those 16 bytes. */
#include <stdio.h>
#include <stdlib.h>

char* __strcpy_chk(char* dst, const char* src, size_t dst_len);

int main(void)
{
   char* dst = malloc(64);
   __strcpy_chk(dst, "longer than sixteen!!!", 16);
   printf("not stopped\n");
   return 0;
}
