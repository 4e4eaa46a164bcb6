/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_standins.c: weak stand-ins for hooks that other ---*/
/*--- modules provide, so the tool links while they are written.   ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Every function here is weak: as soon as lh_instrument.c, lh_access.c,
   lh_timeline.c or lh_findings.c defines the real one, the linker takes
   that instead.  Each stand-in does the least that keeps the profile
   valid (an "access" member of zeros, an empty timeline, no findings).
   Delete a group once its module has landed.
*/

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "lh_include.h"

#define LH_WEAK __attribute__((weak))

/*--- Access tracking (ACCESS: lh_access.c) ---*/

LH_WEAK void LH_(access_init)(void) {}
LH_WEAK void LH_(access_block_new)(LH_Block* b, Bool zeroed) {}
LH_WEAK void LH_(access_block_resized)(LH_Block* b, Addr old_payload,
                                       SizeT old_size) {}
LH_WEAK void LH_(access_block_retire)(LH_Block* b, Bool live_at_peak) {}
LH_WEAK ULong LH_(access_total_read)(void) { return 0; }
LH_WEAK ULong LH_(access_total_written)(void) { return 0; }
LH_WEAK Bool LH_(access_process_option)(const HChar* arg) { return False; }
LH_WEAK void LH_(access_print_usage)(void) {}

LH_WEAK void LH_(access_write_site_json)(LH_Json* j, LH_Site* site)
{
   LH_(json_object_begin)(j, "access");
   LH_(json_u64)(j, "bytes_read", 0);
   LH_(json_u64)(j, "bytes_written", 0);
   LH_(json_u64)(j, "measured_bytes", 0);
   LH_(json_u64)(j, "never_read_bytes", 0);
   LH_(json_u64)(j, "never_written_bytes", 0);
   LH_(json_u64)(j, "never_accessed_bytes", 0);
   LH_(json_u64)(j, "written_never_read_bytes", 0);
   LH_(json_u64)(j, "unused_capacity_bytes", 0);
   LH_(json_u64)(j, "idle_before_free", 0);
   LH_(json_u64)(j, "first_access_delay", 0);
   LH_(json_object_begin)(j, "at_peak");
   LH_(json_u64)(j, "bytes", 0);
   LH_(json_u64)(j, "never_read_bytes", 0);
   LH_(json_u64)(j, "never_written_bytes", 0);
   LH_(json_u64)(j, "never_accessed_bytes", 0);
   LH_(json_u64)(j, "unused_capacity_bytes", 0);
   LH_(json_object_end)(j);
   LH_(json_null)(j, "map");
   LH_(json_object_end)(j);
}

/*--- Timeline (FINDINGS: lh_timeline.c) ---*/

LH_WEAK void LH_(timeline_init)(void) {}
LH_WEAK void LH_(timeline_note_change)(LH_Site* site) {}
LH_WEAK void LH_(timeline_mark)(const HChar* label) {}
LH_WEAK void LH_(timeline_finish)(void) {}
LH_WEAK Bool LH_(timeline_process_option)(const HChar* arg) { return False; }

/* One point: the end of the run, plus the peak when it differs, so the
   stand-in still meets the contract (peak_index names the exact peak). */
LH_WEAK void LH_(timeline_write_json)(LH_Json* j)
{
   Bool two = LH_(peak_time) < LH_(now);
   LH_(json_object_begin)(j, "timeline");
   LH_(json_array_begin)(j, "times");
   LH_(json_u64)(j, NULL, LH_(peak_time));
   if (two) LH_(json_u64)(j, NULL, LH_(now));
   LH_(json_array_end)(j);
   LH_(json_array_begin)(j, "live_bytes");
   LH_(json_u64)(j, NULL, LH_(peak_bytes));
   if (two) LH_(json_u64)(j, NULL, LH_(curr_bytes));
   LH_(json_array_end)(j);
   LH_(json_array_begin)(j, "live_blocks");
   LH_(json_u64)(j, NULL, LH_(peak_blocks));
   if (two) LH_(json_u64)(j, NULL, LH_(curr_blocks));
   LH_(json_array_end)(j);
   LH_(json_u64)(j, "peak_index", 0);
   LH_(json_array_begin)(j, "markers");
   LH_(json_array_end)(j);
   LH_(json_double)(j, "significant_site_fraction", 0.01);
   LH_(json_object_end)(j);
}

LH_WEAK void LH_(site_timeline_write_json)(LH_Json* j, LH_Site* site)
{
   LH_(json_null)(j, "growth");
}

/*--- Findings (FINDINGS: lh_findings.c) ---*/

LH_WEAK void LH_(findings_compute)(LH_Site** sorted_sites, UInt n_sites) {}
LH_WEAK void LH_(findings_print_summary)(UInt max) {}
LH_WEAK Bool LH_(findings_process_option)(const HChar* arg) { return False; }
LH_WEAK void LH_(findings_print_usage)(void) {}
LH_WEAK void LH_(findings_write_options_json)(LH_Json* j) {}

LH_WEAK void LH_(findings_write_json)(LH_Json* j)
{
   LH_(json_array_begin)(j, "findings");
   LH_(json_array_end)(j);
}
