/* chat_history.c - message slots sized for the longest possible message.
 *
 * A chat client keeps the last 512 messages of a channel for scroll-back.
 * history_store copies each message into a slot of MAX_MESSAGE (1,024)
 * bytes, "because a message can be up to 1 KiB"; real messages average
 * ~60 bytes. The history is bounded (the oldest slot is reused), so nothing
 * grows - but 94% of its 512 KiB is capacity above what is ever written.
 *
 * Verdict: unused-capacity on history_store (not oversized-preallocation:
 * each block is 1 KiB, a sizing slack, not a worst-case table).
 * Twin: chat_history_fixed.c (each slot allocated to the message's length).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MESSAGE 1024
#define HISTORY 512

static char *history[HISTORY];
static unsigned next_slot;

static void history_store(const char *text)
{
    char *slot = malloc(MAX_MESSAGE);
    if (!slot) { perror("malloc"); exit(1); }
    snprintf(slot, MAX_MESSAGE, "%s", text);
    free(history[next_slot]);
    history[next_slot] = slot;
    next_slot = (next_slot + 1) % HISTORY;
}

static size_t search(const char *word)
{
    size_t hits = 0;
    for (int i = 0; i < HISTORY; i++)
        if (history[i] && strstr(history[i], word)) hits++;
    return hits;
}

int main(void)
{
    static const char *phrases[] = {"ok", "see you at the standup", "lgtm, merging",
        "can someone look at the flaky test in ci?", "lunch?", "deploy is done, watching the graphs now",
        "thanks!", "the queue is backing up again on the staging cluster"};
    char text[256];
    size_t hits = 0;
    for (int n = 0; n < 3000; n++) {
        snprintf(text, sizeof text, "[%02d:%02d] user%d: %s", n / 60 % 24, n % 60, n % 23, phrases[n % 8]);
        history_store(text);
        if (n % 100 == 99) hits += search("queue");
    }
    printf("chat_history: %zu hits\n", hits);
    for (int i = 0; i < HISTORY; i++) free(history[i]);
    return 0;
}
