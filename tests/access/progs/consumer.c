/* A consumer thread reads heap messages that lie just above its own stack
   (the stack is itself a heap block, so the messages allocated right after
   it are within DHAT's 16 KiB "near the stack pointer" window).  Every read
   must count.  Expected: site "make_message" 256 blocks of 64 bytes,
   written 16384 (main thread), read 16384 (consumer thread), never read 0. */
#include <pthread.h>
#include <stdlib.h>

#define MESSAGES 256
#define STACK_SIZE (256 * 1024)

static long* messages[MESSAGES];
static long consumed_sum;

static long* make_message(long seed)
{
   volatile long* m = malloc(8 * sizeof(long));
   for (int i = 0; i < 8; i++) m[i] = seed + i;
   return (long*)m;
}

static void* consume(void* arg)
{
   long sum = 0;
   for (int k = 0; k < MESSAGES; k++) {
      volatile long* m = messages[k];
      for (int i = 0; i < 8; i++) sum += m[i];
   }
   consumed_sum = sum;
   return NULL;
}

int main(void)
{
   void* stack = malloc(STACK_SIZE);
   for (int k = 0; k < MESSAGES; k++) messages[k] = make_message(k);
   pthread_attr_t attr;
   pthread_t consumer;
   pthread_attr_init(&attr);
   pthread_attr_setstack(&attr, stack, STACK_SIZE);
   if (pthread_create(&consumer, &attr, consume, NULL) != 0) return 2;
   pthread_join(consumer, NULL);
   for (int k = 0; k < MESSAGES; k++) free(messages[k]);
   free(stack);
   /* sum over k of (8k + 28) */
   return consumed_sum == 8L * (MESSAGES * (MESSAGES - 1) / 2) + 28L * MESSAGES ? 0 : 1;
}
