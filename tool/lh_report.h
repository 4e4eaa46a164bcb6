/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_report.h: the analysed run, built once per      ---*/
/*--- write and read by every renderer.                            ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A profile is written at exit, on a periodic dump and on a vgdb
   "monitor lifeheap dump"; all three go the same way:

      LH_(report_build)(end)          lh_report.c: finalise the sites,
         |                            sort and number them, build the
         |                            frame table and labels, close the
         |                            timeline, compute findings and notes
         v
      const LH_Report*  ──> LH_(report_write_json)     lh_output.c
                        ──> LH_(report_print_summary)  lh_summary.c
         |
      LH_(report_free)

   Renderers only read the report: no figure, order, label, note or
   finding is decided while writing, and nothing a write leaves behind
   is read by a later one.  The frame table, the labels (kept in the
   sites) and the findings belong to the latest report; a report must be
   freed before the next one is built.
*/
#ifndef LH_REPORT_H
#define LH_REPORT_H

#include "pub_tool_basics.h"
#include "lh_include.h"

/* Notes under a site: why it is big (docs/format.md, sites[].notes). */
typedef enum {
   LH_NoteReallocGrowth,     /* regrown by realloc, bytes copied */
   LH_NoteUnusedCapacity,    /* bytes above the written high-water mark */
   LH_NoteNeverTouched,      /* bytes never read nor written */
   LH_NoteSmallBlocks,       /* blocks below the allocator's chunk */
   LH_NoteRuntime            /* made only of runtime code */
} LH_NoteKind;

#define LH_MAX_SITE_NOTES 4
#define LH_NOTE_TEXT_SIZE 160

typedef struct {
   LH_NoteKind kind;
   ULong bytes;       /* copied, unused, untouched, or live at the peak */
   ULong count;       /* reallocs (realloc-growth), blocks (small-blocks) */
   HChar text[LH_NOTE_TEXT_SIZE];   /* the sentence every reader prints */
} LH_SiteNote;

typedef struct {
   UInt        n;
   LH_SiteNote note[LH_MAX_SITE_NOTES];
} LH_SiteNotes;

/* The run's global figures when the report was built. */
typedef struct {
   ULong           duration;                    /* LH_(now) */
   LH_HeapCounters heap;                        /* curr_*: live now */
   ULong           bytes_read, bytes_written;
   UInt            threads;
} LH_ReportTotals;

typedef struct {
   LH_RunEnd       end;
   LH_ReportTotals totals;
   LH_Site**       sites;     /* sorted: sites[i]->id == i */
   UInt            n_sites;
   /* notes[i] belongs to sites[i]; NULL when the site has none (most
      sites: a site's notes are allocated only when it has one, sized to
      their number, so that 100,000 sites cost a pointer each). */
   LH_SiteNotes**  notes;
} LH_Report;

/* The notes of sites[i]: an empty set when it has none. */
const LH_SiteNotes* LH_(report_site_notes)(const LH_Report* report, UInt i);

const LH_Report* LH_(report_build)(const LH_RunEnd* end);
void LH_(report_free)(const LH_Report* report);

/* lh_notes.c: the notes of one site (none for a runtime-only site). */
void LH_(site_notes_compute)(const LH_Site* site, LH_SiteNotes* notes);
/* "realloc-growth", ...: the note's kind in the profile. */
const HChar* LH_(note_kind_name)(LH_NoteKind kind);

/* lh_output.c: writes the profile atomically to path; True on success.
   On failure prints why and leaves no file behind. */
Bool LH_(report_write_json)(const LH_Report* report, const HChar* path);
/* lh_summary.c: the stderr summary, after a successful or failed write. */
void LH_(report_print_summary)(const LH_Report* report, const HChar* path,
                               Bool written);

#endif /* LH_REPORT_H */
