/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_findings.h: the finding rules.                  ---*/
/*--------------------------------------------------------------------*/
/*
   SPDX-License-Identifier: GPL-3.0-or-later

   The rules are documented for users in docs/findings.md; keep the two in
   step (defaults, evidence field names, severities).
*/
#ifndef LH_FINDINGS_H
#define LH_FINDINGS_H

#include "pub_tool_basics.h"

#ifndef LH_
#define LH_(str) VGAPPEND(vgLifeheap_, str)
#endif

struct LH_Site;
struct LH_Json;

/* Called by lh_report.c (compute) and the renderers (lh_output.c,
   lh_summary.c). */
void LH_(findings_compute)(struct LH_Site** sorted_sites, UInt n_sites);
void LH_(findings_write_json)(struct LH_Json* json);
void LH_(findings_print_summary)(UInt max);

#endif /* LH_FINDINGS_H */
