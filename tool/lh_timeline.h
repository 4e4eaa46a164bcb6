/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_timeline.h: live heap over time, per-site       ---*/
/*--- growth and phase markers.                                   ---*/
/*--------------------------------------------------------------------*/
/*
   SPDX-License-Identifier: GPL-3.0-or-later

   The per-site part (LH_SiteTimeline) is embedded in every LH_Site, so this
   header only uses basic types: lh_include.h includes it before it defines
   LH_Site.  An all-zero LH_SiteTimeline is a valid empty one (sites are
   allocated zeroed), so lh_sites.c never has to initialise it.
*/
#ifndef LH_TIMELINE_H
#define LH_TIMELINE_H

#include "pub_tool_basics.h"

#ifndef LH_
#define LH_(str) VGAPPEND(vgLifeheap_, str)
#endif

/* How a significant site's live bytes evolved (docs/format.md `growth`). */
typedef struct {
   double rising_fraction;                       /* 0..1 */
   double slope_bytes_per_million_instructions;
   double end_to_max_ratio;                      /* bytes_at_exit / max_bytes */
   UInt   windows;          /* windows rising_fraction was measured over */
   UInt   last_rising_window; /* 1..windows: the last window that rose;
                                 0 when none did */
   /* The site's active time (first allocation to last free, or to the end
      when blocks remain) in equal windows, and how many of them hold a
      value within AT_MAX_CLOSENESS of max_bytes (lh_timeline.c). */
   UInt   active_windows;
   UInt   active_windows_at_max;
   UInt   snapshot;         /* the snapshot it was computed for (lh_timeline.c) */
} LH_Growth;

typedef struct {
   /* The site's sparse series but its last entry, encoded (lh_timeline.c,
      "Per-site series"): one or two bytes an entry instead of sixteen. */
   UChar*        series;     /* NULL when empty */
   UInt          series_bytes;
   UInt          series_capacity;
   /* Intervals and entries fit in 16 bits: the grid has at most 65,535
      intervals (--lifeheap-timeline-points is at most 65,536), and a
      series has at most one entry per interval. */
   UShort        n_points;   /* entries, the last one included */
   /* The last entry, kept out of the encoding: a change in the same
      interval overwrites it without touching the series (a cache miss per
      malloc with many sites). */
   UShort        last_interval;
   /* The series' own last entry, which the next one is encoded against. */
   UShort        series_end_interval;
   UChar         generation; /* grid generation the entries are expressed in
                                (below 64) */
   ULong         last_live_bytes;
   ULong         series_end_live_bytes;
   /* (The growth figures of the few significant sites are kept apart:
      lh_timeline.c, growth_of.) */
} LH_SiteTimeline;

struct LH_Site;
struct LH_Json;

/* Called by lh_main.c, lh_sites.c and lh_report.c. */
void LH_(timeline_init)(void);
void LH_(timeline_note_change)(struct LH_Site* site);   /* site may be NULL */
void LH_(timeline_mark)(const HChar* label);   /* already copied by lh_main.c */
void LH_(timeline_finish)(void);
void LH_(timeline_write_json)(struct LH_Json* json);
void LH_(site_timeline_write_json)(struct LH_Json* json, struct LH_Site* site);

/* Used by lh_findings.c. */
/* The site's growth, computed on first use after LH_(timeline_finish);
   NULL when the site is not significant. */
const LH_Growth* LH_(site_growth)(struct LH_Site* site);
Bool LH_(site_is_significant)(const struct LH_Site* site);

#endif /* LH_TIMELINE_H */
