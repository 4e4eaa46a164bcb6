/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_findings.c: recognising memory problems at the  ---*/
/*--- end of the run and naming the site that causes each.         ---*/
/*--------------------------------------------------------------------*/
/*
   SPDX-License-Identifier: GPL-3.0-or-later

   Findings are decided once, here, from the per-site figures that the
   sites (lh_sites.c), the access tracking (lh_access.c) and the timeline (lh_timeline.c) have
   gathered; the profile carries them and the CLI and viewer only render
   them.  docs/findings.md states, for every kind, the property that
   defines it, the evidence that proves it and the thresholds: keep it in
   step with this file.  The sentences are written by lh_findings_text.c.

   Every rule looks at one site at a time.  A site gets at most ONE memory
   finding, the most specific cause that holds, tried in this order:

     oversized-preallocation  large blocks whose bytes are mostly never read
                              (the block's size is the cause: whatever else
                              the site does, sizing it removes the bytes)
     missing-backpressure     hand-off + waiting: blocks freed by another
                              thread than the one that allocated them, many
                              live at once, each waiting behind many others
                              consumed before it (Little's law), in this run
                              and on the parallel clock (a CPU per thread,
                              lh_parallel_clock.c), and a noticeable share
                              of the run on that clock, consumed one by one
                              over time, not held at a ceiling
     leak                     new highs through the site's allocating phase,
                              still (mostly) live at exit
     unused-capacity          initialised high-water mark far below the size
     unbounded-growth         new highs through the allocating phase, long-
                              lived blocks, freed in the end

   and, independent of those (they cost time, not memory):

     short-lived-churn        many blocks living a tiny fraction of the run
     realloc-growth           many reallocs per block copying many bytes

   A memory finding is material when its bytes reach
   --lifeheap-min-finding-bytes, or reach --lifeheap-min-finding-share of the
   global peak and at least --lifeheap-min-finding-floor bytes: a small
   program's 64 KiB buffer that is a fifth of its heap counts, libc's 4 KiB
   stdout buffer does not.  Severity of a memory finding is the share of the
   global peak the wasted or growing bytes represent.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "lh_include.h"
#include "lh_json.h"
#include "lh_timeline.h"
#include "lh_findings.h"
#include "lh_options.h"
#include "lh_findings_private.h"
#include "lh_text.h"

/*------------------------------------------------------------*/
/*--- Thresholds                                           ---*/
/*------------------------------------------------------------*/

/* The options are in LH_(options) (lh_options.def); fixed parts of the
   rules (docs/findings.md): */
#define GROWTH_MIN_WINDOWS   8    /* fewer points since the first allocation:
                                     too short a history to call a trend */
#define GROWTH_LATE_WINDOWS  0.25 /* of the windows, the last ones: a new
                                     high there is growth still going on
                                     when the site's allocating ends */
#define QUEUE_MIN_SPREAD     0.1  /* of the mean wait: the span of a queue's
                                     frees; less is a release at teardown */
#define SHARE_HIGH           0.25 /* of the peak: severity high */
#define SHARE_MEDIUM         0.05 /* of the peak: severity medium */

double LH_(findings_churn_lifetime_fraction)(void)
{
   return LH_(options).churn_lifetime_fraction;
}

/*------------------------------------------------------------*/
/*--- Findings                                             ---*/
/*------------------------------------------------------------*/

const HChar* const LH_(finding_kind_names)[] = {
   "missing-backpressure", "unbounded-growth", "oversized-preallocation",
   "unused-capacity", "leak", "short-lived-churn", "realloc-growth"
};
const HChar* const LH_(severity_names)[] = { "low", "medium", "high" };

static Finding* findings;
static UInt     n_findings;
static UInt     findings_capacity;

static Finding* add_finding(FindingKind kind, Severity severity,
                            LH_Site* site, UInt site_index)
{
   Finding* f;
   if (n_findings == findings_capacity) {
      findings_capacity = findings_capacity == 0 ? 16 : 2 * findings_capacity;
      findings = VG_(realloc)("lh.findings", findings,
                              findings_capacity * sizeof *findings);
   }
   f = &findings[n_findings++];
   VG_(memset)(f, 0, sizeof *f);
   f->kind = kind;
   f->severity = severity;
   f->site = site;
   f->site_index = site_index;
   return f;
}

/* The finding was allocated zeroed: the member not given stays 0. */
static Evidence* add_evidence(Finding* f, const HChar* name, Bool is_double)
{
   Evidence* e;
   tl_assert(f->n_evidence < MAX_EVIDENCE);
   e = &f->evidence[f->n_evidence++];
   e->name = name;
   e->is_double = is_double;
   return e;
}

static void add_count(Finding* f, const HChar* name, ULong value)
{
   add_evidence(f, name, False)->count = value;
}

static void add_fraction(Finding* f, const HChar* name, double value)
{
   add_evidence(f, name, True)->fraction = value;
}

ULong LH_(evidence_count)(const Finding* f, const HChar* name)
{
   UInt i;
   for (i = 0; i < f->n_evidence; i++)
      if (VG_STREQ(f->evidence[i].name, name))
         return f->evidence[i].is_double ? (ULong)f->evidence[i].fraction
                                         : f->evidence[i].count;
   tl_assert2(0, "finding evidence %s missing", name);
   return 0;
}

double LH_(evidence_fraction)(const Finding* f, const HChar* name)
{
   UInt i;
   for (i = 0; i < f->n_evidence; i++)
      if (VG_STREQ(f->evidence[i].name, name))
         return f->evidence[i].is_double ? f->evidence[i].fraction
                                         : (double)f->evidence[i].count;
   tl_assert2(0, "finding evidence %s missing", name);
   return 0;
}

/*------------------------------------------------------------*/
/*--- Figures the rules use                                ---*/
/*------------------------------------------------------------*/

static double ratio(ULong part, ULong whole)
{
   return whole == 0 ? 0.0 : (double)part / (double)whole;
}

static Severity severity_for_share(ULong bytes)
{
   double share = ratio(bytes, LH_(heap).peak_bytes);
   if (share >= SHARE_HIGH)
      return Severity_High;
   if (share >= SHARE_MEDIUM)
      return Severity_Medium;
   return Severity_Low;
}

/* Worth a memory finding: the absolute floor, or a share of the run's
   peak with a small absolute minimum (a tiny program's 4 KiB stdio buffer
   is a large share of its heap, and still nothing to fix). */
static Bool material(ULong bytes)
{
   if (bytes >= (ULong)LH_(options).min_finding_bytes)
      return True;
   return bytes >= (ULong)LH_(options).min_finding_floor
          && (double)bytes >= LH_(options).min_finding_share * (double)LH_(heap).peak_bytes;
}

/* Access figures over all the site's blocks: the retired ones plus the live
   ones (lh_access.c refolds the live blocks before the profile is written).  The
   at-peak part of a fold counts only while it belongs to the current
   peak. */
typedef struct {
   ULong measured_bytes, bytes_read;
   ULong never_read, never_accessed, written_never_read, unused_capacity;
   ULong at_peak_bytes, at_peak_never_read, at_peak_never_accessed,
         at_peak_unused_capacity;
} AccessTotals;

static void add_fold(AccessTotals* t, const LH_AccessFold* fold)
{
   t->measured_bytes     += fold->measured_bytes;
   t->never_read         += fold->never_read_bytes;
   t->never_accessed     += fold->never_accessed_bytes;
   t->written_never_read += fold->written_never_read_bytes;
   t->unused_capacity    += fold->unused_capacity_bytes;
   if (fold->at_peak_seq == LH_(heap).peak_seq) {
      t->at_peak_bytes           += fold->at_peak_bytes;
      t->at_peak_never_read      += fold->at_peak_never_read;
      t->at_peak_never_accessed  += fold->at_peak_never_accessed;
      t->at_peak_unused_capacity += fold->at_peak_unused_capacity;
   }
}

/* lh_access.c folds the blocks still live into site->out->live_fold only on
   demand (when it writes a site's "access" member, after the findings are
   computed, or when asked for its totals).  LH_(access_total_read) makes
   the live folds current (cached: nothing is refolded twice for the same
   output), so the rules see every block, freed or not. */
static void refresh_access_folds(void)
{
   (void)LH_(access_total_read)();
}

static void access_totals(const LH_Site* site, AccessTotals* t)
{
   VG_(memset)(t, 0, sizeof *t);
   add_fold(t, &site->access.retired);
   add_fold(t, LH_(site_live_fold)(site));
   t->bytes_read = LH_(access_site_bytes)(site, False);
}

/* Mean lifetime of the site's blocks, live ones counted up to now. */
static double mean_lifetime(const LH_Site* site)
{
   return site->total_blocks == 0
          ? 0.0 : (double)site->out->lifetimes->sum / (double)site->total_blocks;
}

static double mean_lifetime_fraction(const LH_Site* site, ULong duration)
{
   return duration == 0 ? 0.0 : mean_lifetime(site) / (double)duration;
}

/* How a site's blocks queue, by Little's law (mean number waiting =
   arrival rate x mean wait).  All from O(1) counters of the site. */
typedef struct {
   double mean_wait;            /* instructions: the blocks' mean lifetime */
   double free_interval;        /* instructions between two frees, on average */
   double depth;                /* mean_wait / free_interval: blocks consumed
                                   while a block waits (0: not measurable) */
   ULong  free_span;            /* first free to last free */
   double occupancy;            /* mean live blocks over the site's active
                                   time, as a share of max_blocks */
   /* The same wait on the parallel clock, a CPU per thread
      (lh_parallel_clock.c), over the cross-thread frees: */
   double parallel_wait;        /* mean wait */
   double parallel_interval;    /* between two such frees, on average */
   double parallel_depth;       /* parallel_wait / parallel_interval */
   double parallel_wait_fraction;   /* of the run's parallel length */
} QueueFigures;

static void parallel_queue_figures(const LH_SiteRare* rare, QueueFigures* q)
{
   ULong parallel_end = LH_(parallel_clock_end)();
   if (rare->parallel_handoffs == 0) return;
   q->parallel_wait = (double)rare->parallel_wait_sum / (double)rare->parallel_handoffs;
   if (rare->parallel_handoffs >= 2) {
      q->parallel_interval = (double)(rare->parallel_last_free - rare->parallel_first_free)
                             / (double)(rare->parallel_handoffs - 1);
      if (q->parallel_interval > 0)
         q->parallel_depth = q->parallel_wait / q->parallel_interval;
   }
   if (parallel_end > 0)
      q->parallel_wait_fraction = q->parallel_wait / (double)parallel_end;
}

static void queue_figures(const LH_Site* site, ULong now, QueueFigures* q)
{
   ULong active_end, active;
   VG_(memset)(q, 0, sizeof *q);
   q->mean_wait = mean_lifetime(site);
   if (LH_(site_freed_blocks)(site) >= 2) {
      q->free_span = site->last_free_time - site->first_free_time;
      q->free_interval = (double)q->free_span
                         / (double)(LH_(site_freed_blocks)(site) - 1);
      if (q->free_interval > 0)
         q->depth = q->mean_wait / q->free_interval;
   }
   /* Active from the first allocation to the last free, or to now when
      blocks are still live. */
   active_end = LH_(site_blocks_at_exit)(site) > 0 || LH_(site_freed_blocks)(site) == 0
                ? now : site->last_free_time;
   active = active_end > site->first_alloc_time
            ? active_end - site->first_alloc_time : 0;
   if (active > 0 && site->max_blocks > 0)
      q->occupancy = (double)site->out->lifetimes->sum / (double)active
                     / (double)site->max_blocks;
   parallel_queue_figures(LH_(site_rare)(site), q);
}

/*------------------------------------------------------------*/
/*--- The rules                                            ---*/
/*------------------------------------------------------------*/

/* Leak's and unbounded growth's shared question: did the site's live bytes
   set new highs through its allocating phase (lh_timeline.c), over a
   history long enough to call a trend, and still at the end of that phase?
   A bounded cache that warms up slowly (misses get rarer as it fills) sets
   new highs through much of its life, then holds at its bound while it
   goes on allocating and evicting: it stopped growing although its
   allocations did not.  (Both also ask for enough blocks at the site's
   max: an accumulation, not a fixed set.) */
static Bool rising(const LH_Growth* growth)
{
   return growth != NULL && growth->windows >= GROWTH_MIN_WINDOWS
          && growth->rising_fraction >= LH_(options).rising_fraction
          && (double)growth->last_rising_window
             > (1.0 - GROWTH_LATE_WINDOWS) * (double)growth->windows;
}

static void add_growth_evidence(Finding* f, const LH_Site* site,
                                const LH_Growth* growth, ULong duration)
{
   add_fraction(f, "rising_fraction", growth->rising_fraction);
   add_count(f, "growth_windows", growth->windows);
   add_count(f, "last_rising_window", growth->last_rising_window);
   add_count(f, "max_bytes", site->max_bytes);
   add_count(f, "max_blocks", site->max_blocks);
   add_fraction(f, "max_time_fraction", ratio(site->max_time, duration));
   add_fraction(f, "mean_lifetime_fraction",
                mean_lifetime_fraction(site, duration));
   add_count(f, "freed_blocks", LH_(site_freed_blocks)(site));
   add_count(f, "cross_thread_frees", LH_(site_rare)(site)->cross_thread_frees);
   add_count(f, "allocating_threads", site->allocating_threads);
   add_count(f, "bytes_at_exit", LH_(site_bytes_at_exit)(site));
   add_fraction(f, "slope_bytes_per_million_instructions",
                growth->slope_bytes_per_million_instructions);
}

/* oversized-preallocation: big blocks whose bytes are mostly never read. */
static Bool check_oversized(LH_Site* site, UInt index, const AccessTotals* a)
{
   ULong mean_block = site->total_bytes / site->total_blocks;
   Finding* f;
   if (a->measured_bytes == 0
       || mean_block < (ULong)LH_(options).large_block_bytes
       || ratio(a->never_read, a->measured_bytes) < LH_(options).never_read_fraction
       || !material(a->at_peak_never_read))
      return False;
   f = add_finding(Kind_OversizedPreallocation,
                   severity_for_share(a->at_peak_never_read), site, index);
   add_count(f, "blocks", site->total_blocks);
   add_count(f, "mean_block_bytes", mean_block);
   add_count(f, "bytes_at_peak", a->at_peak_bytes);
   add_count(f, "never_read_bytes_at_peak", a->at_peak_never_read);
   add_count(f, "never_accessed_bytes_at_peak", a->at_peak_never_accessed);
   add_count(f, "measured_bytes", a->measured_bytes);
   add_count(f, "never_read_bytes", a->never_read);
   add_count(f, "written_never_read_bytes", a->written_never_read);
   add_count(f, "never_accessed_bytes", a->never_accessed);
   add_count(f, "bytes_read", a->bytes_read);
   add_fraction(f, "never_read_fraction",
                ratio(a->never_read, a->measured_bytes));
   return True;
}

/* missing-backpressure: hand-off plus waiting, whatever the shape of the
   pile-up in time (docs/findings.md). */
static Bool check_backpressure(LH_Site* site, UInt index, ULong duration)
{
   QueueFigures q;
   const LH_Growth* growth;
   Finding* f;
   /* Hand-off: most freed blocks were freed by another thread. */
   if (LH_(site_rare)(site)->cross_thread_frees < (ULong)LH_(options).growth_min_blocks
       || 2 * LH_(site_rare)(site)->cross_thread_frees < LH_(site_freed_blocks)(site))
      return False;
   /* Many live at once, and material. */
   if (site->max_blocks < (ULong)LH_(options).growth_min_blocks
       || !material(site->max_bytes))
      return False;
   queue_figures(site, duration, &q);
   /* Waiting: a block waits while many others are consumed, and for a
      noticeable share of the run, on the parallel clock.  Under Valgrind
      one thread runs at a time: a consumer that keeps up waits for the
      CPU while its producer runs ahead by a time slice's worth of messages
      (hundreds, each waiting behind hundreds), or by many slices when the
      default scheduler keeps the CPU for a producer that never blocks;
      and a producer that wakes its consumer at every message may lose the
      CPU to it each time, so that a consumer too slow for it never falls
      far behind in this run.  On the parallel clock, where each thread
      counts its own instructions and catches up with what it receives,
      messages wait only for the consumer's own work, however the threads
      were scheduled. */
   if (q.parallel_depth < (double)LH_(options).queue_min_depth
       || q.parallel_wait_fraction < LH_(options).long_lived_fraction)
      return False;
   /* Consumed one by one over time, not released together at the end:
      results gathered by worker threads and freed by the main thread at
      teardown wait long too, but nothing consumes them while they wait. */
   if ((double)q.free_span < QUEUE_MIN_SPREAD * q.mean_wait)
      return False;
   /* Not held at a bound: a bounded queue under pressure sits at its
      capacity (occupancy near 1); a pile-up rises and falls.  Under
      Valgrind a consumer drains a queue of large capacity by a whole time
      slice's worth at each turn on the CPU (all of it when the default
      scheduler gives it several turns in a row), so its occupancy can fall
      below the bound's; but it comes back to its capacity again and again,
      when a pile-up reaches its max once: at its max in half the windows
      of its active time is held at a bound. */
   growth = LH_(site_growth)(site);
   if (q.occupancy > LH_(options).queue_max_occupancy
       || (growth != NULL && growth->active_windows >= GROWTH_MIN_WINDOWS
           && 2 * growth->active_windows_at_max >= growth->active_windows))
      return False;
   f = add_finding(Kind_MissingBackpressure,
                   severity_for_share(site->max_bytes), site, index);
   add_count(f, "max_bytes", site->max_bytes);
   add_count(f, "max_blocks", site->max_blocks);
   add_fraction(f, "max_time_fraction", ratio(site->max_time, duration));
   add_count(f, "mean_lifetime", (ULong)q.mean_wait);
   add_fraction(f, "mean_lifetime_fraction",
                mean_lifetime_fraction(site, duration));
   add_count(f, "free_interval_time", (ULong)q.free_interval);
   add_count(f, "queue_depth", (ULong)q.depth);
   add_count(f, "parallel_mean_wait", (ULong)q.parallel_wait);
   add_fraction(f, "parallel_wait_fraction", q.parallel_wait_fraction);
   add_count(f, "parallel_free_interval", (ULong)q.parallel_interval);
   add_count(f, "parallel_queue_depth", (ULong)q.parallel_depth);
   add_fraction(f, "free_span_fraction", ratio(q.free_span, duration));
   add_fraction(f, "occupancy_fraction", q.occupancy);
   if (growth != NULL) {
      add_count(f, "active_windows", growth->active_windows);
      add_count(f, "active_windows_at_max", growth->active_windows_at_max);
   }
   add_count(f, "freed_blocks", LH_(site_freed_blocks)(site));
   add_count(f, "cross_thread_frees", LH_(site_rare)(site)->cross_thread_frees);
   add_count(f, "allocating_threads", site->allocating_threads);
   add_count(f, "bytes_at_exit", LH_(site_bytes_at_exit)(site));
   return True;
}

/* leak: accumulating through the run and still held at exit. */
static Bool check_leak(LH_Site* site, UInt index, ULong duration,
                       const LH_Growth* growth)
{
   Finding* f;
   if (!rising(growth)
       || site->max_blocks < (ULong)LH_(options).growth_min_blocks
       || growth->end_to_max_ratio < LH_(options).leak_exit_fraction
       || LH_(site_blocks_at_exit)(site) < (ULong)LH_(options).growth_min_blocks
       || !material(LH_(site_bytes_at_exit)(site)))
      return False;
   f = add_finding(Kind_Leak, severity_for_share(LH_(site_bytes_at_exit)(site)),
                   site, index);
   add_count(f, "bytes_at_exit", LH_(site_bytes_at_exit)(site));
   add_count(f, "blocks_at_exit", LH_(site_blocks_at_exit)(site));
   add_fraction(f, "end_to_max_ratio", growth->end_to_max_ratio);
   add_fraction(f, "first_alloc_fraction",
                ratio(site->first_alloc_time, duration));
   add_fraction(f, "last_alloc_fraction",
                ratio(site->last_alloc_time, duration));
   add_fraction(f, "rising_fraction", growth->rising_fraction);
   add_count(f, "growth_windows", growth->windows);
   add_count(f, "last_rising_window", growth->last_rising_window);
   add_fraction(f, "slope_bytes_per_million_instructions",
                growth->slope_bytes_per_million_instructions);
   return True;
}

/* unused-capacity: the initialised high-water mark far below the size. */
static Bool check_unused(LH_Site* site, UInt index, const AccessTotals* a)
{
   ULong mean_block = site->total_bytes / site->total_blocks;
   Finding* f;
   if (a->measured_bytes == 0
       || ratio(a->unused_capacity, a->measured_bytes)
          < LH_(options).unused_capacity_fraction
       || !material(a->at_peak_unused_capacity))
      return False;
   f = add_finding(Kind_UnusedCapacity,
                   severity_for_share(a->at_peak_unused_capacity),
                   site, index);
   add_count(f, "blocks", site->total_blocks);
   add_count(f, "mean_block_bytes", mean_block);
   add_count(f, "measured_bytes", a->measured_bytes);
   add_count(f, "unused_capacity_bytes", a->unused_capacity);
   add_fraction(f, "unused_capacity_fraction",
                ratio(a->unused_capacity, a->measured_bytes));
   add_count(f, "bytes_at_peak", a->at_peak_bytes);
   add_count(f, "unused_capacity_bytes_at_peak", a->at_peak_unused_capacity);
   return True;
}

/* unbounded-growth: accumulating through the run, long-lived blocks,
   given back in the end (else it is a leak). */
static Bool check_unbounded(LH_Site* site, UInt index, ULong duration,
                            const LH_Growth* growth)
{
   Finding* f;
   if (!rising(growth)
       || site->max_blocks < (ULong)LH_(options).growth_min_blocks
       || mean_lifetime_fraction(site, duration) < LH_(options).long_lived_fraction
       || !material(site->max_bytes))
      return False;
   f = add_finding(Kind_UnboundedGrowth, severity_for_share(site->max_bytes),
                   site, index);
   add_growth_evidence(f, site, growth, duration);
   return True;
}

/* At most one memory finding per site: the most specific cause first. */
static void check_memory(LH_Site* site, UInt index, ULong duration)
{
   AccessTotals a;
   const LH_Growth* growth;
   if (site->total_blocks == 0)
      return;
   access_totals(site, &a);
   growth = LH_(site_growth)(site);
   if (check_oversized(site, index, &a)) return;
   if (check_backpressure(site, index, duration)) return;
   if (check_leak(site, index, duration, growth)) return;
   if (check_unused(site, index, &a)) return;
   (void)check_unbounded(site, index, duration, growth);
}

/* Blocks whose lifetime is certainly below the limit: whole histogram
   buckets only (bucket i >= 1 holds 2^(i-1) <= lifetime < 2^i), so the
   count never includes a block living longer than the limit. */
static ULong short_lived_blocks(const LH_Site* site, ULong limit)
{
   ULong count = LH_(histogram_at)(&site->out->lifetimes->lifetime_histogram, 0);   /* lifetime 0 */
   UInt  i;
   if (limit == 0)
      return 0;
   for (i = 1; i < LH_LIFETIME_BUCKETS && i < 64; i++) {
      if ((1ULL << i) > limit)
         break;
      count += LH_(histogram_at)(&site->out->lifetimes->lifetime_histogram, i);
   }
   return count;
}

static void check_churn(LH_Site* site, UInt index, ULong duration)
{
   ULong limit = (ULong)(LH_(options).churn_lifetime_fraction * (double)duration);
   ULong short_blocks = short_lived_blocks(site, limit);
   Finding* f;
   if (short_blocks < (ULong)LH_(options).churn_min_blocks
       || 2 * short_blocks < site->total_blocks)
      return;
   f = add_finding(Kind_ShortLivedChurn,
                   2 * short_blocks >= LH_(heap).total_blocks ? Severity_Medium
                                                         : Severity_Low,
                   site, index);
   add_count(f, "short_lived_blocks", short_blocks);
   add_count(f, "total_blocks", site->total_blocks);
   add_count(f, "total_bytes", site->total_bytes);
   add_count(f, "lifetime_limit", limit);
   add_count(f, "mean_lifetime",
             site->total_blocks ? site->out->lifetimes->sum / site->total_blocks : 0);
   add_fraction(f, "mean_lifetime_fraction",
                mean_lifetime_fraction(site, duration));
   add_count(f, "max_blocks", site->max_blocks);
   add_fraction(f, "share_of_all_blocks",
                ratio(site->total_blocks, LH_(heap).total_blocks));
}

static void check_realloc(LH_Site* site, UInt index)
{
   Finding* f;
   if (site->total_blocks == 0
       || LH_(site_rare)(site)->reallocs < (ULong)LH_(options).realloc_min_per_block * site->total_blocks
       || LH_(site_rare)(site)->realloc_bytes_copied < (ULong)LH_(options).realloc_min_copied_bytes)
      return;
   /* Copying ten times what the buffers grow to means growth by small
      steps (quadratic copying), not by doubling. */
   f = add_finding(Kind_ReallocGrowth,
                   LH_(site_rare)(site)->realloc_bytes_copied >= 10 * site->max_bytes
                      ? Severity_Medium : Severity_Low,
                   site, index);
   add_count(f, "reallocs", LH_(site_rare)(site)->reallocs);
   add_count(f, "blocks", site->total_blocks);
   add_fraction(f, "reallocs_per_block", ratio(LH_(site_rare)(site)->reallocs, site->total_blocks));
   add_count(f, "realloc_bytes_copied", LH_(site_rare)(site)->realloc_bytes_copied);
   add_count(f, "realloc_requested_bytes", LH_(site_rare)(site)->realloc_requested_bytes);
   add_count(f, "max_bytes", site->max_bytes);
}

/* Most severe first, then the site's bytes at the peak, then the site
   order and the kind order: deterministic. */
static Int compare_findings(const void* va, const void* vb)
{
   const Finding* a = va;
   const Finding* b = vb;
   if (a->severity != b->severity)
      return a->severity > b->severity ? -1 : 1;
   if (a->site->bytes_at_peak != b->site->bytes_at_peak)
      return a->site->bytes_at_peak > b->site->bytes_at_peak ? -1 : 1;
   if (a->site_index != b->site_index)
      return a->site_index < b->site_index ? -1 : 1;
   if (a->kind != b->kind)
      return a->kind < b->kind ? -1 : 1;
   return 0;
}

void LH_(findings_compute)(LH_Site** sorted_sites, UInt n_sites)
{
   ULong duration = LH_(now);
   UInt  i;
   for (i = 0; i < n_findings; i++) VG_(free)(findings[i].summary);
   n_findings = 0;   /* a periodic dump recomputes everything */
   refresh_access_folds();
   for (i = 0; i < n_sites; i++) {
      LH_Site* site = sorted_sites[i];
      /* A stack made only of library and allocator code (libstdc++'s
         emergency exception pool, allocated before main) names nothing
         the user can change: no finding. */
      if (site->out->runtime_only) continue;
      check_memory(site, i, duration);
      check_churn(site, i, duration);
      check_realloc(site, i);
   }
   if (n_findings > 1)
      VG_(ssort)(findings, n_findings, sizeof *findings, compare_findings);
   /* Each sentence once: the profile and the summary print the same. */
   for (i = 0; i < n_findings; i++)
      findings[i].summary = LH_(finding_sentence)(&findings[i]);
}

/*------------------------------------------------------------*/
/*--- Output                                               ---*/
/*------------------------------------------------------------*/

void LH_(findings_write_json)(LH_Json* json)
{
   UInt i, e;
   LH_(json_array_begin)(json, "findings");
   for (i = 0; i < n_findings; i++) {
      const Finding* f = &findings[i];
      LH_(json_object_begin)(json, NULL);
      LH_(json_string)(json, "kind", LH_(finding_kind_names)[f->kind]);
      LH_(json_u64)(json, "site", f->site_index);
      LH_(json_string)(json, "severity", LH_(severity_names)[f->severity]);
      LH_(json_string)(json, "summary", f->summary);
      LH_(json_object_begin)(json, "evidence");
      for (e = 0; e < f->n_evidence; e++) {
         if (f->evidence[e].is_double)
            LH_(json_double)(json, f->evidence[e].name, f->evidence[e].fraction);
         else
            LH_(json_u64)(json, f->evidence[e].name, f->evidence[e].count);
      }
      LH_(json_object_end)(json);
      LH_(json_object_end)(json);
   }
   LH_(json_array_end)(json);
}

#define SUMMARY_FRAMES_AFTER_NAME 2
/* More frames than this above the name frame: the middle ones are elided. */
#define SUMMARY_FRAMES_BEFORE_NAME 4

void LH_(findings_print_summary)(UInt max)
{
   UInt i, shown = n_findings < max ? n_findings : max;
   HChar frame[512];
   if (n_findings == 0) {
      VG_(umsg)("Findings: none.\n");
      return;
   }
   VG_(umsg)("Findings: %u (most severe first%s):\n", n_findings,
             shown < n_findings ? "; the profile lists them all" : "");
   for (i = 0; i < shown; i++) {
      const Finding* f = &findings[i];
      const LH_Site* site = f->site;
      UInt k, last;
      VG_(umsg)(" [%s] %s, site %u: %s\n", LH_(severity_names)[f->severity],
                LH_(finding_kind_names)[f->kind], f->site_index, f->summary);
      if (site->out->n_frames == 0 || site->out->frame_ids == NULL)
         continue;
      last = site->out->name_frame + SUMMARY_FRAMES_AFTER_NAME;
      if (last >= site->out->n_frames)
         last = site->out->n_frames - 1;
      for (k = 0; k <= last; k++) {
         /* Between the allocator's caller and the frame naming the site
            lie the allocator's and the libraries' own frames (a dozen in
            Rust's iterator and RawVec code): the first and the last one
            show the way, the rest are in the profile. */
         if (k == 2 && site->out->name_frame > SUMMARY_FRAMES_BEFORE_NAME) {
            VG_(umsg)("    ... %u more frames (in the profile) ...\n",
                      site->out->name_frame - 3);
            k = site->out->name_frame - 1;
         }
         LH_(frame_describe)(site->out->frame_ids[k], frame, sizeof frame);
         VG_(umsg)("    %s %s%s\n", k == 0 ? "at" : "by", frame,
                   k == site->out->name_frame ? "   <- names the site" : "");
      }
   }
}


/*--------------------------------------------------------------------*/
/*--- end                                          lh_findings.c ---*/
/*--------------------------------------------------------------------*/
