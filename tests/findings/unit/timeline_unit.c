/* timeline_unit.c: host-side check of lh_timeline.c's downsampling.
 *
 * Compiles the tool's real tool/lh_timeline.c on the host, with Valgrind's
 * headers and stand-ins for the few core functions it calls, and feeds it
 * random allocation histories (time jumps of every size, several events at
 * the same time, many sites).  A brute-force replay of the same history
 * gives the exact heap at any time, against which every written point is
 * checked:
 *   - at most --lifeheap-timeline-points points, times strictly increasing,
 *     the last one the end of the run;
 *   - the peak point equals the peak exactly (time, bytes, blocks);
 *   - every other point equals the live heap after all events up to its
 *     time, globally and for every site;
 *   - the same after a periodic dump in the middle of the run;
 *   - markers come out in order with their labels (cut at 255 bytes).
 *     (CORE copies the label out of client memory before the call.)
 * Prints "PASS/FAIL name" lines like the shell suites and exits non-zero
 * on failure.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_options.h"
#include "pub_tool_wordfm.h"
#include "lh_include.h"
#include "lh_timeline.h"
#include "lh_options.h"

/*--- Stand-ins for Valgrind's core and the other modules ---*/

ULong LH_(now);
LH_HeapCounters LH_(heap);

void* VG_(malloc)(const HChar* cc, SizeT n) { (void)cc; return malloc(n ? n : 1); }
void* VG_(calloc)(const HChar* cc, SizeT n, SizeT m) { (void)cc; return calloc(n ? n : 1, m ? m : 1); }
void* VG_(realloc)(const HChar* cc, void* p, SizeT n) { (void)cc; return realloc(p, n); }
void  VG_(free)(void* p) { free(p); }
void* VG_(memcpy)(void* d, const void* src, SizeT n) { return memcpy(d, src, n); }
HChar* VG_(strdup)(const HChar* cc, const HChar* s) { (void)cc; return strdup(s); }
SizeT VG_(strlen)(const HChar* s) { return strlen(s); }
Int   VG_(strncmp)(const HChar* a, const HChar* b, SizeT n) { return strncmp(a, b, n); }
Long  VG_(strtoll10)(const HChar* s, HChar** end) { return strtoll(s, end, 10); }
Bool  VG_(check_clom)(Clo_Mode m, const HChar* a, const HChar* o, Bool r)
{ (void)m; (void)a; (void)o; return r; }
void  VG_(fmsg_bad_option)(const HChar* opt, const HChar* fmt, ...)
{ fprintf(stderr, "bad option %s\n", opt); (void)fmt; exit(2); }
UInt  VG_(printf)(const HChar* fmt, ...) { (void)fmt; return 0; }
UInt  VG_(umsg)(const HChar* fmt, ...) { (void)fmt; return 0; }
void  VG_(assert_fail)(Bool core, const HChar* expr, const HChar* file, Int line,
                       const HChar* fn, const HChar* fmt, ...)
{ (void)core; (void)fmt; fprintf(stderr, "assertion %s failed at %s:%d (%s)\n", expr, file, line, fn); abort(); }
/* Valgrind's WordFM (the significant sites' growth figures): a list of
   pairs is enough for the few sites a case makes significant. */
typedef struct FMPair { UWord key, value; struct FMPair* next; } FMPair;
struct _WordFM { FMPair* pairs; };
WordFM* VG_(newFM)(void* (*alloc)(const HChar*, SizeT), const HChar* cc,
                   void (*dealloc)(void*), Word (*cmp)(UWord, UWord))
{ (void)alloc; (void)cc; (void)dealloc; (void)cmp; return calloc(1, sizeof(WordFM)); }
Bool VG_(lookupFM)(const WordFM* fm, UWord* key, UWord* value, UWord k)
{
   const FMPair* p;
   for (p = fm->pairs; p; p = p->next)
      if (p->key == k) { if (key) *key = p->key; if (value) *value = p->value; return True; }
   return False;
}
Bool VG_(addToFM)(WordFM* fm, UWord k, UWord v)
{
   FMPair* p;
   for (p = fm->pairs; p; p = p->next)
      if (p->key == k) { p->value = v; return True; }
   p = malloc(sizeof *p);
   p->key = k; p->value = v; p->next = fm->pairs; fm->pairs = p;
   return False;
}
/* The options the timeline reads (tool/lh_options.def), at their
   defaults; each case sets what it tests. */
LH_OptionValues LH_(options) = { .timeline_points = 1024,
                                 .significant_fraction = 0.01 };

/* A JSON "writer" that keeps the last array of numbers written under each
   key, and the last number written under each key. */
#define MAX_KEYS 16
static struct { char key[64]; ULong* values; UInt n; } arrays[MAX_KEYS];
static UInt n_arrays;
static const HChar* open_array;
static struct { char key[64]; double value; } scalars[MAX_KEYS];
static UInt n_scalars;
static char strings[20000][300];
static UInt n_strings;

static UInt array_slot(const char* key)
{
   UInt i;
   for (i = 0; i < n_arrays; i++)
      if (strcmp(arrays[i].key, key) == 0) { arrays[i].n = 0; return i; }
   snprintf(arrays[n_arrays].key, 64, "%s", key);
   arrays[n_arrays].values = malloc(200000 * sizeof(ULong));
   arrays[n_arrays].n = 0;
   return n_arrays++;
}
static void set_scalar(const char* key, double v)
{
   UInt i;
   for (i = 0; i < n_scalars; i++)
      if (strcmp(scalars[i].key, key) == 0) { scalars[i].value = v; return; }
   snprintf(scalars[n_scalars].key, 64, "%s", key);
   scalars[n_scalars++].value = v;
}
static const ULong* array_of(const char* key, UInt* n)
{
   UInt i;
   for (i = 0; i < n_arrays; i++)
      if (strcmp(arrays[i].key, key) == 0) { *n = arrays[i].n; return arrays[i].values; }
   *n = 0;
   return NULL;
}
static double scalar_of(const char* key)
{
   UInt i;
   for (i = 0; i < n_scalars; i++)
      if (strcmp(scalars[i].key, key) == 0) return scalars[i].value;
   return -1;
}
static UInt current_array = ~0u;
void LH_(json_object_begin)(LH_Json* j, const HChar* k) { (void)j; (void)k; }
void LH_(json_object_end)(LH_Json* j) { (void)j; }
void LH_(json_array_begin)(LH_Json* j, const HChar* k) { (void)j; open_array = k; current_array = array_slot(k); }
void LH_(json_array_end)(LH_Json* j) { (void)j; current_array = ~0u; }
void LH_(json_u64)(LH_Json* j, const HChar* k, ULong v)
{
   (void)j;
   if (k == NULL) arrays[current_array].values[arrays[current_array].n++] = v;
   else set_scalar(k, (double)v);
}
void LH_(json_double)(LH_Json* j, const HChar* k, double v) { (void)j; if (k) set_scalar(k, v); }
void LH_(json_string)(LH_Json* j, const HChar* k, const HChar* s)
{ (void)j; (void)k; snprintf(strings[n_strings++], 300, "%s", s ? s : "(null)"); }
void LH_(json_null)(LH_Json* j, const HChar* k) { (void)j; if (k) set_scalar(k, -2); }

/*--- The brute-force model ---*/

#define MAX_SITES  8
#define MAX_LIVE   4096
#define MAX_EVENTS 60000

typedef struct { ULong time, bytes, blocks, site_bytes[MAX_SITES]; } State;
static State history[MAX_EVENTS];
static UInt  n_history;
static LH_Site* sites[MAX_SITES];
static struct { UInt site; ULong size; } live[MAX_LIVE];
static UInt n_live;

static ULong rng_state;
static ULong rnd(ULong n) { rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL; return (rng_state >> 33) % n; }

static void apply(UInt site, Long delta_bytes, Long delta_blocks)
{
   LH_Site* s = sites[site];
   LH_(heap).curr_bytes += delta_bytes;
   LH_(heap).curr_blocks += delta_blocks;
   s->curr_bytes += delta_bytes;
   if (s->curr_bytes > s->max_bytes) s->max_bytes = s->curr_bytes;
   if (LH_(heap).curr_bytes >= LH_(heap).peak_bytes) {       /* latest equal peak wins */
      UInt i;
      LH_(heap).peak_bytes = LH_(heap).curr_bytes;
      LH_(heap).peak_blocks = LH_(heap).curr_blocks;
      LH_(heap).peak_time = LH_(now);
      for (i = 0; i < MAX_SITES; i++) sites[i]->bytes_at_peak = sites[i]->curr_bytes;
   }
   LH_(timeline_note_change)(s);
   history[n_history].time = LH_(now);
   history[n_history].bytes = LH_(heap).curr_bytes;
   history[n_history].blocks = LH_(heap).curr_blocks;
   for (UInt i = 0; i < MAX_SITES; i++) history[n_history].site_bytes[i] = sites[i]->curr_bytes;
   n_history++;
}

/* The heap after every event up to time t. */
static const State* state_at(ULong t)
{
   static State empty;
   const State* st = &empty;
   UInt i;
   for (i = 0; i < n_history && history[i].time <= t; i++) st = &history[i];
   return st;
}

static int failures;
static void fail(const char* name, const char* why) { printf("FAIL %s: %s\n", name, why); failures++; }

/* Checks the written timeline against the brute-force model at this
   moment (the end of the run, or a periodic dump). */
static int verify(const char* name, UInt points)
{
   char why[256];
   UInt n, n2, n3, p, i, peak_index;
   const ULong *times, *bytes, *blocks;
   int bad = 0;

   LH_(timeline_finish)();
   LH_(timeline_write_json)(NULL);
   times = array_of("times", &n);
   bytes = array_of("live_bytes", &n2);
   blocks = array_of("live_blocks", &n3);
   peak_index = (UInt)scalar_of("peak_index");

   if (n == 0 || n != n2 || n != n3) { fail(name, "arrays of different lengths"); return 1; }
   if (n > points) { snprintf(why, sizeof why, "%u points > bound %u", n, points); fail(name, why); bad = 1; }
   if (times[n - 1] != LH_(now)) { fail(name, "last point is not the end of the run"); bad = 1; }
   for (p = 1; p < n; p++)
      if (times[p] <= times[p - 1]) { fail(name, "times not strictly increasing"); bad = 1; break; }
   if (peak_index >= n || times[peak_index] != LH_(heap).peak_time
       || bytes[peak_index] != LH_(heap).peak_bytes || blocks[peak_index] != LH_(heap).peak_blocks) {
      fail(name, "peak point differs from the peak"); bad = 1;
   }
   for (p = 0; p < n && !bad; p++) {
      const State* st = state_at(times[p]);
      if (p == peak_index) continue;
      if (bytes[p] != st->bytes || blocks[p] != st->blocks) {
         snprintf(why, sizeof why, "point %u (t=%llu): %llu B/%llu blocks, expected %llu/%llu",
                  p, times[p], bytes[p], blocks[p], st->bytes, st->blocks);
         fail(name, why); bad = 1;
      }
   }
   /* Every site's series on the same grid (significance 0: all sites). */
   for (i = 0; i < MAX_SITES && !bad; i++) {
      const ULong* series; UInt ns;
      if (sites[i]->max_bytes == 0) continue;
      LH_(site_timeline_write_json)(NULL, sites[i]);
      series = array_of("live_bytes", &ns);
      if (ns != n) { fail(name, "site series length differs"); bad = 1; break; }
      for (p = 0; p < n; p++) {
         ULong expected = p == peak_index ? sites[i]->bytes_at_peak
                                          : state_at(times[p])->site_bytes[i];
         if (series[p] != expected) {
            snprintf(why, sizeof why, "site %u point %u: %llu, expected %llu", i, p, series[p], expected);
            fail(name, why); bad = 1; break;
         }
      }
      /* Restore the global live_bytes array for the next site's check. */
      LH_(timeline_write_json)(NULL);
      times = array_of("times", &n);
   }
   return bad;
}

/* A random history of `events` events; with dump_at > 0 the timeline is
   also written (and checked) after that many events, and the run goes on,
   as with a periodic dump. */
static void run_case(const char* name, UInt points, ULong seed, UInt events,
                     ULong max_step, UInt dump_at, ULong max_size)
{
   UInt i;
   int bad = 0;

   rng_state = seed;
   LH_(now) = LH_(heap).curr_bytes = LH_(heap).curr_blocks = 0;
   LH_(heap).peak_bytes = LH_(heap).peak_blocks = LH_(heap).peak_time = 0;
   n_history = n_live = 0;
   for (i = 0; i < MAX_SITES; i++) {
      sites[i] = calloc(1, sizeof(LH_Site));
      sites[i]->out = calloc(1, sizeof(LH_SiteOutput));   /* as the first output makes it */
   }
   LH_(options).timeline_points = points;
   LH_(timeline_init)();

   for (i = 0; i < events; i++) {
      /* Time steps: often 0 (same time), sometimes huge (forces several
         coarsenings at once). */
      ULong r = rnd(100);
      if (dump_at > 0 && i == dump_at)
         bad |= verify(name, points);
      LH_(now) += r < 20 ? 0 : r < 97 ? rnd(max_step) : rnd(max_step * 1000);
      if (n_live > 0 && (n_live == MAX_LIVE || rnd(100) < 45)) {
         UInt k = (UInt)rnd(n_live);
         apply(live[k].site, -(Long)live[k].size, -1);
         live[k] = live[--n_live];
      } else {
         UInt s = (UInt)rnd(MAX_SITES);
         ULong size = 1 + rnd(s == 0 ? 100 * max_size : max_size);
         if (sites[s]->first_alloc_time == 0 && sites[s]->max_bytes == 0)
            sites[s]->first_alloc_time = LH_(now);
         live[n_live].site = s; live[n_live].size = size; n_live++;
         apply(s, (Long)size, 1);
      }
   }
   LH_(now) += rnd(max_step);
   bad |= verify(name, points);
   if (!bad) {
      UInt n;
      array_of("times", &n);
      printf("PASS %s (%u events, %u points, end %llu)\n", name, events, n, LH_(now));
   }
}

/* growth: a steady leak, one step at start-up, and a site oscillating
   under its first high, over 1,000,000 instructions. */
static void growth_case(void)
{
   LH_Site *leak, *step, *wave;
   const LH_Growth *g_leak, *g_step, *g_wave;
   UInt i;
   LH_(now) = LH_(heap).curr_bytes = LH_(heap).curr_blocks = 0;
   LH_(heap).peak_bytes = LH_(heap).peak_blocks = LH_(heap).peak_time = 0;
   n_history = n_live = 0;
   for (i = 0; i < MAX_SITES; i++) {
      sites[i] = calloc(1, sizeof(LH_Site));
      sites[i]->out = calloc(1, sizeof(LH_SiteOutput));   /* as the first output makes it */
   }
   leak = sites[0]; step = sites[1]; wave = sites[2];
   LH_(options).timeline_points = 1024;
   LH_(timeline_init)();
   LH_(now) = 1;
   step->first_alloc_time = leak->first_alloc_time = wave->first_alloc_time = 1;
   apply(1, 50000, 1);
   for (i = 1; i <= 1000; i++) {
      LH_(now) = (ULong)i * 1000;
      apply(0, 1000, 1);                       /* the leak: +1000 B per 1000 instr. */
      apply(2, i % 2 ? 10000 : -10000, i % 2 ? 1 : -1);   /* the wave */
   }
   LH_(timeline_finish)();
   g_leak = LH_(site_growth)(leak);
   g_step = LH_(site_growth)(step);
   g_wave = LH_(site_growth)(wave);
   if (g_leak && g_leak->rising_fraction == 1.0 && g_leak->windows == 16
       && g_leak->end_to_max_ratio == 1.0
       && g_leak->slope_bytes_per_million_instructions > 0.99e6
       && g_leak->slope_bytes_per_million_instructions < 1.01e6)
      printf("PASS timeline unit: growth of a steady leak (slope %.0f B/Minstr)\n",
             g_leak->slope_bytes_per_million_instructions);
   else
      fail("timeline unit: growth of a steady leak", "rising, windows, end ratio or slope");
   if (g_step && g_step->rising_fraction == 1.0 / 16 && g_step->end_to_max_ratio == 1.0
       && g_step->slope_bytes_per_million_instructions == 0.0)
      printf("PASS timeline unit: growth of one-time initialisation\n");
   else
      fail("timeline unit: growth of one-time initialisation", "rising_fraction, end ratio or slope");
   if (g_wave && g_wave->rising_fraction == 1.0 / 16 && g_wave->end_to_max_ratio == 0.0)
      printf("PASS timeline unit: growth of an oscillating site\n");
   else
      fail("timeline unit: growth of an oscillating site", "rising_fraction or end ratio");
}

int main(void)
{
   static char long_label[400];
   LH_(options).significant_fraction = 0;
   run_case("timeline unit: few events, no coarsening", 1024, 1, 50, 3, 0, 1000);
   run_case("timeline unit: small grid, many coarsenings", 16, 2, 20000, 50, 0, 1000);
   run_case("timeline unit: default grid, long run", 1024, 3, 50000, 5000, 0, 1000);
   run_case("timeline unit: huge time jumps", 32, 4, 5000, 1ULL << 30, 0, 1000);
   run_case("timeline unit: 17 points", 17, 5, 30000, 7, 0, 1000);
   run_case("timeline unit: events all at one time", 16, 6, 3, 1, 0, 1000);
   run_case("timeline unit: a dump mid-run, then more events", 64, 7, 30000, 100, 12345, 1000);
   /* Blocks of 1 to 24 bytes, a change every interval or two: most
      entries of the sites' series take the one-byte form, and the
      coarsenings merge them into long ones. */
   run_case("timeline unit: small blocks, one-byte entries", 8192, 8, 60000, 40, 0, 24);
   run_case("timeline unit: small blocks, many coarsenings", 64, 9, 60000, 40, 30000, 24);
   growth_case();

   /* Markers: in order, labels copied and cut at 255 bytes, NULL
      recorded as unreadable. */
   memset(long_label, 'x', sizeof long_label - 1);
   LH_(now) = 100; LH_(timeline_mark)("start");
   LH_(now) = 200; LH_(timeline_mark)(long_label);
   LH_(now) = 300; LH_(timeline_mark)(NULL);
   n_strings = 0;
   LH_(timeline_finish)();
   LH_(timeline_write_json)(NULL);
   if (n_strings == 3 && strcmp(strings[0], "start") == 0 && strlen(strings[1]) == 255
       && strcmp(strings[2], "(unreadable label)") == 0)
      printf("PASS timeline unit: markers\n");
   else
      fail("timeline unit: markers", strings[0]);
   return failures ? 1 : 0;
}
