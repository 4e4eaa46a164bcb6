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
   When Valgrind traces the new program (--trace-children=yes and neither
   --trace-children-skip nor --trace-children-skip-by-arg matches it: the
   core's own decision, asked on the same path and argv) it runs under a
   new lifeheap that writes the profile (the same pid, so the same %p
   name).  Otherwise the new program runs natively, so before every
   execve of the process lifeheap started (a wrapper script exec'ing the
   real program) the profile so far is written as a partial profile
   (dump_reason "exec"), and the first time lifeheap says so, naming the
   option that left the program untraced.  A forked child that execs
   writes nothing: a shell or make running commands would leave a file
   per command, each mostly the parent's copy; a child of the parent's
   first three forks says so in one line.  An exec that fails leaves the
   program running: its final profile replaces that one as usual.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_xarray.h"
#include "lh_include.h"
#include "lh_dump.h"
#include "lh_fork.h"
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
/* How many forks the parent had made when this process was forked (1 for
   its first child): a child of one of the first LH_FORKS_TOLD forks says
   so when it execs without lifeheap. */
#define LH_FORKS_TOLD 3
static UInt forks_made = 0;
static UInt fork_number = 0;

static void child_after_fork(ThreadId tid)
{
   forked_child = True;
   fork_number = forks_made + 1;   /* the parent's count, inherited */
   forks_made = 0;
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
   forks_made++;
   if (forks_marked >= LH_MAX_FORK_MARKERS) return;
   forks_marked++;
   LH_(timeline_mark)("fork");
}

/* Not in the tool headers; the core's own decision at every execve
   (m_options.c): --trace-children, --trace-children-skip and
   --trace-children-skip-by-arg, on the new program's path and argv. */
extern Bool VG_(clo_trace_children);
extern Bool VG_(should_we_trace_this_child)(const HChar* child_exe_name,
                                            const HChar** child_argv);

void LH_(before_exec)(const HChar* program, const HChar** argv)
{
   static Bool told = False, told_child = False;
   const HChar* why;
   /* Valgrind passes the whole argv, unless argv[0] is missing. */
   if (argv != NULL && argv[0] == NULL) argv = NULL;
   if (VG_(should_we_trace_this_child)(program, argv))
      return;                          /* the new lifeheap writes the file */
   why = VG_(clo_trace_children)
            ? "--trace-children-skip or --trace-children-skip-by-arg "
              "excludes it"
            : "--trace-children=yes profiles it";
   if (forked_child) {
      /* A shell's or make's child running a command: the profile would be
         mostly the parent's copy, one file per command.  Said for the
         parent's first few forks only, so a program running thousands of
         commands does not bury its output. */
      if (!told_child && fork_number <= LH_FORKS_TOLD) {
         told_child = True;
         VG_(umsg)("lifeheap: forked child %d execs %s, which will run "
                   "without lifeheap (%s); no profile is written for this "
                   "child%s\n", VG_(getpid)(), program[0] ? program : "a program",
                   why, fork_number == LH_FORKS_TOLD
                        ? " (later forked children that exec are not reported)"
                        : "");
      }
      return;
   }
   if (LH_(write_dump)("exec") && !told) {
      told = True;
      VG_(umsg)("lifeheap: the program execs %s, which will run without "
                "lifeheap (%s); the profile up to the exec is in %s\n",
                program[0] ? program : "a program", why, LH_(profile_path)());
   }
}

void LH_(fork_init)(void)
{
   VG_(atfork)(NULL, parent_after_fork, child_after_fork);
}
