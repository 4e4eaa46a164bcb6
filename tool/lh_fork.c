/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_fork.c: a forked child writes its own profile.  ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   After fork() both processes run lifeheap with the same state and the
   same options.  Two rules keep their profiles apart:

   1. Own file.  With %p in --lifeheap-out-file each process expands its
      own pid.  With a fixed name ("heap.json") the child switches to the
      name with ".%p" inserted before a final ".json" ("heap.%p.json"), or
      appended otherwise ("heap" -> "heap.%p"), so the parent keeps
      "heap.json" and no process overwrites another's file.  The new name
      is also appended to the options Valgrind passes on at exec, so a
      child that execs under --trace-children=yes profiles the new program
      into the child's file, not the parent's.

   2. Scope.  The child's profile INCLUDES the blocks it inherited: they
      are live in the child's heap (the child may free them, and they cost
      it memory), and the child's totals, sites and timeline start at the
      parent's start.  What the child did itself is what comes after the
      timeline marker "fork (child starts)"; the parent's profile has a
      "fork" marker at the same time (its first 64 forks only).
      docs/reliability.md explains how to read the two.

   exec replaces the process image: Valgrind never calls the tool's fini.
   With --trace-children=yes the new program runs under a new lifeheap
   that writes the profile (the same pid, so the same %p name).  Without
   it the new program runs natively, so before every execve of the
   process lifeheap started (a wrapper script exec'ing the real program)
   the profile so far is written as a partial profile (dump_reason
   "exec"), and the first time lifeheap says so.  A forked child that
   execs writes nothing: a shell or make running commands would leave a
   file per command, each mostly the parent's copy.  An exec that fails
   leaves the program running: its final profile replaces that one as
   usual.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_xarray.h"
#include "lh_include.h"
#include "lh_reliability.h"
#include "lh_blocks.h"

/* "heap.json" -> "heap.%p.json"; "heap" -> "heap.%p". */
static HChar* name_with_pid(const HChar* name)
{
   SizeT len = VG_(strlen)(name);
   HChar* out = VG_(malloc)("lh.fork.name", len + 8);
   if (len > 5 && VG_(strcmp)(name + len - 5, ".json") == 0) {
      VG_(memcpy)(out, name, len - 5);
      VG_(strcpy)(out + len - 5, ".%p.json");
   } else {
      VG_(sprintf)(out, "%s.%%p", name);
   }
   return out;
}

/* A forked child: its exec writes nothing (see the top). */
static Bool forked_child = False;

static void child_after_fork(ThreadId tid)
{
   forked_child = True;
   if (VG_(strstr)(LH_(clo_out_file), "%p") == NULL) {
      HChar* name = name_with_pid(LH_(clo_out_file));
      HChar* exec_option = VG_(malloc)("lh.fork.opt", VG_(strlen)(name) + 32);
      VG_(sprintf)(exec_option, "--lifeheap-out-file=%s", name);
      /* The last occurrence of an option wins when the exec'd lifeheap
         parses its command line. */
      VG_(addToXA)(VG_(args_for_valgrind), &exec_option);
      LH_(clo_out_file) = name;
   }
   LH_(profile_path_reset)();
   LH_(blocks_after_fork)();
   LH_(timeline_mark)("fork (child starts)");
}

/* A program that runs many commands (system(), popen) forks thousands of
   times: the parent marks only its first forks, so the timeline's markers
   stay readable. */
#define LH_MAX_FORK_MARKERS 64
static UInt forks_marked = 0;

static void parent_after_fork(ThreadId tid)
{
   if (forks_marked >= LH_MAX_FORK_MARKERS) return;
   forks_marked++;
   LH_(timeline_mark)("fork");
}

/* Whether the valgrind options (command line, VALGRIND_OPTS, .valgrindrc)
   end up with --trace-children=yes: the last one wins. */
static Bool traces_children(void)
{
   Bool traced = False;
   Word i, n = VG_(sizeXA)(VG_(args_for_valgrind));
   for (i = 0; i < n; i++) {
      const HChar* arg = *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), i);
      if (VG_(strcmp)(arg, "--trace-children=yes") == 0) traced = True;
      else if (VG_(strcmp)(arg, "--trace-children=no") == 0) traced = False;
   }
   return traced;
}

void LH_(before_exec)(const HChar* program)
{
   static Bool told = False;
   if (traces_children()) return;      /* the new lifeheap writes the file */
   if (forked_child) return;           /* a shell's child running a command */
   if (LH_(write_dump)("exec") && !told) {
      told = True;
      VG_(umsg)("lifeheap: the program execs %s, which will run without "
                "lifeheap (--trace-children=yes profiles it); the profile "
                "up to the exec is in %s\n", program, LH_(profile_path)());
   }
}

void LH_(fork_init)(void)
{
   VG_(atfork)(NULL, parent_after_fork, child_after_fork);
}
