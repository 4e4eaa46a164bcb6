/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_output.c: the JSON profile (docs/format.md), a  ---*/
/*--- rendering of a report (lh_report.h).                         ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The profile is a rendering of a report (lh_report.h): every figure,
   order, label, note and finding in it was decided by LH_(report_build);
   this file only lays them out (each site: lh_site_json.c).  The document goes to an exclusive
   temporary file beside the target, renamed over it only when every byte
   was written: a reader never sees half a profile, and a failure leaves
   no file behind.  A device or a FIFO (/dev/null, /dev/stdout) is written
   through, never replaced (lh_outfile.c).
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_options.h"
#include "pub_tool_xarray.h"
#include "pub_tool_vki.h"
#include "lh_include.h"
#include "lh_core.h"
#include "lh_report.h"
#include "lh_options.h"
#include "lh_site_json.h"
#include "lh_text.h"
#include "lh_outfile.h"

#define LH_FORMAT_VERSION 2

/*------------------------------------------------------------*/
/*--- Sections of the document                             ---*/
/*------------------------------------------------------------*/

static const HChar* signal_name(Int sig)
{
   static const HChar* const names[] = {
      NULL, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
      "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2",
      "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
      "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU",
      "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR",
      "SIGSYS"
   };
   if (sig > 0 && sig < (Int)(sizeof(names) / sizeof(names[0])))
      return names[sig];
   return NULL;
}

static ULong unix_ms_now(void)
{
   struct vki_timeval tv;
   if (VG_(gettimeofday)(&tv, NULL) != 0) return 0;
   return (ULong)tv.tv_sec * 1000 + (ULong)tv.tv_usec / 1000;
}

/* The executable Valgrind loaded, through the descriptor it keeps open
   on it (VG_(cl_exec_fd), lh_core.h; VG_(client_fname) would give only
   the base name). */
static void client_executable(HChar* buf, SizeT size)
{
   HChar link[64];
   SSizeT n;
   VG_(sprintf)(link, "/proc/self/fd/%d", VG_(cl_exec_fd));
   n = VG_(readlink)(link, buf, size - 1);
   if (n <= 0) { VG_(client_fname)(buf, size, True); return; }
   buf[n] = 0;
}

static void write_run(LH_Json* j, const LH_Report* r)
{
   const LH_RunEnd* end = &r->end;
   HChar exe[VKI_PATH_MAX];
   Word i;
   ULong now_ms = unix_ms_now();

   LH_(json_object_begin)(j, "run");
   LH_(json_array_begin)(j, "command");
   LH_(json_string)(j, NULL, VG_(args_the_exename));
   for (i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++)
      LH_(json_string)(j, NULL, *(HChar**)VG_(indexXA)(VG_(args_for_client), i));
   LH_(json_array_end)(j);
   client_executable(exe, sizeof(exe));
   LH_(json_string)(j, "executable", exe[0] ? exe : NULL);
   LH_(json_i64)(j, "pid", VG_(getpid)());
   LH_(json_i64)(j, "ppid", VG_(getppid)());
   LH_(json_u64)(j, "started_at_unix_ms", LH_(start_unix_ms));
   LH_(json_u64)(j, "wall_time_ms",
                 now_ms > LH_(start_unix_ms) ? now_ms - LH_(start_unix_ms) : 0);
   LH_(json_string)(j, "time_unit", "instructions");
   LH_(json_u64)(j, "duration", r->totals.duration);
   LH_(json_u64)(j, "threads", r->totals.threads);

   LH_(json_object_begin)(j, "exit");
   switch (end->kind) {
      case LH_EndExited:
         LH_(json_string)(j, "status", "exited");
         LH_(json_i64)(j, "code", end->exit_code);
         break;
      case LH_EndSignal:
         LH_(json_string)(j, "status", "signal");
         if (end->signal > 0) LH_(json_i64)(j, "signal", end->signal);
         else                 LH_(json_null)(j, "signal");
         LH_(json_string)(j, "signal_name", signal_name(end->signal));
         break;
      case LH_EndRunning:
         LH_(json_string)(j, "status", "running");
         break;
   }
   LH_(json_object_end)(j);
   LH_(json_bool)(j, "complete", end->kind != LH_EndRunning);
   LH_(json_string)(j, "dump_reason", end->dump_reason);
   LH_(json_object_begin)(j, "options");
   LH_(options_write_json)(j);
   LH_(json_object_end)(j);
   LH_(json_object_end)(j);
}

static void write_globals(LH_Json* j, const LH_ReportTotals* t)
{
   LH_(json_object_begin)(j, "totals");
   LH_(json_u64)(j, "blocks", t->heap.total_blocks);
   LH_(json_u64)(j, "bytes", t->heap.total_bytes);
   LH_(json_u64)(j, "frees", t->heap.total_frees);
   LH_(json_u64)(j, "reallocs", t->heap.total_reallocs);
   LH_(json_u64)(j, "realloc_requested_bytes", t->heap.total_realloc_requested_bytes);
   LH_(json_u64)(j, "realloc_bytes_copied", t->heap.total_realloc_bytes_copied);
   LH_(json_u64)(j, "realloc_growth_bytes", t->heap.total_realloc_growth_bytes);
   LH_(json_u64)(j, "bytes_read", t->bytes_read);
   LH_(json_u64)(j, "bytes_written", t->bytes_written);
   LH_(json_u64)(j, "invalid_frees", t->heap.invalid_frees);
   LH_(json_u64)(j, "invalid_reallocs", t->heap.invalid_reallocs);
   LH_(json_object_end)(j);

   LH_(json_object_begin)(j, "peak");
   LH_(json_u64)(j, "bytes", t->heap.peak_bytes);
   LH_(json_u64)(j, "blocks", t->heap.peak_blocks);
   LH_(json_u64)(j, "time", t->heap.peak_time);
   LH_(json_object_end)(j);

   LH_(json_object_begin)(j, "at_exit");
   LH_(json_u64)(j, "bytes", t->heap.curr_bytes);
   LH_(json_u64)(j, "blocks", t->heap.curr_blocks);
   LH_(json_object_end)(j);
}

static void write_document(LH_Json* j, const LH_Report* r)
{
   UInt i;
   LH_(json_object_begin)(j, NULL);
   LH_(json_string)(j, "format", "lifeheap-profile");
   LH_(json_u64)(j, "format_version", LH_FORMAT_VERSION);
   LH_(json_object_begin)(j, "tool");
   LH_(json_string)(j, "name", "lifeheap");
   LH_(json_string)(j, "version", LIFEHEAP_VERSION);
   LH_(json_string)(j, "valgrind_version", LIFEHEAP_VALGRIND_VERSION);
   LH_(json_object_end)(j);
   write_run(j, r);
   write_globals(j, &r->totals);
   LH_(frames_write_json)(j);
   LH_(site_json_begin)(j, r);
   LH_(json_array_begin)(j, "sites");
   for (i = 0; i < r->n_sites; i++)
      LH_(site_json_write)(j, r->sites[i], LH_(report_site_notes)(r, i));
   LH_(json_array_end)(j);
   LH_(site_json_end)();
   LH_(timeline_write_json)(j);
   LH_(shapes_write_run)(j);
   LH_(findings_write_json)(j);
   LH_(json_object_end)(j);
}

/*------------------------------------------------------------*/
/*--- Writing the file                                     ---*/
/*------------------------------------------------------------*/

Bool LH_(report_write_json)(const LH_Report* report, const HChar* path)
{
   LH_OutFile out;
   LH_Json* j;
   Bool ok, io_failed;

   /* An exclusive temporary file beside the target, renamed over it; or,
      for a device or a FIFO, written through (lh_outfile.c). */
   if (!LH_(outfile_open)(path, &out)) return False;
   j = LH_(json_open)(out.fd);
   write_document(j, report);
   LH_(json_flush)(j);
   io_failed = LH_(json_failed)(j);
   ok = LH_(json_close)(j);
   if (!ok) {
      if (io_failed)
         VG_(umsg)("lifeheap: error: writing %s failed (disk full or I/O "
                   "error); no profile written\n",
                   out.temporary ? out.temporary : path);
      else
         VG_(umsg)("lifeheap: internal error: the profile's JSON was not "
                   "well formed; no profile written (please report)\n");
      LH_(outfile_abort)(&out);
      return False;
   }
   return LH_(outfile_commit)(&out);
}
