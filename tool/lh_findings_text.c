/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_findings_text.c: the one plain sentence of each ---*/
/*--- finding, naming the site's function.                         ---*/
/*--------------------------------------------------------------------*/
/*
   SPDX-License-Identifier: GPL-3.0-or-later

   The rules (lh_findings.c) decide; this file only words what they
   decided, from the finding's evidence.  docs/findings.md quotes these
   sentences: keep the two in step.  Each kind's case formats its evidence
   and words its own sentence, so the cases look alike; what they share
   (the site's name, "N blocks") is a helper.
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
   if (site->label != NULL && VG_(strncmp)(site->label, "???", 3) != 0) {
      VG_(snprintf)(buf, size, "%s", site->label);
      return;
   }
   if (site->n_frames == 0 || site->frame_ids == NULL
       || site->name_frame >= site->n_frames) {
      VG_(snprintf)(buf, size, "an unnamed function");
      return;
   }
   /* frame_describe gives "function (file:line)", "function (in object)"
      or "function"; the suffix starts at the last " (" (C++ names may hold
      " (" themselves, as in "std::function<void (int)>"). */
   LH_(frame_describe)(site->frame_ids[site->name_frame],
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

/* "1 block", "1,234 blocks": the evidence count 'name' with its noun. */
static const HChar* blocks_text(const Finding* f, const HChar* name,
                                HChar* buf, SizeT size)
{
   ULong n = evidence_count(f, name);
   VG_(snprintf)(buf, size, "%'llu %s", n, LH_(plural)(n, "block", "blocks"));
   return buf;
}

void LH_(finding_describe)(const Finding* f, HChar* buf, SizeT size)
{
   HChar fn[256], b1[32], b2[32], b3[32], p1[32], p2[32], n1[48];
   /* p1 may be a threshold (churn) rather than evidence: all are shown. */
   const LH_Site* site = f->site;
   site_function(site, fn, sizeof fn);

   switch (f->kind) {
   case Kind_MissingBackpressure:
      LH_(format_bytes)(b1, sizeof b1, evidence_count(f, "max_bytes"));
      LH_(format_percent)(p1, sizeof p1,
                     evidence_fraction(f, "mean_lifetime_fraction"));
      VG_(snprintf)(buf, size,
         "Blocks allocated in %s are handed to another thread and pile up: "
         "%s (%s) were waiting at once, and a block waited %s of the "
         "run on average while %'llu others were consumed - the consumer "
         "cannot keep up and nothing makes the producer wait: bound the "
         "queue (block or drop when it is full).",
         fn, blocks_text(f, "max_blocks", n1, sizeof n1), b1, p1,
         evidence_count(f, "queue_depth"));
      break;
   case Kind_UnboundedGrowth:
      LH_(format_bytes)(b1, sizeof b1, evidence_count(f, "max_bytes"));
      LH_(format_percent)(p1, sizeof p1, evidence_fraction(f, "rising_fraction"));
      LH_(format_percent)(p2, sizeof p2,
                     evidence_fraction(f, "mean_lifetime_fraction"));
      VG_(snprintf)(buf, size,
         "The live bytes allocated in %s kept climbing to new highs during "
         "%s of the site's life, to %s in %s living %s of the run on "
         "average: it grows as long as the run goes on or the input lasts; "
         "if that is not intended, bound it (evict, stream, or free as you go).",
         fn, p1, b1, blocks_text(f, "max_blocks", n1, sizeof n1), p2);
      break;
   case Kind_Leak:
      LH_(format_bytes)(b1, sizeof b1, evidence_count(f, "bytes_at_exit"));
      LH_(format_percent)(p1, sizeof p1, evidence_fraction(f, "rising_fraction"));
      VG_(snprintf)(buf, size,
         "%s keeps allocating and never frees: %s in %s is still "
         "live at exit after climbing to new highs during %s of the site's "
         "life - an accumulation, not one-time initialisation.",
         fn, b1, blocks_text(f, "blocks_at_exit", n1, sizeof n1), p1);
      break;
   case Kind_OversizedPreallocation: {
      ULong never_read = evidence_count(f, "never_read_bytes");
      ULong never_accessed = evidence_count(f, "never_accessed_bytes");
      LH_(format_bytes)(b1, sizeof b1, evidence_count(f, "mean_block_bytes"));
      LH_(format_bytes)(b2, sizeof b2, evidence_count(f, "bytes_at_peak"));
      LH_(format_percent)(p1, sizeof p1, evidence_fraction(f, "never_read_fraction"));
      VG_(snprintf)(buf, size,
         "%s preallocates %s of %s (%s live at the peak) and %s of "
         "%s bytes are never read - %s: size %s to what is used.",
         fn, blocks_text(f, "blocks", n1, sizeof n1), b1, b2, p1,
         LH_(plural)(evidence_count(f, "blocks"), "its", "their"),
         2 * never_accessed >= never_read
            ? "most are never touched at all"
            : "most are written once, at initialisation, and never read",
         LH_(plural)(evidence_count(f, "blocks"), "it", "them"));
      break;
   }
   case Kind_UnusedCapacity: {
      ULong blocks = evidence_count(f, "blocks");
      ULong measured = evidence_count(f, "measured_bytes");
      ULong unused = evidence_count(f, "unused_capacity_bytes");
      LH_(format_bytes)(b1, sizeof b1, evidence_count(f, "mean_block_bytes"));
      LH_(format_bytes)(b2, sizeof b2, blocks ? (measured - unused) / blocks : 0);
      LH_(format_bytes)(b3, sizeof b3,
                   evidence_count(f, "unused_capacity_bytes_at_peak"));
      VG_(snprintf)(buf, size,
         "%s allocates blocks of %s but writes only up to %s of each on "
         "average: %s above the written high-water mark is held at the "
         "peak for nothing.", fn, b1, b2, b3);
      break;
   }
   case Kind_ShortLivedChurn:
      LH_(format_bytes)(b1, sizeof b1, evidence_count(f, "total_bytes"));
      LH_(format_percent)(p1, sizeof p1,
                            LH_(findings_churn_lifetime_fraction)());
      VG_(snprintf)(buf, size,
         "%s allocates %s (%s in all), %'llu of them living less than "
         "%'llu instructions (%s of the run): reuse one buffer instead of "
         "allocating and freeing each time.",
         fn, blocks_text(f, "total_blocks", n1, sizeof n1), b1,
         evidence_count(f, "short_lived_blocks"),
         evidence_count(f, "lifetime_limit"), p1);
      break;
   case Kind_ReallocGrowth:
      LH_(format_bytes)(b1, sizeof b1, evidence_count(f, "realloc_bytes_copied"));
      LH_(format_bytes)(b2, sizeof b2, evidence_count(f, "max_bytes"));
      /* Low severity is growth by doubling (copies below ten times the
         final size): telling it to "grow geometrically" would be wrong. */
      VG_(snprintf)(buf, size,
         "%s grows %s with %'llu reallocs (%'llu per block), copying "
         "%s to hold at most %s: %s",
         fn, LH_(plural)(evidence_count(f, "blocks"), "its buffer", "its buffers"),
         evidence_count(f, "reallocs"),
         evidence_count(f, "reallocs_per_block"), b1, b2,
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
