/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_symbols.c: the frame table: code addresses      ---*/
/*--- named, inline levels expanded, each site's name frame.       ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The allocation stacks themselves are recorded by lh_alloc_stacks.c and
   kept by lh_site_stacks.c; this file names their frames at output.

   1. Symbolising (once, at output).  Each code address expands to one
      frame, or several when functions were inlined there:

         0x4011a6  ->  push_item   (queue.h:40)   inlined = true
                       enqueue     (queue.c:88)   inlined = true
                       producer    (main.c:12)    inlined = false

      Valgrind 3.19 offers no public call that returns the fields of an
      inlined frame separately: VG_(describe_IP) formats them as text.  Its
      XML form is unambiguous (<fn>, <dir>, <file>, <line>, <obj>, each
      XML-escaped), so lifeheap asks for that form, with VG_(clo_xml) set
      only for the duration of the call, and parses the tags.  The output
      phase is single-threaded and prints nothing meanwhile.

      Valgrind 3.19 names an inlined frame by its short DWARF name
      ("new", "with_capacity_in<u8>") and cannot name one whose origin lies
      in another compilation unit ("UnknownInlinedFun"): the addresses with
      such frames are answered again from the DWARF by a libdw helper
      (lh_dwarf_names.c), whose chain, with demangled linkage names,
      replaces Valgrind's.

      Inline information is read only with --read-inline-info=yes, which
      Valgrind turns on by default only for its own memcheck, helgrind,
      drd, massif and dhat.  lifeheap sets the same core default from its
      pre_clo_init (see LH_(symbols_pre_clo_init)); the user's
      --read-inline-info=no still wins, since options are parsed after.

   2. The frame table.  Frames are deduplicated per code address (an
      address always expands to the same frames; the expansions are kept
      across periodic dumps, so each address is symbolised once per run)
      and numbered in order of first use by the sorted sites, so the table
      is deterministic.  The
      name frame of a site is its innermost named frame that is not
      allocator machinery (see is_allocator_frame, choose_name_frame).
      Frames are classed by their name and place (is_library_location),
      then by what the whole run shows: the crates of a Rust program's
      dependencies (class_dependency_crates) and the runtime's start-up
      beyond std::rt::lang_start (class_runtime_entry).  A site none of
      whose frames is the program's is runtime_only, known before the
      sites are sorted (LH_(frames_symbolise)), so the report ranks such
      sites after the program's.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_options.h"
#include "pub_tool_xarray.h"
#include "pub_tool_wordfm.h"
#include "lh_include.h"
#include "lh_dwarf_names.h"
#include "lh_frame_class.h"
#include "lh_labels.h"
#include "lh_match_key.h"

#include "lh_core.h"   /* VG_(clo_read_inline_info) */

/* Turns on reading inline info by default (see 1. above). */
void LH_(symbols_pre_clo_init)(void)
{
   VG_(clo_read_inline_info) = True;
}

/*------------------------------------------------------------*/
/*--- Frame records                                        ---*/
/*------------------------------------------------------------*/


/* The expansion of one code address: its frames, innermost first. */
typedef struct {
   UInt      n;
   LH_Frame* levels;
   DiEpoch   ep;
   Bool      dwarf_asked;     /* the DWARF helper was asked about it */
} LH_IpFrames;

static WordFM* ip_frames = NULL;     /* ip -> LH_IpFrames*, for the whole run */
static XArray* frames = NULL;        /* of LH_Frame*, in first-use order */
static WordFM* frames_by_ip = NULL;  /* ip -> first frame id (this table) */

/* Copies the text between <tag> and </tag> in xml, un-escaping &amp;
   &lt; &gt;; NULL when the tag is absent. */
static HChar* xml_field(const HChar* xml, const HChar* tag)
{
   HChar open[16], close[16];
   const HChar *start, *end;
   HChar *out, *o;
   VG_(sprintf)(open, "<%s>", tag);
   VG_(sprintf)(close, "</%s>", tag);
   start = VG_(strstr)(xml, open);
   if (start == NULL) return NULL;
   start += VG_(strlen)(open);
   end = VG_(strstr)(start, close);
   if (end == NULL) return NULL;
   out = o = VG_(malloc)("lh.symbols.field", end - start + 1);
   while (start < end) {
      if      (VG_(strncmp)(start, "&amp;", 5) == 0) { *o++ = '&'; start += 5; }
      else if (VG_(strncmp)(start, "&lt;", 4) == 0)  { *o++ = '<'; start += 4; }
      else if (VG_(strncmp)(start, "&gt;", 4) == 0)  { *o++ = '>'; start += 4; }
      else *o++ = *start++;
   }
   *o = 0;
   return out;
}

static Bool is_hex_digit(HChar c)
{
   return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* Rust legacy symbols end in "::h" and 16 hex digits (a hash of the crate
   and its dependencies) when the demangler kept it; it differs between
   builds, so it goes. */
static void strip_rust_hash(HChar* name)
{
   SizeT len = VG_(strlen)(name);
   SizeT i;
   if (len < 19) return;
   if (VG_(strncmp)(name + len - 19, "::h", 3) != 0) return;
   for (i = len - 16; i < len; i++)
      if (!is_hex_digit(name[i])) return;
   name[len - 19] = 0;
}

/* A DWARF 5 line table's directory entry 0 is the compilation directory
   itself, the others are relative to it; Valgrind 3.19 joins every
   relative entry to the compilation directory, entry 0 too, so a relative
   compilation directory X (gcc -fdebug-prefix-map, as in Debian's libc:
   "./libio") reads "X/X" for the unit's own files.  Such a directory is X.
   (The DWARF helper reads the same table with libdw: cli/symbolize.c.) */
static void undouble_directory(HChar* dir)
{
   SizeT len, half;
   if (dir == NULL || dir[0] == '/') return;
   len = VG_(strlen)(dir);
   half = len / 2;
   if (len % 2 == 1 && dir[half] == '/'
       && VG_(strncmp)(dir, dir + half + 1, half) == 0)
      dir[half] = 0;
}


/* The debug info may record "library/alloc/src/alloc.rs" as the file name
   and "/rustc/<hash>" as its directory: the profile's file is a plain
   name, so the path part moves to the directory. */
static void split_file_name(LH_Frame* f)
{
   HChar* slash;
   HChar* dir;
   SizeT dir_len;
   if (f->file == NULL) return;
   slash = VG_(strrchr)(f->file, '/');
   if (slash == NULL) return;
   *slash = 0;                             /* f->file is now the path part */
   dir_len = (f->directory ? VG_(strlen)(f->directory) + 1 : 0)
             + VG_(strlen)(f->file) + 1;
   dir = VG_(malloc)("lh.symbols.dir", dir_len);
   if (f->directory && f->file[0] != '/')
      VG_(sprintf)(dir, "%s/%s", f->directory, f->file);
   else
      VG_(strcpy)(dir, f->file[0] ? f->file : "/");
   {
      HChar* base = VG_(strdup)("lh.symbols.file", slash + 1);
      VG_(free)(f->file);
      f->file = base;
   }
   if (f->directory) VG_(free)(f->directory);
   f->directory = dir;
}

static void classify_frame(LH_Frame* f)
{
   f->machinery = LH_(is_allocator_frame)(f->function)
                  || LH_(is_library_location)(f->file, f->directory, f->object);
}

/* Valgrind's expansion of ip: one frame per inline level, innermost
   first. */
static LH_IpFrames* symbolise_ip(DiEpoch ep, Addr ip)
{
   InlIPCursor* iipc = VG_(new_IIPC)(ep, ip);
   Bool saved_xml = VG_(clo_xml);
   XArray* levels = VG_(newXA)(VG_(malloc), "lh.symbols.levels", VG_(free),
                               sizeof(LH_Frame));
   LH_IpFrames* expansion = VG_(malloc)("lh.symbols.ip", sizeof(LH_IpFrames));
   UInt k;
   do {
      LH_Frame f;
      const HChar* xml;
      HChar* line;
      VG_(clo_xml) = True;
      xml = VG_(describe_IP)(ep, ip, iipc);
      VG_(clo_xml) = saved_xml;
      VG_(memset)(&f, 0, sizeof(f));
      f.address   = ip;
      f.function  = xml_field(xml, "fn");
      f.file      = xml_field(xml, "file");
      f.directory = xml_field(xml, "dir");
      undouble_directory(f.directory);
      f.object    = xml_field(xml, "obj");
      line        = xml_field(xml, "line");
      if (line) { f.line = (UInt)VG_(strtoull10)(line, NULL); VG_(free)(line); }
      if (f.function) strip_rust_hash(f.function);
      if (f.file && VG_(strcmp)(f.file, "???") == 0) {
         VG_(free)(f.file); f.file = NULL; f.line = 0;
      }
      split_file_name(&f);
      VG_(addToXA)(levels, &f);
   } while (VG_(next_IIPC)(iipc));
   VG_(delete_IIPC)(iipc);

   expansion->n = (UInt)VG_(sizeXA)(levels);
   expansion->levels = VG_(malloc)("lh.symbols.ip_levels",
                                   expansion->n * sizeof(LH_Frame));
   VG_(memcpy)(expansion->levels, VG_(indexXA)(levels, 0),
               expansion->n * sizeof(LH_Frame));
   VG_(deleteXA)(levels);
   expansion->ep = ep;
   expansion->dwarf_asked = False;
   /* All levels but the last (the function really at ip) are inlined. */
   for (k = 0; k < expansion->n; k++) {
      expansion->levels[k].inlined = k + 1 < expansion->n;
      classify_frame(&expansion->levels[k]);
   }
   tl_assert(expansion->n < 0x10000);
   return expansion;
}

/* Whether the DWARF helper can say more about ip than Valgrind did: an
   inlined level (named by its short DWARF name) or a level without a
   name. */
static Bool wants_dwarf_names(const LH_IpFrames* e)
{
   UInt k;
   if (e->n > 1) return True;
   for (k = 0; k < e->n; k++)
      if (e->levels[k].function == NULL
          || VG_(strcmp)(e->levels[k].function, "UnknownInlinedFun") == 0)
         return True;
   return False;
}

static void free_frame_fields(LH_Frame* f)
{
   if (f->function)  VG_(free)(f->function);
   if (f->file)      VG_(free)(f->file);
   if (f->directory) VG_(free)(f->directory);
   if (f->object)    VG_(free)(f->object);
}

/* Replaces Valgrind's expansion of an address by the DWARF's chain.  The
   object is Valgrind's, and so is the outermost level's name when Valgrind
   has one. */
static void replace_expansion(LH_IpFrames* e, const LH_DwarfQuery* q)
{
   LH_Frame* levels = VG_(malloc)("lh.symbols.ip_levels",
                                  q->n_levels * sizeof(LH_Frame));
   const LH_Frame* old_outer = &e->levels[e->n - 1];
   UInt k;
   for (k = 0; k < q->n_levels; k++) {
      LH_Frame* f = &levels[k];
      const LH_DwarfLevel* d = &q->levels[k];
      Bool outermost = k + 1 == q->n_levels;
      VG_(memset)(f, 0, sizeof(*f));
      f->address = e->levels[0].address;
      f->inlined = !outermost;
      /* The function really at ip keeps Valgrind's (symbol table) name,
         as in every other Valgrind tool's output (DHAT's too), unless
         Valgrind has none. */
      if (outermost && old_outer->function
          && VG_(strcmp)(old_outer->function, "UnknownInlinedFun") != 0)
         f->function = VG_(strdup)("lh.symbols.fn", old_outer->function);
      else if (d->function)
         f->function = VG_(strdup)("lh.symbols.fn", d->function);
      if (f->function) strip_rust_hash(f->function);
      if (d->path) {
         f->file = VG_(strdup)("lh.symbols.file", d->path);
         f->line = d->line;
         split_file_name(f);
      }
      if (old_outer->object)
         f->object = VG_(strdup)("lh.symbols.obj", old_outer->object);
      classify_frame(f);
   }
   for (k = 0; k < e->n; k++) free_frame_fields(&e->levels[k]);
   VG_(free)(e->levels);
   e->levels = levels;
   e->n = q->n_levels;
}

/*------------------------------------------------------------*/
/*--- Building and writing the table                       ---*/
/*------------------------------------------------------------*/

typedef struct {
   XArray* ids;      /* of UInt: the site's frame ids */
   XArray* pending;  /* of Addr: addresses seen for the first time */
} LH_StackWalk;

/* Pass 1: Valgrind's expansion of every address not seen before. */
static void note_ip(UInt n, DiEpoch ep, Addr ip, void* opaque)
{
   LH_StackWalk* walk = opaque;
   UWord key, value;
   if (VG_(lookupFM)(ip_frames, &key, &value, ip)) return;
   VG_(addToFM)(ip_frames, ip, (UWord)symbolise_ip(ep, ip));
   VG_(addToXA)(walk->pending, &ip);
}

/* Pass 2: the DWARF's chains for the new addresses that want them, with
   one run of the helper. */
static void improve_from_dwarf(XArray* pending)
{
   Word i, n = VG_(sizeXA)(pending);
   LH_DwarfQuery* queries;
   LH_IpFrames** asked;
   UInt n_queries = 0, q;
   if (n == 0 || !VG_(clo_read_inline_info)) return;
   queries = VG_(malloc)("lh.symbols.queries", n * sizeof(LH_DwarfQuery));
   asked = VG_(malloc)("lh.symbols.asked", n * sizeof(LH_IpFrames*));
   for (i = 0; i < n; i++) {
      Addr ip = *(Addr*)VG_(indexXA)(pending, i);
      UWord key, value;
      LH_IpFrames* e;
      VG_(lookupFM)(ip_frames, &key, &value, ip);
      e = (LH_IpFrames*)value;
      if (e->dwarf_asked || !wants_dwarf_names(e)) continue;
      e->dwarf_asked = True;
      queries[n_queries].ip = ip;
      queries[n_queries].ep = e->ep;
      asked[n_queries] = e;
      n_queries++;
   }
   LH_(dwarf_names_resolve)(queries, n_queries);
   for (q = 0; q < n_queries; q++) {
      if (queries[q].n_levels > 0) replace_expansion(asked[q], &queries[q]);
      LH_(dwarf_query_free)(&queries[q]);
   }
   VG_(free)(queries);
   VG_(free)(asked);
}

/* Pass 3: numbering in first-use order. */
static void add_ip_frames(UInt n, DiEpoch ep, Addr ip, void* opaque)
{
   LH_StackWalk* walk = opaque;
   UWord key, value;
   LH_IpFrames* e;
   UInt first, k;
   VG_(lookupFM)(ip_frames, &key, &value, ip);
   e = (LH_IpFrames*)value;
   if (VG_(lookupFM)(frames_by_ip, &key, &value, ip)) {
      first = (UInt)value;
   } else {
      first = (UInt)VG_(sizeXA)(frames);
      for (k = 0; k < e->n; k++) {
         LH_Frame* f = &e->levels[k];
         VG_(addToXA)(frames, &f);
      }
      VG_(addToFM)(frames_by_ip, ip, first);
   }
   for (k = 0; k < e->n; k++) {
      UInt id = first + k;
      VG_(addToXA)(walk->ids, &id);
   }
}

static LH_Frame* frame_by_id(UInt id)
{
   return *(LH_Frame**)VG_(indexXA)(frames, id);
}

/* A frame with neither an object nor a function is no code at all: the
   unwinder ran past the outermost real frame (_start) into whatever the
   stack holds.  Such a frame never stands for the user's code. */
static Bool is_garbage_frame(const LH_Frame* f)
{
   return f->function == NULL && f->object == NULL;
}

/* Code the user owns: neither allocator nor library code, nor garbage. */
static Bool is_user_frame(const LH_Frame* f)
{
   return !f->machinery && !is_garbage_frame(f);
}

/* The frames of one site's stack, innermost first, straight from the
   expansions (before the frame table numbers them). */
static void collect_site_frames(UInt n, DiEpoch ep, Addr ip, void* opaque)
{
   XArray* levels = opaque;
   UWord key, value;
   LH_IpFrames* e;
   UInt k;
   if (!VG_(lookupFM)(ip_frames, &key, &value, ip)) return;
   e = (LH_IpFrames*)value;
   for (k = 0; k < e->n; k++) {
      LH_Frame* f = &e->levels[k];
      VG_(addToXA)(levels, &f);
   }
}

/* Whether f is the Rust runtime's start routine, std::rt::lang_start
   (generic, inlined into the C main rustc generates) or
   std::rt::lang_start_internal: the program's own main runs inside it,
   and what calls it is start-up code the compiler generated. */
static Bool is_runtime_entry(const LH_Frame* f)
{
   return f->function != NULL
          && VG_(strncmp)(f->function, "std::rt::lang_start", 19) == 0;
}

/* Frames outer to the runtime's start routine (rustc's generated C main,
   which has no source line) are the runtime's start-up code, as
   libc's __libc_start_main is: machinery, whatever their name.  An
   address's frames are the same in every stack (the C main calls the
   start routine from one place), so the class stays with the address. */
static void class_runtime_entry(XArray* levels)
{
   Word k, n = VG_(sizeXA)(levels), entry = -1;
   for (k = 0; k < n; k++)
      if (is_runtime_entry(*(LH_Frame**)VG_(indexXA)(levels, k))) entry = k;
   for (k = entry + 1; entry >= 0 && k < n; k++)
      (*(LH_Frame**)VG_(indexXA)(levels, k))->machinery = True;
}

/* A site none of whose frames is the user's code (a runtime's own
   start-up pool, allocated before main; or below _start): no finding. */
static Bool only_library_frames(XArray* levels)
{
   Word k, n = VG_(sizeXA)(levels);
   for (k = 0; k < n; k++)
      if (is_user_frame(*(LH_Frame**)VG_(indexXA)(levels, k))) return False;
   return True;
}

/* The sites' frame lists, made anew for every site by each build (it is
   given every site), are carved one after the other from chunks that the
   next build frees: no arena header and red zones for each of thousands
   of short lists. */
typedef struct FrameListChunk {
   struct FrameListChunk* next;
   UInt ids[];
} FrameListChunk;
#define FRAME_LIST_CHUNK_IDS 16384
static FrameListChunk* frame_list_chunks = NULL;
static UInt* frame_list_next = NULL;
static SizeT frame_list_left = 0;

static void frame_lists_reset(void)
{
   while (frame_list_chunks != NULL) {
      FrameListChunk* next = frame_list_chunks->next;
      VG_(free)(frame_list_chunks);
      frame_list_chunks = next;
   }
   frame_list_next = NULL;
   frame_list_left = 0;
}

static UInt* frame_list_carve(SizeT n)
{
   UInt* list;
   if (n > frame_list_left) {
      SizeT room = n > FRAME_LIST_CHUNK_IDS ? n : FRAME_LIST_CHUNK_IDS;
      FrameListChunk* chunk = VG_(malloc)("lh.symbols.site_frames",
                                          sizeof(FrameListChunk) + room * sizeof(UInt));
      chunk->next = frame_list_chunks;
      frame_list_chunks = chunk;
      frame_list_next = chunk->ids;
      frame_list_left = room;
   }
   list = frame_list_next;
   frame_list_next += n;
   frame_list_left -= n;
   return list;
}

/* A frame without a function name (a stripped library's static
   function: "??? (in libsqlite3.so)") cannot tell two sites apart nor lead
   anyone to the code, so the innermost named frame that is not machinery
   names the site when there is one; then the innermost frame that is not
   machinery, named or not.

   A runtime-only site (no frame is the program's) is named by the
   runtime's function that asked for the memory: the innermost frame that
   is a function of its own (not inlined: the symbol table's name, as a
   backtrace shows it) and not an allocator function, named, or unnamed
   in its object ("??? (in libstdc++.so.6)": the library without symbols
   is what a reader needs to know); inlined frames of a runtime are its
   containers' internals (btree nodes, Box::new_uninit). */
static UInt choose_name_frame(const LH_Site* site)
{
   UInt k;
   if (site->out->runtime_only) {
      for (k = 0; k < site->out->n_frames; k++) {
         LH_Frame* f = frame_by_id(site->out->frame_ids[k]);
         if (!f->inlined && !is_garbage_frame(f)
             && !(f->function && LH_(is_allocator_function)(f->function)))
            return k;
      }
   }
   for (k = 0; k < site->out->n_frames; k++) {
      LH_Frame* f = frame_by_id(site->out->frame_ids[k]);
      if (!f->machinery && f->function) return k;
   }
   for (k = 0; k < site->out->n_frames; k++) {
      LH_Frame* f = frame_by_id(site->out->frame_ids[k]);
      if (is_user_frame(f)) return k;
   }
   for (k = 0; k < site->out->n_frames; k++) {
      LH_Frame* f = frame_by_id(site->out->frame_ids[k]);
      if (f->function && !LH_(is_allocator_frame)(f->function)) return k;
   }
   return 0;
}

static Bool crate_listed(XArray* crates, const HChar* crate)
{
   Word k;
   for (k = 0; k < VG_(sizeXA)(crates); k++)
      if (VG_(strcmp)(*(HChar**)VG_(indexXA)(crates, k), crate) == 0) return True;
   return False;
}

/* A dependency's code is library code wherever it shows: a crate with a
   frame in cargo's registry (is_library_location) is one, and so are all
   its functions, also those whose frames lack the directory (an inlined
   frame whose line table names "src/compile.rs" alone), or that the
   compiler instantiated in the program's own crate (generic functions of
   the dependency).  Judged over every address named so far: the class
   depends on the set of crates, not on the order they were seen in. */
static void class_dependency_crates(void)
{
   XArray* crates = VG_(newXA)(VG_(malloc), "lh.symbols.crates", VG_(free),
                               sizeof(HChar*));
   HChar crate[128];
   UWord key, value;
   Word k;
   UInt level;
   VG_(initIterFM)(ip_frames);
   while (VG_(nextIterFM)(ip_frames, &key, &value)) {
      LH_IpFrames* e = (LH_IpFrames*)value;
      for (level = 0; level < e->n; level++) {
         LH_Frame* f = &e->levels[level];
         if (f->directory && LH_(is_dependency_directory)(f->directory)
             && LH_(rust_crate_of)(f->function, crate, sizeof crate)
             && !crate_listed(crates, crate)) {
            HChar* copy = VG_(strdup)("lh.symbols.crate", crate);
            VG_(addToXA)(crates, &copy);
         }
      }
   }
   VG_(doneIterFM)(ip_frames);
   if (VG_(sizeXA)(crates) > 0) {
      VG_(initIterFM)(ip_frames);
      while (VG_(nextIterFM)(ip_frames, &key, &value)) {
         LH_IpFrames* e = (LH_IpFrames*)value;
         for (level = 0; level < e->n; level++) {
            LH_Frame* f = &e->levels[level];
            if (!f->machinery && LH_(rust_crate_of)(f->function, crate, sizeof crate)
                && crate_listed(crates, crate))
               f->machinery = True;
         }
      }
      VG_(doneIterFM)(ip_frames);
   }
   for (k = 0; k < VG_(sizeXA)(crates); k++)
      VG_(free)(*(HChar**)VG_(indexXA)(crates, k));
   VG_(deleteXA)(crates);
}

void LH_(frames_symbolise)(LH_Site** sites, UInt n_sites)
{
   UInt i;
   LH_StackWalk walk;
   XArray* levels;
   if (ip_frames == NULL)
      ip_frames = VG_(newFM)(VG_(malloc), "lh.symbols.ip_frames", VG_(free), NULL);
   walk.pending = VG_(newXA)(VG_(malloc), "lh.symbols.pending", VG_(free),
                             sizeof(Addr));
   for (i = 0; i < n_sites; i++)
      LH_(site_stack_apply)(sites[i], note_ip, &walk);
   improve_from_dwarf(walk.pending);
   VG_(deleteXA)(walk.pending);
   class_dependency_crates();

   /* The runtime's entry first, for every site: whether a site is
      runtime-only reads the classes of all its frames. */
   levels = VG_(newXA)(VG_(malloc), "lh.symbols.site_levels", VG_(free),
                       sizeof(LH_Frame*));
   for (i = 0; i < n_sites; i++) {
      VG_(dropTailXA)(levels, VG_(sizeXA)(levels));
      LH_(site_stack_apply)(sites[i], collect_site_frames, levels);
      class_runtime_entry(levels);
   }
   for (i = 0; i < n_sites; i++) {
      VG_(dropTailXA)(levels, VG_(sizeXA)(levels));
      LH_(site_stack_apply)(sites[i], collect_site_frames, levels);
      sites[i]->out->runtime_only = only_library_frames(levels);
   }
   VG_(deleteXA)(levels);
}

void LH_(frames_build)(LH_Site** sites, UInt n_sites)
{
   UInt i;
   LH_StackWalk walk;
   tl_assert(ip_frames != NULL);
   if (frames == NULL) {
      frames = VG_(newXA)(VG_(malloc), "lh.symbols.frames", VG_(free),
                          sizeof(LH_Frame*));
      frames_by_ip = VG_(newFM)(VG_(malloc), "lh.symbols.by_ip", VG_(free),
                                NULL);
   }
   frame_lists_reset();
   for (i = 0; i < n_sites; i++) {
      LH_Site* site = sites[i];
      UInt k;
      walk.ids = VG_(newXA)(VG_(malloc), "lh.symbols.walk", VG_(free),
                            sizeof(UInt));
      LH_(site_stack_apply)(site, add_ip_frames, &walk);

      site->out->n_frames  = (UInt)VG_(sizeXA)(walk.ids);
      site->out->frame_ids = frame_list_carve(site->out->n_frames + 1);
      for (k = 0; k < site->out->n_frames; k++)
         site->out->frame_ids[k] = *(UInt*)VG_(indexXA)(walk.ids, k);
      VG_(deleteXA)(walk.ids);

      site->out->name_frame = choose_name_frame(site);
   }
}

/* Frames are numbered in first-use order by the sites in the order given
   to frames_build; a later dump renumbers from scratch (the expansions
   themselves are kept). */
void LH_(frames_reset)(void)
{
   if (frames == NULL) return;
   VG_(deleteXA)(frames);
   VG_(deleteFM)(frames_by_ip, NULL, NULL);
   frames = NULL;
   frames_by_ip = NULL;
}

const LH_Frame* LH_(frame_at)(UInt frame_id)
{
   if (frames == NULL || frame_id >= VG_(sizeXA)(frames)) return NULL;
   return frame_by_id(frame_id);
}

void LH_(frames_write_json)(LH_Json* j)
{
   Word i, n = frames ? VG_(sizeXA)(frames) : 0;
   LH_(json_array_begin)(j, "frames");
   for (i = 0; i < n; i++) {
      LH_Frame* f = frame_by_id(i);
      HChar address[32];
      static HChar text[2048];    /* not on the small stack */
      LH_(json_object_begin)(j, NULL);
      LH_(json_string)(j, "function", f->function);
      LH_(json_string)(j, "file", f->file);
      LH_(json_string)(j, "directory", f->directory);
      if (f->line) LH_(json_u64)(j, "line", f->line);
      else         LH_(json_null)(j, "line");
      LH_(json_string)(j, "object", f->object);
      VG_(sprintf)(address, "0x%lx", f->address);
      LH_(json_string)(j, "address", address);
      LH_(json_bool)(j, "inlined", f->inlined);
      LH_(json_bool)(j, "library", f->machinery);
      /* What the sites' labels and keys are joined from (lh_site_json.c,
         lh_match_key.c). */
      LH_(frame_label_text)(i, text, sizeof text);
      LH_(json_string)(j, "text", text);
      if (LH_(frame_match_text)(i, text, sizeof text))
         LH_(json_string)(j, "match_text", text);
      LH_(json_object_end)(j);
   }
   LH_(json_array_end)(j);
}

void LH_(frame_name_place)(UInt frame_id, const HChar* name, HChar* buf,
                           SizeT buf_size)
{
   const LH_Frame* f = LH_(frame_at)(frame_id);
   if (f == NULL)
      VG_(snprintf)(buf, buf_size, "???");
   else if (f->file && f->line)
      VG_(snprintf)(buf, buf_size, "%s (%s:%u)", name, f->file, f->line);
   else if (f->object)
      VG_(snprintf)(buf, buf_size, "%s (in %s)", name, f->object);
   else
      VG_(snprintf)(buf, buf_size, "%s", name);
}

void LH_(frame_describe)(UInt frame_id, HChar* buf, SizeT buf_size)
{
   const LH_Frame* f = LH_(frame_at)(frame_id);
   LH_(frame_name_place)(frame_id, f && f->function ? f->function : "???",
                         buf, buf_size);
}
