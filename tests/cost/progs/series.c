/* series: eight sites whose live bytes go up and down by steps of very
   different sizes (16 bytes to 3 MB), thousands of times over the run, so
   each site's timeline changes in most intervals of the grid, its
   differences take one to four bytes to encode and go both ways, and the
   grid coarsens many times while the series are being written.  Every
   site's own maximum is far above 1% of the peak, so every site is
   significant and has a timeline: at every point the sites' live bytes
   must add up to the global live bytes.  No stdio: the program's sites are
   the only ones. */
#include <stdlib.h>

#define SITES 8
#define SLOTS 16
#define STEPS 6000

static void* slot_blocks[SITES][SLOTS];

static void* alloc0(size_t n) { return malloc(n); }
static void* alloc1(size_t n) { return malloc(n); }
static void* alloc2(size_t n) { return malloc(n); }
static void* alloc3(size_t n) { return malloc(n); }
static void* alloc4(size_t n) { return malloc(n); }
static void* alloc5(size_t n) { return malloc(n); }
static void* alloc6(size_t n) { return malloc(n); }
static void* alloc7(size_t n) { return malloc(n); }
static void* (*const allocators[SITES])(size_t) = {
   alloc0, alloc1, alloc2, alloc3, alloc4, alloc5, alloc6, alloc7 };

int main(void)
{
   unsigned long state = 2024, step;
   int s, k;
   for (step = 0; step < STEPS; step++) {
      size_t size;
      state = state * 6364136223846793005UL + 1442695040888963407UL;
      s = (int)((state >> 33) % SITES);
      k = (int)((state >> 40) % SLOTS);
      /* sizes from 16 bytes to 3 MB: one- to four-byte differences */
      size = (size_t)16 << ((state >> 50) % 18);
      if (slot_blocks[s][k] != NULL) {
         free(slot_blocks[s][k]);
         slot_blocks[s][k] = NULL;
      } else {
         slot_blocks[s][k] = allocators[s](size);
         if (slot_blocks[s][k] == NULL) return 1;
         ((volatile char*)slot_blocks[s][k])[0] = 1;
      }
   }
   for (s = 0; s < SITES; s++)
      for (k = 0; k < SLOTS; k++)
         free(slot_blocks[s][k]);
   return 0;
}
