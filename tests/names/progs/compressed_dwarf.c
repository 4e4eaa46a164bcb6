/* Built with gcc -O2 -g -gz=zlib (and copied with its DWARF decompressed by
 * objcopy) for the DWARF helper's tests: fill() is inlined into main, so
 * main's addresses have inline chains of two levels. */
#include <stdio.h>
#include <stdlib.h>

static inline char *fill(int n)
{
    char *p = malloc(n);
    for (int i = 0; i < n; i++)
        p[i] = (char)i;
    return p;
}

int main(int argc, char **argv)
{
    int n = argc * 10, sum = 0;
    char *p = fill(n);
    (void)argv;
    for (int i = 0; i < n; i++)
        sum += p[i];
    printf("%d\n", sum);
    free(p);
    return 0;
}
