/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * liveheap: the same work, with a live heap of a different size.
 *
 * bintree changes two things at once when its depth grows: the number of
 * live blocks and the amount of work.  This workload holds the work fixed
 * and changes only the live heap, so a tool whose cost per allocation or
 * per access grows with the number of live blocks shows it directly, as a
 * ratio to `--tool=none` that rises with LIVE.
 *
 *   1. allocate LIVE blocks of 32 bytes and write each once;
 *   2. OPS times: pick a live block at random, read it, free it, allocate
 *      a new one in its place and write it, then read another live block
 *      picked at random.
 *
 * Every step reaches a block chosen at random among all live ones, so a
 * lookup that searches the live blocks (a tree, a list) cannot be helped by
 * locality.  Step 1 is LIVE allocations; with OPS at least 4 x LIVE, step 2
 * is most of the run.
 *
 * Usage: liveheap LIVE OPS   (prints a checksum, so results stay observable)
 */
#include <stdio.h>
#include <stdlib.h>

struct message {
    unsigned long id;
    unsigned long payload[3];
};

static unsigned long random_state = 88172645463325252ul;

/* xorshift64: the same sequence on every run. */
static unsigned long next_random(void)
{
    random_state ^= random_state << 13;
    random_state ^= random_state >> 7;
    random_state ^= random_state << 17;
    return random_state;
}

static long parse_positive(const char *text)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return (*end == '\0' && value > 0) ? value : -1;
}

static struct message *new_message(unsigned long id)
{
    struct message *message = malloc(sizeof *message);
    if (message == NULL) {
        fprintf(stderr, "liveheap: out of memory\n");
        exit(1);
    }
    message->id = id;
    message->payload[0] = id * 3;
    message->payload[1] = id * 5;
    message->payload[2] = id * 7;
    return message;
}

int main(int argc, char **argv)
{
    long live = argc == 3 ? parse_positive(argv[1]) : -1;
    long ops = argc == 3 ? parse_positive(argv[2]) : -1;
    if (live < 1 || ops < 1) {
        fprintf(stderr, "usage: liveheap LIVE OPS   (both >= 1)\n");
        return 2;
    }

    struct message **messages = malloc((size_t)live * sizeof *messages);
    if (messages == NULL) {
        fprintf(stderr, "liveheap: out of memory\n");
        return 1;
    }
    for (long i = 0; i < live; i++)
        messages[i] = new_message((unsigned long)i);

    unsigned long checksum = 0;
    for (long op = 0; op < ops; op++) {
        long replaced = (long)(next_random() % (unsigned long)live);
        struct message *old = messages[replaced];
        checksum += old->id + old->payload[1];
        free(old);
        messages[replaced] = new_message((unsigned long)op);

        const struct message *other = messages[next_random() % (unsigned long)live];
        checksum ^= other->payload[2];
    }

    printf("liveheap live=%ld ops=%ld checksum=%lu\n", live, ops, checksum);
    for (long i = 0; i < live; i++)
        free(messages[i]);
    free(messages);
    return 0;
}
