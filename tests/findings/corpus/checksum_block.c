/* checksum_block.c - a small program whose 64 KiB buffer is fully used
 * (innocent).
 *
 * Computes a block checksum over a 64 KiB block: block_read fills a
 * 65,536-byte buffer completely (a device block, generated here), then 16
 * passes of a CRC read every byte of it. The buffer is nearly the whole
 * heap of this small program, but nothing in it is unused.
 *
 * Verdict: no oversized-preallocation, no unused-capacity on block_read.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 65536

static unsigned char *block_read(uint32_t block_number)
{
    unsigned char *block = malloc(BLOCK);
    if (!block) { perror("malloc"); exit(1); }
    uint32_t state = block_number * 2654435761u + 1;
    for (size_t i = 0; i < BLOCK; i++) {
        state ^= state << 13; state ^= state >> 17; state ^= state << 5;
        block[i] = (unsigned char)state;
    }
    return block;
}

int main(void)
{
    unsigned char *block = block_read(7);
    uint32_t crc = 0xFFFFFFFFu;
    for (int pass = 0; pass < 4; pass++)
        for (size_t i = 0; i < BLOCK; i++) {
            crc ^= block[i];
            for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
        }
    printf("checksum_block: %08x\n", ~crc);
    free(block);
    return 0;
}
