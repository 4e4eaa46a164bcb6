/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_dump.c: the profile's path, checked at start-up; ---*/
/*--- periodic dumps; vgdb "monitor lifeheap dump [file]".         ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Nothing lost on a killed run
   ----------------------------
   A profile is normally written once, at exit.  A program killed by
   SIGKILL (the OOM killer, kill -9, a CI timeout) never reaches exit, so
   --lifeheap-dump-interval rewrites the profile while the program runs:

     time ──┬────────────┬────────────┬──────── SIGKILL
            dump 1       dump 2       dump 3      (the file on disk is dump 3)
            complete=false, dump_reason="interval", exit.status="running"

   Each dump builds a report (lh_report.h) and writes it as the final
   profile is written: LH_(report_write_json) writes a temporary
   file and renames it over the profile: a reader (or a kill during the
   write) sees the previous dump or the new one, never half of one.  The
   final profile, written at exit, replaces the last dump.

   When the check runs: Valgrind calls the start_client_code tracker
   whenever a thread is about to run client code, i.e. at least once per
   scheduler time slice (about 100,000 superblocks) and after every system
   call.  So a compute loop dumps within a time slice of the deadline, and
   a program blocked in a system call (a server waiting in accept) is not
   changing its heap meanwhile: what a kill then loses is at most the work
   done in one interval of running.

   The profile's path is expanded once (%p, %n, %q{VAR}) and shared by the
   dumps and the final write, so %n names one file, not one per dump.  With
   --lifeheap-run-record=<file> the expanded path is appended to <file>
   (followed by a NUL byte) when it is expanded, once per process: `lifeheap
   run` reads it back to say where the profile went instead of expanding
   the name a second time its own way.  It
   is checked at start-up by creating and removing a temporary file where
   the final write will create one: an unwritable directory is reported
   before the program runs for an hour, not after.  Periodic dumps need a
   file they can replace atomically; to a device or a FIFO only the final
   profile is written (lh_outfile.c).
*/

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_vki.h"
#include "valgrind.h"
#include "lh_include.h"
#include "lh_report.h"
#include "lh_dump.h"
#include "lh_outfile.h"
#include "lh_blocks.h"
#include "lh_options.h"

/*------------------------------------------------------------*/
/*--- --lifeheap-dump-interval                             ---*/
/*------------------------------------------------------------*/

typedef enum { DumpOff, DumpEveryInstructions, DumpEverySeconds } DumpMode;

static DumpMode     dump_mode = DumpOff;
static ULong        dump_every = 0;            /* instructions or seconds */
static const HChar* dump_interval_text = NULL; /* as given, for run.options */
static const HChar* run_record_file = NULL;    /* --lifeheap-run-record */

/* Parses "<N>" (instructions) or "<N>s" (seconds).  N is decimal, at
   least 1, and fits in 64 bits (seconds: in 32 bits of milliseconds);
   "0" turns dumps off.  False for anything else. */
static Bool parse_interval(const HChar* text, DumpMode* mode, ULong* every)
{
   const HChar* p = text;
   ULong n = 0;
   if (*p < '0' || *p > '9') return False;     /* empty, sign, letters */
   for (; *p >= '0' && *p <= '9'; p++) {
      UInt digit = (UInt)(*p - '0');
      if (n > (~0ULL - digit) / 10) return False;   /* overflow */
      n = n * 10 + digit;
   }
   if (*p == 0) {
      *mode = n == 0 ? DumpOff : DumpEveryInstructions;
      *every = n;
      return True;
   }
   if (p[0] == 's' && p[1] == 0) {
      if (n > 0x7fffffffULL / 1000) return False;  /* ms must fit in a UInt */
      *mode = n == 0 ? DumpOff : DumpEverySeconds;
      *every = n;
      return True;
   }
   return False;
}

Bool LH_(dump_process_option)(const HChar* arg)
{
   const HChar* value;
   if VG_STR_CLO(arg, "--lifeheap-dump-interval", value) {
      if (!parse_interval(value, &dump_mode, &dump_every))
         VG_(fmsg_bad_option)(arg,
            "expected a number of instructions (e.g. 1000000000), a number "
            "of seconds (e.g. 60s), or 0 for no periodic dumps\n");
      dump_interval_text = value;
      return True;
   }
   return False;
}

Bool LH_(dump_run_record_option)(const HChar* arg)
{
   return LH_(file_name_option)(arg, "--lifeheap-run-record", &run_record_file);
}

void LH_(dump_write_options_json)(LH_Json* j)
{
   if (dump_interval_text == NULL || dump_mode == DumpOff)
      LH_(json_string)(j, "dump_interval", "0");
   else
      LH_(json_string)(j, "dump_interval", dump_interval_text);
}

/*------------------------------------------------------------*/
/*--- The profile's path                                   ---*/
/*------------------------------------------------------------*/

static HChar* expanded_path = NULL;

/* Appends 'path' and a NUL byte to the run record, in one write to a file
   opened for appending, so processes sharing the record (a forked child,
   an exec'd program under --trace-children) do not interleave. */
static void record_profile_path(const HChar* path)
{
   static Bool recorded = False;
   SysRes sr;
   SizeT len;
   if (run_record_file == NULL) return;
   sr = VG_(open)(run_record_file,
                  VKI_O_CREAT | VKI_O_WRONLY | VKI_O_APPEND, 0600);
   if (sr_isError(sr) && !recorded) {
      /* At start-up (the first expansion): a bad name stops the run before
         the program runs, as a bad --lifeheap-out-file does. */
      VG_(fmsg)("lifeheap: cannot append to the run record '%s': %s "
                "(--lifeheap-run-record)\n", run_record_file,
                LH_(errno_text)(sr_Err(sr)));
      VG_(exit)(1);
   }
   if (sr_isError(sr)) {
      VG_(umsg)("lifeheap: warning: cannot append to the run record '%s'\n",
                run_record_file);
      return;
   }
   recorded = True;
   len = VG_(strlen)(path) + 1;             /* with its NUL */
   if (VG_(write)((Int)sr_Res(sr), path, len) != (Int)len)
      VG_(umsg)("lifeheap: warning: cannot append to the run record '%s'\n",
                run_record_file);
   VG_(close)((Int)sr_Res(sr));
}

const HChar* LH_(profile_path)(void)
{
   if (expanded_path == NULL) {
      expanded_path = VG_(expand_file_name)("--lifeheap-out-file",
                                            LH_(clo_out_file));
      record_profile_path(expanded_path);
   }
   return expanded_path;
}

void LH_(profile_path_reset)(void)
{
   if (expanded_path) VG_(free)(expanded_path);
   expanded_path = NULL;
}

/* Fails the run at start-up, with Valgrind's error prefix, exit code 1. */
static void fail_at_startup(const HChar* path, const HChar* why)
{
   VG_(fmsg)("lifeheap: cannot write the profile to '%s': %s "
             "(--lifeheap-out-file)\n", path, why);
   VG_(exit)(1);
}

/* Checks now that the profile can be written at the end (for a file that
   is replaced, by creating and removing a temporary file beside it), so
   that a bad directory is reported before the program runs for an hour. */
static void check_profile_path_writable(void)
{
   const HChar* path = LH_(profile_path)();
   const HChar* why;
   if (path[0] == 0) fail_at_startup(path, "empty file name");
   if (!LH_(outfile_probe)(path, &why)) fail_at_startup(path, why);
}

/*------------------------------------------------------------*/
/*--- Dumps                                                ---*/
/*------------------------------------------------------------*/

static Bool dump_profile(const HChar* path, const HChar* reason)
{
   LH_RunEnd end;
   const LH_Report* report;
   Bool written;
   end.kind = LH_EndRunning;
   end.exit_code = 0;
   end.signal = 0;
   end.dump_reason = reason;
   LH_(blocks_flush)();     /* the block file is as current as the dump */
   report = LH_(report_build)(&end);
   written = LH_(report_write_json)(report, path);
   LH_(report_free)(report);
   return written;
}

Bool LH_(write_dump)(const HChar* reason)
{
   return dump_profile(LH_(profile_path)(), reason);
}

static ULong next_dump_instructions = 0;
static UInt  last_dump_ms = 0;

/* The tracker described at the top of the file (called by
   lh_parallel_clock.c's start_client_code tracker). */
void LH_(dump_maybe)(ThreadId tid, ULong blocks_dispatched)
{
   Bool due = False;
   if (dump_mode == DumpEveryInstructions) {
      if (LH_(now) >= next_dump_instructions) {
         due = True;
         next_dump_instructions = LH_(now) + dump_every;
      }
   } else if (dump_mode == DumpEverySeconds) {
      UInt ms = VG_(read_millisecond_timer)();
      if ((UInt)(ms - last_dump_ms) >= (UInt)(dump_every * 1000)) {
         due = True;
         last_dump_ms = ms;
      }
   }
   if (!due) return;
   if (dump_profile(LH_(profile_path)(), "interval") && VG_(clo_verbosity) > 1)
      VG_(umsg)("lifeheap: periodic dump written to %s\n", LH_(profile_path)());
}

/*------------------------------------------------------------*/
/*--- vgdb monitor commands                                ---*/
/*------------------------------------------------------------*/

static void print_monitor_help(void)
{
   VG_(gdb_printf)(
"\n"
"lifeheap monitor commands:\n"
"  lifeheap dump [<file>]\n"
"      writes the profile now (complete=false, dump_reason \"monitor\")\n"
"      to <file>, or to the --lifeheap-out-file profile when omitted\n"
"\n");
}

/* "lifeheap dump [file]" and "help".  False for commands that are not
   lifeheap's, so the core can say it does not know them. */
static Bool monitor_command(ThreadId tid, const HChar* command)
{
   HChar copy[VG_(strlen)(command) + 1];
   HChar* save;
   HChar* word;

   VG_(strcpy)(copy, command);
   word = VG_(strtok_r)(copy, " ", &save);
   if (word == NULL) return False;
   if (VG_(strcmp)(word, "help") == 0) {
      print_monitor_help();
      return True;
   }
   if (VG_(strcmp)(word, "lifeheap") != 0) return False;

   word = VG_(strtok_r)(NULL, " ", &save);
   switch (VG_(keyword_id)("dump help", word ? word : "help",
                           kwd_report_all)) {
      case 0: {   /* dump */
         HChar* file = VG_(strtok_r)(NULL, " ", &save);
         const HChar* path = file ? file : LH_(profile_path)();
         if (dump_profile(path, "monitor"))
            VG_(gdb_printf)("lifeheap: profile written to %s\n", path);
         else
            VG_(gdb_printf)("lifeheap: could not write %s (see the log)\n", path);
         return True;
      }
      case 1:     /* help */
         print_monitor_help();
         return True;
      default:    /* unknown or ambiguous: keyword_id said so */
         return True;
   }
}

Bool LH_(dump_client_request)(ThreadId tid, UWord* arg, UWord* ret)
{
   Bool handled;
   if (arg[0] != VG_USERREQ__GDB_MONITOR_COMMAND) return False;
   handled = monitor_command(tid, (const HChar*)arg[1]);
   *ret = handled ? 1 : 0;
   return handled;
}

/*------------------------------------------------------------*/
/*--- Start-up                                             ---*/
/*------------------------------------------------------------*/

void LH_(dump_init)(void)
{
   check_profile_path_writable();
   /* A device or a FIFO cannot be rewritten atomically: one document, at
      the end, is all a reader of /dev/stdout or of a pipe can use. */
   if (dump_mode != DumpOff && !LH_(outfile_is_replaced)(LH_(profile_path)())) {
      VG_(umsg)("lifeheap: %s is not a regular file: only the final profile "
                "is written to it (--lifeheap-dump-interval ignored)\n",
                LH_(profile_path)());
      dump_mode = DumpOff;
   }
   if (dump_mode != DumpOff) {
      next_dump_instructions = dump_every;
      last_dump_ms = VG_(read_millisecond_timer)();
   }
}
