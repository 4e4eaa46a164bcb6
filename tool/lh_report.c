/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_report.c: the analysed run (lh_report.h).       ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Building a report:
     1. every site's output figures are made current (LH_(sites_finalize)),
     2. their code addresses are named, which tells the sites made only of
        runtime code (runtime_only: a runtime's own start-up memory),
     3. sites are sorted (the program's before the runtime's, then bytes
        at the peak, total bytes, stack addresses: a stable order across
        runs) and numbered, so every reader ranks the program's own sites
        first; the runtime's are still counted everywhere,
     4. the frame table is built in first-use order of the sorted sites,
        and each site gets its label (lh_labels.c),
     5. the timeline is closed and the findings computed,
     6. each site's notes are computed (lh_notes.c),
     7. the global figures are copied, so that every renderer of the
        report shows the same numbers.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"
#include "lh_report.h"

static Bool report_alive = False;   /* one report at a time (see the header) */

static Int compare_sites(const void* pa, const void* pb)
{
   const LH_Site* a = *(LH_Site* const*)pa;
   const LH_Site* b = *(LH_Site* const*)pb;
   if (a->out->runtime_only != b->out->runtime_only)
      return a->out->runtime_only ? 1 : -1;
   if (a->bytes_at_peak != b->bytes_at_peak)
      return a->bytes_at_peak > b->bytes_at_peak ? -1 : 1;
   if (a->total_bytes != b->total_bytes)
      return a->total_bytes > b->total_bytes ? -1 : 1;
   return LH_(stack_compare)(a->stack, b->stack);
}

/* The run's counters as they are now. */
static void copy_totals(LH_ReportTotals* t)
{
   t->duration = LH_(now);
   t->heap = LH_(heap);
   t->bytes_read = LH_(access_total_read)();
   t->bytes_written = LH_(access_total_written)();
   t->threads = LH_(threads_ever)();
}

/* A heap copy of notes holding just its notes (n > 0). */
static LH_SiteNotes* copy_notes(const LH_SiteNotes* notes)
{
   SizeT size = offsetof(LH_SiteNotes, note) + notes->n * sizeof(LH_SiteNote);
   LH_SiteNotes* copy = VG_(malloc)("lh.report.site_notes", size);
   VG_(memcpy)(copy, notes, size);
   return copy;
}

const LH_SiteNotes* LH_(report_site_notes)(const LH_Report* r, UInt i)
{
   static const LH_SiteNotes none = { 0 };
   tl_assert(i < r->n_sites);
   return r->notes[i] ? r->notes[i] : &none;
}

const LH_Report* LH_(report_build)(const LH_RunEnd* end)
{
   LH_Report* r;
   UInt i;

   tl_assert2(!report_alive, "a lifeheap report was not freed");
   report_alive = True;
   r = VG_(calloc)("lh.report", 1, sizeof *r);
   r->end = *end;

   /* 1, 2, 3: figures, names and order. */
   LH_(sites_finalize)();
   r->n_sites = LH_(n_sites)();
   r->sites = VG_(malloc)("lh.report.sites", (r->n_sites + 1) * sizeof(LH_Site*));
   for (i = 0; i < r->n_sites; i++) r->sites[i] = LH_(site_at)(i);
   LH_(frames_symbolise)(r->sites, r->n_sites);
   VG_(ssort)(r->sites, r->n_sites, sizeof(LH_Site*), compare_sites);
   for (i = 0; i < r->n_sites; i++) r->sites[i]->id = i;

   /* 4, 5: frame table, labels, timeline, findings. */
   LH_(frames_reset)();
   LH_(frames_build)(r->sites, r->n_sites);
   LH_(labels_build)(r->sites, r->n_sites);
   LH_(timeline_finish)();
   LH_(findings_compute)(r->sites, r->n_sites);

   /* 6: notes (they read the access folds the findings refreshed). */
   r->notes = VG_(calloc)("lh.report.notes", r->n_sites + 1, sizeof(LH_SiteNotes*));
   for (i = 0; i < r->n_sites; i++) {
      LH_SiteNotes computed;
      LH_(site_notes_compute)(r->sites[i], &computed);
      if (computed.n > 0) r->notes[i] = copy_notes(&computed);
   }

   /* 7 */
   copy_totals(&r->totals);
   return r;
}

void LH_(report_free)(const LH_Report* report)
{
   LH_Report* r = (LH_Report*)report;
   UInt i;
   tl_assert(report_alive);
   for (i = 0; i < r->n_sites; i++)
      if (r->notes[i]) VG_(free)(r->notes[i]);
   VG_(free)(r->sites);
   VG_(free)(r->notes);
   VG_(free)(r);
   report_alive = False;
}
