/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_findings.h: the finding rules (issue 4).        ---*/
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

/* Hooks called by CORE (tool-team.md). */
void LH_(findings_compute)(struct LH_Site** sorted_sites, UInt n_sites);
void LH_(findings_write_json)(struct LH_Json* json);
void LH_(findings_print_summary)(UInt max);
Bool LH_(findings_process_option)(const HChar* arg);
void LH_(findings_print_usage)(void);
void LH_(findings_write_options_json)(struct LH_Json* json);

/* Parses "--name=<double>" when arg is that option: sets *var and returns
   True; a value that is not a number or lies outside [lo, hi] gets
   Valgrind's usual "Bad option" error (fatal while parsing the command
   line).  lo_text/hi_text are the bounds as the error shows them. */
Bool LH_(parse_count_option)(const HChar* arg, const HChar* name,
                             Long* var, Long lo, Long hi);
Bool LH_(parse_double_option)(const HChar* arg, const HChar* name,
                              double* var, double lo, const HChar* lo_text,
                              double hi, const HChar* hi_text);

#endif /* LH_FINDINGS_H */
