/* The access slots (tool/lh_access.c): one load and one store instruction
   (in read_range, write_range, read_words) walk many blocks in turn, so
   their slots keep meeting blocks that are new, freed, resized, or whose
   site's map changes kind.  A stale slot would charge bytes to the wrong
   site or part, or skip the bits of bytes never read before.

   Site "make_first": 8192 bytes written once and read 3 times (its slots
   are armed after the first read), then freed.
     Expected: written 8192, read 24576, never read 0.
   Site "make_second": 8192 bytes (allocated right after make_first's block
   is freed: likely the same address), 1000 read, nothing written.
     Expected: read 1000, never read 7192, never written 8192.
   Site "make_mixed": a 1024-byte block (a per-offset map) written and read
   twice; then a 2048-byte block turns the map into 64 parts; the first
   block read again, the second written and read.
     Expected: written 1024 + 2048 = 3072, read 3 x 1024 + 2048 = 5120,
     never read 0; parts: 1024-byte reads fall 16 bytes per part, 2048-byte
     ones 32, so every part has 3 x 16 + 32 = 80 reads and 16 + 32 = 48
     writes.
   Site "make_grown": 16384 bytes written, read twice, realloc'd to 32768,
   its new half written, then all 32768 read.
     Expected: written 32768, read 65536; parts: 2 x 256 reads per part
     at the old size, 512 at the new one, so 1024 in every part; writes
     256 per part at the old size and 512 in parts 32..63 at the new one.
   Site "make_odd": 6000 bytes (parts of 93 or 94 bytes) written, read 3
   times in 8-byte words: some words straddle two parts.
     Expected: read 18000, every part's reads 3 x its length: part 0 is
     [0, 93) (279 reads), part 1 [93, 187) (282), part 63 [5906, 6000)
     (282). */
#include <stdint.h>
#include <stdlib.h>

static volatile unsigned sink;

__attribute__((noinline)) static void write_range(unsigned char* p, size_t from, size_t to)
{
   size_t i;
   for (i = from; i < to; i++) p[i] = (unsigned char)i;
}

__attribute__((noinline)) static void read_range(const unsigned char* p, size_t from, size_t to)
{
   size_t i;
   unsigned total = 0;
   for (i = from; i < to; i++) total += p[i];
   sink += total;
}

__attribute__((noinline)) static void read_words(const unsigned char* p, size_t size)
{
   size_t i;
   uint64_t total = 0;
   for (i = 0; i + 8 <= size; i += 8)
      total += *(const uint64_t*)(p + i);   /* one 8-byte load */
   sink += (unsigned)total;
}

__attribute__((noinline)) static unsigned char* make_first(void) { return malloc(8192); }
__attribute__((noinline)) static unsigned char* make_second(void) { return malloc(8192); }
__attribute__((noinline)) static unsigned char* make_mixed(size_t n) { return malloc(n); }
__attribute__((noinline)) static unsigned char* make_grown(void) { return malloc(16384); }
__attribute__((noinline)) static unsigned char* make_odd(void) { return malloc(6000); }

int main(void)
{
   unsigned char *first, *second, *small = NULL, *large = NULL, *grown, *odd;
   int pass;

   first = make_first();
   write_range(first, 0, 8192);
   for (pass = 0; pass < 3; pass++) read_range(first, 0, 8192);
   free(first);
   second = make_second();
   read_range(second, 0, 1000);
   free(second);

   /* one call of make_mixed, so that both blocks have one site */
   for (pass = 0; pass < 2; pass++) {
      unsigned char* block = make_mixed(pass == 0 ? 1024 : 2048);
      if (pass == 0) {
         small = block;
         write_range(small, 0, 1024);
         read_range(small, 0, 1024);
         read_range(small, 0, 1024);
      } else {
         large = block;
      }
   }
   read_range(small, 0, 1024);
   write_range(large, 0, 2048);
   read_range(large, 0, 2048);
   free(small);
   free(large);

   grown = make_grown();
   write_range(grown, 0, 16384);
   read_range(grown, 0, 16384);
   read_range(grown, 0, 16384);
   grown = realloc(grown, 32768);
   write_range(grown, 16384, 32768);
   read_range(grown, 0, 32768);
   free(grown);

   odd = make_odd();
   write_range(odd, 0, 6000);
   for (pass = 0; pass < 3; pass++) read_words(odd, 6000);
   free(odd);
   return 0;
}
