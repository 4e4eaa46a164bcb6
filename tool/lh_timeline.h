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

/* One entry of a site's sparse series: the site's live bytes at the end of
   grid interval `interval` (the last value written in that interval). */
typedef struct {
   UInt  interval;
   ULong live_bytes;
} LH_SitePoint;

/* How a significant site's live bytes evolved (docs/format.md `growth`). */
typedef struct {
   double rising_fraction;                       /* 0..1 */
   double slope_bytes_per_million_instructions;
   double end_to_max_ratio;                      /* bytes_at_exit / max_bytes */
   UInt   windows;          /* windows rising_fraction was measured over */
} LH_Growth;

typedef struct {
   LH_SitePoint* points;     /* increasing intervals; NULL when empty */
   UInt          n_points;
   UInt          capacity;
   UInt          generation; /* grid generation `points` is expressed in */
   UInt          last_interval; /* points[n_points - 1].interval, kept here
                                   so that a change in the same interval
                                   reads nothing from the array (a cache
                                   miss per malloc with many sites) */
   /* Computed on first use after LH_(timeline_finish): `growth` is valid
      when growth_snapshot equals the current snapshot's number (0 = never). */
   UInt          growth_snapshot;
   LH_Growth     growth;
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
