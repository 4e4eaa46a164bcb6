/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_findings_text.c: the one plain sentence of each ---*/
/*--- finding, naming the site's function.                         ---*/
/*--------------------------------------------------------------------*/
/*
   SPDX-License-Identifier: GPL-3.0-or-later

   The rules (lh_findings.c) decide; this file only words what they
   decided, from the finding's evidence.  docs/findings.md quotes these
   sentences: keep the two in step.  Each kind's sentence is a template
   (sentence_of_kind) whose placeholders name the finding's evidence.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "lh_include.h"
#include "lh_findings_private.h"
#include "lh_text.h"

#define evidence_count    LH_(evidence_count)
#define evidence_fraction LH_(evidence_fraction)

/* The site's function as the sentence names it: the site's label
   (lh_labels.c) when the name frame has a name -- the text the summary,
   the report and the viewer show for the site, whole however long it is --
   else a description made in buf. */
static const HChar* site_function(const LH_Site* site, HChar* buf, SizeT size)
{
   HChar described[512];
   HChar* suffix = NULL;
   HChar* p;
   const HChar* label = LH_(site_label)(site);
   if (label != NULL && VG_(strncmp)(label, "???", 3) != 0)
      return label;
   if (site->out->n_frames == 0 || site->out->frame_ids == NULL
       || site->out->name_frame >= site->out->n_frames) {
      VG_(snprintf)(buf, size, "an unnamed function");
      return buf;
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
      return buf;
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
      return buf;
   }
   VG_(snprintf)(buf, size, "an unnamed function");
   return buf;
}

/* Each kind's sentence, with its figures as placeholders:

     {fn}                  the site's function (site_function)
     {bytes NAME}          a size:   "306.1 KiB"
     {percent NAME}        a share:  "42%"
     {blocks NAME}         "1 block", "1,234 blocks"
     {count NAME}          "1,234"
     {plural NAME ONE|MANY}  ONE when the figure is 1, else MANY
     {if NAME YES|NO}      YES when the figure is not 0, else NO

   NAME is an evidence member of the finding (docs/findings.md) or one of
   the figures derived_figure() makes from them. */
static const HChar* const sentence_of_kind[] = {
   [Kind_MissingBackpressure] =
      "Blocks allocated in {fn} are handed to another thread and pile up: "
      "{blocks max_blocks} ({bytes max_bytes}) were waiting at once, and a "
      "block waited {percent mean_lifetime_fraction} of the run on average "
      "while {count queue_depth} others were consumed - the consumer cannot "
      "keep up and nothing makes the producer wait: bound the queue (block "
      "or drop when it is full).",
   [Kind_UnboundedGrowth] =
      "The live bytes allocated in {fn} kept climbing to new highs during "
      "{percent rising_fraction} of the site's life, to {bytes max_bytes} in "
      "{blocks max_blocks} living {percent mean_lifetime_fraction} of the run "
      "on average: it grows as long as the run goes on or the input lasts; "
      "if that is not intended, bound it (evict, stream, or free as you go).",
   [Kind_Leak] =
      "{fn} keeps allocating and never frees: {bytes bytes_at_exit} in "
      "{blocks blocks_at_exit} is still live at exit after climbing to new "
      "highs during {percent rising_fraction} of the site's life - an "
      "accumulation, not one-time initialisation.",
   [Kind_OversizedPreallocation] =
      "{fn} preallocates {blocks blocks} of {bytes mean_block_bytes} "
      "({bytes bytes_at_peak} live at the peak) and "
      "{percent never_read_fraction} of {plural blocks its|their} bytes are "
      "never read - {if mostly_untouched most are never touched at all|most "
      "are written once, at initialisation, and never read}: size "
      "{plural blocks it|them} to what is used.",
   [Kind_UnusedCapacity] =
      "{fn} allocates blocks of {bytes mean_block_bytes} but writes only up "
      "to {bytes written_bytes_per_block} of each on average: "
      "{bytes unused_capacity_bytes_at_peak} above the written high-water "
      "mark is held at the peak for nothing.",
   [Kind_ShortLivedChurn] =
      "{fn} allocates {blocks total_blocks} ({bytes total_bytes} in all), "
      "{count short_lived_blocks} of them living less than "
      "{count lifetime_limit} instructions ({percent churn_lifetime_fraction} "
      "of the run): "
      "{if churn_regrown its blocks are regrown by realloc before they are "
      "freed (a buffer built up anew each time) - reserve the size it "
      "reaches up front (reserve, with_capacity), or keep one buffer out of "
      "the loop and clear it each time.|}"
      "{if churn_mixed_sizes its blocks are of many sizes (a string or "
      "vector built up anew each time, or a temporary sized to its contents) "
      "- keep one buffer out of the loop and clear it each time (its "
      "capacity stays), reserving what it grows to.|}"
      "{if churn_one_size reuse one buffer instead of allocating and freeing "
      "each time.|}",
   /* Low severity is growth by doubling (copies below ten times the final
      size): telling it to "grow geometrically" would be wrong. */
   [Kind_ReallocGrowth] =
      "{fn} grows {plural blocks its buffer|its buffers} with "
      "{count reallocs} reallocs ({count reallocs_per_block} per block), "
      "copying {bytes realloc_bytes_copied} to hold at most "
      "{bytes max_bytes}: {if grows_geometrically it already grows "
      "geometrically; reserve the final size up front when it is known, to "
      "save the copies.|reserve the final size up front, or grow "
      "geometrically.}",
};

/* Figures a sentence needs that are not evidence members but follow from
   them (or from the rules' settings); False when name is none of them. */
static Bool derived_figure(const Finding* f, const HChar* name, double* value)
{
   if (VG_STREQ(name, "mostly_untouched")) {
      *value = 2 * evidence_count(f, "never_accessed_bytes")
               >= evidence_count(f, "never_read_bytes");
   } else if (VG_STREQ(name, "written_bytes_per_block")) {
      ULong blocks = evidence_count(f, "blocks");
      ULong written = evidence_count(f, "measured_bytes")
                      - evidence_count(f, "unused_capacity_bytes");
      *value = (double)(blocks ? written / blocks : 0);
   } else if (VG_STREQ(name, "churn_lifetime_fraction")) {
      *value = LH_(findings_churn_lifetime_fraction)();
   } else if (VG_STREQ(name, "churn_regrown")) {
      /* short-lived-churn's advice follows what its blocks were: regrown
         by realloc (Rust's String and Vec, C's realloc), of many sizes
         (C++'s std::string and std::vector grow by a new block and a
         copy; temporaries sized to their contents), or one size (a
         scratch buffer).  The site's reallocs and whether its blocks all
         had one size (access.block_size) are in the profile. */
      *value = LH_(site_rare)(f->site)->reallocs > 0;
   } else if (VG_STREQ(name, "churn_mixed_sizes")) {
      *value = LH_(site_rare)(f->site)->reallocs == 0
               && f->site->access.mixed_sizes;
   } else if (VG_STREQ(name, "churn_one_size")) {
      *value = LH_(site_rare)(f->site)->reallocs == 0
               && !f->site->access.mixed_sizes;
   } else if (VG_STREQ(name, "grows_geometrically")) {
      *value = f->severity == Severity_Low;
   } else {
      return False;
   }
   return True;
}

static ULong figure_count(const Finding* f, const HChar* name)
{
   double value;
   return derived_figure(f, name, &value) ? (ULong)value
                                          : evidence_count(f, name);
}

static double figure_fraction(const Finding* f, const HChar* name)
{
   double value;
   return derived_figure(f, name, &value) ? value
                                          : evidence_fraction(f, name);
}

/* Appends text[0, length) to buf (size bytes, *used of them written),
   cutting it at the end of buf. */
/* Appends length bytes of text; *used counts every byte the sentence
   needs, so a caller whose buffer was too small sees *used + 1 > size. */
static void put(HChar* buf, SizeT size, SizeT* used, const HChar* text,
                SizeT length)
{
   while (length-- > 0) {
      if (*used + 1 < size) buf[*used] = *text;
      (*used)++;
      text++;
   }
   buf[*used + 1 < size ? *used : size - 1] = '\0';
}

/* Puts the text of one placeholder, "what NAME" or "what NAME A|B"
   (inside the braces, length bytes): for plural and if, the chosen one of
   the two alternatives A and B. */
static void put_placeholder(HChar* buf, SizeT size, SizeT* used,
                            const Finding* f, const HChar* fn,
                            const HChar* inside, SizeT length)
{
   HChar what[16], name[48], text[64];
   const HChar* rest;
   const HChar* end = inside + length;
   const HChar* bar;
   SizeT n;
   if (length == 2 && VG_(strncmp)(inside, "fn", 2) == 0) {
      put(buf, size, used, fn, VG_(strlen)(fn));
      return;
   }
   for (n = 0; inside + n < end && inside[n] != ' '; n++) {}
   tl_assert(n < sizeof what && inside + n < end);
   VG_(memcpy)(what, inside, n);
   what[n] = '\0';
   rest = inside + n + 1;
   for (n = 0; rest + n < end && rest[n] != ' '; n++) {}
   tl_assert(n < sizeof name);
   VG_(memcpy)(name, rest, n);
   name[n] = '\0';
   rest += n < (SizeT)(end - rest) ? n + 1 : n;

   if (VG_STREQ(what, "bytes")) {
      LH_(format_bytes)(text, sizeof text, figure_count(f, name));
   } else if (VG_STREQ(what, "percent")) {
      LH_(format_percent)(text, sizeof text, figure_fraction(f, name));
   } else if (VG_STREQ(what, "count")) {
      VG_(snprintf)(text, sizeof text, "%'llu", figure_count(f, name));
   } else if (VG_STREQ(what, "blocks")) {
      ULong blocks = figure_count(f, name);
      VG_(snprintf)(text, sizeof text, "%'llu %s", blocks,
                    LH_(plural)(blocks, "block", "blocks"));
   } else {
      /* plural and if: two alternatives split at '|' */
      Bool first;
      for (bar = rest; bar < end && *bar != '|'; bar++) {}
      tl_assert(bar < end);
      first = VG_STREQ(what, "plural")
                 ? figure_count(f, name) == 1      /* as LH_(plural) */
                 : figure_fraction(f, name) != 0;
      tl_assert(VG_STREQ(what, "plural") || VG_STREQ(what, "if"));
      if (first) put(buf, size, used, rest, (SizeT)(bar - rest));
      else put(buf, size, used, bar + 1, (SizeT)(end - bar - 1));
      return;
   }
   put(buf, size, used, text, VG_(strlen)(text));
}

/* Writes the sentence into buf (size bytes, at least 1) and returns the
   length it needs: when that is size or more, buf holds only its start. */
static SizeT describe_into(const Finding* f, const HChar* fn, HChar* buf,
                           SizeT size)
{
   const HChar* at;
   SizeT used = 0;
   tl_assert(size > 0);
   buf[0] = '\0';
   for (at = sentence_of_kind[f->kind]; *at != '\0'; ) {
      const HChar* close;
      if (*at != '{') {
         const HChar* next = at;
         while (*next != '\0' && *next != '{') next++;
         put(buf, size, &used, at, (SizeT)(next - at));
         at = next;
         continue;
      }
      close = VG_(strchr)(at, '}');
      tl_assert(close != NULL);
      put_placeholder(buf, size, &used, f, fn, at + 1, (SizeT)(close - at - 1));
      at = close + 1;
   }
   return used;
}

HChar* LH_(finding_sentence)(const Finding* f)
{
   HChar unnamed[512], measure[1];
   const HChar* fn;
   SizeT size, written;
   HChar* sentence;
   tl_assert((UInt)f->kind < sizeof sentence_of_kind / sizeof sentence_of_kind[0]);
   tl_assert(sentence_of_kind[f->kind] != NULL);
   fn = site_function(f->site, unnamed, sizeof unnamed);
   /* Measured first, then written at the length it needs: a long label (a
      chain of callers without debug information, a generated name) is
      never cut. */
   size = describe_into(f, fn, measure, sizeof measure) + 1;
   sentence = VG_(malloc)("lh.findings.summary", size);
   written = describe_into(f, fn, sentence, size);
   tl_assert(written + 1 == size);
   /* A sentence opens with the function's name; capitalise only our own
      words ("an unnamed function"), never a program's identifier. */
   if (VG_(strncmp)(sentence, "an unnamed", 10) == 0)
      sentence[0] = 'A';
   return sentence;
}

/*--------------------------------------------------------------------*/
/*--- end                                     lh_findings_text.c ---*/
/*--------------------------------------------------------------------*/
