/* One source location, two code addresses: built with -DTWO_CALLS, MAKE_ITEM
 * expands to two calls of make_item on one line (two sites whose stacks
 * have the same functions, files and lines: twins, as the compiler makes when
 * it duplicates code); built without, to one call (one site). The diff of
 * the two builds must show one row whose figures are the twins' sums.
 *
 * 30 items of 48 bytes, 10 of them (every third, from n = 0) through the
 * second call of the two-call build; all live together, then all but the
 * first 6 are freed (2 of those 6 from the second call). One 4096-byte
 * buffer, live throughout, is a site of its own in both builds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

struct item {
    struct item *next;
    char payload[40];
};

#ifdef TWO_CALLS
#define MAKE_ITEM(n) ((n) % 3 ? make_item(1) : make_item(2))
#else
#define MAKE_ITEM(n) make_item((n) % 3 ? 1 : 2)
#endif

static struct item *make_item(int tag)
{
    struct item *item = malloc(sizeof *item);
    memset(item->payload, tag, sizeof item->payload);
    return item;
}

int main(void)
{
    char *buffer = malloc(4096);
    memset(buffer, 0, 4096);
    struct item *items[30];
    for (int n = 0; n < 30; n++)
        items[n] = MAKE_ITEM(n);
    for (int n = 6; n < 30; n++)
        free(items[n]);
    return buffer[0] + items[0]->payload[0] == 0;
}
