/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_output.c: the JSON profile (docs/format.md) and ---*/
/*--- the summary on stderr.                                       ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Writing a profile:
     1. every site's output figures are made current (LH_(sites_finalize)),
     2. sites are sorted (bytes at the peak, total bytes, stack addresses:
        a stable order across runs) and numbered,
     3. the frame table is built in first-use order of the sorted sites,
        and each site gets its label (lh_labels.c),
     4. the timeline is closed and the findings computed,
     5. the document goes to an exclusive temporary file beside the target,
        renamed over it only when every byte was written: a reader never
        sees half a profile, and a failure leaves no file behind.  A device
        or a FIFO (/dev/null, /dev/stdout) is written through, never
        replaced (lh_outfile.c).
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
#include "lh_text.h"
#include "lh_outfile.h"

#define LH_FORMAT_VERSION 1
#define LH_SUMMARY_TOP_SITES 5

/* The sorted sites of the latest write, for the summary. */
static LH_Site** sorted_sites = NULL;
static UInt      n_sorted_sites = 0;

/*------------------------------------------------------------*/
/*--- Sorting                                              ---*/
/*------------------------------------------------------------*/

static Int compare_sites(const void* pa, const void* pb)
{
   const LH_Site* a = *(LH_Site* const*)pa;
   const LH_Site* b = *(LH_Site* const*)pb;
   if (a->bytes_at_peak != b->bytes_at_peak)
      return a->bytes_at_peak > b->bytes_at_peak ? -1 : 1;
   if (a->total_bytes != b->total_bytes)
      return a->total_bytes > b->total_bytes ? -1 : 1;
   return LH_(stack_compare)(a->ec, b->ec);
}

static void sort_sites(void)
{
   UInt i;
   if (sorted_sites) VG_(free)(sorted_sites);
   n_sorted_sites = LH_(n_sites)();
   sorted_sites = VG_(malloc)("lh.output.sorted",
                              (n_sorted_sites + 1) * sizeof(LH_Site*));
   for (i = 0; i < n_sorted_sites; i++) sorted_sites[i] = LH_(site_at)(i);
   VG_(ssort)(sorted_sites, n_sorted_sites, sizeof(LH_Site*), compare_sites);
   for (i = 0; i < n_sorted_sites; i++) sorted_sites[i]->id = i;
}

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
   on it (VG_(client_fname) would give only the base name). */
extern Int VG_(cl_exec_fd);
static void client_executable(HChar* buf, SizeT size)
{
   HChar link[64];
   SSizeT n;
   VG_(sprintf)(link, "/proc/self/fd/%d", VG_(cl_exec_fd));
   n = VG_(readlink)(link, buf, size - 1);
   if (n <= 0) { VG_(client_fname)(buf, size, True); return; }
   buf[n] = 0;
}

static void write_run(LH_Json* j, const LH_RunEnd* end)
{
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
   LH_(json_u64)(j, "duration", LH_(now));
   LH_(json_u64)(j, "threads", LH_(threads_ever)());

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
   LH_(write_run_options_json)(j);
   LH_(json_object_end)(j);
   LH_(json_object_end)(j);
}

static void write_globals(LH_Json* j)
{
   LH_(json_object_begin)(j, "totals");
   LH_(json_u64)(j, "blocks", LH_(total_blocks));
   LH_(json_u64)(j, "bytes", LH_(total_bytes));
   LH_(json_u64)(j, "frees", LH_(total_frees));
   LH_(json_u64)(j, "reallocs", LH_(total_reallocs));
   LH_(json_u64)(j, "realloc_requested_bytes", LH_(total_realloc_requested_bytes));
   LH_(json_u64)(j, "realloc_bytes_copied", LH_(total_realloc_bytes_copied));
   LH_(json_u64)(j, "realloc_growth_bytes", LH_(total_realloc_growth_bytes));
   LH_(json_u64)(j, "bytes_read", LH_(access_total_read)());
   LH_(json_u64)(j, "bytes_written", LH_(access_total_written)());
   LH_(json_u64)(j, "invalid_frees", LH_(invalid_frees));
   LH_(json_u64)(j, "invalid_reallocs", LH_(invalid_reallocs));
   LH_(json_object_end)(j);

   LH_(json_object_begin)(j, "peak");
   LH_(json_u64)(j, "bytes", LH_(peak_bytes));
   LH_(json_u64)(j, "blocks", LH_(peak_blocks));
   LH_(json_u64)(j, "time", LH_(peak_time));
   LH_(json_object_end)(j);

   LH_(json_object_begin)(j, "at_exit");
   LH_(json_u64)(j, "bytes", LH_(curr_bytes));
   LH_(json_u64)(j, "blocks", LH_(curr_blocks));
   LH_(json_object_end)(j);
}

static void write_site(LH_Json* j, LH_Site* s)
{
   UInt k, last_bucket = 0;
   LH_(json_object_begin)(j, NULL);
   LH_(json_u64)(j, "id", s->id);
   LH_(json_u64)(j, "serial", s->serial);
   LH_(json_array_begin)(j, "stack");
   for (k = 0; k < s->n_frames; k++) LH_(json_u64)(j, NULL, s->frame_ids[k]);
   LH_(json_array_end)(j);
   LH_(json_u64)(j, "name_frame", s->name_frame);
   LH_(json_string)(j, "label", s->label);
   LH_(json_bool)(j, "runtime_only", s->runtime_only);
   LH_(json_u64)(j, "total_blocks", s->total_blocks);
   LH_(json_u64)(j, "total_bytes", s->total_bytes);
   LH_(json_u64)(j, "bytes_at_peak", s->bytes_at_peak);
   LH_(json_u64)(j, "blocks_at_peak", s->blocks_at_peak);
   LH_(json_u64)(j, "max_bytes", s->max_bytes);
   LH_(json_u64)(j, "max_blocks", s->max_blocks);
   LH_(json_u64)(j, "max_time", s->max_time);
   LH_(json_u64)(j, "bytes_at_exit", s->bytes_at_exit);
   LH_(json_u64)(j, "blocks_at_exit", s->blocks_at_exit);
   LH_(json_u64)(j, "freed_blocks", s->freed_blocks);

   LH_(json_object_begin)(j, "lifetime");
   LH_(json_u64)(j, "sum", s->lifetime_sum);
   LH_(json_u64)(j, "min", s->lifetime_min);
   LH_(json_u64)(j, "max", s->lifetime_max);
   last_bucket = LH_(histogram_end)(&s->lifetime_histogram);
   LH_(json_array_begin)(j, "histogram");
   for (k = 0; k < last_bucket; k++)
      LH_(json_u64)(j, NULL, LH_(histogram_at)(&s->lifetime_histogram, k));
   LH_(json_array_end)(j);
   LH_(json_object_end)(j);
   LH_(shapes_write_site)(j, s);

   LH_(json_u64)(j, "reallocs", s->reallocs);
   LH_(json_u64)(j, "realloc_requested_bytes", s->realloc_requested_bytes);
   LH_(json_u64)(j, "realloc_bytes_copied", s->realloc_bytes_copied);
   LH_(json_u64)(j, "realloc_growth_bytes", s->realloc_growth_bytes);
   LH_(json_u64)(j, "first_alloc_time", s->first_alloc_time);
   LH_(json_u64)(j, "last_alloc_time", s->last_alloc_time);
   LH_(json_u64)(j, "allocating_threads", s->allocating_threads);
   LH_(json_u64)(j, "cross_thread_frees", s->cross_thread_frees);
   LH_(json_object_begin)(j, "zero_size_blocks");
   LH_(json_u64)(j, "total", s->zero_size_total);
   LH_(json_u64)(j, "at_peak", s->zero_size_at_peak);
   LH_(json_u64)(j, "at_exit", s->zero_size_at_exit);
   LH_(json_object_end)(j);
   LH_(allocator_frames_write_json)(j, s);
   LH_(access_write_site_json)(j, s);
   LH_(site_timeline_write_json)(j, s);
   LH_(json_object_end)(j);
}

static void write_document(LH_Json* j, const LH_RunEnd* end)
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
   write_run(j, end);
   write_globals(j);
   LH_(frames_write_json)(j);
   LH_(json_array_begin)(j, "sites");
   for (i = 0; i < n_sorted_sites; i++) write_site(j, sorted_sites[i]);
   LH_(json_array_end)(j);
   LH_(timeline_write_json)(j);
   LH_(shapes_write_run)(j);
   LH_(findings_write_json)(j);
   LH_(json_object_end)(j);
}

/*------------------------------------------------------------*/
/*--- Writing the file                                     ---*/
/*------------------------------------------------------------*/

Bool LH_(write_profile)(const HChar* path, const LH_RunEnd* end)
{
   LH_OutFile out;
   LH_Json* j;
   Bool ok, io_failed;

   /* Steps 1-4: figures, order, frames, timeline and findings. */
   LH_(sites_finalize)();
   sort_sites();
   LH_(frames_reset)();
   LH_(frames_build)(sorted_sites, n_sorted_sites);
   LH_(labels_build)(sorted_sites, n_sorted_sites);
   LH_(timeline_finish)();
   LH_(findings_compute)(sorted_sites, n_sorted_sites);

   /* Step 5: an exclusive temporary file beside the target, renamed over
      it; or, for a device or a FIFO, written through (lh_outfile.c). */
   if (!LH_(outfile_open)(path, &out)) return False;
   j = LH_(json_open)(out.fd);
   write_document(j, end);
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

/*------------------------------------------------------------*/
/*--- The summary                                          ---*/
/*------------------------------------------------------------*/

/* Percentage with no decimals, of a part of a whole (0 when whole is 0). */
static UInt percent(ULong part, ULong whole)
{
   if (whole == 0) return 0;
   return (UInt)((part * 100.0) / whole + 0.5);
}

static const HChar* plural(ULong n, const HChar* one, const HChar* many)
{
   return n == 1 ? one : many;
}

/* The site's bytes live at the peak above the highest byte ever written
   (access.at_peak.unused_capacity_bytes; the folds are current once the
   profile has been written). */
static ULong unused_capacity_at_peak(const LH_Site* s)
{
   const LH_AccessFold* r = &s->access.retired;
   const LH_AccessFold* l = &s->access.live;
   return (r->at_peak_seq == LH_(peak_seq) ? r->at_peak_unused_capacity : 0)
          + (l->at_peak_seq == LH_(peak_seq) ? l->at_peak_unused_capacity : 0);
}

/* The site's bytes live at the peak that were never read nor written. */
static ULong never_accessed_at_peak(const LH_Site* s)
{
   const LH_AccessFold* r = &s->access.retired;
   const LH_AccessFold* l = &s->access.live;
   return (r->at_peak_seq == LH_(peak_seq) ? r->at_peak_never_accessed : 0)
          + (l->at_peak_seq == LH_(peak_seq) ? l->at_peak_never_accessed : 0);
}

/* A second line under a top site when its blocks were regrown by realloc
   or hold much capacity never written (USERS.md story 4: a rows vector
   doubled 12 times, a quarter of it empty at the end), so that why a site
   is big shows without opening the profile.  Each note needs 16 KiB of
   copies, of unused capacity or of untouched bytes (the last two a tenth
   of the site's bytes at the peak at least), or 1,000 tiny blocks: below
   that it is normal slack, not worth a line. */
#define LH_SUMMARY_NOTE_BYTES (16 * 1024)
static void print_site_note(const LH_Site* s)
{
   HChar copied[32], unused[32], line[256];
   ULong unused_bytes = unused_capacity_at_peak(s);
   Bool show_unused = unused_bytes >= LH_SUMMARY_NOTE_BYTES
                      && unused_bytes * 10 >= s->bytes_at_peak;
   Bool show_reallocs = s->realloc_bytes_copied >= LH_SUMMARY_NOTE_BYTES;
   /* Bytes never touched anywhere in the block (GNU sort's 80 MiB buffer,
      83% never touched, writes both ends): shown when the unused capacity
      above the written high-water mark does not already say it. */
   ULong untouched = never_accessed_at_peak(s);
   Bool show_untouched = untouched >= LH_SUMMARY_NOTE_BYTES
                         && untouched * 10 >= s->bytes_at_peak
                         && (!show_unused || unused_bytes * 2 < untouched);
   Int used = 0;
   /* Many blocks smaller than glibc's smallest chunk (32 bytes, 24 of them
      usable): the allocator's own overhead outweighs the data. */
   Bool show_small = s->blocks_at_peak >= 1000
                     && s->bytes_at_peak < 24 * s->blocks_at_peak;

   /* Nothing to act on in a site made only of runtime code (libstdc++'s
      emergency exception pool: 71 KiB never written in every C++ program). */
   if (s->runtime_only) return;
   if (!show_reallocs && !show_unused && !show_untouched && !show_small) return;
   line[0] = '\0';
   if (show_reallocs) {
      LH_(format_bytes)(copied, sizeof copied, s->realloc_bytes_copied);
      if (s->total_blocks > 1)
         used += VG_(snprintf)(line + used, sizeof(line) - used,
                               "grown by %'llu reallocs (%.1f per block), %s copied",
                               s->reallocs,
                               (double)s->reallocs / (double)s->total_blocks, copied);
      else
         used += VG_(snprintf)(line + used, sizeof(line) - used,
                               "grown by %'llu %s, %s copied", s->reallocs,
                               plural(s->reallocs, "realloc", "reallocs"), copied);
   }
   if (show_unused) {
      LH_(format_bytes)(unused, sizeof unused, unused_bytes);
      used += VG_(snprintf)(line + used, sizeof(line) - used,
                            "%s%s (%u%%) of it never written (unused capacity)",
                            used > 0 ? "; " : "", unused,
                            percent(unused_bytes, s->bytes_at_peak));
   }
   if (show_untouched) {
      HChar untouched_text[32];
      LH_(format_bytes)(untouched_text, sizeof untouched_text, untouched);
      used += VG_(snprintf)(line + used, sizeof(line) - used,
                            "%s%s (%u%%) of it never read nor written",
                            used > 0 ? "; " : "", untouched_text,
                            percent(untouched, s->bytes_at_peak));
   }
   if (show_small) {
      ULong tenths = (s->bytes_at_peak * 10 + s->blocks_at_peak / 2) / s->blocks_at_peak;
      used += VG_(snprintf)(line + used, sizeof(line) - used,
                            "%s%llu.%llu B per block on average: glibc's malloc "
                            "takes at least 32 B for each", used > 0 ? "; " : "",
                            tenths / 10, tenths % 10);
   }
   /* Under the "allocated in" column. */
   VG_(umsg)("%35s%s\n", "", line);
}

/* Frees and reallocs of pointers that were not live heap blocks: each
   one ignored, the first one named when it happened. */
static void print_invalid_counts(void)
{
   if (LH_(invalid_frees) == 0 && LH_(invalid_reallocs) == 0) return;
   VG_(umsg)("Invalid:      %'llu %s, %'llu %s of pointers that were not "
             "live heap blocks (ignored)\n",
             LH_(invalid_frees), plural(LH_(invalid_frees), "free", "frees"),
             LH_(invalid_reallocs),
             plural(LH_(invalid_reallocs), "realloc", "reallocs"));
}

void LH_(print_summary)(const HChar* path, Bool written)
{
   HChar a[32];
   UInt i, shown;
   const LH_Site* unnamed_object = NULL;   /* a top site named "???" */

   LH_(format_bytes)(a, sizeof a, LH_(total_bytes));
   VG_(umsg)("lifeheap: %'llu %s (%s) allocated, %'llu freed, %'llu %s; "
             "%'llu instructions run\n",
             LH_(total_blocks), plural(LH_(total_blocks), "block", "blocks"), a,
             LH_(total_frees), LH_(total_reallocs),
             plural(LH_(total_reallocs), "realloc", "reallocs"), LH_(now));
   print_invalid_counts();
   if (LH_(total_blocks) == 0) {
      VG_(umsg)("No heap blocks were allocated.\n");
      if (written) VG_(umsg)("Profile: %s\n", path);
      else VG_(umsg)("Profile: not written (see the error above)\n");
      return;
   }
   LH_(format_bytes)(a, sizeof a, LH_(peak_bytes));
   VG_(umsg)("Heap peak:    %s in %'llu %s, at %u%% of the run\n",
             a, LH_(peak_blocks), plural(LH_(peak_blocks), "block", "blocks"),
             percent(LH_(peak_time), LH_(now)));
   LH_(format_bytes)(a, sizeof a, LH_(curr_bytes));
   VG_(umsg)("Live at exit: %s in %'llu %s\n", a, LH_(curr_blocks),
             plural(LH_(curr_blocks), "block", "blocks"));

   /* The top sites with bytes at the peak. */
   for (shown = 0; shown < n_sorted_sites && shown < LH_SUMMARY_TOP_SITES; shown++)
      if (sorted_sites[shown]->bytes_at_peak == 0) break;
   if (shown > 0) {
      VG_(umsg)("Top sites at the peak (bytes, share of the peak, blocks, "
                "allocated in):\n");
      for (i = 0; i < shown; i++) {
         LH_Site* s = sorted_sites[i];
         const HChar* where = s->label ? s->label : "???";
         LH_(format_bytes)(a, sizeof a, s->bytes_at_peak);
         VG_(umsg)("  %10s %3u%% %'8llu %-6s  %s\n", a,
                   percent(s->bytes_at_peak, LH_(peak_bytes)), s->blocks_at_peak,
                   plural(s->blocks_at_peak, "block", "blocks"), where);
         print_site_note(s);
         if (unnamed_object == NULL && VG_(strncmp)(where, "??? (in ", 8) == 0)
            unnamed_object = s;
      }
      /* "???" means nothing to a stranger: say what it is, once. */
      if (unnamed_object != NULL) {
         HChar where[512];
         SizeT len;
         LH_(frame_describe)(unnamed_object->frame_ids[unnamed_object->name_frame],
                             where, sizeof(where));
         /* where is "??? (in /usr/bin/sort)": keep the object's path. */
         len = VG_(strlen)(where);
         if (len > 8 && where[len - 1] == ')') where[len - 1] = '\0';
         VG_(umsg)("\"???\" marks code without symbols, here in %s: its debug "
                   "symbols or a build with -g would name it.\n", where + 8);
      }
   }
   LH_(findings_print_summary)(LH_SUMMARY_TOP_SITES);
   if (written)
      VG_(umsg)("Profile: %s\n", path);
   else
      VG_(umsg)("Profile: not written (see the error above)\n");
}
