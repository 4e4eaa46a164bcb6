/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_findings_text.c: the one plain sentence of each ---*/
/*--- finding, naming the site's function.                         ---*/
/*--------------------------------------------------------------------*/
/*
   SPDX-License-Identifier: GPL-3.0-or-later

   The rules (lh_findings.c) decide; this file only words what they
   decided, from the finding's evidence.  docs/findings.md quotes these
   sentences: keep the two in step.  Each kind's case is one sentence whose
   figures are the finding's evidence, formatted by the helpers below.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"

#include "lh_include.h"
#include "lh_findings_private.h"
#include "lh_text.h"

#define evidence_count    LH_(evidence_count)
#define evidence_fraction LH_(evidence_fraction)

static void site_function(const LH_Site* site, HChar* buf, SizeT size)
{
   HChar described[512];
   HChar* suffix = NULL;
   HChar* p;
   /* The site's label (lh_labels.c) when the name frame has a name: the
      text the summary, the report and the viewer show for the site. */
   const HChar* label = LH_(site_label)(site);
   if (label != NULL && VG_(strncmp)(label, "???", 3) != 0) {
      VG_(snprintf)(buf, size, "%s", label);
      return;
   }
   if (site->out->n_frames == 0 || site->out->frame_ids == NULL
       || site->out->name_frame >= site->out->n_frames) {
      VG_(snprintf)(buf, size, "an unnamed function");
      return;
   }
   /* frame_describe gives "function (file:line)", "function (in object)"
      or "function"; the suffix starts at the last " (" (C++ names may hold
      " (" themselves, as in "std::function<void (int)>"). */
   LH_(frame_describe)(site->out->frame_ids[site->out->name_frame],
                       described, sizeof described);
   for (p = described; *p != '\0'; p++)
      if (p[0] == ' ' && p[1] == '(')
         suffix = p;
   if (suffix != NULL)
      *suffix = '\0';
   if (!VG_STREQ(described, "???")) {
      VG_(snprintf)(buf, size, "%s", described);
      return;
   }
   if (suffix != NULL && VG_(strncmp)(suffix + 1, "(in ", 4) == 0) {
      HChar* object = suffix + 5;
      HChar* base = object;
      SizeT  len;
      for (p = object; *p != '\0'; p++)
         if (*p == '/')
            base = p + 1;
      len = VG_(strlen)(base);
      if (len > 0 && base[len - 1] == ')')
         base[len - 1] = '\0';
      VG_(snprintf)(buf, size, "an unnamed function in %s", base);
      return;
   }
   VG_(snprintf)(buf, size, "an unnamed function");
}

/* The evidence's figures as text.  Each text is made in the next of a
   few rotating buffers, so that one sentence can use several of them as
   arguments (at most TEXT_SLOTS: no sentence needs more). */
#define TEXT_SLOTS 6
#define TEXT_SIZE  48

static HChar* next_text_slot(void)
{
   static HChar slots[TEXT_SLOTS][TEXT_SIZE];
   static UInt next = 0;
   HChar* slot = slots[next];
   next = (next + 1) % TEXT_SLOTS;
   return slot;
}

/* "306.1 KiB" */
static const HChar* bytes_text(ULong bytes)
{
   HChar* text = next_text_slot();
   LH_(format_bytes)(text, TEXT_SIZE, bytes);
   return text;
}

/* "42.5%" */
static const HChar* percent_text(double fraction)
{
   HChar* text = next_text_slot();
   LH_(format_percent)(text, TEXT_SIZE, fraction);
   return text;
}

/* "1 block", "1,234 blocks" */
static const HChar* blocks_text(ULong blocks)
{
   HChar* text = next_text_slot();
   VG_(snprintf)(text, TEXT_SIZE, "%'llu %s", blocks,
                 LH_(plural)(blocks, "block", "blocks"));
   return text;
}

#define EVIDENCE_BYTES(name)    bytes_text(evidence_count(f, name))
#define EVIDENCE_PERCENT(name)  percent_text(evidence_fraction(f, name))
#define EVIDENCE_BLOCKS(name)   blocks_text(evidence_count(f, name))

void LH_(finding_describe)(const Finding* f, HChar* buf, SizeT size)
{
   HChar fn[256];
   const LH_Site* site = f->site;
   site_function(site, fn, sizeof fn);

   switch (f->kind) {
   case Kind_MissingBackpressure:
      VG_(snprintf)(buf, size,
         "Blocks allocated in %s are handed to another thread and pile up: "
         "%s (%s) were waiting at once, and a block waited %s of the "
         "run on average while %'llu others were consumed - the consumer "
         "cannot keep up and nothing makes the producer wait: bound the "
         "queue (block or drop when it is full).",
         fn, EVIDENCE_BLOCKS("max_blocks"), EVIDENCE_BYTES("max_bytes"),
         EVIDENCE_PERCENT("mean_lifetime_fraction"),
         evidence_count(f, "queue_depth"));
      break;
   case Kind_UnboundedGrowth:
      VG_(snprintf)(buf, size,
         "The live bytes allocated in %s kept climbing to new highs during "
         "%s of the site's life, to %s in %s living %s of the run on "
         "average: it grows as long as the run goes on or the input lasts; "
         "if that is not intended, bound it (evict, stream, or free as you go).",
         fn, EVIDENCE_PERCENT("rising_fraction"), EVIDENCE_BYTES("max_bytes"),
         EVIDENCE_BLOCKS("max_blocks"),
         EVIDENCE_PERCENT("mean_lifetime_fraction"));
      break;
   case Kind_Leak:
      VG_(snprintf)(buf, size,
         "%s keeps allocating and never frees: %s in %s is still "
         "live at exit after climbing to new highs during %s of the site's "
         "life - an accumulation, not one-time initialisation.",
         fn, EVIDENCE_BYTES("bytes_at_exit"), EVIDENCE_BLOCKS("blocks_at_exit"),
         EVIDENCE_PERCENT("rising_fraction"));
      break;
   case Kind_OversizedPreallocation: {
      ULong blocks = evidence_count(f, "blocks");
      Bool mostly_untouched = 2 * evidence_count(f, "never_accessed_bytes")
                              >= evidence_count(f, "never_read_bytes");
      VG_(snprintf)(buf, size,
         "%s preallocates %s of %s (%s live at the peak) and %s of "
         "%s bytes are never read - %s: size %s to what is used.",
         fn, blocks_text(blocks), EVIDENCE_BYTES("mean_block_bytes"),
         EVIDENCE_BYTES("bytes_at_peak"),
         EVIDENCE_PERCENT("never_read_fraction"),
         LH_(plural)(blocks, "its", "their"),
         mostly_untouched
            ? "most are never touched at all"
            : "most are written once, at initialisation, and never read",
         LH_(plural)(blocks, "it", "them"));
      break;
   }
   case Kind_UnusedCapacity: {
      ULong blocks = evidence_count(f, "blocks");
      ULong written = evidence_count(f, "measured_bytes")
                      - evidence_count(f, "unused_capacity_bytes");
      VG_(snprintf)(buf, size,
         "%s allocates blocks of %s but writes only up to %s of each on "
         "average: %s above the written high-water mark is held at the "
         "peak for nothing.", fn, EVIDENCE_BYTES("mean_block_bytes"),
         bytes_text(blocks ? written / blocks : 0),
         EVIDENCE_BYTES("unused_capacity_bytes_at_peak"));
      break;
   }
   case Kind_ShortLivedChurn:
      VG_(snprintf)(buf, size,
         "%s allocates %s (%s in all), %'llu of them living less than "
         "%'llu instructions (%s of the run): reuse one buffer instead of "
         "allocating and freeing each time.",
         fn, EVIDENCE_BLOCKS("total_blocks"), EVIDENCE_BYTES("total_bytes"),
         evidence_count(f, "short_lived_blocks"),
         evidence_count(f, "lifetime_limit"),
         percent_text(LH_(findings_churn_lifetime_fraction)()));
      break;
   case Kind_ReallocGrowth:
      /* Low severity is growth by doubling (copies below ten times the
         final size): telling it to "grow geometrically" would be wrong. */
      VG_(snprintf)(buf, size,
         "%s grows %s with %'llu reallocs (%'llu per block), copying "
         "%s to hold at most %s: %s",
         fn, LH_(plural)(evidence_count(f, "blocks"), "its buffer", "its buffers"),
         evidence_count(f, "reallocs"),
         evidence_count(f, "reallocs_per_block"),
         EVIDENCE_BYTES("realloc_bytes_copied"), EVIDENCE_BYTES("max_bytes"),
         f->severity == Severity_Low
            ? "it already grows geometrically; reserve the final size up "
              "front when it is known, to save the copies."
            : "reserve the final size up front, or grow geometrically.");
      break;
   }
   /* A sentence opens with the function's name; capitalise only our own
      words ("an unnamed function"), never a program's identifier. */
   if (VG_(strncmp)(buf, "an unnamed", 10) == 0)
      buf[0] = 'A';
}

/*--------------------------------------------------------------------*/
/*--- end                                     lh_findings_text.c ---*/
/*--------------------------------------------------------------------*/
