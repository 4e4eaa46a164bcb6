/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_blocks.c: --lifeheap-blocks=FILE, one record    ---*/
/*--- per block life, streamed as the program runs.                ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The profile keeps per-site aggregates; this file keeps every block, so
   that questions nobody foresaw can be asked later (`lifeheap sql`).

   When a record is written
   ------------------------
   A record describes one stretch of a block's life with one size, and is
   written when that stretch ends:

      malloc ─────────── realloc ─────────── realloc(moved) ───── free
      record 7: size 16   record 9: size 32    record 12: size 4096
      previous 0          previous 7           previous 9
      ended: realloc      ended: moved         ended: freed

   Record numbers count the records of the run in the order they are
   written (1, 2, ...), so a record's number is its position in the file
   (after a fork, see below).  A realloc ends the current record and the
   next one of the block names it as 'previous': the chain of a buffer
   grown 12 times is 13 records.  Blocks still live when the program ends
   get a record each, marked live, after which a trailer record says the
   file is complete.

   Bounded memory, nothing lost on a kill
   --------------------------------------
   Records go to a buffer of LH_BLOCKS_FLUSH_RECORDS records, written to
   the file whenever it is full, at every profile dump (the periodic
   --lifeheap-dump-interval, a vgdb dump, an exec) and at the end.  So
   the tool holds at most one buffer whatever the run's length, and a
   run killed by SIGKILL leaves a file holding every record of the
   buffers written before the kill: at least the first
   LH_BLOCKS_FLUSH_RECORDS * floor(records / LH_BLOCKS_FLUSH_RECORDS)
   records, each whole (a reader ignores a torn last record), and no
   trailer.

   What a block costs
   ------------------
   Nothing is added to the block record (lh_include.h) for this file.
   Size, site, birth time and allocating thread are there already; the
   bytes read and written are the counts of set shadow bits the access
   tracking keeps anyway (lh_access.h: read_bytes_set, written_bytes_set),
   and the first and last access times are kept for every block for the
   access figures.  Only a realloc's continuation needs more: the number
   of the record it continues, its own birth time and thread.  These sit
   in a side table indexed like the block records (by record number,
   LH_Block.shadow_index; blocks of every origin have one, lh_registry.c),
   which exists only when the option is on; a block that was never
   realloc'ed reads nothing from it but its 'previous' (0), which its
   birth resets, since its record may have been another block's.

   Sites are named by their serial (lh_sites.c: 1, 2, ... in order of
   first use), which every profile of the run writes as sites[].serial:
   the site ids of a profile are assigned when it is written (sorted), so
   they cannot be known when a record is.

   A forked child inherits the parent's open file and buffer: it drops
   the buffer (the parent writes those records), and opens its own file
   (the name's %p expands to its pid; a name without %p gets ".<pid>"
   appended), whose header says which record number it starts at.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"
#include "pub_tool_clientstate.h"
#include "lh_include.h"
#include "lh_core.h"
#include "lh_blocks.h"
#include "lh_options.h"

/* The file format (docs/format.md). */
#define LH_BLOCKS_MAGIC          "LHBLOCKS"
#define LH_BLOCKS_VERSION        1
#define LH_BLOCKS_HEADER_BYTES   64
#define LH_BLOCKS_RECORD_BYTES   80
#define LH_BLOCKS_FLUSH_RECORDS  1024

/* Record flags. */
#define LH_BLOCK_FLAG_LIVE       0x1u    /* live at the end; death = end */
#define LH_BLOCK_FLAG_ACCESSED   0x2u    /* first/last access are valid */
#define LH_BLOCK_FLAG_REALLOC    0x4u    /* ended by a realloc */
#define LH_BLOCK_FLAG_MOVED      0x8u    /* ... that moved the block */
#define LH_BLOCK_FLAG_CUSTOM     0x10u   /* a custom allocator's block */
#define LH_BLOCK_FLAG_TRAILER    0x80000000u   /* the last record */

#ifndef VKI_O_NOFOLLOW
#define VKI_O_NOFOLLOW 0400000           /* Linux, x86 and amd64 */
#endif

Bool LH_(blocks_on) = False;

static const HChar* clo_blocks_file = NULL;   /* as given */
static HChar* blocks_path = NULL;             /* expanded */
static Int    blocks_fd = -1;
static UChar* buffer = NULL;                  /* FLUSH_RECORDS records */
static UInt   buffered = 0;
static ULong  records_written = 0;   /* numbered so far (buffered too) */
static ULong  first_record = 1;      /* this file's first record number */
static ULong  live_records = 0;
static Bool   write_failed = False;

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

Bool LH_(blocks_process_option)(const HChar* arg)
{
   if (!LH_(file_name_option)(arg, "--lifeheap-blocks", &clo_blocks_file))
      return False;
   LH_(blocks_on) = True;
   return True;
}

void LH_(blocks_write_options_json)(LH_Json* j)
{
   LH_(json_string)(j, "blocks_file", blocks_path);   /* null when off */
}

/*------------------------------------------------------------*/
/*--- Encoding                                             ---*/
/*------------------------------------------------------------*/

static void put_u32(UChar* at, UInt v)
{
   UInt i;
   for (i = 0; i < 4; i++) at[i] = (UChar)(v >> (8 * i));
}

static void put_u64(UChar* at, ULong v)
{
   UInt i;
   for (i = 0; i < 8; i++) at[i] = (UChar)(v >> (8 * i));
}

/* Writes all of n bytes; False on an error. */
static Bool write_all(const UChar* data, SizeT n)
{
   while (n > 0) {
      Int chunk = n > 0x40000000 ? 0x40000000 : (Int)n;
      Int done = VG_(write)(blocks_fd, data, chunk);
      if (done <= 0) return False;
      data += done;
      n -= (SizeT)done;
   }
   return True;
}

static void write_header(void)
{
   UChar h[LH_BLOCKS_HEADER_BYTES];
   VG_(memset)(h, 0, sizeof(h));
   VG_(memcpy)(h, LH_BLOCKS_MAGIC, 8);
   put_u32(h + 8, LH_BLOCKS_VERSION);
   put_u32(h + 12, LH_BLOCKS_HEADER_BYTES);
   put_u32(h + 16, LH_BLOCKS_RECORD_BYTES);
   put_u32(h + 20, LH_BLOCKS_FLUSH_RECORDS);
   put_u32(h + 24, (UInt)VG_(getpid)());
   put_u32(h + 28, (UInt)VG_(getppid)());
   put_u64(h + 32, LH_(start_unix_ms));
   put_u64(h + 40, first_record);
   if (!write_all(h, sizeof(h))) write_failed = True;
}

/* A write error (a full disk) stops the file where it is: the records
   written so far stay readable, and the run goes on. */
static void note_write_failure(void)
{
   if (write_failed) return;
   write_failed = True;
   VG_(umsg)("lifeheap: warning: could not write to the block file %s "
             "(disk full?); it ends at the last records written\n",
             blocks_path);
}

void LH_(blocks_flush)(void)
{
   if (!LH_(blocks_on) || blocks_fd < 0 || buffered == 0) return;
   if (!write_failed
       && !write_all(buffer, (SizeT)buffered * LH_BLOCKS_RECORD_BYTES))
      note_write_failure();
   buffered = 0;
}

static UChar* next_slot(void)
{
   if (buffered == LH_BLOCKS_FLUSH_RECORDS) LH_(blocks_flush)();
   return buffer + (SizeT)(buffered++) * LH_BLOCKS_RECORD_BYTES;
}

ULong LH_(blocks_write)(const LH_BlockLife* life, LH_BlockEnding ending,
                        UInt end_thread)
{
   UChar* r;
   UInt flags = 0;
   if (blocks_fd < 0) return 0;
   if (life->accessed) flags |= LH_BLOCK_FLAG_ACCESSED;
   if (life->custom)   flags |= LH_BLOCK_FLAG_CUSTOM;
   switch (ending) {
      case LH_BlockFreed:       break;
      case LH_BlockReallocated: flags |= LH_BLOCK_FLAG_REALLOC; break;
      case LH_BlockMoved:       flags |= LH_BLOCK_FLAG_REALLOC
                                         | LH_BLOCK_FLAG_MOVED; break;
      case LH_BlockLiveAtEnd:   flags |= LH_BLOCK_FLAG_LIVE;
                                end_thread = 0;
                                live_records++; break;
   }
   r = next_slot();
   put_u64(r + 0,  life->previous);
   put_u64(r + 8,  life->birth);
   put_u64(r + 16, LH_(now));                       /* death, or the end */
   put_u64(r + 24, life->size);
   put_u64(r + 32, life->accessed ? life->first_access : 0);
   put_u64(r + 40, life->accessed ? life->last_access : 0);
   put_u64(r + 48, life->bytes_read);
   put_u64(r + 56, life->bytes_written);
   put_u32(r + 64, life->site_serial);
   put_u32(r + 68, life->alloc_thread);
   put_u32(r + 72, end_thread);
   put_u32(r + 76, flags);
   return ++records_written;
}

/*------------------------------------------------------------*/
/*--- Blocks: the side table of realloc continuations      ---*/
/*------------------------------------------------------------*/

/* For the block record of the same number: the record it continues (0:
   none, then birth and thread are the block's own alloc_time and
   alloc_thread) and, after a realloc, that realloc's time and thread. */
typedef struct {
   ULong previous;
   ULong birth;
   UInt  thread;
} Continuation;

#define SIDE_PAGE_BITS 10
#define SIDE_PAGE_SIZE (1u << SIDE_PAGE_BITS)
static Continuation** side_pages = NULL;
static UInt           side_pages_n = 0;

static Continuation* continuation_of(UInt index)
{
   UInt page = index >> SIDE_PAGE_BITS;
   LH_(grow_zeroed_table)((void***)&side_pages, &side_pages_n, page, 64,
                          "lh.blocks.side");
   if (side_pages[page] == NULL) {
      side_pages[page] = VG_(malloc)("lh.blocks.page",
                                     SIDE_PAGE_SIZE * sizeof(Continuation));
      VG_(memset)(side_pages[page], 0, SIDE_PAGE_SIZE * sizeof(Continuation));
   }
   return &side_pages[page][index & (SIDE_PAGE_SIZE - 1)];
}

/* The record of b's current stretch.  A block not measured (a custom
   allocator's) has all-zero access state: no accesses, no bytes. */
static void block_life(LH_Block* b, LH_BlockLife* life)
{
   Continuation* c = continuation_of(b->shadow_index);
   LH_(access_settle)();
   life->previous      = c->previous;
   life->birth         = c->previous ? c->birth : b->alloc_time;
   life->alloc_thread  = c->previous ? c->thread : b->alloc_thread;
   life->size          = b->req_size;
   life->accessed      = b->access.map != NULL;
   life->first_access  = b->access.first_access_time;
   life->last_access   = b->access.last_access_time;
   /* a block's counts never exceed its size; the clamp keeps the
      record's promise should a count run ahead */
   life->bytes_read    = b->access.read_bytes_set < b->req_size
                         ? b->access.read_bytes_set : b->req_size;
   life->bytes_written = b->access.written_bytes_set < b->req_size
                         ? b->access.written_bytes_set : b->req_size;
   life->site_serial   = b->site->serial;
   life->custom        = !LH_(block_measured)(b);
}

void LH_(blocks_birth)(LH_Block* b)
{
   continuation_of(b->shadow_index)->previous = 0;
}

void LH_(blocks_resized)(LH_Block* b, UInt thread, Bool moved)
{
   LH_BlockLife life;
   ULong number;
   Continuation* c;
   block_life(b, &life);
   number = LH_(blocks_write)(&life, moved ? LH_BlockMoved
                                           : LH_BlockReallocated, thread);
   c = continuation_of(b->shadow_index);
   c->previous = number;
   c->birth    = LH_(now);
   c->thread   = thread;
}

void LH_(blocks_retired)(LH_Block* b, UInt thread)
{
   LH_BlockLife life;
   block_life(b, &life);
   LH_(blocks_write)(&life, LH_BlockFreed, thread);
}

/*------------------------------------------------------------*/
/*--- The file                                             ---*/
/*------------------------------------------------------------*/

static void fail_at_startup(const HChar* why)
{
   VG_(fmsg)("lifeheap: cannot write the block file '%s': %s "
             "(--lifeheap-blocks)\n", blocks_path, why);
   VG_(exit)(1);
}

/* Creates (or truncates) the file.  Only a regular file is overwritten:
   a directory, a device, a FIFO or a symbolic link is refused (a stream
   cannot be written to a temporary name and renamed, as the profile is,
   so the name itself is opened).  NULL on success, else why not. */
static const HChar* open_blocks_file(void)
{
   struct vg_stat st;
   SysRes sr = VG_(stat)(blocks_path, &st);
   if (!sr_isError(sr) && !VKI_S_ISREG(st.mode))
      return VKI_S_ISDIR(st.mode) ? "is a directory"
                                  : "exists and is not a regular file";
   sr = VG_(open)(blocks_path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC
                               | VKI_O_NOFOLLOW, 0644);
   if (sr_isError(sr)) {
      switch (sr_Err(sr)) {
         case VKI_ELOOP:   return "is a symbolic link";
         case VKI_ENOENT:  return "no such directory";
         case VKI_EACCES:  return "permission denied";
         case VKI_EROFS:   return "read-only file system";
         case VKI_ENOTDIR: return "a component of the path is not a directory";
         case VKI_ENOSPC:  return "no space left on device";
         case VKI_EISDIR:  return "is a directory";
         default:          return "cannot create it";
      }
   }
   blocks_fd = (Int)sr_Res(sr);
   if (VG_(fstat)(blocks_fd, &st) != 0 || !VKI_S_ISREG(st.mode)) {
      VG_(close)(blocks_fd);
      blocks_fd = -1;
      return "is not a regular file";
   }
   return NULL;
}

/* VG_(safe_fd) (lh_core.h) moves a descriptor above the client's limit,
   where Valgrind keeps its own, so the program cannot close or reuse it. */

static void move_fd_out_of_client_range(void)
{
   Int safe = VG_(safe_fd)(blocks_fd);
   if (safe >= 0) blocks_fd = safe;
}

void LH_(blocks_init)(void)
{
   const HChar* why;
   if (!LH_(blocks_on)) return;
   blocks_path = VG_(expand_file_name)("--lifeheap-blocks", clo_blocks_file);
   why = open_blocks_file();
   if (why != NULL) fail_at_startup(why);
   move_fd_out_of_client_range();
   buffer = VG_(malloc)("lh.blocks.buffer",
                        LH_BLOCKS_FLUSH_RECORDS * LH_BLOCKS_RECORD_BYTES);
   write_header();
   if (write_failed) fail_at_startup("the header could not be written");
}

void LH_(blocks_finish)(void)
{
   LH_Block* b;
   UChar* r;
   if (!LH_(blocks_on) || blocks_fd < 0) return;
   LH_(blocks_iter_reset)();
   while ((b = LH_(blocks_iter_next)()) != NULL) {
      LH_BlockLife life;
      block_life(b, &life);
      LH_(blocks_write)(&life, LH_BlockLiveAtEnd, 0);
   }
   /* The trailer: the file is complete. */
   r = next_slot();
   VG_(memset)(r, 0, LH_BLOCKS_RECORD_BYTES);
   put_u64(r + 0, records_written - first_record + 1);  /* block records */
   put_u64(r + 8, LH_(now));
   put_u64(r + 16, live_records);
   put_u32(r + 76, LH_BLOCK_FLAG_TRAILER);
   LH_(blocks_flush)();
   VG_(close)(blocks_fd);
   blocks_fd = -1;
   if (write_failed)
      VG_(umsg)("lifeheap: the block file %s is incomplete (a write "
                "failed)\n", blocks_path);
   else
      VG_(umsg)("Blocks:  %'llu records in %s (lifeheap sql loads them)\n",
                records_written - first_record + 1, blocks_path);
}

void LH_(blocks_after_fork)(void)
{
   const HChar* why;
   HChar* name;
   if (!LH_(blocks_on)) return;
   if (blocks_fd >= 0) VG_(close)(blocks_fd);   /* the child's copy */
   blocks_fd = -1;
   buffered = 0;                    /* the parent writes these */
   first_record = records_written + 1;
   write_failed = False;
   if (VG_(strstr)(clo_blocks_file, "%p") != NULL) {
      name = VG_(strdup)("lh.blocks.name", clo_blocks_file);
   } else {
      name = VG_(malloc)("lh.blocks.name", VG_(strlen)(clo_blocks_file) + 4);
      VG_(sprintf)(name, "%s.%%p", clo_blocks_file);
   }
   clo_blocks_file = name;
   {
      /* A child that execs under --trace-children=yes keeps this name
         (the last occurrence of an option wins). */
      HChar* exec_option = VG_(malloc)("lh.blocks.opt",
                                       VG_(strlen)(name) + 32);
      VG_(sprintf)(exec_option, "--lifeheap-blocks=%s", name);
      VG_(addToXA)(VG_(args_for_valgrind), &exec_option);
   }
   VG_(free)(blocks_path);
   blocks_path = VG_(expand_file_name)("--lifeheap-blocks", clo_blocks_file);
   why = open_blocks_file();
   if (why != NULL) {
      VG_(umsg)("lifeheap: warning: the forked child (pid %d) cannot write "
                "its block file '%s': %s; it writes none\n",
                VG_(getpid)(), blocks_path, why);
      return;
   }
   move_fd_out_of_client_range();
   write_header();
}
