/* leak_in_churn.c: a slow leak hidden among temporaries of the same site.
 *
 * message_decode allocates a 512-byte buffer for each of 40,000 messages;
 * the caller frees it, except for one message in 100 whose buffer it
 * forgets (400 buffers, 204,800 bytes, leaked at an even pace).  The mean
 * lifetime of the site's blocks is small (most live a few hundred
 * instructions), yet the leak rule, which has no lifetime condition, must
 * name it: bytes_at_exit 204,800 in 400 blocks.  (The temporaries are also
 * short-lived churn: 39,600 blocks.)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MESSAGES = 40000, LEAK_EVERY = 100, BUFFER_BYTES = 512 };

__attribute__((noinline)) static unsigned char *message_decode(uint32_t id)
{
    unsigned char *buffer = malloc(BUFFER_BYTES);
    if (buffer == NULL) exit(1);
    memset(buffer, (int)id, BUFFER_BYTES);
    return buffer;
}

int main(void)
{
    uint32_t sum = 0;
    for (uint32_t id = 0; id < MESSAGES; id++) {
        unsigned char *buffer = message_decode(id);
        sum += buffer[id % BUFFER_BYTES];
        if (id % LEAK_EVERY != LEAK_EVERY - 1)
            free(buffer);
    }
    return sum == 1 ? 1 : 0;
}
