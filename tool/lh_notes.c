/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_notes.c: why a site is big, in a line under it. ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A site gets a note when its blocks were regrown by realloc or hold
   much capacity never written (a rows vector doubled 12 times, a quarter
   of it empty at the end), so that why a site is big shows without
   opening the profile.  The notes are judged here once, carried in the
   profile (sites[].notes, docs/format.md) and printed as they are by the
   summary and by `lifeheap report`.

   Each note needs LH_NOTE_MIN_BYTES of copies, of unused capacity or of
   untouched bytes (the last two a tenth of the site's bytes at the peak
   at least), or 1,000 tiny blocks: below that it is normal slack, not
   worth a line.  A site made only of runtime code gets only the runtime
   note, which says so (libstdc++'s emergency exception pool: 71 KiB never
   written in every C++ program, and nothing the program could change;
   Rust's thread name and stack-guard bookkeeping), since no other note
   could lead to a change.

     kind             when                                       bytes / count
     realloc-growth   realloc_bytes_copied >= 16 KiB             copied / reallocs
     unused-capacity  unused capacity at the peak >= 16 KiB and  unused / -
                      >= a tenth of bytes_at_peak
     never-touched    bytes never read nor written at the peak   untouched / -
                      >= 16 KiB and a tenth of bytes_at_peak,
                      unless unused-capacity already says half
     small-blocks     >= 1,000 blocks at the peak, under 24 B    bytes_at_peak /
                      each (glibc's smallest chunk is 32 B, 24   blocks_at_peak
                      of them usable)
     runtime          runtime_only (and then no other note)      bytes_at_peak / -
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "lh_include.h"
#include "lh_report.h"
#include "lh_text.h"

#define LH_NOTE_MIN_BYTES (16 * 1024)
#define LH_NOTE_SMALL_MIN_BLOCKS 1000
#define LH_NOTE_SMALL_USABLE_BYTES 24

const HChar* LH_(note_kind_name)(LH_NoteKind kind)
{
   switch (kind) {
      case LH_NoteReallocGrowth:  return "realloc-growth";
      case LH_NoteUnusedCapacity: return "unused-capacity";
      case LH_NoteNeverTouched:   return "never-touched";
      case LH_NoteSmallBlocks:    return "small-blocks";
      case LH_NoteRuntime:        return "runtime";
   }
   return "?";
}

/* The site's bytes live at the peak above the highest byte ever written
   (access.at_peak.unused_capacity_bytes; the folds are current once the
   findings were computed). */
static ULong unused_capacity_at_peak(const LH_Site* s)
{
   const LH_AccessFold* r = &s->access.retired;
   const LH_AccessFold* l = LH_(site_live_fold)(s);
   return (r->at_peak_seq == LH_(heap).peak_seq ? r->at_peak_unused_capacity : 0)
          + (l->at_peak_seq == LH_(heap).peak_seq ? l->at_peak_unused_capacity : 0);
}

/* The site's bytes live at the peak that were never read nor written. */
static ULong never_accessed_at_peak(const LH_Site* s)
{
   const LH_AccessFold* r = &s->access.retired;
   const LH_AccessFold* l = LH_(site_live_fold)(s);
   return (r->at_peak_seq == LH_(heap).peak_seq ? r->at_peak_never_accessed : 0)
          + (l->at_peak_seq == LH_(heap).peak_seq ? l->at_peak_never_accessed : 0);
}

static LH_SiteNote* add_note(LH_SiteNotes* notes, LH_NoteKind kind,
                             ULong bytes, ULong count)
{
   LH_SiteNote* n = &notes->note[notes->n++];
   n->kind = kind;
   n->bytes = bytes;
   n->count = count;
   n->text[0] = '\0';
   return n;
}

void LH_(site_notes_compute)(const LH_Site* s, LH_SiteNotes* notes)
{
   HChar amount[32], share[32];
   ULong unused = unused_capacity_at_peak(s);
   ULong untouched = never_accessed_at_peak(s);
   Bool show_unused = unused >= LH_NOTE_MIN_BYTES
                      && unused * 10 >= s->bytes_at_peak;
   LH_SiteNote* n;

   notes->n = 0;
   if (s->out->runtime_only) {
      n = add_note(notes, LH_NoteRuntime, s->bytes_at_peak, 0);
      VG_(snprintf)(n->text, sizeof n->text,
                    "the runtime's own memory (its start-up or internals), "
                    "not the program's code");
      return;
   }

   if (LH_(site_rare)(s)->realloc_bytes_copied >= LH_NOTE_MIN_BYTES) {
      n = add_note(notes, LH_NoteReallocGrowth, LH_(site_rare)(s)->realloc_bytes_copied,
                   LH_(site_rare)(s)->reallocs);
      LH_(format_bytes)(amount, sizeof amount, LH_(site_rare)(s)->realloc_bytes_copied);
      if (s->total_blocks > 1)
         VG_(snprintf)(n->text, sizeof n->text,
                       "grown by %'llu reallocs (%.1f per block), %s copied",
                       LH_(site_rare)(s)->reallocs,
                       (double)LH_(site_rare)(s)->reallocs / (double)s->total_blocks, amount);
      else
         VG_(snprintf)(n->text, sizeof n->text, "grown by %'llu %s, %s copied",
                       LH_(site_rare)(s)->reallocs,
                       LH_(plural)(LH_(site_rare)(s)->reallocs, "realloc", "reallocs"), amount);
   }
   if (show_unused) {
      n = add_note(notes, LH_NoteUnusedCapacity, unused, 0);
      LH_(format_bytes)(amount, sizeof amount, unused);
      LH_(format_percent)(share, sizeof share,
                          (double)unused / (double)s->bytes_at_peak);
      VG_(snprintf)(n->text, sizeof n->text,
                    "%s (%s) of it never written (unused capacity)", amount,
                    share);
   }
   /* Bytes never touched anywhere in the block (GNU sort's 80 MiB buffer,
      83% never touched, writes both ends): shown when the unused capacity
      above the written high-water mark does not already say it. */
   if (untouched >= LH_NOTE_MIN_BYTES && untouched * 10 >= s->bytes_at_peak
       && (!show_unused || unused * 2 < untouched)) {
      n = add_note(notes, LH_NoteNeverTouched, untouched, 0);
      LH_(format_bytes)(amount, sizeof amount, untouched);
      LH_(format_percent)(share, sizeof share,
                          (double)untouched / (double)s->bytes_at_peak);
      VG_(snprintf)(n->text, sizeof n->text,
                    "%s (%s) of it never read nor written", amount, share);
   }
   /* Many blocks smaller than glibc's smallest chunk: the allocator's own
      overhead outweighs the data. */
   if (s->blocks_at_peak >= LH_NOTE_SMALL_MIN_BLOCKS
       && s->bytes_at_peak < LH_NOTE_SMALL_USABLE_BYTES * s->blocks_at_peak) {
      ULong tenths = (s->bytes_at_peak * 10 + s->blocks_at_peak / 2)
                     / s->blocks_at_peak;
      n = add_note(notes, LH_NoteSmallBlocks, s->bytes_at_peak,
                   s->blocks_at_peak);
      VG_(snprintf)(n->text, sizeof n->text,
                    "%llu.%llu B per block on average: glibc's malloc takes "
                    "at least 32 B for each", tenths / 10, tenths % 10);
   }
}
