/* list_growth.c: unbounded growth on one thread, through a generic wrapper.
 *
 * history_append allocates one 512-byte node (through xmalloc, a generic
 * wrapper the finding must look past) for each of 3,000 events, with the
 * same amount of work between two appends, and nothing is freed until the
 * end: the site's live bytes rise through the whole run.
 *
 * By construction (site history_append):
 *   3,000 blocks x 512 bytes = 1,536,000 bytes, all live at the site's max
 *   (max_blocks 3,000), all freed at the end by main on the same thread
 *   (freed_blocks 3,000, cross_thread_frees 0, allocating_threads 1,
 *   bytes_at_exit 0) -> unbounded-growth, not leak, not
 *   missing-backpressure.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EVENTS = 3000, WORK_ROUNDS = 3000 };

struct node {
    struct node *next;
    unsigned char payload[504];   /* 512 bytes in all */
};

__attribute__((noinline)) static void *xmalloc(size_t size)
{
    void *block = malloc(size);
    if (block == NULL) {
        perror("xmalloc");
        exit(1);
    }
    return block;
}

__attribute__((noinline)) static void history_append(struct node **head, uint32_t value)
{
    struct node *node = xmalloc(sizeof *node);
    memset(node->payload, (int)value, sizeof node->payload);
    node->next = *head;
    *head = node;
}

static uint32_t work(uint32_t state)
{
    for (int i = 0; i < WORK_ROUNDS; i++)
        state = state * 1103515245u + 12345u;
    return state;
}

int main(void)
{
    struct node *head = NULL;
    uint32_t state = 1;
    for (uint32_t event = 0; event < EVENTS; event++) {
        state = work(state);
        history_append(&head, state);
    }
    uint32_t checksum = 0;
    while (head != NULL) {
        struct node *next = head->next;
        checksum += head->payload[0];
        free(head);
        head = next;
    }
    return checksum == 0xffffffffu ? 1 : 0;
}
