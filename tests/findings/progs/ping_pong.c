/* ping_pong.c - 20,000 messages of 64 bytes handed one at a time from the
 * main thread to an echo thread through a one-slot mailbox (a mutex and a
 * condition variable); the echo thread frees each and wakes the main
 * thread, which only then sends the next.
 *
 * Every message changes threads twice, so each thread's parallel clock
 * (tool/lh_parallel_clock.c) gets a step at least once per message, far
 * more than the 8,192 a thread keeps: the older steps are thinned, and
 * the clock's memory stays bounded however long the run.
 * Expected: 20,000 cross-thread frees, at most two messages live (the next
 * one is made before the mailbox is free), no
 * missing-backpressure; with --stats=yes, at most 2 x 8,192 steps kept,
 * at least 20,000 made.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESSAGES 20000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static char *mailbox;
static int done;

static char *make_message(int n)
{
    char *message = malloc(64);
    if (!message) { perror("malloc"); exit(1); }
    snprintf(message, 64, "message %d", n);
    return message;
}

static void *echo_main(void *arg)
{
    long total = 0;
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!mailbox && !done) pthread_cond_wait(&changed, &lock);
        if (!mailbox) break;
        total += (long)strlen(mailbox);
        free(mailbox);
        mailbox = NULL;
        pthread_cond_signal(&changed);
    }
    pthread_mutex_unlock(&lock);
    printf("ping_pong: %ld bytes echoed\n", total);
    return NULL;
}

int main(void)
{
    pthread_t echo;
    pthread_create(&echo, NULL, echo_main, NULL);
    for (int n = 0; n < MESSAGES; n++) {
        char *message = make_message(n);
        pthread_mutex_lock(&lock);
        while (mailbox) pthread_cond_wait(&changed, &lock);
        mailbox = message;
        pthread_cond_signal(&changed);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    while (mailbox) pthread_cond_wait(&changed, &lock);
    done = 1;
    pthread_cond_signal(&changed);
    pthread_mutex_unlock(&lock);
    pthread_join(echo, NULL);
    return 0;
}
