/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_site_json.c: one site of the profile, its       ---*/
/*--- members that hold their default left out.                    ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A program with 100,000 sites writes 100,000 of these, and most of them
   are small: a block or two, never reallocated, one thread.  Written in
   full such a site is about 1.6 KB, most of it key names and zeros, a
   label and a key that repeat the frame table, and the same allocator
   frames as every other site.  So (docs/format.md, "Omitted members"):

     - a member equal to its documented default is left out: 0, false,
       null or empty for most; for a few, another member of the site
       (max_bytes defaults to total_bytes, last_alloc_time to
       first_alloc_time, lifetime.min and max to lifetime.sum, ...);
       an object whose members all hold their defaults goes whole;
     - "id" is the site's position and is not written;
     - a histogram starts at its first non-zero bucket ("histogram_start",
       "size_histogram_start");
     - the label is written as the stack positions of the frames it names
       ("label_frames", "label_number"), whose text the frame table holds
       ("text"), unless that would not give its exact text back (then
       "label" as text);
     - the key across runs is the kept stack positions ("match_frames",
       lh_match_key.c);
     - the allocator frames are an index into the profile's
       "allocator_stacks", which holds each distinct list once.

   Readers put the defaults back, in one place each (cli/profile_defaults.c,
   viewer/src/model/profile.js), so every figure reads as before.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"
#include "lh_report.h"
#include "lh_labels.h"
#include "lh_match_key.h"
#include "lh_site_json.h"

/*------------------------------------------------------------*/
/*--- The label as frame positions                         ---*/
/*------------------------------------------------------------*/

#define LH_LABEL_MAX_PARTS 64

typedef struct {
   UInt part[LH_LABEL_MAX_PARTS];   /* stack positions after the name frame's */
   UInt n;
   ULong number;                    /* " #n", 0 when none */
} LH_LabelParts;

/* Where s continues after prefix, or NULL when s does not start with
   prefix: one pass over both, no measuring first (labels are read back
   for every site, trying the frames of its stack part by part). */
static const HChar* after_prefix(const HChar* s, const HChar* prefix)
{
   while (*prefix != 0) {
      if (*s != *prefix) return NULL;
      s++;
      prefix++;
   }
   return s;
}

static Bool starts_with(const HChar* s, const HChar* prefix)
{
   return after_prefix(s, prefix) != NULL;
}

/* What may follow a frame's text in a label: another part or the end. */
static Bool at_part_boundary(const HChar* s)
{
   if (*s == 0) return True;
   if (*s == ',') return starts_with(s, ", allocated by ");
   return *s == ' ' && (starts_with(s, " via ") || starts_with(s, " > ")
                        || starts_with(s, " #"));
}

/* The label as a reader joins it back (docs/format.md): the name frame's
   text, " via " before a caller's, ", allocated by " before the first
   callee's and " > " before the next, then " #n".  Compares it with
   label without building it. */
static Bool parts_give(const LH_Site* s, const LH_LabelParts* p,
                       const HChar* label)
{
   const HChar* at = label;
   const HChar* text;
   Bool callee_seen = False;
   UInt k;
   text = s->out->n_frames ? LH_(frame_text)(s->out->frame_ids[s->out->name_frame]) : "???";
   at = after_prefix(at, text);
   if (at == NULL) return False;
   for (k = 0; k < p->n; k++) {
      const HChar* sep;
      if (p->part[k] > s->out->name_frame) sep = " via ";
      else if (callee_seen) sep = " > ";
      else { sep = ", allocated by "; callee_seen = True; }
      at = after_prefix(at, sep);
      if (at == NULL) return False;
      text = LH_(frame_text)(s->out->frame_ids[p->part[k]]);
      at = after_prefix(at, text);
      if (at == NULL) return False;
   }
   if (p->number > 0) {
      HChar number[32];
      VG_(sprintf)(number, " #%llu", p->number);
      at = after_prefix(at, number);
      if (at == NULL) return False;
   }
   return *at == 0;
}

/* The frame at a stack position in [from, to) whose text, after sep,
   starts what is left of the label and ends at a part's boundary.  A
   frame that did not fit is not tried again at a later position (in a
   recursion the same few frames fill the stack). */
#define LH_REJECTED_MAX 16

static Bool find_part(const LH_Site* s, const HChar** at, const HChar* sep,
                      UInt from, UInt to, UInt* position)
{
   UInt k, r, rejected[LH_REJECTED_MAX], n_rejected = 0;
   const HChar* rest;
   rest = after_prefix(*at, sep);
   if (rest == NULL) return False;
   for (k = from; k < to; k++) {
      UInt id = s->out->frame_ids[k];
      const HChar* end;
      for (r = 0; r < n_rejected && rejected[r] != id; r++) ;
      if (r < n_rejected) continue;
      end = after_prefix(rest, LH_(frame_text)(id));
      if (end != NULL && at_part_boundary(end)) {
         *position = k;
         *at = end;
         return True;
      }
      if (n_rejected < LH_REJECTED_MAX) rejected[n_rejected++] = id;
   }
   return False;
}

/* Reads the label (lh_labels.c made it by appending frames' texts) back
   into stack positions; False when it cannot be said that way exactly. */
static Bool label_parts(const LH_Site* s, LH_LabelParts* p)
{
   const HChar* label = LH_(site_label)(s);   /* lh_labels.c's buffer */
   const HChar* at = label;
   const HChar* base;
   p->n = 0;
   p->number = 0;
   if (at == NULL) return False;
   base = s->out->n_frames ? LH_(frame_text)(s->out->frame_ids[s->out->name_frame]) : "???";
   at = after_prefix(at, base);
   if (at == NULL) return False;
   while (*at != 0) {
      UInt position;
      if (p->n == LH_LABEL_MAX_PARTS) return False;
      if (find_part(s, &at, " via ", s->out->name_frame + 1, s->out->n_frames, &position)
          || find_part(s, &at, p->n > 0 && p->part[p->n - 1] < s->out->name_frame
                                  ? " > " : ", allocated by ",
                       0, s->out->name_frame, &position)) {
         p->part[p->n++] = position;
         continue;
      }
      if (starts_with(at, " #")) {
         const HChar* digits = at + 2;
         ULong number = 0;
         if (*digits < '1' || *digits > '9') return False;
         for (; *digits >= '0' && *digits <= '9'; digits++)
            number = number * 10 + (ULong)(*digits - '0');
         if (*digits != 0) return False;
         p->number = number;
         break;
      }
      return False;
   }
   return parts_give(s, p, label);
}

static void write_label(LH_Json* j, const LH_Site* s)
{
   static LH_LabelParts parts;    /* not on the small stack */
   UInt k;
   if (!label_parts(s, &parts)) {
      LH_(json_string)(j, "label", LH_(site_label)(s));
      return;
   }
   if (parts.n > 0) {
      LH_(json_array_begin)(j, "label_frames");
      for (k = 0; k < parts.n; k++) LH_(json_u64)(j, NULL, parts.part[k]);
      LH_(json_array_end)(j);
   }
   if (parts.number > 0) LH_(json_u64)(j, "label_number", parts.number);
}

/*------------------------------------------------------------*/
/*--- Allocator stacks, each distinct list once            ---*/
/*------------------------------------------------------------*/

/* The site standing for each distinct list of allocator frames (the
   preload's entry points: a handful in any program). */
static const LH_Site** allocator_stacks = NULL;
static UInt n_allocator_stacks = 0, allocator_stacks_size = 0;

/* Equal lists have one number (lh_sites.c keeps each distinct list once). */
static Bool same_allocator_frames(const LH_Site* a, const LH_Site* b)
{
   return a->allocator_frames == b->allocator_frames;
}

/* The site's index in allocator_stacks; -1 for a site with none. */
static Int allocator_stack_of(const LH_Site* s, Bool add)
{
   UInt k;
   if (LH_(allocator_frames_of)(s)->n == 0) return -1;
   for (k = 0; k < n_allocator_stacks; k++)
      if (same_allocator_frames(allocator_stacks[k], s)) return (Int)k;
   if (!add) return -1;
   if (n_allocator_stacks == allocator_stacks_size) {
      allocator_stacks_size = allocator_stacks_size ? 2 * allocator_stacks_size : 8;
      allocator_stacks = VG_(realloc)("lh.sitejson.stacks", allocator_stacks,
                                      allocator_stacks_size * sizeof(LH_Site*));
   }
   allocator_stacks[n_allocator_stacks] = s;
   return (Int)n_allocator_stacks++;
}

void LH_(site_json_begin)(LH_Json* j, const LH_Report* r)
{
   UInt i;
   n_allocator_stacks = 0;
   for (i = 0; i < r->n_sites; i++) allocator_stack_of(r->sites[i], True);
   LH_(json_array_begin)(j, "allocator_stacks");
   for (i = 0; i < n_allocator_stacks; i++) {
      LH_(allocator_frames_write_json)(j, NULL, allocator_stacks[i]);
   }
   LH_(json_array_end)(j);
}

void LH_(site_json_end)(void)
{
   if (allocator_stacks) VG_(free)(allocator_stacks);
   allocator_stacks = NULL;
   n_allocator_stacks = allocator_stacks_size = 0;
}

/*------------------------------------------------------------*/
/*--- The site                                             ---*/
/*------------------------------------------------------------*/

static void put_unless(LH_Json* j, const HChar* key, ULong v, ULong dflt)
{
   if (v != dflt) LH_(json_u64)(j, key, v);
}

/* A histogram from its first non-zero bucket: "<key>_start" (omitted when
   0) and the counts from there to the last non-zero one. */
static void write_histogram(LH_Json* j, const HChar* start_key,
                            const HChar* key, const LH_Histogram* h)
{
   UInt k, first, end = LH_(histogram_end)(h);
   for (first = 0; first < end; first++)
      if (LH_(histogram_at)(h, first) != 0) break;
   if (first == end) return;
   put_unless(j, start_key, first, 0);
   LH_(json_array_begin)(j, key);
   for (k = first; k < end; k++) LH_(json_u64)(j, NULL, LH_(histogram_at)(h, k));
   LH_(json_array_end)(j);
}

/* sites[].notes: kind, the sentence, and the numbers behind it. */
static void write_notes(LH_Json* j, const LH_SiteNotes* notes)
{
   UInt k;
   if (notes->n == 0) return;
   LH_(json_array_begin)(j, "notes");
   for (k = 0; k < notes->n; k++) {
      const LH_SiteNote* n = &notes->note[k];
      LH_(json_object_begin)(j, NULL);
      LH_(json_string)(j, "kind", LH_(note_kind_name)(n->kind));
      LH_(json_string)(j, "text", n->text);
      LH_(json_u64)(j, "bytes", n->bytes);
      if (n->kind == LH_NoteReallocGrowth)
         LH_(json_u64)(j, "reallocs", n->count);
      else if (n->kind == LH_NoteSmallBlocks)
         LH_(json_u64)(j, "blocks", n->count);
      LH_(json_object_end)(j);
   }
   LH_(json_array_end)(j);
}

void LH_(site_json_write)(LH_Json* j, LH_Site* s, const LH_SiteNotes* notes)
{
   const LH_SiteRare* rare = LH_(site_rare)(s);
   const LH_Lifetimes* all = s->out->lifetimes;
   UInt k;
   Int allocator_stack;
   LH_(json_object_begin)(j, NULL);
   LH_(json_u64)(j, "serial", s->serial);
   if (s->out->n_frames > 0) {
      LH_(json_array_begin)(j, "stack");
      for (k = 0; k < s->out->n_frames; k++) LH_(json_u64)(j, NULL, s->out->frame_ids[k]);
      LH_(json_array_end)(j);
   }
   put_unless(j, "name_frame", s->out->name_frame, 0);
   write_label(j, s);
   LH_(match_key_write_json)(j, s);
   if (s->out->runtime_only) LH_(json_bool)(j, "runtime_only", True);
   write_notes(j, notes);
   put_unless(j, "total_blocks", s->total_blocks, 0);
   put_unless(j, "total_bytes", s->total_bytes, 0);
   put_unless(j, "bytes_at_peak", s->bytes_at_peak, 0);
   put_unless(j, "blocks_at_peak", s->blocks_at_peak, 0);
   put_unless(j, "max_bytes", s->max_bytes, s->total_bytes);
   put_unless(j, "max_blocks", s->max_blocks, s->total_blocks);
   put_unless(j, "max_time", s->max_time, s->first_alloc_time);
   put_unless(j, "bytes_at_exit", LH_(site_bytes_at_exit)(s), 0);
   put_unless(j, "blocks_at_exit", LH_(site_blocks_at_exit)(s), 0);
   put_unless(j, "freed_blocks", LH_(site_freed_blocks)(s), 0);

   if (all->sum != 0 || all->min != 0 || all->max != 0
       || LH_(histogram_end)(&all->lifetime_histogram) > 0) {
      LH_(json_object_begin)(j, "lifetime");
      put_unless(j, "sum", all->sum, 0);
      put_unless(j, "min", all->min, all->sum);
      put_unless(j, "max", all->max, all->sum);
      write_histogram(j, "histogram_start", "histogram", &all->lifetime_histogram);
      LH_(json_object_end)(j);
   }
   write_histogram(j, "size_histogram_start", "size_histogram", &all->size_histogram);
   LH_(shapes_write_site_grid)(j, s);

   put_unless(j, "reallocs", rare->reallocs, 0);
   put_unless(j, "realloc_requested_bytes", rare->realloc_requested_bytes, 0);
   put_unless(j, "realloc_bytes_copied", rare->realloc_bytes_copied, 0);
   put_unless(j, "realloc_growth_bytes", rare->realloc_growth_bytes, 0);
   put_unless(j, "first_alloc_time", s->first_alloc_time, 0);
   put_unless(j, "last_alloc_time", s->last_alloc_time, s->first_alloc_time);
   put_unless(j, "allocating_threads", s->allocating_threads, 1);
   put_unless(j, "cross_thread_frees", rare->cross_thread_frees, 0);
   if (rare->zero_size_total || rare->zero_size_at_peak || LH_(site_zero_size_at_exit)(s)) {
      LH_(json_object_begin)(j, "zero_size_blocks");
      put_unless(j, "total", rare->zero_size_total, 0);
      put_unless(j, "at_peak", rare->zero_size_at_peak, 0);
      put_unless(j, "at_exit", LH_(site_zero_size_at_exit)(s), 0);
      LH_(json_object_end)(j);
   }
   allocator_stack = allocator_stack_of(s, False);
   if (allocator_stack >= 0) LH_(json_u64)(j, "allocator_stack", allocator_stack);
   LH_(access_write_site_json)(j, s);
   LH_(site_timeline_write_json)(j, s);
   LH_(json_object_end)(j);
}
