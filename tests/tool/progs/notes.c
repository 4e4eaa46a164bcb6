/* notes.c: one site on each side of every threshold of the site notes
 * (docs/format.md, sites[].notes).  Nothing is freed, and every write
 * follows its allocation, so the peak is the end of the run and every
 * block is live at it with its bytes as written here.
 *
 *   copied_16k         16,384 B copied by one moving realloc   realloc-growth
 *   copied_under_16k   16,383 B copied                         none
 *   unused_16k         40,960 B, first 24,576 written:
 *                      16,384 B (40%) unused                   unused-capacity
 *   unused_under_16k   40,960 B, first 24,577 written          none
 *   unused_tenth       163,840 B, 16,384 B unused (10%)        unused-capacity
 *   unused_under_tenth 163,850 B, 16,384 B unused (< 10%)      none
 *   untouched_ends     65,536 B, first and last byte written:
 *                      65,534 B (99.9%) never touched          never-touched
 *   small_23           1,000 blocks of 23 B                    small-blocks
 *   small_24           1,000 blocks of 24 B                    none
 *   small_999          999 blocks of 1 B                       none
 */
#include <stdlib.h>

static void write_bytes(char *p, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        ((volatile char *)p)[i] = 1;
}

static char *copied_16k(void)
{
    char *p = malloc(16384);
    write_bytes(p, 0, 16384);
    p = realloc(p, 65536);          /* beyond the block's room: it moves */
    write_bytes(p, 0, 65536);
    return p;
}

static char *copied_under_16k(void)
{
    char *p = malloc(16383);
    write_bytes(p, 0, 16383);
    p = realloc(p, 65536);
    write_bytes(p, 0, 65536);
    return p;
}

static char *written_prefix(size_t size, size_t written)
{
    char *p = malloc(size);
    write_bytes(p, 0, written);
    return p;
}

static char *unused_16k(void) { return written_prefix(40960, 24576); }
static char *unused_under_16k(void) { return written_prefix(40960, 24577); }
static char *unused_tenth(void) { return written_prefix(163840, 147456); }
static char *unused_under_tenth(void) { return written_prefix(163850, 147466); }

static char *untouched_ends(void)
{
    char *p = malloc(65536);
    write_bytes(p, 0, 1);
    write_bytes(p, 65535, 65536);
    return p;
}

static void *small_blocks(size_t size, int count, void **keep)
{
    for (int i = 0; i < count; i++) {
        keep[i] = malloc(size);
        write_bytes(keep[i], 0, size);
    }
    return keep;
}

static void *small_23(void **keep) { return small_blocks(23, 1000, keep); }
static void *small_24(void **keep) { return small_blocks(24, 1000, keep); }
static void *small_999(void **keep) { return small_blocks(1, 999, keep); }

static void *kept[16];
static void *keep_small[3][1000];

int main(void)
{
    kept[0] = copied_16k();
    kept[1] = copied_under_16k();
    kept[2] = unused_16k();
    kept[3] = unused_under_16k();
    kept[4] = unused_tenth();
    kept[5] = unused_under_tenth();
    kept[6] = untouched_ends();
    kept[7] = small_23(keep_small[0]);
    kept[8] = small_24(keep_small[1]);
    kept[9] = small_999(keep_small[2]);
    return 0;
}
