/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * walks: blocks written or read byte by byte from start to end, each
 * walk followed at once by the block's free, its realloc or the exit.
 * The access path keeps such a walk aside and puts its bytes into the
 * block when it ends (tool/lh_access_path.c, runs), so every record of
 * the block file and every figure of the profile must still hold all of
 * them:
 *   100 bytes written, then freed:               read 0,  written 100
 *    60 bytes written, 50 read, then resized to 80 (the old stretch ends:
 *                                                 read 50, written 60)
 *    the 80-byte block: 20 more written, live at exit
 *                                               (read 50, written 80)
 *    40 bytes written, live at exit:             read 0,  written 40
 * Built with -O0 -fno-builtin: the loops stay byte loops.
 */
#include <stdlib.h>

static void fill(unsigned char *p, size_t from, size_t to)
{
    size_t i;
    for (i = from; i < to; i++)
        p[i] = (unsigned char)i;
}

static unsigned long sum(const unsigned char *p, size_t n)
{
    unsigned long s = 0;
    size_t i;
    for (i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    unsigned char *freed, *grown, *kept;
    unsigned long s;
    freed = malloc(100);
    if (freed == NULL)
        return 1;
    fill(freed, 0, 100);
    free(freed);
    grown = malloc(60);
    if (grown == NULL)
        return 1;
    fill(grown, 0, 60);
    s = sum(grown, 50);
    grown = realloc(grown, 80);
    if (grown == NULL)
        return 1;
    fill(grown, 60, 80);
    kept = malloc(40);
    if (kept == NULL)
        return 1;
    fill(kept, 0, 40);
    return s == 1225 ? 0 : 3;     /* 0 + 1 + ... + 49 */
}
