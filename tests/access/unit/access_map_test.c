/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * access_map_test: tool/lh_access_map.c built for the host, against the
 * small shim of the Valgrind functions it calls (vg_shim.c), so that a
 * per-offset count can be taken past 2^32 in a few large adds: no run of
 * a program could make four billion accesses of one byte in the suite's
 * time.  Every map is driven next to a model (plain 64-bit counts) and
 * compared exactly: the counts as the profile writes them (through the
 * shim's JSON writer), the sums the profile reports (bytes_read,
 * bytes_written), the width its counts have (2 bytes up to 65,535, then
 * 4, then 8 past 2^32 - 1), and the parts after a per-offset map turns
 * into them.
 *
 * Prints one "PASS name" or "FAIL name: why" line per check
 * (tests/lib.sh counts them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pub_tool_basics.h"
#include "lh_include.h"
#include "lh_access_private.h"
#include "vg_shim.h"

#define MAX_SIZE 4096

typedef struct {
   const char* name;
   LH_Site site;                  /* only its access member is used */
   ULong reads[MAX_SIZE], writes[MAX_SIZE];
   SizeT size;
} Case;

static int failures;

static void check(const char* name, Bool ok, const char* why)
{
   if (ok) printf("PASS access map: %s\n", name);
   else { printf("FAIL access map: %s: %s\n", name, why); failures++; }
}

static void case_start(Case* c, const char* name, SizeT size)
{
   memset(c, 0, sizeof(*c));
   c->name = name;
   c->size = size;
   LH_(map_note_block_size)(&c->site.access, size);
   (void)LH_(site_map)(&c->site.access);
}

static LH_SiteMap* map_of(Case* c) { return c->site.access.map; }

/* An access of n bytes at offset, as the access path counts it. */
static void touch(Case* c, SizeT offset, UWord n, Bool is_write)
{
   UWord i;
   map_add(map_of(c), NULL, offset, n, c->size, is_write);
   for (i = 0; i < n; i++) (is_write ? c->writes : c->reads)[offset + i]++;
}

/* n counts plus 'amount' in one piece (a slot's pending repeats). */
static void add_amount(Case* c, SizeT offset, UWord n, Bool is_write, ULong amount)
{
   UWord i;
   LH_(map_bytes_add)(map_of(c), is_write, offset, n, amount);
   for (i = 0; i < n; i++) (is_write ? c->writes : c->reads)[offset + i] += amount;
}

/* The "reads" or "writes" array the profile gets, as text, against the
   model's. */
static void compare_written(Case* c, const char* what, const ULong* expected,
                            UWord n)
{
   char want[MAX_SIZE * 24 + 8], got_name[128];
   const char* got;
   size_t at = 0;
   UWord i;
   at += (size_t)snprintf(want + at, sizeof(want) - at, "[");
   for (i = 0; i < n; i++)
      at += (size_t)snprintf(want + at, sizeof(want) - at, "%s%llu",
                             i ? "," : "", (unsigned long long)expected[i]);
   snprintf(want + at, sizeof(want) - at, "]");
   shim_json_reset();
   LH_(access_write_map)(NULL, &c->site.access);
   got = shim_json_array(what);
   snprintf(got_name, sizeof(got_name), "%s: the profile's map.%s", c->name, what);
   if (got != NULL && strcmp(got, want) == 0) {
      check(got_name, True, "");
   } else {
      char why[sizeof(want) * 2 + 64];
      snprintf(why, sizeof(why), "expected %s, got %s", want, got ? got : "(none)");
      check(got_name, False, why);
   }
}

static ULong sum(const ULong* v, UWord n)
{
   ULong total = 0;
   UWord i;
   for (i = 0; i < n; i++) total += v[i];
   return total;
}

static void compare_sums(Case* c, const ULong* reads, const ULong* writes, UWord n)
{
   char name[128], why[128];
   ULong r = LH_(access_site_bytes)(&c->site, False);
   ULong w = LH_(access_site_bytes)(&c->site, True);
   snprintf(name, sizeof(name), "%s: bytes_read and bytes_written", c->name);
   snprintf(why, sizeof(why), "expected %llu and %llu, got %llu and %llu",
            (unsigned long long)sum(reads, n), (unsigned long long)sum(writes, n),
            (unsigned long long)r, (unsigned long long)w);
   check(name, r == sum(reads, n) && w == sum(writes, n), why);
}

static void compare(Case* c)
{
   compare_written(c, "reads", c->reads, c->size);
   compare_written(c, "writes", c->writes, c->size);
   compare_sums(c, c->reads, c->writes, c->size);
}

static void check_width(Case* c, int expected)
{
   char name[128], why[64];
   snprintf(name, sizeof(name), "%s: %d-byte counts", c->name, expected);
   snprintf(why, sizeof(why), "the map has %d-byte counts", map_of(c)->width);
   check(name, map_of(c)->kind == LH_MAP_BYTES && map_of(c)->width == expected, why);
}

#define FULL 0xFFFFFFFFull
#define FULL2 0xFFFFull

int main(void)
{
   static Case c;
   ULong parts_reads[K], parts_writes[K];
   UWord i;

   setvbuf(stdout, NULL, _IOLBF, 0);   /* each line out before a crash */

   /* A new per-offset map of 16-byte blocks: 2-byte counts in place. */
   case_start(&c, "16-byte blocks, small counts", 16);
   check("16-byte blocks: the map's counts are 2 bytes, in the header's allocation",
         map_of(&c)->room == 16 * 2 * sizeof(UShort) && map_of(&c)->width == 2
         && sizeof(LH_SiteMap) == 32,
         "room is not 64 bytes after a 32-byte header");
   touch(&c, 0, 8, False);
   touch(&c, 0, 8, False);
   touch(&c, 8, 8, True);
   touch(&c, 3, 2, False);
   touch(&c, 15, 1, True);
   add_amount(&c, 4, 4, False, 1000);
   check_width(&c, 2);
   compare(&c);

   /* One offset read 65,535 times, one byte at a time (the access path's
      own add): the largest 2-byte count.  The next read moves the map. */
   case_start(&c, "one offset read 65,535 times", 16);
   for (i = 0; i < 65535; i++) touch(&c, 5, 1, False);
   touch(&c, 6, 1, True);
   check_width(&c, 2);
   compare(&c);
   c.name = "one offset read 65,536 times";
   touch(&c, 5, 1, False);
   check_width(&c, 4);
   check("one offset read 65,536 times: offset 5 holds 65,536 exactly",
         LH_(map_counts4)(map_of(&c), False)[5] == 65536, "offset 5 is not 65,536");
   touch(&c, 5, 1, False);
   touch(&c, 6, 1, True);
   compare(&c);

   /* The 2-byte counts' vector add: offset 3 at 65,535 after one add and
      one access, then one access more takes it to 65,536, and the 4-byte
      counts' vector add goes on from there. */
   case_start(&c, "8-byte access past 65,535", 16);
   add_amount(&c, 0, 8, False, FULL2 - 1);
   touch(&c, 0, 8, False);
   check_width(&c, 2);
   touch(&c, 0, 8, False);
   check_width(&c, 4);
   for (i = 0; i < 1000; i++) touch(&c, 0, 8, False);
   touch(&c, 8, 8, True);
   check_width(&c, 4);
   compare(&c);

   /* The byte loop at 2 bytes: the count that would pass stops the loop
      part way, the rest is added to the 4-byte counts. */
   case_start(&c, "4-byte access past 65,535", 16);
   add_amount(&c, 5, 1, True, FULL2);
   add_amount(&c, 4, 1, True, FULL2 - 1);
   touch(&c, 2, 4, True);               /* 2, 3, 4 (now 65,535), 5 passes */
   check_width(&c, 4);
   touch(&c, 4, 4, True);
   touch(&c, 0, 1, False);
   compare(&c);

   /* The 8-byte access's vector add at 4 bytes: offset 3 at 2^32 - 1
      after one large add (the map moves to 4-byte counts in it) and one
      access, then one access more takes it to 2^32. */
   case_start(&c, "8-byte access past 2^32", 16);
   add_amount(&c, 0, 8, False, FULL - 1);
   check_width(&c, 4);
   touch(&c, 0, 8, False);
   check_width(&c, 4);
   touch(&c, 0, 8, False);
   check_width(&c, 8);
   check("8-byte access past 2^32: offset 3 holds 2^32 exactly",
         c.reads[3] == 1ull << 32 && map_of(&c)->width == 8
         && LH_(map_counts)(map_of(&c), False)[3] == 1ull << 32,
         "offset 3 is not 2^32");
   touch(&c, 4, 8, False);
   touch(&c, 8, 8, True);
   compare(&c);

   /* The byte loop at 4 bytes: the count that would pass stops the loop
      part way, the rest is added to the 8-byte counts. */
   case_start(&c, "4-byte access past 2^32", 16);
   add_amount(&c, 5, 1, True, FULL);
   add_amount(&c, 4, 1, True, FULL - 1);
   check_width(&c, 4);
   touch(&c, 2, 4, True);               /* 2, 3, 4 (now 2^32 - 1), 5 passes */
   check_width(&c, 8);
   touch(&c, 4, 4, True);
   touch(&c, 0, 1, False);
   compare(&c);

   /* A new block's fill (24 or 32 bytes at once): map_add adds eight
      counts at a time while eight are left, then one by one.  A count at
      its width's limit in the third group of eight stops the vector adds
      there; the loop counts 16, 17, 18 and stops at 19, whose add moves
      the map on; the rest (19 to 23) is added after the move. */
   case_start(&c, "24-byte access past 65,535 in its third eight", 40);
   add_amount(&c, 0, 24, True, FULL2 - 1);
   add_amount(&c, 19, 1, True, 1);       /* offset 19 at 65,535 */
   touch(&c, 0, 24, True);
   check_width(&c, 4);
   check("24-byte access past 65,535: offsets 0-18 hold 65,535, 19 holds 65,536, 20-23 65,535",
         LH_(map_counts4)(map_of(&c), True)[18] == FULL2
         && LH_(map_counts4)(map_of(&c), True)[19] == FULL2 + 1
         && LH_(map_counts4)(map_of(&c), True)[23] == FULL2
         && LH_(map_counts4)(map_of(&c), True)[24] == 0,
         "a count is not what the adds make it");
   touch(&c, 3, 21, True);               /* two eights and a tail of 5 */
   touch(&c, 8, 32, False);
   compare(&c);

   /* The same at 4 bytes: a 32-byte access whose count in the tail of a
      13-byte access and in the fourth eight of a 32-byte one passes
      2^32 - 1. */
   case_start(&c, "32-byte access past 2^32 in its fourth eight", 40);
   add_amount(&c, 0, 32, False, FULL - 1);
   add_amount(&c, 30, 1, False, 1);      /* offset 30 at 2^32 - 1 */
   check_width(&c, 4);
   touch(&c, 8, 13, False);              /* one eight, a tail of 5: no pass */
   check_width(&c, 4);
   c.name = "32-byte access past 2^32 after a 13-byte one";
   touch(&c, 0, 32, False);              /* 0-7 by eight; 8 is at 2^32 - 1 */
   check_width(&c, 8);
   check("32-byte access past 2^32: offset 30 holds 2^32, 31 holds 2^32 - 1",
         LH_(map_counts)(map_of(&c), False)[30] == FULL + 1
         && LH_(map_counts)(map_of(&c), False)[31] == FULL
         && LH_(map_counts)(map_of(&c), False)[8] == FULL + 1,
         "a count is not what the adds make it");
   compare(&c);

   /* A 13-byte access whose tail's count passes 65,535. */
   case_start(&c, "13-byte access past 65,535 in its tail", 16);
   add_amount(&c, 11, 1, False, FULL2);
   touch(&c, 2, 13, False);              /* 2-9 by eight, 10, then 11 passes */
   check_width(&c, 4);
   compare(&c);

   /* A map of 4 KiB blocks: its counts apart are arena blocks of their
      own (4-byte ones 32 KiB), given back when they move on. */
   case_start(&c, "4096-byte blocks through every width", 4096);
   {
      int frees_before = shim_frees();
      touch(&c, 4088, 8, True);
      add_amount(&c, 4000, 96, True, FULL2);
      check_width(&c, 4);
      add_amount(&c, 4095, 1, True, FULL);
      check_width(&c, 8);
      check("4096-byte blocks: the 4-byte counts apart were given back",
            shim_frees() == frees_before + 1, "no arena block given back");
      touch(&c, 0, 8, False);
      compare(&c);
   }

   /* One add of more than 2^32 at once, into counts already in use; the
      reads stay exact when the writes move the map. */
   case_start(&c, "one add of 5e9", 24);
   touch(&c, 0, 8, False);
   touch(&c, 16, 8, False);
   touch(&c, 20, 4, True);
   add_amount(&c, 20, 4, True, 5000000000ull);
   check_width(&c, 8);
   add_amount(&c, 22, 2, True, 7000000000ull);
   add_amount(&c, 0, 24, False, 3);
   touch(&c, 16, 8, True);
   compare(&c);

   /* Several adds that together pass 2^32 several times over. */
   case_start(&c, "repeated large adds", 32);
   for (i = 0; i < 5; i++) add_amount(&c, 8, 16, False, 3000000000ull);
   for (i = 0; i < 3; i++) touch(&c, 8, 8, False);
   add_amount(&c, 31, 1, True, 1);
   check_width(&c, 8);
   compare(&c);

   /* A wide per-offset map turns into parts when a block of another size
      comes: each part is the sum of its offsets' counts. */
   case_start(&c, "wide map into parts", 16);
   add_amount(&c, 0, 16, False, 4000000000ull);
   add_amount(&c, 0, 16, False, 4000000000ull);
   touch(&c, 6, 8, True);
   check_width(&c, 8);
   memset(parts_reads, 0, sizeof(parts_reads));
   memset(parts_writes, 0, sizeof(parts_writes));
   for (i = 0; i < 16; i++) {
      parts_reads[bucket_of(i, 16)] += c.reads[i];
      parts_writes[bucket_of(i, 16)] += c.writes[i];
   }
   LH_(map_note_block_size)(&c.site.access, 40);
   check("wide map into parts: a map of parts, 8-byte counts",
         map_of(&c)->kind == LH_MAP_BUCKETS && map_of(&c)->width == 8,
         "not a map of parts");
   compare_written(&c, "reads", parts_reads, K);
   compare_written(&c, "writes", parts_writes, K);
   compare_sums(&c, parts_reads, parts_writes, K);

   /* A map of 2-byte counts with room for the parts (272-byte blocks:
      1,088 bytes of counts, for a part cache and 2 x 64 8-byte counts)
      turns into parts in place. */
   case_start(&c, "2-byte map into parts in place", 272);
   for (i = 0; i < 272; i += 8) touch(&c, i, 8, i % 16 == 0);
   add_amount(&c, 100, 10, False, 12345);
   check_width(&c, 2);
   memset(parts_reads, 0, sizeof(parts_reads));
   memset(parts_writes, 0, sizeof(parts_writes));
   for (i = 0; i < 272; i++) {
      parts_reads[bucket_of(i, 272)] += c.reads[i];
      parts_writes[bucket_of(i, 272)] += c.writes[i];
   }
   LH_(map_note_block_size)(&c.site.access, 64);
   check("2-byte map into parts in place: the counts stay in the map's allocation",
         map_of(&c)->kind == LH_MAP_BUCKETS
         && map_of(&c)->reads == map_of(&c)->counts + sizeof(LH_PartCache) / sizeof(ULong),
         "the parts were allocated apart");
   check("2-byte map into parts in place: the part cache is empty",
         LH_(map_part_cache)(map_of(&c))->block == NULL, "it names a block");
   compare_written(&c, "reads", parts_reads, K);
   compare_written(&c, "writes", parts_writes, K);
   compare_sums(&c, parts_reads, parts_writes, K);

   /* A map of 4-byte counts whose counts apart have room for the parts
      (136-byte blocks: 1,088 bytes) turns into parts there. */
   case_start(&c, "4-byte map into parts in its counts apart", 136);
   for (i = 0; i < 136; i += 8) touch(&c, i, 8, i % 16 == 0);
   add_amount(&c, 100, 10, False, 123456789);
   check_width(&c, 4);
   {
      UInt* apart = map_of(&c)->reads4;
      memset(parts_reads, 0, sizeof(parts_reads));
      memset(parts_writes, 0, sizeof(parts_writes));
      for (i = 0; i < 136; i++) {
         parts_reads[bucket_of(i, 136)] += c.reads[i];
         parts_writes[bucket_of(i, 136)] += c.writes[i];
      }
      LH_(map_note_block_size)(&c.site.access, 64);
      check("4-byte map into parts: the parts are where the 4-byte counts were",
            map_of(&c)->kind == LH_MAP_BUCKETS && (void*)map_of(&c)->reads == (void*)apart,
            "the parts are elsewhere");
      compare_written(&c, "reads", parts_reads, K);
      compare_written(&c, "writes", parts_writes, K);
      compare_sums(&c, parts_reads, parts_writes, K);
   }

   /* A map of 4-byte counts of small blocks (no room for the parts in
      either place) turns into parts apart. */
   case_start(&c, "small 4-byte map into parts", 24);
   add_amount(&c, 0, 24, True, 70000);
   touch(&c, 16, 8, False);
   check_width(&c, 4);
   memset(parts_reads, 0, sizeof(parts_reads));
   memset(parts_writes, 0, sizeof(parts_writes));
   for (i = 0; i < 24; i++) {
      parts_reads[bucket_of(i, 24)] += c.reads[i];
      parts_writes[bucket_of(i, 24)] += c.writes[i];
   }
   LH_(map_note_block_size)(&c.site.access, 8);
   check("small 4-byte map into parts: a map of parts",
         map_of(&c)->kind == LH_MAP_BUCKETS && map_of(&c)->width == 8,
         "not a map of parts");
   compare_written(&c, "reads", parts_reads, K);
   compare_written(&c, "writes", parts_writes, K);
   compare_sums(&c, parts_reads, parts_writes, K);

   /* The smallest per-offset map (1-byte blocks) still has room for the
      part cache when it turns into parts (its counts then apart). */
   case_start(&c, "1-byte blocks into parts", 1);
   touch(&c, 0, 1, False);
   touch(&c, 0, 1, True);
   add_amount(&c, 0, 1, True, 5000000000ull);
   LH_(map_note_block_size)(&c.site.access, 2);
   memset(parts_reads, 0, sizeof(parts_reads));
   memset(parts_writes, 0, sizeof(parts_writes));
   parts_reads[bucket_of(0, 1)] = 1;
   parts_writes[bucket_of(0, 1)] = 5000000001ull;
   check("1-byte blocks into parts: the map has room for the part cache",
         map_of(&c)->room >= sizeof(LH_PartCache) && map_of(&c)->kind == LH_MAP_BUCKETS,
         "no room");
   compare_written(&c, "reads", parts_reads, K);
   compare_written(&c, "writes", parts_writes, K);
   compare_sums(&c, parts_reads, parts_writes, K);
   compare_written(&c, "reads", parts_reads, K);
   compare_written(&c, "writes", parts_writes, K);
   compare_sums(&c, parts_reads, parts_writes, K);
   check("conversions flush the access slots and move their epoch",
         shim_flushes() >= 5 && shim_epochs() == 5, "the slots were not told");

   return failures == 0 ? 0 : 1;
}
