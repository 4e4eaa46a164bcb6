/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_match_key.c: a site's identity across two runs  ---*/
/*--- (sites[].match_key and match_lines in the profile).          ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Two builds of a program move code addresses and shift line numbers, so
   readers that compare two runs (`lifeheap diff`, the viewer's diff mode)
   pair sites by a key the tool writes once per site: the site's stack as
   function paths and source files, without what changes between two
   builds of the same source (another optimisation level, codegen-units,
   debug info level):

     - generic arguments, parameter lists and return types, which depend
       on the mangling scheme and on inlining (LH_(function_path));
     - frames without a name (no symbol, Valgrind's "UnknownInlinedFun");
     - how deep the allocator's and the libraries' code is inlined (frames
       marked "library" in the profile): of each run of library frames
       under the program's code only the outermost stays, the library
       function the program called (Vec::with_capacity,
       std::vector::push_back); the runtime's start-up frames above the
       program's outermost frame go.

   A stack of library code only (a runtime's own start-up allocation) keeps
   every named frame.

   The key is one line per kept frame, innermost first: the function path,
   a tab, the file (the object when there is no file, else nothing), a
   newline.  match_lines holds the kept frames' line numbers (0 unknown),
   which order the sites that share a key (docs/format.md, "Site identity
   across runs", says how readers pair them).  The profile carries a
   frame's line ("match_text" in the frame table) once and, per site, the
   stack positions kept ("match_frames", omitted when every position is),
   from which readers join the key and its lines.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "lh_include.h"
#include "lh_labels.h"
#include "lh_json.h"
#include "lh_match_key.h"

static Bool named(const LH_Frame* f)
{
   return f != NULL && f->function != NULL
          && VG_(strcmp)(f->function, "UnknownInlinedFun") != 0;
}

static Bool program_frame(const LH_Frame* f)
{
   return named(f) && !f->machinery;
}

/* Whether stack position i is part of the key (see the top). */
static Bool kept(const LH_Site* s, UInt i, UInt outermost)
{
   const LH_Frame* f = LH_(frame_at)(s->frame_ids[i]);
   if (!named(f)) return False;
   if (outermost < s->n_frames) {
      if (i > outermost) return False;
      if (f->machinery
          && !program_frame(LH_(frame_at)(s->frame_ids[i + 1])))
         return False;
   }
   return True;
}

static UInt outermost_program_frame(const LH_Site* s)
{
   UInt i, outermost = s->n_frames;
   for (i = 0; i < s->n_frames; i++)
      if (program_frame(LH_(frame_at)(s->frame_ids[i]))) outermost = i;
   return outermost;
}

Bool LH_(frame_match_text)(UInt frame_id, HChar* out, SizeT size)
{
   const LH_Frame* f = LH_(frame_at)(frame_id);
   HChar path[1024];
   if (!named(f)) return False;
   LH_(function_path)(f->function, path, sizeof path);
   VG_(snprintf)(out, size, "%s\t%s", path,
                 f->file ? f->file : f->object ? f->object : "");
   return True;
}

/* The key itself is not written: a reader joins the kept frames'
   "match_text" (frame table) with newlines, and their lines.  What is
   written is which stack positions are kept, and only when that is not
   every position (the default: a stack of the program's named frames). */
void LH_(match_key_write_json)(LH_Json* j, const LH_Site* s)
{
   UInt i, outermost = outermost_program_frame(s);
   Bool every = True;
   for (i = 0; i < s->n_frames; i++)
      if (!kept(s, i, outermost)) every = False;
   if (every) return;
   LH_(json_array_begin)(j, "match_frames");
   for (i = 0; i < s->n_frames; i++)
      if (kept(s, i, outermost)) LH_(json_u64)(j, NULL, i);
   LH_(json_array_end)(j);
}
