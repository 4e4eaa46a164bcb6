/* long_label.c: a finding on a site whose label is longer than any fixed
 * buffer would hold.
 *
 * The leaking function's name is 250 characters, so its label, with the
 * file and line, is 268 (C allows any length, and generated code and chains
 * of callers without debug information make labels as long).  It allocates
 * 400 records of 256 bytes, one per event with the same work between two,
 * and never frees them: a leak of 102,400 bytes in 400 blocks, all live at
 * exit.
 *
 * The finding's sentence (in the profile and on stderr) must name the site
 * by its whole label, never cut.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EVENTS = 400, RECORD_BYTES = 256, WORK_ROUNDS = 3000 };

/* The leaking function's name: 250 characters. */
#define LONG_NAME record_kept_for_the_audit_trail_of_every_request_handled_by_the_gateway_before_it_is_forwarded_to_the_storage_tier_and_checked_against_the_policy_of_the_tenant_that_owns_the_route_so_that_an_operator_can_replay_it_later_when_a_customer_asks_why_their

struct record {
    struct record *next;
    unsigned char payload[RECORD_BYTES - sizeof(struct record *)];
};

static struct record *kept;

__attribute__((noinline)) static void LONG_NAME(uint32_t value)
{
    struct record *record = malloc(sizeof *record);
    if (record == NULL) {
        perror("malloc");
        exit(1);
    }
    memset(record->payload, (int)value, sizeof record->payload);
    record->next = kept;
    kept = record;
}

static uint32_t work(uint32_t state)
{
    for (int i = 0; i < WORK_ROUNDS; i++)
        state = state * 1103515245u + 12345u;
    return state;
}

int main(void)
{
    uint32_t state = 1;
    for (int i = 0; i < EVENTS; i++) {
        state = work(state);
        LONG_NAME(state);
    }
    printf("%u\n", state & 0xff);
    return 0;   /* the records are never freed */
}
