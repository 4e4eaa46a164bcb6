/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_alloc_stacks.c: an allocation's stack, without  ---*/
/*--- the preload's own frames.                                    ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Every allocation's stack is unwound here (LH_(record_allocation_stack),
   called by lh_heap.c and the client requests of custom allocators).  The
   unwind starts inside lifeheap's malloc replacement
   (vgpreload_lifeheap-*.so): malloc itself, and for realloc(NULL, n),
   valloc or posix_memalign a second replacement function that forwards
   to malloc/memalign.  Those leading frames are dropped, so a stack
   starts at the program's call into the allocator; the dropped ones are
   kept for the site that the stack makes (its "allocator_frames").  The
   preload's text range is found once and cached, so the check costs two
   compares per frame; the same range, narrowed to the preload's string
   and memory functions, tells the instrumentation which code the clock
   does not count (LH_(in_replacement_code)).

   Each frame after the first costs Valgrind one CFI step, so the unwind
   asks first for one frame fewer than the most it may need
   (--num-callers + 1) and goes to the full depth only when two preload
   frames lead.  The stack found is looked up as a site by
   lh_site_stacks.c; its frames are named at output by lh_symbols.c.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_options.h"
#include "lh_include.h"
#include "lh_core.h"   /* the preload's symbols (VG_(DebugInfo_syms_*)) */
/*------------------------------------------------------------*/
/*--- Recording allocation stacks                          ---*/
/*------------------------------------------------------------*/

/* Deepest --num-callers plus the replacement's own frames (at most 2). */
#define LH_MAX_UNWIND (500 + LH_ALLOCATOR_FRAMES)

static Addr  preload_text_start = 0;
static Addr  preload_text_end   = 0;     /* exclusive; 0 = not found yet */
/* The code of the preload's string and memory functions (lh_replace_*.c),
   between the addresses of two marker functions (lh_replace_begin.c);
   empty if the preload lacks them. */
static Addr  replacement_code_start = 0;
static Addr  replacement_code_end   = 0;

/* The markers' addresses, from the preload's symbols (its dynamic symbol
   table: the preload is installed stripped). */
static void find_replacement_code(const DebugInfo* di)
{
   Int i, n = VG_(DebugInfo_syms_howmany)(di);
   for (i = 0; i < n; i++) {
      LH_SymAVMAs avmas;
      const HChar* name;
      const HChar** other_names;
      Bool is_text, is_ifunc, is_global;
      VG_(DebugInfo_syms_getidx)(di, i, &avmas, NULL, &name, &other_names,
                                 &is_text, &is_ifunc, &is_global);
      if (!is_text) continue;
      if (VG_(strcmp)(name, "lh_replace_code_begin") == 0)
         replacement_code_start = avmas.main;
      else if (VG_(strcmp)(name, "lh_replace_code_end") == 0)
         replacement_code_end = avmas.main;
   }
   if (replacement_code_start == 0 || replacement_code_end < replacement_code_start)
      replacement_code_start = replacement_code_end = 0;
}

/* Finds the preload's text the first time an address may lie in it. */
static Bool in_preload_first(Addr ip)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   DebugInfo* di = VG_(find_DebugInfo)(ep, ip);
   const HChar* file = di ? VG_(DebugInfo_get_filename)(di) : NULL;
   if (file && VG_(strstr)(file, "vgpreload_lifeheap")) {
      preload_text_start = VG_(DebugInfo_get_text_avma)(di);
      preload_text_end   = preload_text_start + VG_(DebugInfo_get_text_size)(di);
      find_replacement_code(di);
      return ip >= preload_text_start && ip < preload_text_end;
   }
   return False;
}

/* Asked for the first frames of every allocation's stack: two compares,
   inline, once the preload is known. */
static inline Bool in_preload(Addr ip)
{
   if (UNLIKELY(preload_text_end == 0)) return in_preload_first(ip);
   return ip >= preload_text_start && ip < preload_text_end;
}

/* Code of the preload's string and memory functions (lh_replace_*.c),
   whose instructions the clock does not count (lh_instrument.c).  Asked
   at translation time for each instruction: two compares once the
   preload is known. */
Bool LH_(in_replacement_code)(Addr ip)
{
   if (!in_preload(ip)) return False;
   return ip >= replacement_code_start && ip < replacement_code_end;
}

/* The preload frames the last recorded stack dropped (innermost first),
   for LH_(site_take_allocator_frames). */
static Addr last_allocator_ips[LH_ALLOCATOR_FRAMES];
static UInt last_allocator_frames = 0;

/* Valgrind's --merge-recursive-frames (a core option, not in the tools'
   headers): merging rewrites frames already found, so a shorter unwind is
   then no prefix of a longer one. */
extern Int VG_(clo_merge_recursive_frames);

/* What the allocation stacks' unwinding asked of Valgrind, for
   --stats=yes (LH_(stacks_print_stats)). */
static struct {
   ULong stacks;          /* allocation stacks recorded */
   ULong frames_asked;    /* the sum of the unwinds' frame limits */
   ULong again;           /* stacks unwound a second time, deeper */
} unwind_stats;

void LH_(stacks_print_stats)(void)
{
   VG_(dmsg)("lifeheap: allocation stacks: %'llu unwound, %'llu frames "
             "asked for, %'llu unwound again to full depth\n",
             unwind_stats.stacks, unwind_stats.frames_asked,
             unwind_stats.again);
}

/* Leading frames of ips[0 .. n) in the preload. */
static UInt preload_frames(const Addr* ips, UInt n)
{
   UInt skip = 0;
   while (skip < n && in_preload(ips[skip])) skip++;
   return skip;
}

LH_UnwoundStack LH_(record_allocation_stack)(ThreadId tid)
{
   LH_UnwoundStack stack;
   static Addr ips[LH_MAX_UNWIND];
   /* The preload's own frames (malloc, or a second replacement that
      forwards to it: at most LH_ALLOCATOR_FRAMES) and --num-callers of
      the program's: no deeper, since unwinding costs per frame (one
      VG_(use_CF_info) each after the first).  Nearly every call has one
      preload frame, so the unwind asks first for --num-callers + 1
      frames, one step less than the most it may need; only when that
      unwind filled up with two or more preload frames at its start is
      the stack unwound again to the full depth.  The answer is the same
      either way: Valgrind's unwinder finds frames one after another, so
      a shorter unwind is a prefix of the longer one (not so when
      recursive frames are merged: then the full depth at once). */
   UInt want = VG_(clo_backtrace_size) + LH_ALLOCATOR_FRAMES;
   UInt n = 0, skip = 0, k;
   Bool unwound = False;
   if (want > LH_MAX_UNWIND) want = LH_MAX_UNWIND;
   unwind_stats.stacks++;
   if (want == (UInt)VG_(clo_backtrace_size) + LH_ALLOCATOR_FRAMES
       && VG_(clo_merge_recursive_frames) == 0) {
      UInt first = want - (LH_ALLOCATOR_FRAMES - 1);
      n = VG_(get_StackTrace)(tid, ips, first, NULL, NULL, 0);
      unwind_stats.frames_asked += first;
      skip = preload_frames(ips, n);
      /* fewer frames than asked: the stack ended, as the longer unwind's
         would; at most one preload frame: the rest holds --num-callers */
      unwound = n < first || skip < LH_ALLOCATOR_FRAMES;
      if (!unwound) unwind_stats.again++;
   }
   if (!unwound) {
      n = VG_(get_StackTrace)(tid, ips, want, NULL, NULL, 0);
      unwind_stats.frames_asked += want;
      skip = preload_frames(ips, n);
   }
   if (skip == n) skip = 0;       /* all inside the preload: keep them */
   last_allocator_frames = skip < LH_ALLOCATOR_FRAMES ? skip : LH_ALLOCATOR_FRAMES;
   for (k = 0; k < last_allocator_frames; k++) last_allocator_ips[k] = ips[k];
   n -= skip;
   if (n > (UInt)VG_(clo_backtrace_size)) n = VG_(clo_backtrace_size);
   stack.ips = ips + skip;
   stack.n = n;
   return stack;
}

void LH_(site_take_allocator_frames)(LH_Site* site)
{
   site->allocator_frames = LH_(allocator_frames_number)(last_allocator_ips,
                                                        last_allocator_frames);
}

void LH_(allocator_frames_write_json)(LH_Json* j, const HChar* key,
                                      const LH_Site* site)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const LH_AllocatorFrames* frames = LH_(allocator_frames_of)(site);
   UInt k;
   LH_(json_array_begin)(j, key);
   for (k = 0; k < frames->n; k++) {
      const HChar* fn;
      const HChar* object;
      HChar address[32];
      VG_(snprintf)(address, sizeof address, "0x%lx", frames->ips[k]);
      LH_(json_object_begin)(j, NULL);
      LH_(json_string)(j, "address", address);
      if (VG_(get_fnname)(ep, frames->ips[k], &fn))
         LH_(json_string)(j, "function", fn);
      else
         LH_(json_null)(j, "function");
      if (VG_(get_objname)(ep, frames->ips[k], &object))
         LH_(json_string)(j, "object", object);
      else
         LH_(json_null)(j, "object");
      LH_(json_object_end)(j);
   }
   LH_(json_array_end)(j);
}
