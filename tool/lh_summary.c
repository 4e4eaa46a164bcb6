/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_summary.c: the summary on stderr at exit.       ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A rendering of a report (lh_report.h), as lh_output.c's profile is:
   the totals, the peak, the top sites with their notes (lh_notes.c) and
   the findings, then where the profile went.  Nothing is judged here.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "lh_include.h"
#include "lh_report.h"
#include "lh_text.h"

#define LH_SUMMARY_TOP_SITES 5

/* The notes of a top site on one line, under the "allocated in" column. */
static void print_site_notes(const LH_SiteNotes* notes)
{
   HChar line[LH_MAX_SITE_NOTES * (LH_NOTE_TEXT_SIZE + 2)];
   Int used = 0;
   UInt k;
   if (notes->n == 0) return;
   line[0] = '\0';
   for (k = 0; k < notes->n; k++)
      used += VG_(snprintf)(line + used, sizeof(line) - used, "%s%s",
                            k > 0 ? "; " : "", notes->note[k].text);
   /* Under the name: "  %10s %5s %8s %-6s  " is 36 columns. */
   VG_(umsg)("%36s%s\n", "", line);
}

/* "???" means nothing to a stranger: say what it is, once. */
static void explain_unnamed(const LH_Site* site)
{
   HChar where[512];
   SizeT len;
   LH_(frame_describe)(site->out->frame_ids[site->out->name_frame], where, sizeof(where));
   /* where is "??? (in /usr/bin/sort)": keep the object's path. */
   len = VG_(strlen)(where);
   if (len > 8 && where[len - 1] == ')') where[len - 1] = '\0';
   VG_(umsg)("\"???\" marks code without symbols, here in %s: its debug "
             "symbols or a build with -g would name it.\n", where + 8);
}

/* The runtime's own sites come after the program's (lh_report.c), so
   the top sites may leave them out: what they hold at the peak is said in
   one line, so that the shares shown add up to what they do. */
static void print_runtime_not_shown(const LH_Report* r, UInt shown)
{
   ULong bytes = 0, blocks = 0;
   UInt i, sites = 0;
   HChar a[32], share[16];
   for (i = shown; i < r->n_sites; i++) {
      const LH_Site* s = r->sites[i];
      if (!s->out->runtime_only || s->bytes_at_peak == 0) continue;
      bytes += s->bytes_at_peak;
      blocks += s->blocks_at_peak;
      sites++;
   }
   if (sites == 0) return;
   LH_(format_bytes)(a, sizeof a, bytes);
   LH_(format_share)(share, sizeof share, bytes, r->totals.heap.peak_bytes);
   VG_(umsg)("  %10s %5s %'8llu %-6s  the runtime's own memory, not the "
             "program's code (%u %s)\n", a, share, blocks,
             LH_(plural)(blocks, "block", "blocks"), sites,
             LH_(plural)(sites, "site", "sites"));
}

static void print_top_sites(const LH_Report* r)
{
   const LH_Site* unnamed_object = NULL;   /* a top site named "???" */
   HChar a[32], share[16];
   UInt i, shown;

   for (shown = 0; shown < r->n_sites && shown < LH_SUMMARY_TOP_SITES; shown++)
      if (r->sites[shown]->bytes_at_peak == 0) break;
   if (shown == 0) return;
   VG_(umsg)("Top sites at the peak (bytes, share of the peak, blocks, "
             "allocated in):\n");
   for (i = 0; i < shown; i++) {
      const LH_Site* s = r->sites[i];
      const HChar* label = LH_(site_label)(s);
      const HChar* where = label ? label : "???";
      LH_(format_bytes)(a, sizeof a, s->bytes_at_peak);
      LH_(format_share)(share, sizeof share, s->bytes_at_peak,
                        r->totals.heap.peak_bytes);
      VG_(umsg)("  %10s %5s %'8llu %-6s  %s\n", a, share, s->blocks_at_peak,
                LH_(plural)(s->blocks_at_peak, "block", "blocks"), where);
      print_site_notes(LH_(report_site_notes)(r, i));
      /* (the runtime's own sites have a note that says what they are) */
      if (unnamed_object == NULL && !s->out->runtime_only
          && VG_(strncmp)(where, "??? (in ", 8) == 0)
         unnamed_object = s;
   }
   if (unnamed_object != NULL) explain_unnamed(unnamed_object);
   print_runtime_not_shown(r, shown);
}

/* Frees and reallocs of pointers that were not live heap blocks: each
   one ignored, the first one named when it happened. */
static void print_invalid_counts(const LH_ReportTotals* t)
{
   if (t->heap.invalid_frees == 0 && t->heap.invalid_reallocs == 0) return;
   VG_(umsg)("Invalid:      %'llu %s, %'llu %s of pointers that were not "
             "live heap blocks (ignored)\n",
             t->heap.invalid_frees, LH_(plural)(t->heap.invalid_frees, "free", "frees"),
             t->heap.invalid_reallocs,
             LH_(plural)(t->heap.invalid_reallocs, "realloc", "reallocs"));
}

static void print_profile_line(const HChar* path, Bool written)
{
   if (written)
      VG_(umsg)("Profile: %s\n", path);
   else
      VG_(umsg)("Profile: not written (see the error above)\n");
}

void LH_(report_print_summary)(const LH_Report* r, const HChar* path,
                               Bool written)
{
   const LH_ReportTotals* t = &r->totals;
   HChar a[32], share[16];

   LH_(format_bytes)(a, sizeof a, t->heap.total_bytes);
   VG_(umsg)("lifeheap: %'llu %s (%s) allocated, %'llu freed, %'llu %s; "
             "%'llu instructions run\n",
             t->heap.total_blocks, LH_(plural)(t->heap.total_blocks, "block", "blocks"), a,
             t->heap.total_frees, t->heap.total_reallocs,
             LH_(plural)(t->heap.total_reallocs, "realloc", "reallocs"), t->duration);
   print_invalid_counts(t);
   if (t->heap.total_blocks == 0) {
      VG_(umsg)("No heap blocks were allocated.\n");
      print_profile_line(path, written);
      return;
   }
   LH_(format_bytes)(a, sizeof a, t->heap.peak_bytes);
   LH_(format_share)(share, sizeof share, t->heap.peak_time, t->duration);
   VG_(umsg)("Heap peak:    %s in %'llu %s, at %s of the run\n",
             a, t->heap.peak_blocks, LH_(plural)(t->heap.peak_blocks, "block", "blocks"),
             share);
   LH_(format_bytes)(a, sizeof a, t->heap.curr_bytes);
   VG_(umsg)("Live at exit: %s in %'llu %s\n", a, t->heap.curr_blocks,
             LH_(plural)(t->heap.curr_blocks, "block", "blocks"));
   print_top_sites(r);
   LH_(findings_print_summary)(LH_SUMMARY_TOP_SITES);
   print_profile_line(path, written);
}
