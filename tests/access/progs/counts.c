/* Per-offset counts at the widths' boundaries (tool/lh_access_map.c):
   a site's counts are 2 bytes each until one would pass 65,535, then 4.
   Each site has one 16-byte block, read in a loop whose counts are known
   from this source (built -O0: one load or store per access written).
   Site "one_offset_65535": byte 5 read 65,535 times (the largest 2-byte
     count): reads[5] = 65,535, every other count 0.
   Site "one_offset_65536": byte 5 read 65,536 times: reads[5] = 65,536.
   Site "two_offsets": bytes 5 and 6 read in turn, 70,000 times each, and
     byte 0 written once a round: reads[5] = reads[6] = 70,000, writes[0]
     = 70,000.
   Site "words": two 8-byte words, the first read and the second written
     70,000 times each (the 8-byte vector adds): reads[0..7] = 70,000,
     writes[8..15] = 70,000.
   Site "across": byte 2 read 65,535 times, then the 4-byte word at 0
     read 3 times (the add that passes 65,535 in the middle of an
     access): reads[0], [1], [3] = 3, reads[2] = 65,538. */
#include <stdint.h>
#include <stdlib.h>

static volatile uint64_t sink;

__attribute__((noinline)) static unsigned char* one_offset_65535(void) { return calloc(1, 16); }
__attribute__((noinline)) static unsigned char* one_offset_65536(void) { return calloc(1, 16); }
__attribute__((noinline)) static unsigned char* two_offsets(void) { return calloc(1, 16); }
__attribute__((noinline)) static uint64_t* words(void) { return calloc(2, 8); }
__attribute__((noinline)) static unsigned char* across(void) { return calloc(1, 16); }

int main(void)
{
   volatile unsigned char* a = one_offset_65535();
   volatile unsigned char* b = one_offset_65536();
   volatile unsigned char* c = two_offsets();
   volatile uint64_t* d = words();
   volatile unsigned char* e = across();
   long i;
   for (i = 0; i < 65535; i++) sink += a[5];
   for (i = 0; i < 65536; i++) sink += b[5];
   for (i = 0; i < 70000; i++) {
      sink += c[5];
      sink += c[6];
      c[0] = (unsigned char)i;
   }
   for (i = 0; i < 70000; i++) {
      sink += d[0];
      d[1] = (uint64_t)i;
   }
   for (i = 0; i < 65535; i++) sink += e[2];
   for (i = 0; i < 3; i++) sink += *(volatile uint32_t*)e;
   free((void*)a);
   free((void*)b);
   free((void*)c);
   free((void*)d);
   free((void*)e);
   return 0;
}
