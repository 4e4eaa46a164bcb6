/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_dwarf_names.c: inline chains and names from the ---*/
/*--- DWARF, through the lifeheap-symbolize helper.                ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Valgrind 3.19 names an inlined frame by the DW_AT_name of its abstract
   origin ("new", "with_capacity_in<u8>", "{closure#0}"), without the type
   or module it belongs to, and cannot follow an abstract origin into
   another compilation unit at all: such a frame reads "UnknownInlinedFun".
   Both are the rule, not the exception, in Rust built the usual way
   (release, many codegen units, std inlined everywhere).

   The tool has no C library and cannot link a DWARF reader, so at output
   time it asks a helper program built from this repository that links
   elfutils' libdw (cli/symbolize.c, installed as
   <libexecdir>/lifeheap/lifeheap-symbolize):

     1. every queried code address is turned into (object file, link-time
        address) with Valgrind's DebugInfo (address minus the object's text
        bias) and written, grouped by object, to a request file in the
        temporary directory;
     2. the helper runs natively (VG_(fork) + VG_(execv): Valgrind's
        environment is removed, the client's is kept) and writes, per
        address, the inline chain: linkage name, source path and line of
        each level, innermost first;
     3. the answers are read back and each linkage name is demangled with
        Valgrind's own demangler (VG_(demangle)), the one that names every
        other frame, so inlined and outlined frames of one function read
        alike.

   The helper is looked for beside the tool (VG_(libdir): the build tree's
   tool/vglib links it there for the tests), then at the path configure
   installed it to; --lifeheap-symbolizer=<path> picks another and
   --lifeheap-symbolizer=no turns this off.  When the helper is missing or
   fails, frames keep Valgrind's names and the tool says so once on stderr.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "lh_include.h"
#include "lh_dwarf_names.h"
#include "lh_core.h"   /* VG_(demangle) */


#ifndef LIFEHEAP_SYMBOLIZER
#define LIFEHEAP_SYMBOLIZER "/usr/local/libexec/lifeheap/lifeheap-symbolize"
#endif

static const HChar* clo_symbolizer = NULL;   /* NULL: look for it */
static Bool said_unavailable = False;
static HChar used_symbolizer[VKI_PATH_MAX];  /* the helper last run, "" none */

Bool LH_(dwarf_names_process_option)(const HChar* arg)
{
   const HChar* value;
   if VG_STR_CLO(arg, "--lifeheap-symbolizer", value) {
      /* A relative path would depend on the directory the program runs
         in by the time the profile is written. */
      if (VG_(strcmp)(value, "no") != 0 && value[0] != '/')
         VG_(fmsg_bad_option)(arg, "Invalid helper '%s': give an absolute "
                              "path, or 'no'\n", value);
      clo_symbolizer = value;
      return True;
   }
   return False;
}

const HChar* LH_(dwarf_names_helper)(void)
{
   return used_symbolizer[0] ? used_symbolizer : NULL;
}

static Bool is_executable_file(const HChar* path)
{
   struct vg_stat st;
   SysRes sr = VG_(stat)(path, &st);
   return !sr_isError(sr) && VKI_S_ISREG(st.mode) && (st.mode & 0111);
}

/* The helper to run, in buf; False when there is none. */
static Bool find_helper(HChar* buf, SizeT size)
{
   if (clo_symbolizer != NULL) {
      if (VG_(strcmp)(clo_symbolizer, "no") == 0) return False;
      VG_(snprintf)(buf, size, "%s", clo_symbolizer);
      return is_executable_file(buf);
   }
   VG_(snprintf)(buf, size, "%s/lifeheap-symbolize", VG_(libdir));
   if (is_executable_file(buf)) return True;
   VG_(snprintf)(buf, size, "%s", LIFEHEAP_SYMBOLIZER);
   return is_executable_file(buf);
}

static void say_unavailable(const HChar* why)
{
   if (said_unavailable) return;
   said_unavailable = True;
   VG_(umsg)("lifeheap: note: %s: inlined frames keep Valgrind's names "
             "(short, or \"UnknownInlinedFun\")\n", why);
}

/*------------------------------------------------------------*/
/*--- The request                                          ---*/
/*------------------------------------------------------------*/

typedef struct {
   UInt         query;      /* index into the caller's queries */
   const HChar* object;     /* Valgrind's file name of the object */
   Addr         link_address;
} LH_Request;

static Int compare_requests(const void* pa, const void* pb)
{
   const LH_Request* a = pa;
   const LH_Request* b = pb;
   Int order = VG_(strcmp)(a->object, b->object);
   if (order == 0) order = LH_(compare_u64)(a->link_address, b->link_address);
   if (order == 0) order = LH_(compare_u64)(a->query, b->query);
   return order;
}

/* A buffered writer over a file descriptor. */
typedef struct { Int fd; HChar buf[4096]; UInt used; Bool failed; } LH_Out;

static void out_flush(LH_Out* o)
{
   if (o->used > 0 && VG_(write)(o->fd, o->buf, o->used) != (Int)o->used)
      o->failed = True;
   o->used = 0;
}

static void out_text(LH_Out* o, const HChar* text)
{
   for (; *text; text++) {
      if (o->used == sizeof(o->buf)) out_flush(o);
      o->buf[o->used++] = *text;
   }
}

/* A path that may go on a request line: no newline in it. */
static Bool plain_path(const HChar* path)
{
   return path[0] == '/' && VG_(strchr)(path, '\n') == NULL;
}

static Int create_private_file(const HChar* path)
{
   SysRes sr = VG_(open)(path, VKI_O_CREAT | VKI_O_EXCL | VKI_O_WRONLY, 0600);
   return sr_isError(sr) ? -1 : (Int)sr_Res(sr);
}

/* Writes the requests; False when the file could not be written. */
static Bool write_request(const HChar* path, LH_Request* requests, UInt n)
{
   LH_Out out;
   UInt i;
   const HChar* object = NULL;
   out.fd = create_private_file(path);
   out.used = 0;
   out.failed = False;
   if (out.fd < 0) return False;
   for (i = 0; i < n; i++) {
      HChar line[64];
      if (object == NULL || VG_(strcmp)(object, requests[i].object) != 0) {
         object = requests[i].object;
         out_text(&out, "O ");
         out_text(&out, object);
         out_text(&out, "\n");
      }
      VG_(sprintf)(line, "A %lx\n", requests[i].link_address);
      out_text(&out, line);
   }
   out_flush(&out);
   VG_(close)(out.fd);
   return !out.failed;
}

/*------------------------------------------------------------*/
/*--- Running the helper                                   ---*/
/*------------------------------------------------------------*/

/* Runs helper request response; True when it exited with status 0. */
static Bool run_helper(const HChar* helper, const HChar* request,
                       const HChar* response)
{
   Int pid, status = 0;
   pid = VG_(fork)();
   if (pid < 0) return False;
   if (pid == 0) {
      const HChar* argv[4];
      argv[0] = helper;
      argv[1] = request;
      argv[2] = response;
      argv[3] = NULL;
      VG_(execv)(helper, argv);
      VG_(exit)(127);                   /* exec failed */
   }
   while (VG_(waitpid)(pid, &status, 0) < 0) {
      /* interrupted: wait again */
   }
   /* Exited normally (low 7 bits 0) with status 0. */
   return (status & 0x7f) == 0 && ((status >> 8) & 0xff) == 0;
}

/* The whole file, NUL-terminated; NULL when it cannot be read. */
static HChar* read_file(const HChar* path)
{
   struct vg_stat st;
   SysRes sr = VG_(open)(path, VKI_O_RDONLY, 0);
   Int fd;
   HChar* text;
   SizeT done = 0;
   if (sr_isError(sr)) return NULL;
   fd = (Int)sr_Res(sr);
   if (VG_(fstat)(fd, &st) != 0) { VG_(close)(fd); return NULL; }
   text = VG_(malloc)("lh.dwarf.response", st.size + 1);
   while (done < (SizeT)st.size) {
      Int got = VG_(read)(fd, text + done, (Int)(st.size - done));
      if (got <= 0) break;
      done += got;
   }
   VG_(close)(fd);
   text[done] = 0;
   return text;
}

/*------------------------------------------------------------*/
/*--- The response                                         ---*/
/*------------------------------------------------------------*/

/* Copies a demangled, hash-free name. */
static HChar* demangled_copy(const HChar* name)
{
   const HChar* shown = name;
   if (VG_(strcmp)(name, "-") == 0) return NULL;
   VG_(demangle)(True, False, name, &shown);
   return VG_(strdup)("lh.dwarf.name", shown ? shown : name);
}

/* Parses "L <line>\t<name>\t<path>" into a level. */
static Bool parse_level(HChar* text, LH_DwarfLevel* level)
{
   HChar* name;
   HChar* path;
   HChar* tab;
   level->line = (UInt)VG_(strtoull10)(text, &name);
   if (*name != '\t') return False;
   name++;
   tab = VG_(strchr)(name, '\t');
   if (tab == NULL) return False;
   *tab = 0;
   path = tab + 1;
   level->function = demangled_copy(name);
   level->path = path[0] ? VG_(strdup)("lh.dwarf.path", path) : NULL;
   return True;
}

/* Hands the levels read for one address to its query. */
static void finish_query(LH_DwarfQuery* q, XArray* levels)
{
   q->n_levels = (UInt)VG_(sizeXA)(levels);
   q->levels = NULL;
   if (q->n_levels > 0) {
      q->levels = VG_(malloc)("lh.dwarf.levels",
                              q->n_levels * sizeof(LH_DwarfLevel));
      VG_(memcpy)(q->levels, VG_(indexXA)(levels, 0),
                  q->n_levels * sizeof(LH_DwarfLevel));
   }
   VG_(deleteXA)(levels);
}

/* Reads the response into queries, in the order of requests.  An answer
   out of step with the requests ends the reading: what came before is
   kept, the rest keeps Valgrind's names. */
static void apply_response(HChar* text, const LH_Request* requests, UInt n,
                           LH_DwarfQuery* queries)
{
   HChar* line = text;
   Int current = -1;          /* index into requests of the last A line */
   XArray* levels = NULL;     /* the levels read for requests[current] */
   while (line && *line) {
      HChar* end = VG_(strchr)(line, '\n');
      if (end) *end = 0;
      if (line[0] == 'A' && line[1] == ' ') {
         if (levels) finish_query(&queries[requests[current].query], levels);
         levels = NULL;
         current++;
         if (current >= (Int)n
             || VG_(strtoull16)(line + 2, NULL) != requests[current].link_address)
            break;
         levels = VG_(newXA)(VG_(malloc), "lh.dwarf.parse", VG_(free),
                             sizeof(LH_DwarfLevel));
      } else if (line[0] == 'L' && line[1] == ' ' && levels) {
         LH_DwarfLevel level;
         if (parse_level(line + 2, &level)) VG_(addToXA)(levels, &level);
      }
      line = end ? end + 1 : NULL;
   }
   if (levels) finish_query(&queries[requests[current].query], levels);
}

/*------------------------------------------------------------*/
/*--- Entry point                                          ---*/
/*------------------------------------------------------------*/

void LH_(dwarf_names_resolve)(LH_DwarfQuery* queries, UInt n)
{
   static UInt run_number = 0;
   HChar helper[VKI_PATH_MAX];
   HChar request[VKI_PATH_MAX], response[VKI_PATH_MAX];
   LH_Request* requests;
   UInt i, n_requests = 0;
   HChar* text;

   for (i = 0; i < n; i++) { queries[i].n_levels = 0; queries[i].levels = NULL; }
   if (n == 0) return;
   used_symbolizer[0] = 0;
   if (!find_helper(helper, sizeof(helper))) {
      if (clo_symbolizer == NULL || VG_(strcmp)(clo_symbolizer, "no") != 0) {
         HChar why[VKI_PATH_MAX + 64];
         VG_(snprintf)(why, sizeof(why), "the DWARF helper %s is missing",
                       clo_symbolizer ? clo_symbolizer : LIFEHEAP_SYMBOLIZER);
         say_unavailable(why);
      }
      return;
   }

   /* 1. (object, link-time address) of each query. */
   requests = VG_(malloc)("lh.dwarf.requests", (n + 1) * sizeof(LH_Request));
   for (i = 0; i < n; i++) {
      DebugInfo* di = VG_(find_DebugInfo)(queries[i].ep, queries[i].ip);
      const HChar* object = di ? VG_(DebugInfo_get_filename)(di) : NULL;
      if (object == NULL || !plain_path(object)) continue;
      requests[n_requests].query = i;
      requests[n_requests].object = object;
      requests[n_requests].link_address =
         queries[i].ip - (Addr)VG_(DebugInfo_get_text_bias)(di);
      n_requests++;
   }
   VG_(ssort)(requests, n_requests, sizeof(LH_Request), compare_requests);

   VG_(snprintf)(request, sizeof(request), "%s/lifeheap-symbols-%d-%u.request",
                 VG_(tmpdir)(), VG_(getpid)(), run_number);
   VG_(snprintf)(response, sizeof(response), "%s/lifeheap-symbols-%d-%u.response",
                 VG_(tmpdir)(), VG_(getpid)(), run_number);
   run_number++;
   if (n_requests == 0) { VG_(free)(requests); return; }
   if (!write_request(request, requests, n_requests)) {
      VG_(unlink)(request);
      say_unavailable("cannot write the DWARF helper's request in the "
                      "temporary directory");
      VG_(free)(requests);
      return;
   }

   /* 2. The helper. */
   if (!run_helper(helper, request, response)) {
      HChar why[VKI_PATH_MAX + 64];
      VG_(unlink)(request);
      VG_(unlink)(response);
      VG_(snprintf)(why, sizeof(why), "the DWARF helper %s failed", helper);
      say_unavailable(why);
      VG_(free)(requests);
      return;
   }
   VG_(unlink)(request);

   /* 3. The answers. */
   text = read_file(response);
   VG_(unlink)(response);
   if (text == NULL) {
      say_unavailable("the DWARF helper's answer could not be read");
      VG_(free)(requests);
      return;
   }
   apply_response(text, requests, n_requests, queries);
   VG_(free)(text);
   VG_(free)(requests);
   VG_(snprintf)(used_symbolizer, sizeof(used_symbolizer), "%s", helper);
}

void LH_(dwarf_query_free)(LH_DwarfQuery* q)
{
   UInt k;
   for (k = 0; k < q->n_levels; k++) {
      if (q->levels[k].function) VG_(free)(q->levels[k].function);
      if (q->levels[k].path) VG_(free)(q->levels[k].path);
   }
   if (q->levels) VG_(free)(q->levels);
   q->levels = NULL;
   q->n_levels = 0;
}
