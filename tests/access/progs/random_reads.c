/* Random reads of many small blocks, the shape of a hash table's lookups.
   A read whose bytes were all read before, of a block its load did not
   meet just before, is counted later (tool/lh_access_path.c, "Accesses
   counted later"): these checks make sure that it is counted exactly
   once, at the right offset, with its time, even when its block is freed,
   moved or read again before the queue is counted.  Blocks are 32-byte
   entries { a, b, c, d } of 8-byte fields; read_b is the one load of
   field b that walks them at random.

   Site "make_entry": 4096 entries, each written in full (four stores)
   and read in full (four loads), then 20000 reads of field b of entries
   picked by a linear congruential sequence, then 2048 of them read
   (field b) and freed one after the other.
     Expected: written 4096 x 32 = 131072 (every offset 4096); read
     131072 + 20000 x 8 + 2048 x 8 = 307456: offsets 0-7 and 16-31 4096
     each, offsets 8-15 4096 + 20000 + 2048 = 26144 each.
   Site "make_other": 2048 entries allocated right after those frees (the
   freed records and payloads are used again), never accessed.
     Expected: read 0, written 0, never written 2048 x 32 = 65536 (the
     unused-capacity note).
   Site "make_moved": 64 entries written and read in full; then each one's
   field b is read and the entry is at once realloc'd to 4096 bytes (it
   moves: a 32-byte block has no room to grow), all of it after the
   heap's peak (a 1 MiB block, make_peak, allocated and freed), so that
   nothing but the access path's own order counts the read before the
   move.  The two sizes turn the site's map into 64 parts; byte o of a
   32-byte block lies in part 2o + 1.
     Expected: written 64 x 32 = 2048, read 2048 + 64 x 8 = 2560; part
     2o + 1 has 64 writes and 64 reads (128 for o in 8-15, field b), even
     parts none.
   Site "make_idle": 256 entries with fields a, b and c written and a and
   c read; then each one's field b is read (its first read, of bytes
   written before: it waits to be counted, with the 8 bits it set), the
   program computes for about 100,000 instructions, writes field d (the
   block's first touch of those bytes: counted at once) and frees the
   entry.
     Expected: read 256 x 24 = 6144 (offsets 0-23 256 each, 24-31 none),
     written 256 x 32 = 8192, never read 256 x 8 = 2048 (field d);
     idle before free (free time minus last access time, summed) below
     256 x 1000 instructions: the last access is the write of field d just
     before each free, not the read of field b 100,000 instructions
     earlier that was counted after it.
   Sites "make_head" and "make_tail": a 12-byte block and a 16-byte block
   right after it (the first pair of the 64 of each made one after the
   other whose payloads are 16 bytes apart; none: the program fails).  The
   tail is written and read in full, then one 8-byte load reads bytes
   12-19 of the head: its 4 bytes past the head's end are the allocator's
   slack (not counted), the other 4 are the tail's first, which have their
   bits and wait in the queue.
     Expected: head read 0; tail read 16 + 4 = 20, offsets 0-3 twice and
     4-15 once. */
#include <stdlib.h>

struct entry { unsigned long a, b, c, d; };

static volatile unsigned long sink;

__attribute__((noinline)) static struct entry* make_entry(void) { return malloc(sizeof(struct entry)); }
__attribute__((noinline)) static struct entry* make_other(void) { return malloc(sizeof(struct entry)); }
__attribute__((noinline)) static struct entry* make_moved(void) { return malloc(sizeof(struct entry)); }
__attribute__((noinline)) static unsigned char* make_head(void) { return malloc(12); }
__attribute__((noinline)) static unsigned char* make_tail(void) { return malloc(16); }

/* Two 8-byte loads: each sets its bytes' bits at once (a byte loop would
   make a run, whose bits wait). */
__attribute__((noinline)) static void read_16(const unsigned char* p)
{
   sink += *(const unsigned long*)p + *(const unsigned long*)(p + 8);
}

/* One 8-byte load at p, whatever its alignment. */
__attribute__((noinline)) static void read_8_at(const unsigned char* p)
{
   sink += *(const volatile unsigned long*)p;
}

__attribute__((noinline)) static void* make_peak(void) { return malloc(1 << 20); }
__attribute__((noinline)) static struct entry* make_idle(void) { return malloc(sizeof(struct entry)); }

__attribute__((noinline)) static void write_all(struct entry* e, unsigned long v)
{
   e->a = v;
   e->b = v + 1;
   e->c = v + 2;
   e->d = v + 3;
}

__attribute__((noinline)) static void read_all(const struct entry* e)
{
   sink += e->a + e->b + e->c + e->d;
}

__attribute__((noinline)) static void write_abc(struct entry* e, unsigned long v)
{
   e->a = v;
   e->b = v + 1;
   e->c = v + 2;
}

__attribute__((noinline)) static void read_ac(const struct entry* e)
{
   sink += e->a + e->c;
}

__attribute__((noinline)) static void write_d(struct entry* e)
{
   e->d = sink;
}

__attribute__((noinline)) static void read_b(const struct entry* e)
{
   sink += e->b;
}

/* About 100,000 instructions on the stack and globals only. */
__attribute__((noinline)) static void compute(void)
{
   unsigned long i, x = sink;
   for (i = 0; i < 20000; i++) x = x * 6364136223846793005UL + i;
   sink = x;
}

#define ENTRIES 4096
#define LOOKUPS 20000
#define MOVED 64
#define IDLE 256

int main(void)
{
   static struct entry* entries[ENTRIES];
   static struct entry* others[ENTRIES / 2];
   static struct entry* moved[MOVED];
   static struct entry* idle[IDLE];
   unsigned long i, pick = 1;

   for (i = 0; i < ENTRIES; i++) {
      entries[i] = make_entry();
      write_all(entries[i], i);
   }
   for (i = 0; i < ENTRIES; i++) read_all(entries[i]);
   for (i = 0; i < LOOKUPS; i++) {
      pick = pick * 1103515245UL + 12345UL;
      read_b(entries[(pick >> 8) % ENTRIES]);
   }
   /* freed while their last read may still wait to be counted */
   for (i = 0; i < ENTRIES / 2; i++) {
      read_b(entries[i]);
      free(entries[i]);
   }
   for (i = 0; i < ENTRIES / 2; i++) others[i] = make_other();

   /* the heap's peak, before the moved entries are born: a block live at
      the latest peak has its figures taken before it is resized, which
      would count its waiting accesses anyway */
   free(make_peak());
   for (i = 0; i < MOVED; i++) {
      moved[i] = make_moved();
      write_all(moved[i], i);
      read_all(moved[i]);
   }
   for (i = 0; i < MOVED; i++) {
      struct entry* grown;
      read_b(moved[i]);
      grown = realloc(moved[i], 4096);
      if (grown == NULL) return 1;
      moved[i] = grown;
   }

   for (i = 0; i < IDLE; i++) {
      idle[i] = make_idle();
      write_abc(idle[i], i);
      read_ac(idle[i]);
   }
   for (i = 0; i < IDLE; i++) {
      read_b(idle[i]);
      compute();
      write_d(idle[i]);
      free(idle[i]);
   }

   {
      static unsigned char* heads[64];
      static unsigned char* tails[64];
      unsigned char *head = NULL, *tail = NULL;
      unsigned j;
      for (j = 0; j < 64; j++) {
         heads[j] = make_head();
         tails[j] = make_tail();
         if (head == NULL && tails[j] == heads[j] + 16) {
            head = heads[j];
            tail = tails[j];
         }
      }
      if (head == NULL) return 2;
      for (j = 0; j < 16; j++) tail[j] = (unsigned char)j;
      read_16(tail);
      read_8_at(head + 12);
      for (j = 0; j < 64; j++) {
         free(heads[j]);
         free(tails[j]);
      }
   }

   sink += (unsigned long)others[0] + (unsigned long)moved[0];
   return 0;
}
