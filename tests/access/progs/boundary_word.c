/* A word on the boundary of two map parts, reread many times
   (tool/lh_access_path.c, the slots' repeat keys): an 8000-byte block
   has 64 parts of 125 bytes, so the 8-byte word at offset 2120 (word
   265) has 5 bytes in part 16 [2000, 2125) and 3 in part 17 [2125,
   2250).  A program reloads such a word (a pointer in an array) after
   each store through it; here read_word reads it REREADS times through
   one load, after write_all and read_all made every bit of the block
   set.

   Site "make_block": 8000 bytes, written once, read once whole, then
   word 265 read REREADS more times.
     Expected: written 8000; read 8000 + 8 x REREADS; part 16 read
     125 + 5 x REREADS times, part 17 125 + 3 x REREADS, part 15 and
     part 18 125 each; every part written 125 times.
   --stats=yes: the accesses that missed the slots' fast checks are
   the fill's and the first read's (at most 2 x 1000 words) and the
   first reread's; a reread that is not a repeat key costs one more
   each.

   Usage: boundary_word REREADS */
#include <stdint.h>
#include <stdlib.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t* make_block(void) { return malloc(8000); }

__attribute__((noinline)) static void write_all(uint64_t* w)
{
   int i;
   for (i = 0; i < 1000; i++) w[i] = (uint64_t)i;
}

__attribute__((noinline)) static void read_all(const uint64_t* w)
{
   int i;
   uint64_t total = 0;
   for (i = 0; i < 1000; i++) total += w[i];
   sink += total;
}

__attribute__((noinline)) static void read_word(const uint64_t* w, int rereads)
{
   int i;
   uint64_t total = 0;
   for (i = 0; i < rereads; i++) total += w[265];
   sink += total;
}

int main(int argc, char** argv)
{
   int rereads = argc > 1 ? atoi(argv[1]) : 10000;
   uint64_t* w = make_block();
   write_all(w);
   read_all(w);
   read_word(w, rereads);
   free(w);
   return 0;
}
