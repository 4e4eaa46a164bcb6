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

   Each frame after the first costs one step of Valgrind's CFI unwinder,
   so the tool runs the unwinder's steps itself (the same steps, in the
   same order, as Valgrind's amd64 VG_(get_StackTrace_wrk)) and stops as
   soon as the frames it keeps are known: --num-callers past the preload's
   leading frames, or the first frame in a function below main (main's
   caller), beyond which the output names nothing (see unwind()).  The
   stack found is looked up as a site by lh_site_stacks.c; its frames are
   named at output by lh_symbols.c.
*/

#include "pub_tool_basics.h"
#include "pub_tool_vki.h"         /* VKI_PAGE_SIZE */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_machine.h"     /* VG_(thread_get_stack_max), the red zone */
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
   headers): merging rewrites frames already found, which the tool's own
   loop does not do; with it, Valgrind's unwinder is asked for the full
   depth. */
extern Int VG_(clo_merge_recursive_frames);

/* What the allocation stacks' unwinding did, for --stats=yes
   (LH_(stacks_print_stats)). */
static struct {
   ULong stacks;          /* allocation stacks recorded */
   ULong frames;          /* the frames their unwinds found */
   ULong below_main;      /* unwinds stopped at a below-main function */
   ULong kinds_looked_up; /* addresses whose function's kind was looked up */
} unwind_stats;

/* --lifeheap-check-unwind=yes (see compare_with_valgrind) and its counts. */
static Bool check_unwind = False;
static struct {
   ULong compared;
   ULong differed;
} unwind_check;

void LH_(stacks_print_stats)(void)
{
   VG_(dmsg)("lifeheap: allocation stacks: %'llu unwound, %'llu frames "
             "found, %'llu stopped at a function below main (%'llu "
             "addresses' functions looked up)\n",
             unwind_stats.stacks, unwind_stats.frames,
             unwind_stats.below_main, unwind_stats.kinds_looked_up);
   if (check_unwind)
      VG_(dmsg)("lifeheap: unwind check: %'llu stacks compared with "
                "Valgrind's unwinder, %'llu differed\n",
                unwind_check.compared, unwind_check.differed);
}

/* Leading frames of ips[0 .. n) in the preload. */
static UInt preload_frames(const Addr* ips, UInt n)
{
   UInt skip = 0;
   while (skip < n && in_preload(ips[skip])) skip++;
   return skip;
}

/*------------------------------------------------------------*/
/*--- Functions below main                                 ---*/
/*------------------------------------------------------------*/

/* Whether a frame's address lies in a function that calls main
   (__libc_start_call_main, __libc_start_main, _start: Valgrind's
   Vg_FnNameBelowMain, by the function's name), remembered per address in
   a small direct-mapped cache.  A name can change only when debug
   information is read or dropped, which advances Valgrind's epoch: the
   cache is emptied when the epoch moves. */
#define BELOW_MAIN_CACHE 512          /* a power of two */
typedef struct {
   Addr ip;
   UWord kind;                        /* 0 empty, 1 not below main, 2 below */
} BelowMainEntry;                     /* an entry's two words: one line */
/* In the arena, made at the first unwind: the tool's static data keeps
   its size (the client's address space is laid out around the tool's
   executable, and the instructions a program runs can depend on where
   its mappings fall: a profile's times moved by a few instructions when
   the tool's data grew by 8 KB). */
static BelowMainEntry* below_main_cache = NULL;
static UInt below_main_epoch = 0;

static void below_main_cache_check_epoch(DiEpoch ep)
{
   if (UNLIKELY(below_main_cache == NULL)) {
      below_main_cache = VG_(calloc)("lh.alloc_stacks.below_main",
                                     BELOW_MAIN_CACHE, sizeof(BelowMainEntry));
      below_main_epoch = ep.n;
   }
   if (UNLIKELY(ep.n != below_main_epoch)) {
      VG_(memset)(below_main_cache, 0, BELOW_MAIN_CACHE * sizeof(BelowMainEntry));
      below_main_epoch = ep.n;
   }
}

static Bool is_below_main_slow(DiEpoch ep, Addr ip, UInt slot)
{
   Bool below = VG_(get_fnname_kind_from_IP)(ep, ip) == Vg_FnNameBelowMain;
   unwind_stats.kinds_looked_up++;
   below_main_cache[slot].ip = ip;
   below_main_cache[slot].kind = below ? 2 : 1;
   return below;
}

static inline Bool is_below_main(DiEpoch ep, Addr ip)
{
   UInt slot = (UInt)(ip ^ (ip >> 9)) & (BELOW_MAIN_CACHE - 1);
   if (LIKELY(below_main_cache[slot].ip == ip && below_main_cache[slot].kind != 0))
      return below_main_cache[slot].kind == 2;
   return is_below_main_slow(ep, ip, slot);
}

/*------------------------------------------------------------*/
/*--- The unwind                                           ---*/
/*------------------------------------------------------------*/

/* The preload's frames and --num-callers of the program's: no deeper,
   since unwinding costs per frame (one VG_(use_CF_info) each after the
   first), and no further than the first function below main, unless
   --show-below-main=yes.

   Frames are found one after another by the same steps, in the same
   order, as Valgrind's amd64 unwinder (VG_(get_StackTrace_wrk) in
   m_stacktrace.c): the call-frame information where there is some, else
   the frame pointer's chain, else the word at the stack pointer taken for
   a return address; each frame after the first is its return address
   minus one.  What this loop adds is where it stops:

   - after --num-callers frames past the preload's leading ones (counted
     as they are found: the most it may need is --num-callers + 2, while
     nearly every call has one preload frame);
   - after the first frame in a function below main.  The output names a
     stack only as far as main (Valgrind's VG_(apply_StackTrace): to the
     outermost main, or without one to the innermost function below
     main), and what lies beyond the first function below main is its own
     callers: the C library's start-up, _start, then, read as return
     addresses, the words of the process's first stack (argc and the argv
     pointers).  No main lies there, so the named stack is the same, and
     an allocation in a loop in main no longer unwinds five or more
     frames nobody sees (liveheap's: 3 frames instead of 12).

   Sites are told apart by the frames kept, so two stacks that differ only
   beyond that point (a program that permutes argv[] between two
   allocations, as getopt does) are one site, as their named stacks are
   the same. */
#if defined(VGA_amd64)
static UInt unwind(ThreadId tid, Addr* ips, UInt most)
{
   LH_UnwindStartRegs start;
   LH_D3UnwindRegs regs;
   Addr lowest = 0, highest, fp_min, fp_max;
   UInt n = 1, limit = most, leading = 0;
   Bool leading_done = False;
   Bool stop_below_main = !VG_(clo_show_below_main);
   DiEpoch ep = VG_(current_DiEpoch)();

   below_main_cache_check_epoch(ep);

   /* amd64's VG_(get_UnwindStartRegs) sets the three fields read below
      (no memset of the whole union first, as VG_(get_StackTrace) makes) */
   VG_(get_UnwindStartRegs)(&start, tid);
   highest = VG_(thread_get_stack_max)(tid);
   VG_(stack_limits)((Addr)start.r_sp, &lowest, &highest);
   regs.xip = start.r_pc;
   regs.xsp = start.r_sp;
   regs.xbp = start.misc.AMD64.r_rbp;
   fp_min = regs.xsp - VG_STACK_REDZONE_SZB;
   fp_max = VG_PGROUNDUP(highest);
   if (fp_max >= sizeof(Addr)) fp_max -= sizeof(Addr);

   ips[0] = regs.xip;
   if (fp_min + 256 >= fp_max) return 1;   /* the limits look bogus */

   for (;;) {
      /* the frame just found, ips[n - 1]: a preload frame at the start,
         or the first of the program's (the limit is now known), or one
         below main (the last one needed) */
      Addr ip = ips[n - 1];
      Bool preload_frame = False;
      if (!leading_done) {
         if (leading < LH_MAX_UNWIND && in_preload(ip)) {
            leading++;
            preload_frame = True;     /* never a function below main */
         } else {
            UInt program_limit = leading + VG_(clo_backtrace_size);
            leading_done = True;
            if (program_limit < limit) limit = program_limit;
         }
      }
      if (stop_below_main && !preload_frame && is_below_main(ep, ip)) {
         unwind_stats.below_main++;
         break;
      }
      if (n >= limit) break;

      Addr old_xsp = regs.xsp;
      if (VG_(use_CF_info)(&regs, fp_min, fp_max)) {
         if (regs.xip == 0 || regs.xip == 1) break;
         if (old_xsp >= regs.xsp) break;        /* not going up */
      } else if (fp_min <= regs.xbp && regs.xbp <= fp_max - sizeof(UWord)) {
         /* a frame-pointer frame: saved rbp, then the return address */
         const UWord* frame = (const UWord*)regs.xbp;
         regs.xip = frame[1];
         if (regs.xip == 0 || regs.xip == 1) break;
         regs.xsp = regs.xbp + 2 * sizeof(Addr);
         if (old_xsp >= regs.xsp) break;
         regs.xbp = frame[0];
      } else if (fp_min <= regs.xsp && regs.xsp < fp_max) {
         /* Valgrind's last resort: the word at the stack pointer */
         regs.xip = *(const UWord*)regs.xsp;
         if (regs.xip == 0 || regs.xip == 1) break;
         regs.xsp += sizeof(Addr);
      } else {
         break;
      }
      /* a return address: the call is the instruction before it, and so
         is the code whose unwinding information the next step needs */
      regs.xip -= 1;
      ips[n++] = regs.xip;
   }
   return n;
}
#endif

/*------------------------------------------------------------*/
/*--- --lifeheap-check-unwind=yes: the unwind checked      ---*/
/*------------------------------------------------------------*/

/* A debugging option (--help-debug): every allocation's stack is unwound
   a second time by Valgrind's own VG_(get_StackTrace), to the most frames
   the tool may need, and compared.  The tool's frames must be the first
   frames of Valgrind's; where Valgrind's go on, the tool must have
   stopped at --num-callers past the preload's frames, or at a function
   below main with no main among the frames Valgrind found beyond it (so
   the stack the output names is the same).  A difference is printed with
   both stacks; --stats=yes prints the counts. */

Bool LH_(unwind_debug_option)(const HChar* arg)
{
   if VG_BOOL_CLO(arg, "--lifeheap-check-unwind", check_unwind) return True;
   return False;
}

void LH_(unwind_debug_usage)(void)
{
   VG_(printf)("    --lifeheap-check-unwind=no|yes   compare every allocation's "
               "stack with\n"
               "                                     Valgrind's own unwind "
               "[no]\n");
}

static void compare_with_valgrind(ThreadId tid, const Addr* ips, UInt n,
                                  UInt most)
{
   static Addr* valgrind_ips = NULL;      /* in the arena, as above */
   DiEpoch ep = VG_(current_DiEpoch)();
   if (valgrind_ips == NULL)
      valgrind_ips = VG_(malloc)("lh.alloc_stacks.check", LH_MAX_UNWIND * sizeof(Addr));
   UInt vn = VG_(get_StackTrace)(tid, valgrind_ips, most, NULL, NULL, 0);
   below_main_cache_check_epoch(ep);
   UInt k, leading = preload_frames(ips, n);
   Bool same = vn >= n;
   for (k = 0; same && k < n; k++) same = valgrind_ips[k] == ips[k];
   if (same && vn > n) {
      Bool below_main = is_below_main(ep, ips[n - 1]);
      same = below_main || n >= leading + (UInt)VG_(clo_backtrace_size);
      for (k = n; same && below_main && k < vn; k++)
         same = VG_(get_fnname_kind_from_IP)(ep, valgrind_ips[k]) != Vg_FnNameMain;
   }
   unwind_check.compared++;
   if (same) return;
   unwind_check.differed++;
   VG_(umsg)("lifeheap: unwind check: the tool's %u frames and Valgrind's %u "
             "differ (frame: tool's, Valgrind's):\n", n, vn);
   for (k = 0; k < n || k < vn; k++)
      VG_(umsg)("   %2u: 0x%lx 0x%lx\n", k, k < n ? ips[k] : 0,
                k < vn ? valgrind_ips[k] : 0);
}

LH_UnwoundStack LH_(record_allocation_stack)(ThreadId tid)
{
   LH_UnwoundStack stack;
   static Addr ips[LH_MAX_UNWIND];
   UInt most = VG_(clo_backtrace_size) + LH_ALLOCATOR_FRAMES;
   UInt n, skip, k;
   if (most > LH_MAX_UNWIND) most = LH_MAX_UNWIND;
   unwind_stats.stacks++;
#if defined(VGA_amd64)
   if (LIKELY(VG_(clo_merge_recursive_frames) == 0))
      n = unwind(tid, ips, most);
   else
#endif
      n = VG_(get_StackTrace)(tid, ips, most, NULL, NULL, 0);
   unwind_stats.frames += n;
   if (UNLIKELY(check_unwind)) compare_with_valgrind(tid, ips, n, most);
   skip = preload_frames(ips, n);
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
