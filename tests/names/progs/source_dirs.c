/* Built from tests/names (gcc -O2 -g progs/source_dirs.c): the compilation
 * directory is tests/names and the file's line-table directory is "progs",
 * relative to it. fill() is inlined into main (named by the DWARF helper),
 * plain() is not (named by Valgrind); printf allocates its buffer in libc
 * (libc6-dbg: DWARF 5, relative compilation directories such as
 * "./libio"). */
#include <stdio.h>
#include <stdlib.h>

static inline char *fill(int n)
{
    char *p = malloc(n);
    for (int i = 0; i < n; i++)
        p[i] = (char)i;
    return p;
}

__attribute__((noinline)) char *plain(int n)
{
    char *p = malloc(n);   /* not a tail call: plain stays on the stack */
    if (p)
        p[0] = 1;
    return p;
}

int main(int argc, char **argv)
{
    char *a = fill(argc * 100);
    char *b = plain(argc * 200);
    (void)argv;
    printf("%d %d\n", a[1], b == NULL);
    free(a);
    free(b);
    return 0;
}
