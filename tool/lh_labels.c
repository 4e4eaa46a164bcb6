/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_labels.c: one label per site, unique in the     ---*/
/*--- profile, that every reader shows.                            ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A site's label is its name frame (lh_symbols.c chooses it) as a reader
   recognises it: the function's last path component with one qualifier,
   the type or the module ("ConnState::new", "Session::Session",
   "csv_rows::parse_row"; a closure or a C++ lambda keeps its function:
   "parse_row::{closure#0}", "main::{lambda(int)#1}"), then the source
   position:

      ConnState::new (prealloc.rs:20)

   Demangled names carry what helps a compiler, not a reader: parameter
   lists, generic arguments, return types, "<T as Trait>" and "<impl ...>"
   wrappers; LH_(short_function_name) (lh_function_names.c) keeps the
   path and drops the rest.

   Labels are made unique among all the sites of the profile.  Sites that
   share a label form a group, refined until its labels differ:

     1. callers: the first distance d above the name frame at which the
        group's frames read differently (up to each site's outermost frame
        of the program's code: the runtime's start-up beyond it says
        nothing); each site with a frame there gets
        " via <frame>", and the group splits by the new labels, each part
        refined from d + 1 (one function called from two places);
     2. when the callers read alike all the way, the frames below the name
        frame: the nearest function below it whose name differs (the call
        on that line that allocated: vec::from_elem or Vec::with_capacity
        in one constructor; a std::map node by _Rb_tree::_M_get_node, its
        key by _M_construct_node) gets ", allocated by <frame>"; when no
        name differs, the nearest frame whose text differs; a further step
        down adds " > <frame>", so the label reads as the call path;
     3. when even those read alike (two calls on one line, with identical
        stacks but for the code address), " #1", " #2"... in the profile's
        site order.

   A frame reads as "short name (file:line)", "short name (in object)" or
   "???"; "via" and "allocated by" skip unnamed frames for the next named
   one ("via ??? (in lib.so)" says nothing).  The labels are computed once, at output, after the frame table:
   the summary, the findings' sentences, the profile ("label", see
   docs/format.md) and so every reader (report, diff, viewer) show the same
   text.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"
#include "lh_include.h"
#include "lh_labels.h"

/*------------------------------------------------------------*/
/*--- Unique labels                                        ---*/
/*------------------------------------------------------------*/

static HChar** frame_texts = NULL;    /* by frame id, made on first use */
static HChar** frame_names = NULL;    /* short names, "" when unnamed */
static UInt    n_frame_texts = 0;

static const HChar* frame_name(UInt frame_id)
{
   if (frame_id >= n_frame_texts) return "";
   if (frame_names[frame_id] == NULL) {
      const LH_Frame* f = LH_(frame_at)(frame_id);
      HChar name[512];
      name[0] = 0;
      if (f && f->function) LH_(short_function_name)(f->function, name, sizeof name);
      frame_names[frame_id] = VG_(strdup)("lh.labels.name", name);
   }
   return frame_names[frame_id];
}

/* The allocator's own entry points (malloc, operator new, Rust's
   alloc::alloc and Global): every site passes through them, so they never
   tell two sites apart. */
static Bool is_allocator_primitive(UInt frame_id)
{
   static const HChar* const prefixes[] = {
      "alloc::alloc::", "__rust_", "__rdl_", "__rg_", "operator new",
      "operator delete", NULL
   };
   static const HChar* const exact[] = {
      "malloc", "calloc", "realloc", "memalign", "posix_memalign",
      "aligned_alloc", "valloc", "pvalloc", NULL
   };
   HChar joined[512];
   const LH_Frame* f = LH_(frame_at)(frame_id);
   Int i;
   if (f == NULL || f->function == NULL) return False;
   LH_(function_path_joined)(f->function, joined, sizeof joined);
   for (i = 0; prefixes[i]; i++)
      if (VG_(strncmp)(joined, prefixes[i], VG_(strlen)(prefixes[i])) == 0)
         return True;
   for (i = 0; exact[i]; i++)
      if (VG_(strcmp)(joined, exact[i]) == 0) return True;
   return False;
}

const HChar* LH_(frame_text)(UInt frame_id)
{
   if (frame_id >= n_frame_texts) return "???";
   if (frame_texts[frame_id] == NULL) {
      HChar text[2048];
      LH_(frame_label_text)(frame_id, text, sizeof text);
      frame_texts[frame_id] = VG_(strdup)("lh.labels.text", text);
   }
   return frame_texts[frame_id];
}

/* Per site (by id), the index of its outermost frame that is the
   program's code: the frames further out are the runtime's start-up
   (Rust's std::rt::lang_start and the C main rustc generates, glibc's
   start_thread), the same in every program, and how many of them a stack
   shows depends only on how deep it is (--num-callers): they never tell
   two sites apart. */
static UInt* outermost_program_frame = NULL;
static UInt  n_outermost = 0;

static UInt find_outermost_program_frame(const LH_Site* s)
{
   UInt k, outermost = s->out->name_frame;
   for (k = s->out->name_frame; k < s->out->n_frames; k++) {
      const LH_Frame* f = LH_(frame_at)(s->out->frame_ids[k]);
      if (f && !f->machinery && (f->function || f->object)) outermost = k;
   }
   return outermost;
}

/* The text of the frame at a signed distance from the site's name frame
   (positive: callers, up to the program's outermost frame), NULL past
   either end. */
static const HChar* text_at(const LH_Site* s, Int distance)
{
   Int k = (Int)s->out->name_frame + distance;
   if (s->out->n_frames == 0 || k < 0 || k >= (Int)s->out->n_frames) return NULL;
   if (distance > 0 && s->id < n_outermost
       && k > (Int)outermost_program_frame[s->id])
      return NULL;
   return LH_(frame_text)(s->out->frame_ids[k]);
}

/* The id of the first frame with a name at distance d or further from the
   name frame in the direction of d (callers when step is 1, callees when
   -1), -1 when none: "via ??? (in lib.so)" would say nothing. */
static Int named_frame_from(const LH_Site* s, Int d, Int step)
{
   for (;; d += step) {
      Int k = (Int)s->out->name_frame + d;
      if (s->out->n_frames == 0 || k < 0 || k >= (Int)s->out->n_frames) return -1;
      if (step > 0 && s->id < n_outermost && k > (Int)outermost_program_frame[s->id])
         return -1;
      if (frame_name(s->out->frame_ids[k])[0] != 0
          && VG_(strcmp)(frame_name(s->out->frame_ids[k]), "(below main)") != 0)
         return (Int)s->out->frame_ids[k];
   }
}

/*------------------------------------------------------------*/
/*--- Labels as pieces                                     ---*/
/*------------------------------------------------------------*/

/* A label is kept as its pieces, one UInt each (the kind in the top bits,
   a frame id or a number below), and its text made when it is read: a
   site far down a recursion has a label of a dozen callers, 600 bytes of
   text for 50 bytes of pieces, and a program of such sites would keep
   several megabytes of labels while its profile is written.

   The pieces of all labels form one tree (lh_label_tree.c): a site's
   label is its last piece's node and its number of pieces. */
/* The label's last piece (it has one). */
static inline UInt last_piece(const LH_SiteOutput* o)
{
   return LH_(label_tree_piece)(o->label_node);
}
#define PIECE_KIND_SHIFT 28
#define PIECE_VALUE_MASK ((1u << PIECE_KIND_SHIFT) - 1)
enum {
   PIECE_NAME = 0,       /* LH_(frame_text)(value): the name frame */
   PIECE_UNKNOWN,        /* "???": no name frame */
   PIECE_VIA,            /* " via " LH_(frame_text)(value) */
   PIECE_ALLOCATED_BY,   /* ", allocated by " LH_(frame_text)(value) */
   PIECE_THEN,           /* " > " LH_(frame_text)(value) */
   PIECE_NUMBER          /* " #" value */
};

/* What stands before a frame's text, by piece kind. */
static const HChar* const piece_separator[] = {
   [PIECE_NAME] = "", [PIECE_UNKNOWN] = "", [PIECE_VIA] = " via ",
   [PIECE_ALLOCATED_BY] = ", allocated by ", [PIECE_THEN] = " > "
};

static void label_append(LH_Site* s, UInt kind, UInt value)
{
   LH_SiteOutput* o = s->out;
   tl_assert(value <= PIECE_VALUE_MASK);
   o->label_node = LH_(label_tree_node)(o->n_label_pieces == 0
                                           ? LH_NO_LABEL_NODE : o->label_node,
                                        (kind << PIECE_KIND_SHIFT) | value);
   o->n_label_pieces++;
}

/* Text buffers the labels are made in: two, for a comparison. */
typedef struct {
   HChar* text;
   SizeT  room;
} LabelBuffer;
static LabelBuffer label_buffers[2];

static void buffer_add(LabelBuffer* b, SizeT* used, const HChar* text)
{
   SizeT len = VG_(strlen)(text);
   if (*used + len + 1 > b->room) {
      SizeT room = b->room ? b->room : 256;
      while (*used + len + 1 > room) room *= 2;
      b->text = VG_(realloc)("lh.labels.buffer", b->text, room);
      b->room = room;
   }
   VG_(memcpy)(b->text + *used, text, len + 1);
   *used += len;
}

/* Appends one piece's text. */
static void buffer_add_piece(LabelBuffer* b, SizeT* used, UInt piece)
{
   UInt kind = piece >> PIECE_KIND_SHIFT;
   UInt value = piece & PIECE_VALUE_MASK;
   if (kind == PIECE_UNKNOWN) {
      buffer_add(b, used, "???");
   } else if (kind == PIECE_NUMBER) {
      HChar number[16];
      VG_(sprintf)(number, " #%u", value);
      buffer_add(b, used, number);
   } else {
      tl_assert(kind < sizeof piece_separator / sizeof piece_separator[0]);
      buffer_add(b, used, piece_separator[kind]);
      buffer_add(b, used, LH_(frame_text)(value));
   }
}

/* A label's pieces in order, while its text is made. */
static UInt* label_piece_order = NULL;
static UInt  label_piece_room = 0;

static const HChar* label_text_in(const LH_Site* s, LabelBuffer* b)
{
   SizeT used = 0;
   UInt i, node, n = s->out->n_label_pieces;
   UInt* pieces = label_piece_order;
   if (n > label_piece_room) {
      label_piece_room = 2 * n;
      label_piece_order = VG_(realloc)("lh.labels.piece_order", label_piece_order,
                                       label_piece_room * sizeof(UInt));
      pieces = label_piece_order;
   }
   /* the tree holds them last first */
   for (i = n, node = s->out->label_node; i > 0; i--, node = LH_(label_tree_parent)(node))
      pieces[i - 1] = LH_(label_tree_piece)(node);
   tl_assert(node == LH_NO_LABEL_NODE);
   buffer_add(b, &used, "");
   for (i = 0; i < n; i++)
      buffer_add_piece(b, &used, pieces[i]);
   return b->text;
}

const HChar* LH_(site_label)(const LH_Site* s)
{
   if (s->out == NULL || s->out->n_label_pieces == 0) return NULL;
   return label_text_in(s, &label_buffers[0]);
}

/* Sorting a group by label.

   Every group refine() works on shares one label (its sites' labels read
   alike), and one round of refinement appends at most one piece to each
   site: so the labels of the group differ only in the text of the piece
   the round appended, if any, and comparing those texts orders the group
   exactly as comparing the whole labels would (a shared prefix never
   decides a comparison).  The sites of a group carry few distinct new
   pieces (the frames one distance up, which the group's sites share
   between them), so each distinct piece's text is made and compared
   once, and the sites are sorted by the rank of their piece's text among
   them, then by site id: on a recursion a dozen callers deep, comparing
   the whole labels meant hundreds of bytes per comparison.

   A group is a run of the build's array of sites (label_order), and its
   keys and piece counts are the same run of two arrays beside it
   (label_keys, label_first_new): a round reads its group's piece counts
   and ranks before it refines the group's runs, and each run refined
   writes only its own part, so one array of each serves every depth of
   the refinement, instead of new ones at each depth while the outer ones
   wait (on a recursion a dozen callers deep, twice the sites' keys at the
   output's peak). */
#define NO_NEW_PIECE 0xFFFFFFFFu   /* no kind has all top bits set */

typedef struct {
   UInt     piece;      /* the piece this round appended, or NO_NEW_PIECE */
   UInt     rank;       /* of the piece's text among the group's */
   LH_Site* site;
} LabelKey;

typedef struct {
   UInt   piece;
   UInt   rank;
   HChar* text;
} PieceText;

/* The build's sites, in the order refinement leaves them, and beside each
   its key and its piece count before the current round. */
static LH_Site** label_order = NULL;
static LabelKey* label_keys = NULL;
static UInt*     label_first_new = NULL;

static Int compare_by_piece(const void* pa, const void* pb)
{
   const LabelKey* a = pa;
   const LabelKey* b = pb;
   return a->piece < b->piece ? -1 : a->piece > b->piece ? 1 : 0;
}

static Int compare_piece_texts(const void* pa, const void* pb)
{
   const PieceText* a = *(PieceText* const*)pa;
   const PieceText* b = *(PieceText* const*)pb;
   return VG_(strcmp)(a->text, b->text);
}

static Int compare_by_rank(const void* pa, const void* pb)
{
   const LabelKey* a = pa;
   const LabelKey* b = pb;
   if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
   return LH_(compare_u64)(a->site->id, b->site->id);
}

static Int compare_by_id(const void* pa, const void* pb)
{
   const LH_Site* a = *(LH_Site* const*)pa;
   const LH_Site* b = *(LH_Site* const*)pb;
   return LH_(compare_u64)(a->id, b->id);
}

/* The text of a piece as a label's new end ("" for none). */
static HChar* piece_text(UInt piece)
{
   SizeT used = 0;
   buffer_add(&label_buffers[0], &used, "");
   if (piece != NO_NEW_PIECE)
      buffer_add_piece(&label_buffers[0], &used, piece);
   return VG_(strdup)("lh.labels.piece_text", label_buffers[0].text);
}

/* keys[0, n) of one group: each key's rank, equal ranks for equal texts
   of the new pieces, in the order of the texts. */
static void rank_new_pieces(LabelKey* keys, UInt n)
{
   PieceText*  distinct;      /* in the order of the pieces */
   PieceText** by_text;
   UInt i, k, n_distinct = 0, rank = 0;
   VG_(ssort)(keys, n, sizeof(LabelKey), compare_by_piece);
   for (i = 0; i < n; i++)
      if (i == 0 || keys[i].piece != keys[i - 1].piece) n_distinct++;
   distinct = VG_(malloc)("lh.labels.pieces", n_distinct * sizeof(PieceText));
   by_text = VG_(malloc)("lh.labels.pieces_by_text", n_distinct * sizeof(PieceText*));
   n_distinct = 0;
   for (i = 0; i < n; i++) {
      if (i > 0 && keys[i].piece == keys[i - 1].piece) continue;
      distinct[n_distinct].piece = keys[i].piece;
      distinct[n_distinct].text = piece_text(keys[i].piece);
      by_text[n_distinct] = &distinct[n_distinct];
      n_distinct++;
   }
   VG_(ssort)(by_text, n_distinct, sizeof(PieceText*), compare_piece_texts);
   for (k = 0; k < n_distinct; k++) {
      if (k > 0 && VG_(strcmp)(by_text[k]->text, by_text[k - 1]->text) != 0)
         rank++;
      by_text[k]->rank = rank;
   }
   for (i = 0, k = 0; i < n; i++) {
      while (distinct[k].piece != keys[i].piece) k++;
      keys[i].rank = distinct[k].rank;
   }
   for (k = 0; k < n_distinct; k++) VG_(free)(distinct[k].text);
   VG_(free)(by_text);
   VG_(free)(distinct);
}

/* ", allocated by <frame>" the first time, then " > <frame>": the label
   reads as the call path down from the name frame ("allocated by setlocale
   (setlocale.c:337) > _nl_find_locale (findlocale.c:158)"). */
static void append_callee(LH_Site* s, UInt frame_id)
{
   label_append(s, VG_(strstr)(label_text_in(s, &label_buffers[0]),
                               ", allocated by ")
                   ? PIECE_THEN : PIECE_ALLOCATED_BY,
                frame_id);
}

static void refine(LH_Site** group, UInt n, Int up, Int down);

/* Sorts the group (a run of label_order) by label, then by site id, and
   refines each run of equal labels.  Its run of label_first_new holds each
   site's piece count before this round, whose labels are alike (see
   "Sorting a group by label"). */
static void refine_runs(LH_Site** group, UInt n, Int up, Int down)
{
   LabelKey* keys = label_keys + (group - label_order);
   const UInt* first_new = label_first_new + (group - label_order);
   UInt i, start = 0, end, rank;
   if (n == 0) return;
   for (i = 0; i < n; i++) {
      const LH_SiteOutput* o = group[i]->out;
      tl_assert(o->n_label_pieces <= first_new[i] + 1);
      keys[i].site = group[i];
      keys[i].piece = o->n_label_pieces > first_new[i]
                      ? last_piece(o) : NO_NEW_PIECE;
   }
   rank_new_pieces(keys, n);
   VG_(ssort)(keys, n, sizeof(LabelKey), compare_by_rank);
   for (i = 0; i < n; i++) group[i] = keys[i].site;
   while (start < n) {
      /* the run's end first: refining it rewrites its keys, not those
         after it */
      rank = keys[start].rank;
      for (end = start + 1; end < n; end++)
         if (keys[end].rank != rank) break;
      if (end - start > 1) refine(group + start, end - start, up, down);
      start = end;
   }
}
/* Each site's piece count, before a round appends to them: the group's
   run of label_first_new. */
static void pieces_now(LH_Site** group, UInt n)
{
   UInt* first_new = label_first_new + (group - label_order);
   UInt i;
   for (i = 0; i < n; i++) first_new[i] = group[i]->out->n_label_pieces;
}

/* Whether the group's frames at distance d do not all read alike;
   *any: whether some site has a frame there. */
static Bool differ_at(LH_Site** group, UInt n, Int d, Bool* any)
{
   const HChar* first = text_at(group[0], d);
   Bool differ = False;
   UInt i;
   *any = first != NULL;
   for (i = 1; i < n; i++) {
      const HChar* t = text_at(group[i], d);
      if (t) *any = True;
      if ((t == NULL) != (first == NULL)
          || (t && first && t != first && VG_(strcmp)(t, first) != 0))
         differ = True;
   }
   return differ;
}

/* The short name of the frame e positions below the name frame, "" past
   the innermost frame. */
static const HChar* callee_name(const LH_Site* s, UInt e)
{
   if (e > s->out->name_frame) return "";
   return frame_name(s->out->frame_ids[s->out->name_frame - e]);
}

/* Step 2 of the refinement (see the top of the file): the first distance
   below the name frame where the group's functions differ by name (the
   call on that line that allocated: vec::from_elem or Vec::with_capacity,
   _Rb_tree::_M_get_node or _M_construct_node), skipping the allocator's
   entry points and unnamed frames; 0 when there is none. */
static UInt first_callee_difference(LH_Site** group, UInt n)
{
   UInt e, i, deepest = 0;
   for (i = 0; i < n; i++)
      if (group[i]->out->name_frame > deepest) deepest = group[i]->out->name_frame;
   for (e = 1; e <= deepest; e++) {
      const HChar* first = callee_name(group[0], e);
      Bool differ = False, skip = True;
      for (i = 0; i < n; i++) {
         const HChar* name = callee_name(group[i], e);
         if (name[0] && !is_allocator_primitive(group[i]->out->frame_ids[group[i]->out->name_frame - e]))
            skip = False;
         if (VG_(strcmp)(name, first) != 0) differ = True;
      }
      if (differ && !skip) return e;
   }
   return 0;
}

/* group: n >= 2 sites with one label; up/down: the first caller and
   callee distances not yet compared. */
static void refine(LH_Site** group, UInt n, Int up, Int down)
{
   Bool any;
   UInt i;
   Int d;
   UInt e;
   for (d = up; ; d++) {
      if (differ_at(group, n, d, &any)) {
         pieces_now(group, n);
         for (i = 0; i < n; i++) {
            Int t = named_frame_from(group[i], d, 1);
            if (t >= 0) label_append(group[i], PIECE_VIA, (UInt)t);
         }
         refine_runs(group, n, d + 1, down);
         return;
      }
      if (!any) break;
   }
   if (down == 1 && (e = first_callee_difference(group, n)) > 0) {
      pieces_now(group, n);
      for (i = 0; i < n; i++) {
         if (e <= group[i]->out->name_frame
             && callee_name(group[i], e)[0] != 0)
            append_callee(group[i],
                          group[i]->out->frame_ids[group[i]->out->name_frame - e]);
      }
      refine_runs(group, n, up + (Int)0x40000000, down + 1);
      return;
   }
   for (d = down; ; d++) {
      if (differ_at(group, n, -d, &any)) {
         pieces_now(group, n);
         for (i = 0; i < n; i++) {
            Int t = named_frame_from(group[i], -d, -1);
            if (t >= 0) append_callee(group[i], (UInt)t);
         }
         /* The callers were all compared already. */
         refine_runs(group, n, up + (Int)0x40000000, d + 1);
         return;
      }
      if (!any) break;
   }
   /* Identical stacks as text: numbered in the profile's order (the
      labels read alike, so the order by label is the order by id). */
   VG_(ssort)(group, n, sizeof(LH_Site*), compare_by_id);
   for (i = 0; i < n; i++) label_append(group[i], PIECE_NUMBER, i + 1);
}

/* Forgets the frame texts of the previous build. */
static void frame_texts_free(void)
{
   UInt i;
   for (i = 0; i < n_frame_texts; i++) {
      if (frame_texts[i]) VG_(free)(frame_texts[i]);
      if (frame_names[i]) VG_(free)(frame_names[i]);
   }
   if (frame_texts) VG_(free)(frame_texts);
   if (frame_names) VG_(free)(frame_names);
   frame_texts = NULL;
   frame_names = NULL;
   n_frame_texts = 0;
}

void LH_(labels_build)(LH_Site** sites, UInt n_sites)
{
   UInt i, n_frames = 0;
   frame_texts_free();
   for (i = 0; i < n_sites; i++) {
      UInt k;
      for (k = 0; k < sites[i]->out->n_frames; k++)
         if (sites[i]->out->frame_ids[k] + 1 > n_frames)
            n_frames = sites[i]->out->frame_ids[k] + 1;
   }
   n_frame_texts = n_frames;
   frame_texts = VG_(calloc)("lh.labels.texts", n_frames + 1, sizeof(HChar*));
   frame_names = VG_(calloc)("lh.labels.names", n_frames + 1, sizeof(HChar*));

   LH_(label_tree_reset)();
   for (i = 0; i < n_sites; i++) {
      LH_Site* s = sites[i];
      s->out->n_label_pieces = 0;
      if (s->out->n_frames > 0 && s->out->name_frame < s->out->n_frames)
         label_append(s, PIECE_NAME, s->out->frame_ids[s->out->name_frame]);
      else
         label_append(s, PIECE_UNKNOWN, 0);
   }
   outermost_program_frame = VG_(malloc)("lh.labels.outermost",
                                         (n_sites + 1) * sizeof(UInt));
   n_outermost = n_sites;
   for (i = 0; i < n_sites; i++) {
      tl_assert(sites[i]->id == i);
      outermost_program_frame[i] = find_outermost_program_frame(sites[i]);
   }
   label_order = VG_(malloc)("lh.labels.order", (n_sites + 1) * sizeof(LH_Site*));
   label_keys = VG_(malloc)("lh.labels.keys", (n_sites + 1) * sizeof(LabelKey));
   label_first_new = VG_(calloc)("lh.labels.first_new", n_sites + 1, sizeof(UInt));
   for (i = 0; i < n_sites; i++) label_order[i] = sites[i];
   refine_runs(label_order, n_sites, 1, 1);
   VG_(free)(label_first_new);
   VG_(free)(label_keys);
   VG_(free)(label_order);
   VG_(free)(outermost_program_frame);
   outermost_program_frame = NULL;
   n_outermost = 0;
   label_order = NULL;
   label_keys = NULL;
   label_first_new = NULL;
   LH_(label_tree_built)();
   /* The frame texts stay until the next build: the labels' text is made
      from them each time it is read (LH_(site_label)). */
}
