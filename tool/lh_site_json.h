/* lh_site_json.h: one site of the profile (lh_site_json.c).
   lifeheap is free software: GPL-3.0-or-later. */
#ifndef LH_SITE_JSON_H
#define LH_SITE_JSON_H

#include "pub_tool_basics.h"
#include "lh_include.h"
#include "lh_json.h"
#include "lh_report.h"

/* Before the sites: writes "allocator_stacks" and readies the frame
   texts the labels are compared with (after the frame table is built). */
void LH_(site_json_begin)(LH_Json* j, const LH_Report* r);
/* One element of "sites", members at their defaults left out. */
void LH_(site_json_write)(LH_Json* j, LH_Site* s, const LH_SiteNotes* notes);
/* After the sites: frees what site_json_begin made. */
void LH_(site_json_end)(void);

#endif /* LH_SITE_JSON_H */
