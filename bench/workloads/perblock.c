/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perblock: what one live block costs a tool, nothing else.
 *
 * Makes COUNT blocks of SIZE bytes at one allocation site and keeps them
 * all live to the end.  MODE says what the program does with them:
 *
 *   untouched   nothing after malloc
 *   touched     writes every byte of every block, then reads every byte
 *               back three times (so each block has been written and read,
 *               and its access state is what a used block's is)
 *   churned     as touched, and then frees every other block and allocates
 *               it again (a quarter of them through realloc to the same
 *               size class), touching the new ones: the state a block
 *               costs must not depend on the order of frees and reallocs
 *
 * Run it at two counts under the same tool: the difference of peak RSS
 * divided by the difference of counts is the cost of one live block with
 * the fixed costs (start-up, the site, tables) taken out; subtracting the
 * same slope under --tool=none leaves what the tool adds per block
 * (bench/perblock.sh).
 *
 * Usage: perblock COUNT SIZE untouched|touched|churned
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void touch(unsigned char *block, size_t size, unsigned long *sum)
{
    size_t i;
    int pass;
    for (i = 0; i < size; i++)
        block[i] = (unsigned char)(i * 7 + 1);
    for (pass = 0; pass < 3; pass++)
        for (i = 0; i < size; i++)
            *sum += block[i];
}

int main(int argc, char **argv)
{
    long count, i;
    size_t size;
    int touched, churned;
    unsigned char **blocks;
    unsigned long sum = 0;

    if (argc != 4) {
        fprintf(stderr, "usage: perblock COUNT SIZE untouched|touched|churned\n");
        return 2;
    }
    count = atol(argv[1]);
    size = (size_t)atol(argv[2]);
    churned = strcmp(argv[3], "churned") == 0;
    touched = churned || strcmp(argv[3], "touched") == 0;
    if (count < 0 || size == 0 || (!touched && strcmp(argv[3], "untouched") != 0)) {
        fprintf(stderr, "perblock: bad arguments\n");
        return 2;
    }
    blocks = malloc((size_t)count * sizeof *blocks);
    if (blocks == NULL && count > 0)
        return 1;
    for (i = 0; i < count; i++) {
        blocks[i] = malloc(size);
        if (blocks[i] == NULL)
            return 1;
        if (touched)
            touch(blocks[i], size, &sum);
    }
    if (churned) {
        for (i = 0; i < count; i += 2) {
            if (i % 4 == 0) {
                free(blocks[i]);
                blocks[i] = malloc(size);
            } else {
                blocks[i] = realloc(blocks[i], size - 1 > 0 ? size - 1 : 1);
            }
            if (blocks[i] == NULL)
                return 1;
            touch(blocks[i], size - 1 > 0 ? size - 1 : 1, &sum);
        }
    }
    printf("%ld blocks of %zu bytes, checksum %lu\n", count, size, sum);
    return 0;
}
