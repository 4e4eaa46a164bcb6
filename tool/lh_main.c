/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_main.c: tool glue: details, options, client requests, how ---*/
/*--- the program ended, fini.                                     ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Start-up order (Valgrind's):
     pre_clo_init   details, needs, the malloc replacement, trackers,
                    the size of Valgrind's own stack for each thread
     options        one call per option the core does not know
     post_clo_init  checks the options, starts access tracking, timeline
     ... the program runs ...
     fini           writes the profile and prints the summary

   Valgrind calls fini with exit code 0 whatever the program returned, so
   the exit code is taken from the program's exit_group/exit system call.
   No exit call before fini means the program was killed by a signal;
   which one is known only when the program sent it to itself (abort,
   raise, kill), otherwise the profile says "signal": null.
*/

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_xarray.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "valgrind.h"
#include "lifeheap.h"
#include "lh_include.h"
#include "lh_core.h"
#include "lh_options.h"
#include "lh_report.h"
#include "lh_dwarf_names.h"
#include "lh_dump.h"
#include "lh_fork.h"
#include "lh_custom_alloc.h"
#include "lh_blocks.h"
#include "lh_shadow.h"

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

const HChar* LH_(clo_out_file) = "lifeheap.out.%p.json";

/* The path of the profile being written (for run.options.out_file). */
static const HChar* current_out_path = NULL;

ULong LH_(start_unix_ms) = 0;

/* --lifeheap-out-file (lh_options.def) */
Bool LH_(out_file_option)(const HChar* arg)
{
   const HChar* tmp_str;
   if VG_STR_CLO(arg, "--lifeheap-out-file", tmp_str) {
      LH_(clo_out_file) = tmp_str;
      return True;
   }
   return False;
}

static void lh_print_debug_usage(void)
{
   LH_(unwind_debug_usage)();
}

/* Expands the output name the way the core does, but with %n replaced, so
   that checking the option at start-up does not use up sequence number 1.
   VG_(expand_file_name) exits with a clear message on a bad name. */
static void check_out_file_option(void)
{
   SizeT len = VG_(strlen)(LH_(clo_out_file));
   HChar* probe = VG_(malloc)("lh.main.probe", len + 1);
   HChar* expanded;
   SizeT i, o = 0;
   for (i = 0; i < len; i++) {
      if (LH_(clo_out_file)[i] == '%' && i + 1 < len) {
         HChar next = LH_(clo_out_file)[i + 1];
         if (next == 'n') { probe[o++] = 'n'; i++; continue; }
         probe[o++] = '%'; probe[o++] = next; i++; continue;
      }
      probe[o++] = LH_(clo_out_file)[i];
   }
   probe[o] = 0;
   expanded = VG_(expand_file_name)("--lifeheap-out-file", probe);
   VG_(free)(expanded);
   VG_(free)(probe);
}

/* run.options.out_file: dumps write while current_out_path is not set. */
void LH_(out_file_write_json)(LH_Json* j)
{
   LH_(json_string)(j, "out_file",
                    current_out_path ? current_out_path : LH_(profile_path)());
}

/* run.options.num_callers: Valgrind's --num-callers. */
void LH_(num_callers_write_json)(LH_Json* j)
{
   LH_(json_u64)(j, "num_callers", VG_(clo_backtrace_size));
}

/*------------------------------------------------------------*/
/*--- How the program ended                                ---*/
/*------------------------------------------------------------*/

static Bool exit_called = False;      /* exit_group, or exit of a thread */
static Bool exit_group_called = False;
static Int  exit_code = 0;
static Int  self_signal = 0;          /* last signal the program sent itself */

static Bool copy_client_string(Addr str, HChar* out, SizeT max);

/* execve's program and arguments, copied out of the client (every page
   checked), for Valgrind's decision whether the new program is traced
   (--trace-children-skip, --trace-children-skip-by-arg) and a message. */
#define LH_EXEC_MAX_ARGS 256
#define LH_EXEC_MAX_ARG  4096
static void before_exec(Addr path, Addr argv)
{
   HChar program[VKI_PATH_MAX];
   HChar* args[LH_EXEC_MAX_ARGS + 1];
   UInt n = 0, i;
   if (!copy_client_string(path, program, sizeof(program)))
      VG_(strcpy)(program, "");
   while (argv != 0 && n < LH_EXEC_MAX_ARGS) {
      Addr slot = argv + n * sizeof(Addr);
      Addr arg;
      HChar buf[LH_EXEC_MAX_ARG];
      if (!VG_(am_is_valid_for_client)(slot, sizeof(Addr), VKI_PROT_READ)) break;
      arg = *(Addr*)slot;
      if (arg == 0 || !copy_client_string(arg, buf, sizeof(buf))) break;
      args[n++] = VG_(strdup)("lh.main.execarg", buf);
   }
   args[n] = NULL;
   LH_(blocks_flush)();
   LH_(before_exec)(program, (const HChar**)args);
   for (i = 0; i < n; i++) VG_(free)(args[i]);
}

static void lh_pre_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs)
{
   Int pid = VG_(getpid)();
   LH_(parallel_clock_pre_syscall)(tid, syscallno, args);
   switch (syscallno) {
      case __NR_execve:
         before_exec(args[0], args[1]);
         break;
      case __NR_execveat:
         before_exec(args[1], args[2]);
         break;
      case __NR_exit_group:
         exit_group_called = exit_called = True;
         exit_code = (Int)(args[0] & 0xFF);
         break;
      case __NR_exit:
         /* The last thread's exit ends the process with its code (only
            the last one: a worker thread's exit followed by a crash of
            main must not read as "exited 0"). */
         if (!exit_group_called && VG_(count_living_threads)() == 1) {
            exit_called = True;
            exit_code = (Int)(args[0] & 0xFF);
         }
         break;
      case __NR_kill:
         if ((Int)args[0] == pid || (Int)args[0] == 0) self_signal = (Int)args[1];
         break;
      case __NR_tgkill:
         if ((Int)args[0] == pid) self_signal = (Int)args[2];
         break;
      case __NR_tkill:
         self_signal = (Int)args[1];   /* a thread of this process */
         break;
      default:
         break;
   }
}

static void lh_post_syscall(ThreadId tid, UInt syscallno, UWord* args,
                            UInt nArgs, SysRes res)
{
   LH_(parallel_clock_post_syscall)(tid, syscallno, args, res);
}

/*------------------------------------------------------------*/
/*--- Client requests                                      ---*/
/*------------------------------------------------------------*/

/* Copies a client string of at most max-1 bytes, checking that every page
   it touches is readable; False when it is not. */
static Bool copy_client_string(Addr str, HChar* out, SizeT max)
{
   SizeT i;
   if (str == 0) return False;
   for (i = 0; i + 1 < max; i++) {
      if (i == 0 || ((str + i) & (VKI_PAGE_SIZE - 1)) == 0) {
         if (!VG_(am_is_valid_for_client)(str + i, 1, VKI_PROT_READ))
            return False;
      }
      out[i] = ((const HChar*)str)[i];
      if (out[i] == 0) return True;
   }
   out[i] = 0;
   return True;
}

static Bool lh_handle_client_request(ThreadId tid, UWord* arg, UWord* ret)
{
   if (LH_(dump_client_request)(tid, arg, ret)) return True;   /* vgdb monitor */
   if (LH_(custom_alloc_client_request)(tid, arg, ret)) return True;
   if (!VG_IS_TOOL_USERREQ('L', 'H', arg[0])) return False;
   switch (arg[0]) {
      case VG_USERREQ__LIFEHEAP_MARK: {
         HChar label[256];
         if (!copy_client_string(arg[1], label, sizeof(label)))
            VG_(strcpy)(label, "(unreadable label)");
         LH_(timeline_mark)(label);
         *ret = 0;
         return True;
      }
      default:
         VG_(umsg)("lifeheap: warning: unknown client request 0x%lx "
                   "(is the program built with a newer lifeheap.h?)\n", arg[0]);
         *ret = 0;
         return True;
   }
}

/*------------------------------------------------------------*/
/*--- Start and end                                        ---*/
/*------------------------------------------------------------*/

static void lh_post_clo_init(void)
{
   struct vki_timeval tv;
   check_out_file_option();
   if (VG_(gettimeofday)(&tv, NULL) == 0)
      LH_(start_unix_ms) = (ULong)tv.tv_sec * 1000 + (ULong)tv.tv_usec / 1000;
   LH_(access_init)();
   LH_(timeline_init)();
   LH_(dump_init)();          /* the profile's path checked, dump timer */
   LH_(fork_init)();
   LH_(blocks_init)();
}

/* The tool's part of --stats=yes and of gdbserver's "v.info stats". */
static void print_stats(void)
{
   LH_(stacks_print_stats)();
   LH_(site_stacks_print_stats)();
   LH_(parallel_clock_print_stats)();
   LH_(access_path_print_stats)();
}

static void lh_fini(Int exitcode_from_core)
{
   LH_RunEnd end;
   const LH_Report* report;
   HChar* path;
   Bool written;

   end.dump_reason = "exit";
   end.exit_code = 0;
   end.signal = 0;
   if (exit_called) {
      end.kind = LH_EndExited;
      end.exit_code = exit_code;
   } else {
      end.kind = LH_EndSignal;
      end.signal = self_signal;
   }

   /* The path the dumps used (expanded once; %n stays one file). */
   path = VG_(strdup)("lh.main.path", LH_(profile_path)());
   current_out_path = path;
   /* A program that freed all its blocks needs no block record any more:
      the report's labels and sorted sites reuse their memory instead of
      adding to the run's peak (nothing is released while a block is live). */
   (void)LH_(block_records_release)();
   /* Nor the table finding sites by their stack. */
   LH_(site_stacks_release)();
   report = LH_(report_build)(&end);
   written = LH_(report_write_json)(report, path);
   /* -q silences the summary, as it silences Valgrind's own tools' output
      (errors writing the profile are still said). */
   if (VG_(clo_verbosity) > 0)
      LH_(report_print_summary)(report, path, written);
   LH_(report_free)(report);
   LH_(blocks_finish)();             /* its line follows the summary's */
   /* the tool's part of --stats=yes (Valgrind's own follows) */
   if (VG_(clo_stats)) print_stats();
   current_out_path = NULL;
   VG_(free)(path);
}

/* Valgrind's own stack for each thread of the program (the core's, not
   the program's: translation, debug information, the tool's work) is
   filled with a pattern when the thread starts, to tell later how deep it
   went, so all of it is resident from then on: 1 MiB a thread by default,
   the main thread's included.  lifeheap's deepest use, measured with that
   pattern at the end of the profile's output, is about 19 KiB (the same
   for a C program, sqlite3 and python3 reading libpython's debug
   information: the output and the DWARF helper's start are the deepest).
   256 KiB leaves thirteen times that and saves 768 KiB of every thread's
   memory, more than DHAT's whole state for a small program.  The user's
   --valgrind-stacksize (command line, VALGRIND_OPTS or a .valgrindrc),
   read before the tool is loaded, still wins. */
#define LH_VALGRIND_STACK_BYTES (256 * 1024)

static void choose_valgrind_stack_size(void)
{
   Word i, n = VG_(sizeXA)(VG_(args_for_valgrind));
   for (i = 0; i < n; i++) {
      const HChar* arg = *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), i);
      if (VG_(strncmp)(arg, "--valgrind-stacksize=", 21) == 0) return;
   }
   VG_(clo_valgrind_stacksize) = LH_VALGRIND_STACK_BYTES;
}

static void lh_pre_clo_init(void)
{
   choose_valgrind_stack_size();

   VG_(details_name)("lifeheap");
   VG_(details_version)(LIFEHEAP_VERSION);
   VG_(details_description)("heap lifetime and access profiler");
   VG_(details_copyright_author)("Copyright (C) 2026 the lifeheap authors.");
   VG_(details_bug_reports_to)("the lifeheap issue tracker");
   VG_(details_avg_translation_sizeB)(600);

   VG_(basic_tool_funcs)(lh_post_clo_init, LH_(instrument), lh_fini);
   VG_(needs_command_line_options)(LH_(options_process),
                                   LH_(options_print_usage),
                                   lh_print_debug_usage);
   VG_(needs_client_requests)(lh_handle_client_request);
   VG_(needs_syscall_wrapper)(lh_pre_syscall, lh_post_syscall);
   /* Let glibc and libstdc++ free their internal buffers at exit, as
      memcheck and DHAT do: they are not the program's leaks, and the
      figures at exit then compare with DHAT's t-end. */
   VG_(needs_libc_freeres)();
   VG_(needs_cxx_freeres)();
   /* (gdbserver's "v.info stats"; fini prints them for --stats=yes) */
   VG_(needs_print_stats)(print_stats);

   LH_(symbols_pre_clo_init)();
   LH_(sites_init)();
   LH_(heap_init)();
   LH_(threads_init)();
   LH_(parallel_clock_init)();
}

VG_DETERMINE_INTERFACE_VERSION(lh_pre_clo_init)
