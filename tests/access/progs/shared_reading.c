/* Two loads that share the reading of one block (tool/lh_access_path.c):
   each load instruction has its own access slot, and a slot counts an
   access with no call once every byte of its block has its bit of the
   slot's kind set (it is "saturated" and armed).  Here the loads of
   read_even and read_odd each read half of the block's words, so the
   block's read bits are completed by read_odd's slot; read_even's slot
   must see that too at its next access, not take the slower way for
   every word of every later pass.

   Site "make_words": an 8192-byte block (1024 8-byte words; over 4096
   bytes, so its map has 64 parts of 128 bytes, which an armed slot
   counts) written once (write_words), then read_even (words 0, 2, ...,
   1022), read_odd (words 1, 3, ..., 1023), then read_even PASSES more
   times.
     Expected: written 8192; read 8192 + PASSES x 4096; every part
     written 128 times and read 128 + PASSES x 64 times; never read 0.
   --stats=yes: the accesses that missed the slots' fast checks ("in a
   slot's block" plus "the slow way") are the two first passes' 1024 at
   most, and at most 2 for each later pass (its slot's first access),
   whereas a slot that stays unsaturated sends all of a pass's 512
   words there.

   Usage: shared_reading PASSES */
#include <stdint.h>
#include <stdlib.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t* make_words(void) { return malloc(8192); }

__attribute__((noinline)) static void write_words(uint64_t* w)
{
   int i;
   for (i = 0; i < 1024; i++) w[i] = (uint64_t)i;
}

__attribute__((noinline)) static void read_even(const uint64_t* w)
{
   int i;
   uint64_t total = 0;
   for (i = 0; i < 1024; i += 2) total += w[i];
   sink += total;
}

__attribute__((noinline)) static void read_odd(const uint64_t* w)
{
   int i;
   uint64_t total = 0;
   for (i = 1; i < 1024; i += 2) total += w[i];
   sink += total;
}

int main(int argc, char** argv)
{
   int passes = argc > 1 ? atoi(argv[1]) : 100, pass;
   uint64_t* w = make_words();
   write_words(w);
   read_even(w);
   read_odd(w);
   for (pass = 0; pass < passes; pass++) read_even(w);
   free(w);
   return 0;
}
