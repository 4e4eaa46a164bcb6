/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_timeline.c: the live heap over time, per-site   ---*/
/*--- series on the same grid, growth, and phase markers.          ---*/
/*--------------------------------------------------------------------*/
/*
   SPDX-License-Identifier: GPL-3.0-or-later

   What this file keeps, cheaply, while the program runs: the global live
   bytes/blocks over time, each site's live bytes over time, and the
   LIFEHEAP_MARK markers.  At the end it turns them into the profile's
   `timeline`, each significant site's `timeline` and `growth`.

   The grid.  Time (LH_(now), guest instructions) is cut into at most
   K = timeline_points - 1 intervals of equal width W, a power of two
   (W = 2^generation).  Interval i covers the times (i*W, (i+1)*W] (time 0
   belongs to interval 0).  An interval holds the heap as it was at its end:
   the value left by the last event in it, or the previous interval's value
   when nothing happened in it.

      W = 4       |  0  |  1  |  2  |  3  | ... | K-1 |
      time        0     4     8    12    16          K*W
                                ^ a malloc at t = 10 writes interval 2

   When an event arrives after K*W the grid coarsens: W doubles and each pair
   of intervals merges into one that keeps the later value (the value at the
   end of the merged interval), which frees the upper half of the grid:

      before, W = 4   | a | b | c | d | e | f |   |   |
      after,  W = 8   |   b   |   d   |   f   |       ...

   So K intervals always span the whole run, whatever its length; one
   coarsening costs O(K) and happens at most 64 times: O(1) amortised per
   event, and memory is fixed at start-up.

   Per-site series.  Whether a site is significant (its own max >= 1% of the
   peak) is known only at the end, so every site records cheaply: a sparse
   list of (interval, live bytes at the interval's end), one entry per
   interval in which the site changed, delta-coded in a byte string (one
   or two bytes an entry for a site of small blocks; a program with tens of
   thousands of sites keeps them all, so sixteen bytes an entry would make
   these lists its largest cost).  An event overwrites the last entry
   when it falls in the same interval, else appends one.  Sites are never
   walked when the grid coarsens: each list remembers the generation it is
   expressed in and is compacted the next time the site is touched (or
   written out): intervals shift right by the generations missed and entries
   that land in the same interval merge, keeping the later value (and the
   list's buffer shrinks to its new size when that leaves much room).

      generation 3:   (0, 40) (1, 80) (3, 120) (6, 80)
      generation 4:   (0, 80)         (1, 120) (3, 80)

   A list never holds more than K entries (one per interval).  A compaction
   visits each entry once, a list has no more entries than the site had
   events, and a site is compacted at most once per generation (at most 64,
   in practice log2(run length / K) ~ 20): O(1) amortised per event, and
   the hot path never walks the sites.

   The peak.  Grid values are samples at interval ends, so they would miss
   the peak.  At the end the exact peak (lh_sites.c's LH_(heap).peak_time,
   LH_(heap).peak_bytes, LH_(heap).peak_blocks) is inserted as an extra point between
   the grid points around it, or replaces the grid point that has the same
   time; in a site's series that point holds the site's bytes_at_peak.  The
   profile therefore has at most K + 1 = timeline_points points, the last at
   run.duration, and `peak_index` names the peak point.

   Growth (docs/findings.md).  For a significant site, the points from its
   first allocation to its last one (when that allocating phase lasts at
   least a quarter of the run; else to the end of the run) are split into
   GROWTH_WINDOWS consecutive windows; a window "rises" when the site's highest value in it exceeds
   every earlier value by more than GROWTH_NOISE_FRACTION of the site's max.
   rising_fraction is the share of rising windows: 1.0 for a leak that grows
   all the time, about 1/16 for one-time initialisation, near 0 for a
   bounded structure that only fluctuates.  Counting new highs rather than
   "end above start" windows keeps the measure robust to a series that goes
   up and down around a constant level.  last_rising_window (1-based, 0
   for none) says whether the site still rose at the end of that phase: a
   cache that warms up slowly sets new highs through much of its life, then
   holds at its bound while it goes on allocating.  active_windows_at_max
   counts the windows of the site's active time (first allocation to last
   free, or to the end) that come within AT_MAX_CLOSENESS of its max: a
   bounded queue under pressure returns to its capacity again and again,
   a pile-up reaches its max once.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_wordfm.h"

#include "lh_include.h"
#include "lh_json.h"
#include "lh_timeline.h"
#include "lh_findings.h"
#include "lh_options.h"

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

/* --lifeheap-timeline-points and --lifeheap-significant-fraction: lh_options.def. */

/*------------------------------------------------------------*/
/*--- The grid (global live bytes and blocks)              ---*/
/*------------------------------------------------------------*/

static UInt   n_intervals;      /* K */
static UInt   generation;       /* the interval width is 2^generation */
static UInt   filled;           /* intervals [0, filled) hold values */
static ULong* interval_bytes;   /* K entries: live bytes at interval end */
static ULong* interval_blocks;  /* K entries: live blocks at interval end */

static inline ULong interval_of(ULong time)
{
   return time == 0 ? 0 : (time - 1) >> generation;
}

/* Point time of grid interval i: its end. */
static inline ULong interval_end(UInt i)
{
   return ((ULong)i + 1) << generation;
}

/* Doubles the interval width, merging pairs and keeping the later value. */
static void coarsen_grid(void)
{
   UInt merged_filled = (filled + 1) / 2;
   UInt j;
   for (j = 0; j < merged_filled; j++) {
      UInt later = 2 * j + 1 < filled ? 2 * j + 1 : 2 * j;
      interval_bytes[j]  = interval_bytes[later];
      interval_blocks[j] = interval_blocks[later];
   }
   filled = merged_filled;
   generation++;
   tl_assert(generation < 64);
}

/* The interval holding `time`, coarsening the grid until it fits. */
static UInt grid_interval(ULong time)
{
   while (interval_of(time) >= n_intervals)
      coarsen_grid();
   return (UInt)interval_of(time);
}

/* Writes the current global state as interval `interval`'s value, carrying
   the last known value over the intervals in which nothing happened. */
static void record_global(UInt interval)
{
   if (filled <= interval) {
      ULong carried_bytes  = filled > 0 ? interval_bytes[filled - 1] : 0;
      ULong carried_blocks = filled > 0 ? interval_blocks[filled - 1] : 0;
      while (filled < interval) {
         interval_bytes[filled]  = carried_bytes;
         interval_blocks[filled] = carried_blocks;
         filled++;
      }
      filled = interval + 1;
   }
   interval_bytes[interval]  = LH_(heap).curr_bytes;
   interval_blocks[interval] = LH_(heap).curr_blocks;
}

/*------------------------------------------------------------*/
/*--- Per-site sparse series                               ---*/
/*------------------------------------------------------------*/

/* The encoding of a site's series.  Each entry but the last is taken
   against the entry before it (the first against interval 0, 0 bytes):
   d, its interval minus the previous entry's, and z, its live bytes minus
   the previous entry's, zigzag-coded (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...).

     short, one byte:   1 e zzzzzz            d = 1 + e (1 or 2), z < 64
     long:              0 c dddddd  [varint]  [varint of z]

   A long entry's first byte holds d's low 6 bits, and c says whether a
   varint (7 bits a byte, low bits first, high bit = more) of d's higher
   bits follows.  A site that changes by a block or so of under 32 bytes
   every interval or two (the nodes of a tree, a message buffer) needs one
   byte an entry; with tens of thousands of such sites the series are the
   largest part of their state after the site records (bintree_walk 14:
   2.3 million entries, two thirds of them short). */

static inline UInt put_varint(UChar* at, ULong v)
{
   UInt n = 0;
   while (v >= 0x80) {
      at[n++] = (UChar)(v | 0x80);
      v >>= 7;
   }
   at[n++] = (UChar)v;
   return n;
}

static inline ULong get_varint(const UChar* s, UInt* at)
{
   ULong v = 0;
   UInt shift = 0;
   UChar byte;
   do {
      byte = s[(*at)++];
      v |= (ULong)(byte & 0x7F) << shift;
      shift += 7;
   } while (byte & 0x80);
   return v;
}

static inline ULong zigzag(ULong delta)   /* delta: a two's complement difference */
{
   return (delta << 1) ^ (ULong)((Long)delta >> 63);
}

static inline ULong unzigzag(ULong z)
{
   return (z >> 1) ^ (ULong)(-(Long)(z & 1));
}

/* Longest encoded entry: a 32-bit interval difference (a first byte and
   4 more) and a 64-bit zigzag value (10 bytes). */
#define MAX_ENTRY_BYTES 15

/* Writes the entry (d, z) at 'at'; returns the bytes written. */
static inline UInt put_entry(UChar* at, UInt d, ULong z)
{
   UInt n;
   if (d - 1 <= 1 && z < 64) {
      at[0] = (UChar)(0x80 | (d - 1) << 6 | z);
      return 1;
   }
   if (d < 64) {
      at[0] = (UChar)d;
      n = 1;
   } else {
      at[0] = (UChar)(0x40 | (d & 0x3F));
      n = 1 + put_varint(at + 1, d >> 6);
   }
   return n + put_varint(at + n, z);
}

/* Reads the entry at *at into *d and *z, and moves *at past it. */
static inline void get_entry(const UChar* s, UInt* at, UInt* d, ULong* z)
{
   UChar first = s[(*at)++];
   if (first & 0x80) {
      *d = 1 + ((first >> 6) & 1);
      *z = first & 0x3F;
      return;
   }
   *d = first & 0x3F;
   if (first & 0x40) *d |= (UInt)get_varint(s, at) << 6;
   *z = get_varint(s, at);
}

/* Encodes (interval, live_bytes) after the series' last entry, at 'at'
   of 'out'.  Returns the bytes written. */
static UInt encode_entry(LH_SiteTimeline* tl, UChar* out, UInt at, UInt interval,
                         ULong live_bytes)
{
   UInt n = put_entry(out + at, interval - tl->series_end_interval,
                      zigzag(live_bytes - tl->series_end_live_bytes));
   tl->series_end_interval   = interval;
   tl->series_end_live_bytes = live_bytes;
   return n;
}

/* A series' room for 'bytes' bytes and the entries to come: an eighth
   more (at least 16 bytes; a series starts with 16).  With tens of
   thousands of busy sites the slack of doubling (28% of the series on
   average) was megabytes, and that of a quarter more (32 bytes at
   least) 300 KB for bintree 12's 8,190 series of 822 KB; a reallocation
   copies a few dozen bytes. */
static inline UInt capacity_for(UInt bytes)
{
   UInt step = bytes / 8;
   return bytes + (step < 16 ? 16 : step);
}

/* Appends the entry held in tl->last_* to the encoded series. */
static void flush_last(LH_SiteTimeline* tl)
{
   if (tl->series_capacity - tl->series_bytes < MAX_ENTRY_BYTES) {
      UInt capacity = tl->series_capacity == 0 ? 16 : capacity_for(tl->series_capacity);
      tl->series = VG_(realloc)("lh.timeline.site", tl->series, capacity);
      tl->series_capacity = capacity;
   }
   tl->series_bytes += encode_entry(tl, tl->series, tl->series_bytes,
                                    tl->last_interval, tl->last_live_bytes);
}

/* Decoding: entries in order, the series then the last one. */
typedef struct {
   const LH_SiteTimeline* tl;
   UInt  at;           /* next byte of the series */
   UInt  left;         /* entries not yet returned */
   UInt  interval;
   ULong live_bytes;
} SeriesReader;

static void reader_start(SeriesReader* r, const LH_SiteTimeline* tl)
{
   r->tl = tl;
   r->at = 0;
   r->left = tl->n_points;
   r->interval = 0;
   r->live_bytes = 0;
}

/* The next entry into r->interval / r->live_bytes; False past the end. */
static Bool reader_next(SeriesReader* r)
{
   if (r->left == 0) return False;
   r->left--;
   if (r->left == 0) {
      r->interval   = r->tl->last_interval;
      r->live_bytes = r->tl->last_live_bytes;
   } else {
      UInt d;
      ULong z;
      get_entry(r->tl->series, &r->at, &d, &z);
      r->interval   += d;
      r->live_bytes += unzigzag(z);
   }
   return True;
}

/* Where a compaction re-encodes a series before it goes back in place:
   a series has at most one entry per interval (n_intervals of them). */
static UChar* compact_scratch;

/* Re-expresses a site's list in the current generation (see the top):
   entries that land in one interval merge, keeping the later value, and
   the series is re-encoded (an entry may change form: two short ones
   merged may need a long one).  A series left with much more room than
   it needs is given a smaller buffer: a compaction about halves a busy
   site's series, and the room it had grown to would otherwise stay for
   the rest of the run. */
static void site_compact(LH_SiteTimeline* tl)
{
   SeriesReader r;
   UInt shift, out_bytes = 0, out_points = 0;
   UInt pending_interval = 0;
   ULong pending_bytes = 0;
   Bool pending = False;
   if (tl->generation == generation)
      return;
   tl_assert(tl->generation < generation);
   shift = generation - tl->generation;
   tl->generation = generation;
   if (tl->n_points == 0)
      return;
   reader_start(&r, tl);
   tl->series_end_interval = 0;
   tl->series_end_live_bytes = 0;
   while (reader_next(&r)) {
      UInt interval = shift >= 32 ? 0 : r.interval >> shift;
      if (pending && pending_interval == interval) {
         pending_bytes = r.live_bytes;       /* the later value wins */
         continue;
      }
      if (pending) {
         out_bytes += encode_entry(tl, compact_scratch, out_bytes,
                                   pending_interval, pending_bytes);
         out_points++;
      }
      pending = True;
      pending_interval = interval;
      pending_bytes = r.live_bytes;
   }
   if (out_bytes > tl->series_capacity
       || tl->series_capacity > capacity_for(out_bytes) + MAX_ENTRY_BYTES) {
      UInt capacity = out_bytes == 0 ? 0 : capacity_for(out_bytes);
      VG_(free)(tl->series);
      tl->series = capacity == 0 ? NULL : VG_(malloc)("lh.timeline.site", capacity);
      tl->series_capacity = capacity;
   }
   if (out_bytes > 0) VG_(memcpy)(tl->series, compact_scratch, out_bytes);
   tl->series_bytes    = out_bytes;
   tl->n_points        = out_points + 1;
   tl->last_interval   = pending_interval;
   tl->last_live_bytes = pending_bytes;
}

static void site_record(LH_SiteTimeline* tl, UInt interval, ULong live_bytes)
{
   site_compact(tl);
   if (tl->n_points > 0 && tl->last_interval == interval) {
      tl->last_live_bytes = live_bytes;
      return;
   }
   /* At most one entry per interval, so never more than K. */
   if (tl->n_points > 0)
      flush_last(tl);
   tl->last_interval   = interval;
   tl->last_live_bytes = live_bytes;
   tl->n_points++;
}

/*------------------------------------------------------------*/
/*--- Markers                                              ---*/
/*------------------------------------------------------------*/

#define MAX_MARKERS      10000
#define MAX_LABEL_BYTES  255

typedef struct {
   ULong  time;
   HChar* label;
} Marker;

static Marker* markers;
static UInt    n_markers;
static UInt    markers_capacity;

/* lh_main.c has already copied the label out of client memory (checking that
   it is readable): here it is the tool's own string. */
static HChar* copy_label(const HChar* label)
{
   HChar buffer[MAX_LABEL_BYTES + 1];
   UInt  n = 0;
   if (label == NULL)
      return NULL;
   while (n < MAX_LABEL_BYTES && label[n] != '\0') {
      buffer[n] = label[n];
      n++;
   }
   buffer[n] = '\0';
   return VG_(strdup)("lh.timeline.label", buffer);
}

void LH_(timeline_mark)(const HChar* label_text)
{
   static Bool warned = False;
   HChar* label;
   if (n_markers == MAX_MARKERS) {
      if (!warned) {
         VG_(umsg)("lifeheap: more than %d LIFEHEAP_MARK markers; "
                   "later ones are not recorded\n", MAX_MARKERS);
         warned = True;
      }
      return;
   }
   label = copy_label(label_text);
   if (label == NULL)
      label = VG_(strdup)("lh.timeline.label", "(unreadable label)");
   if (n_markers == markers_capacity) {
      markers_capacity = markers_capacity == 0 ? 16 : 2 * markers_capacity;
      markers = VG_(realloc)("lh.timeline.markers", markers,
                             markers_capacity * sizeof *markers);
   }
   markers[n_markers].time  = LH_(now);
   markers[n_markers].label = label;
   n_markers++;
}

/*------------------------------------------------------------*/
/*--- Recording                                            ---*/
/*------------------------------------------------------------*/

void LH_(timeline_init)(void)
{
   n_intervals     = (UInt)LH_(options).timeline_points - 1;
   tl_assert(n_intervals <= 0xFFFF);   /* a site's entries and intervals:
                                          16 bits (lh_timeline.h) */
   generation      = 0;
   filled          = 0;
   interval_bytes  = VG_(calloc)("lh.timeline.bytes", n_intervals,
                                 sizeof *interval_bytes);
   interval_blocks = VG_(calloc)("lh.timeline.blocks", n_intervals,
                                 sizeof *interval_blocks);
   compact_scratch = VG_(malloc)("lh.timeline.compact",
                                 (SizeT)n_intervals * MAX_ENTRY_BYTES);
}

void LH_(timeline_note_change)(LH_Site* site)
{
   UInt interval = grid_interval(LH_(now));
   record_global(interval);
   if (site != NULL)
      site_record(&site->timeline, interval, site->curr_bytes);
}

/*------------------------------------------------------------*/
/*--- The snapshot written to the profile                  ---*/
/*------------------------------------------------------------*/

/* Built by LH_(timeline_finish); the run may go on after a periodic dump,
   so the recording state above is left untouched. */
static struct {
   UInt   number;        /* 1, 2, ... per finish; 0 = none yet */
   UInt   n_points;
   UInt   generation;
   UInt   peak_index;
   Bool   peak_inserted; /* the peak is an extra point, not a grid point */
   ULong* times;
   ULong* live_bytes;
   ULong* live_blocks;
   ULong* site_values;   /* scratch: one site's series */
} snapshot;

/* The grid interval shown by point p (not the peak point). */
static UInt point_interval(UInt p)
{
   return snapshot.peak_inserted && p > snapshot.peak_index ? p - 1 : p;
}

void LH_(timeline_finish)(void)
{
   ULong end = LH_(now);
   ULong peak_time = LH_(heap).peak_time;
   UInt  last, n_grid, peak_interval, p;

   last = grid_interval(end);
   record_global(last);
   n_grid = last + 1;

   if (peak_time > end)
      peak_time = end;   /* cannot happen; keeps the points ordered anyway */
   peak_interval = (UInt)interval_of(peak_time);
   snapshot.peak_index = peak_interval;
   snapshot.peak_inserted =
      (peak_interval == last ? end : interval_end(peak_interval)) != peak_time;

   VG_(free)(snapshot.times);
   VG_(free)(snapshot.live_bytes);
   VG_(free)(snapshot.live_blocks);
   VG_(free)(snapshot.site_values);
   snapshot.number++;
   snapshot.generation = generation;
   snapshot.n_points = n_grid + (snapshot.peak_inserted ? 1 : 0);
   snapshot.times       = VG_(malloc)("lh.timeline.snap", snapshot.n_points * sizeof(ULong));
   snapshot.live_bytes  = VG_(malloc)("lh.timeline.snap", snapshot.n_points * sizeof(ULong));
   snapshot.live_blocks = VG_(malloc)("lh.timeline.snap", snapshot.n_points * sizeof(ULong));
   snapshot.site_values = VG_(malloc)("lh.timeline.snap", snapshot.n_points * sizeof(ULong));

   for (p = 0; p < snapshot.n_points; p++) {
      UInt i;
      if (p == snapshot.peak_index) {
         snapshot.times[p]       = peak_time;
         snapshot.live_bytes[p]  = LH_(heap).peak_bytes;
         snapshot.live_blocks[p] = LH_(heap).peak_blocks;
         continue;
      }
      i = point_interval(p);
      snapshot.times[p]       = i == last ? end : interval_end(i);
      snapshot.live_bytes[p]  = interval_bytes[i];
      snapshot.live_blocks[p] = interval_blocks[i];
   }
}

static void ensure_snapshot(void)
{
   if (snapshot.number == 0)
      LH_(timeline_finish)();
}

/* A site's live bytes at every snapshot point, into snapshot.site_values. */
static const ULong* site_series(LH_Site* site)
{
   LH_SiteTimeline* tl = &site->timeline;
   SeriesReader r;
   ULong current = 0;
   Bool  have = False;      /* r holds an entry not yet consumed */
   UInt  p;
   site_compact(tl);
   tl_assert(tl->generation == snapshot.generation);
   reader_start(&r, tl);
   have = reader_next(&r);
   for (p = 0; p < snapshot.n_points; p++) {
      UInt i;
      if (p == snapshot.peak_index) {
         snapshot.site_values[p] = site->bytes_at_peak;
         continue;
      }
      i = point_interval(p);
      while (have && r.interval <= i) {
         current = r.live_bytes;
         have = reader_next(&r);
      }
      snapshot.site_values[p] = current;
   }
   return snapshot.site_values;
}

/*------------------------------------------------------------*/
/*--- Significance and growth                              ---*/
/*------------------------------------------------------------*/

#define GROWTH_WINDOWS        16
#define GROWTH_NOISE_FRACTION 0.01
#define GROWTH_PHASE_MIN_FRACTION 0.25  /* of the run: a long allocating phase */
#define AT_MAX_CLOSENESS      0.05  /* of max_bytes: "at its max" */

Bool LH_(site_is_significant)(const LH_Site* site)
{
   return site->max_bytes > 0
          && (double)site->max_bytes
             >= LH_(options).significant_fraction * (double)LH_(heap).peak_bytes;
}

static void compute_growth(LH_Site* site, const ULong* values, LH_Growth* growth)
{
   UInt   first = 0, n, windows, w, rising = 0, p;
   double noise = GROWTH_NOISE_FRACTION * (double)site->max_bytes;
   ULong  running_high = 0;
   double mean_time = 0, mean_bytes = 0, sxx = 0, sxy = 0;

   UInt   rise_end, rise_n;

   /* The site is empty before its first allocation: start there. */
   while (first < snapshot.n_points
          && snapshot.times[first] < site->first_alloc_time)
      first++;
   n = snapshot.n_points - first;

   /* New highs are looked for while the site allocates, when that phase is
      a long one: a producer that stops while its consumer drains the pile
      rose all the time it produced, however long the drain.  A short phase
      (one-time initialisation) is judged over the whole rest of the run. */
   rise_end = snapshot.n_points;
   if (site->last_alloc_time > site->first_alloc_time
       && (double)(site->last_alloc_time - site->first_alloc_time)
          >= GROWTH_PHASE_MIN_FRACTION * (double)LH_(now)) {
      rise_end = first;
      while (rise_end < snapshot.n_points
             && snapshot.times[rise_end] <= site->last_alloc_time)
         rise_end++;
   }
   rise_n  = rise_end - first;
   windows = rise_n < GROWTH_WINDOWS ? rise_n : GROWTH_WINDOWS;

   growth->last_rising_window = 0;
   for (w = 0; w < windows; w++) {
      UInt  lo = first + w * rise_n / windows,
            hi = first + (w + 1) * rise_n / windows;
      ULong window_high = 0;
      for (p = lo; p < hi; p++)
         if (values[p] > window_high)
            window_high = values[p];
      if ((double)window_high > (double)running_high + noise) {
         rising++;
         growth->last_rising_window = w + 1;
      }
      if (window_high > running_high)
         running_high = window_high;
   }
   growth->windows = windows;
   growth->rising_fraction = windows > 0 ? (double)rising / windows : 0.0;

   /* The active time's windows that reach the site's max again. */
   {
      UInt  active_end = snapshot.n_points, active_n;
      ULong near_max = site->max_bytes
                       - (ULong)(AT_MAX_CLOSENESS * (double)site->max_bytes);
      if (LH_(site_blocks_at_exit)(site) == 0 && LH_(site_freed_blocks)(site) > 0) {
         active_end = first;
         while (active_end < snapshot.n_points
                && snapshot.times[active_end] <= site->last_free_time)
            active_end++;
      }
      active_n = active_end - first;
      growth->active_windows = active_n < GROWTH_WINDOWS ? active_n : GROWTH_WINDOWS;
      growth->active_windows_at_max = 0;
      for (w = 0; w < growth->active_windows; w++) {
         UInt lo = first + w * active_n / growth->active_windows,
              hi = first + (w + 1) * active_n / growth->active_windows;
         for (p = lo; p < hi; p++)
            if (values[p] >= near_max) {
               growth->active_windows_at_max++;
               break;
            }
      }
   }

   /* Least squares over the same points, centred for precision. */
   for (p = first; p < snapshot.n_points; p++) {
      mean_time  += (double)snapshot.times[p];
      mean_bytes += (double)values[p];
   }
   if (n > 0) {
      mean_time  /= n;
      mean_bytes /= n;
   }
   for (p = first; p < snapshot.n_points; p++) {
      double dt = (double)snapshot.times[p] - mean_time;
      sxx += dt * dt;
      sxy += dt * ((double)values[p] - mean_bytes);
   }
   growth->slope_bytes_per_million_instructions =
      sxx > 0 ? sxy / sxx * 1e6 : 0.0;
   growth->end_to_max_ratio =
      site->max_bytes > 0
         ? (double)LH_(site_bytes_at_exit)(site) / (double)site->max_bytes : 0.0;
}

/* The growth figures of the significant sites, by site: computed on
   first use after LH_(timeline_finish), valid when their 'snapshot' is
   the current snapshot's number.  A handful of sites are significant (a
   max of 1% of the peak), so a pointer in every site record would cost
   more than this set. */
static WordFM* growth_of = NULL;   /* LH_Site* -> LH_Growth* */

const LH_Growth* LH_(site_growth)(LH_Site* site)
{
   UWord found;
   LH_Growth* growth = NULL;
   ensure_snapshot();
   if (!LH_(site_is_significant)(site))
      return NULL;
   if (growth_of == NULL)
      growth_of = VG_(newFM)(VG_(malloc), "lh.timeline.growth", VG_(free), NULL);
   if (VG_(lookupFM)(growth_of, NULL, &found, (UWord)site))
      growth = (LH_Growth*)found;
   if (growth == NULL || growth->snapshot != snapshot.number) {
      if (growth == NULL) {
         growth = VG_(malloc)("lh.timeline.growth", sizeof(LH_Growth));
         VG_(addToFM)(growth_of, (UWord)site, (UWord)growth);
      }
      compute_growth(site, site_series(site), growth);
      growth->snapshot = snapshot.number;
   }
   return growth;
}

/*------------------------------------------------------------*/
/*--- JSON                                                 ---*/
/*------------------------------------------------------------*/

static void write_u64_array(LH_Json* json, const HChar* key,
                            const ULong* values, UInt n)
{
   UInt i;
   LH_(json_array_begin)(json, key);
   for (i = 0; i < n; i++)
      LH_(json_u64)(json, NULL, values[i]);
   LH_(json_array_end)(json);
}

void LH_(timeline_write_json)(LH_Json* json)
{
   UInt m;
   ensure_snapshot();
   LH_(json_object_begin)(json, "timeline");
   write_u64_array(json, "times", snapshot.times, snapshot.n_points);
   write_u64_array(json, "live_bytes", snapshot.live_bytes, snapshot.n_points);
   write_u64_array(json, "live_blocks", snapshot.live_blocks, snapshot.n_points);
   LH_(json_u64)(json, "peak_index", snapshot.peak_index);
   LH_(json_array_begin)(json, "markers");
   for (m = 0; m < n_markers; m++) {
      LH_(json_object_begin)(json, NULL);
      LH_(json_u64)(json, "time", markers[m].time);
      LH_(json_string)(json, "label", markers[m].label);
      LH_(json_object_end)(json);
   }
   LH_(json_array_end)(json);
   LH_(json_double)(json, "significant_site_fraction", LH_(options).significant_fraction);
   LH_(json_object_end)(json);
}

void LH_(site_timeline_write_json)(LH_Json* json, LH_Site* site)
{
   const LH_Growth* growth = LH_(site_growth)(site);
   if (growth == NULL) return;            /* "growth": null, its default */
   LH_(json_object_begin)(json, "growth");
   LH_(json_double)(json, "rising_fraction", growth->rising_fraction);
   LH_(json_double)(json, "slope_bytes_per_million_instructions",
                    growth->slope_bytes_per_million_instructions);
   LH_(json_double)(json, "end_to_max_ratio", growth->end_to_max_ratio);
   LH_(json_object_end)(json);

   LH_(json_object_begin)(json, "timeline");
   write_u64_array(json, "live_bytes", site_series(site), snapshot.n_points);
   LH_(json_object_end)(json);
}

/*--------------------------------------------------------------------*/
/*--- end                                          lh_timeline.c ---*/
/*--------------------------------------------------------------------*/
