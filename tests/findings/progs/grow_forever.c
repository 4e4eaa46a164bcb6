/* grow_forever.c: a program that never ends, growing all the time.
 *
 * forever_append allocates one 256-byte record after every stretch of
 * work, keeps it, and never stops: the test kills it (SIGKILL) and reads
 * the last periodic dump (--lifeheap-dump-interval), which must be a
 * complete, consistent profile of the run so far (complete: false).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct record {
    struct record *next;
    unsigned char payload[248];   /* 256 bytes in all */
};

__attribute__((noinline)) static struct record *
forever_append(struct record *head, uint32_t value)
{
    struct record *record = malloc(sizeof *record);
    if (record == NULL) exit(1);
    memset(record->payload, (int)value, sizeof record->payload);
    record->next = head;
    return record;
}

int main(void)
{
    struct record *head = NULL;
    uint32_t state = 1;
    for (;;) {
        for (int i = 0; i < 20000; i++)
            state = state * 1103515245u + 12345u;
        head = forever_append(head, state);
    }
}
