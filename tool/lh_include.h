/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_include.h: the types and interfaces shared by the tool's  ---*/
/*--- modules.                                                     ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   Data flows one way, from the program's events to one report that every
   output renders:

     the program, with the preload vgpreload_lifeheap-*.so (Valgrind's
     malloc replacement; lh_replace_strmem.c, lh_replace_str.c and
     lh_replace_wcs.c: byte-exact string and memory functions, the str/wcs
     ones from one template, lh_replace_string_template.h, their code
     bounded by lh_replace_begin.c and lh_replace_end.c)
            │  malloc/free/realloc/new/delete, loads and stores,
            │  client requests, syscalls, thread creation
            ▼
     lh_main.c        tool glue: details, needs, client requests, syscalls,
            │         the end of the run (exit code or signal)
            ├─ lh_instrument.c  IR instrumentation: the instruction clock
            │     │             (LH_(now)), loads and stores
            │     └─ lh_client_calls.c  the malloc family's requests called
            │                   from the translation, not the scheduler
            ├─ lh_heap.c        the malloc replacement (origins heap and
            │     │             small); a heap block is found from its
            │     │             payload through the shadow map
            │     ├─ lh_alloc_stacks.c  each allocation's stack, without
            │     │                the preload's own frames
            │     ├─ lh_small_alloc.c  slots for payloads up to 256 bytes
            │     └─ lh_shadow.c       address -> block map, read/written
            │                          bits; the block records' pages
            │                          (lh_shadow_medium.c: stretches of
            │                          blocks of a few KiB, bits per page;
            │                          lh_shadow_frozen.c: page sets of
            │                          the same bits kept once)
            ├─ lh_custom_alloc.c  client requests of custom allocators and
            │                   mempools (origins custom and pool): the
            │                   pools, a payload -> record index
            │     ▼  both register, resize and retire their blocks through
            ├─ lh_registry.c    one record and one life for every live block
            │     │             of any origin; the walk over live blocks
            │     │             at each output (lifetimes, shapes)
            │     ├─ lh_access.c  per-block access state, folded into sites
            │     │     lh_access_path.c (the hot path, from the loads and
            │     │     stores; its slots in lh_access_slots.c, accesses
            │     │     counted later in lh_access_pending.c),
            │     │     lh_access_map.c (per-offset)
            │     └─ lh_blocks.c  --lifeheap-blocks: one record per stretch
            │                     of a block's life
            ├─ lh_threads.c     a serial per thread (ThreadIds are reused)
            ├─ lh_parallel_clock.c  each thread's clock on a CPU of its
            │                   own; hand-offs' waits on it
            ├─ lh_dump.c        the profile's path, periodic and vgdb dumps
            ├─ lh_fork.c        a forked child's profile; the profile before exec
            └─ lh_options.c     every option, from lh_options.def
            ▼
     lh_sites.c       per-stack aggregation, live and peak figures
            │         (lh_site_stacks.c: sites by stack, their stacks
            │          kept compactly; lh_histogram.c: lifetime buckets;
            │          lh_shapes.c: blocks by size, size x lifetime)
     lh_timeline.c    live bytes over time, per-site growth, markers
            │
            ▼  at exit, on a dump interval, on "monitor lifeheap dump"
     lh_report.c      LH_(report_build): finalise, sort, name, analyse:
            │           lh_symbols.c      frames, inline expansion, name frame
            │             lh_dwarf_names.c  names from the DWARF helper
            │             lh_frame_class.c  allocator and library frames
            │           lh_labels.c       each site's unique label
            │             lh_function_names.c  names as readers see them
            │             lh_label_tree.c   its pieces, shared where
            │                               labels agree
            │           lh_findings.c     the finding rules
            │             lh_findings_text.c  their sentences
            │           lh_notes.c        why a site is big (site notes)
            ▼
     const LH_Report*  (read only)
            ├─ lh_output.c    the JSON profile (docs/format.md), written
            │                 with lh_json.c, renamed into place or
            │                 written through a device (lh_outfile.c);
            │                 each site by lh_site_json.c (members at
            │                 their defaults left out), its identity
            │                 across runs by lh_match_key.c
            └─ lh_summary.c   the summary on stderr (numbers: lh_text.c)

   lh_table.c grows the pointer tables indexed by a number (the block
   file's side pages).  lh_core.h declares the core
   functions the tool uses that Valgrind's tool headers do not;
   lh_pattern_match.c replaces the core's '*'/'?' matcher (VG_(string_match),
   called two million times at start-up to bind the preload's
   redirections).  lifeheap.h is the client-request header programs
   include (LIFEHEAP_MARK).
*/
#ifndef LH_INCLUDE_H
#define LH_INCLUDE_H

#include "pub_tool_basics.h"
#include "pub_tool_execontext.h"
#include "pub_tool_tooliface.h"
#include "lh_json.h"

#ifndef LH_
#define LH_(str) VGAPPEND(vgLifeheap_, str)
#endif

/*------------------------------------------------------------*/
/*--- The clock                                            ---*/
/*------------------------------------------------------------*/

/* Guest instructions executed so far, over all threads: lifeheap's only
   notion of time.  Incremented by the instrumented code (lh_instrument.c). */
extern ULong LH_(now);

IRSB* LH_(instrument)(VgCallbackClosure* closure, IRSB* sb,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy);

/*------------------------------------------------------------*/
/*--- Per-block and per-site access and timeline state     ---*/
/*------------------------------------------------------------*/

#include "lh_access.h"   /* LH_BlockAccess, LH_SiteAccess */

#include "lh_timeline.h" /* LH_SiteTimeline */

/*------------------------------------------------------------*/
/*--- Sites (lh_sites.c)                                   ---*/
/*------------------------------------------------------------*/

/* Number of log2 lifetime buckets: bucket 0 is lifetime 0, bucket i >= 1
   holds 2^(i-1) <= lifetime < 2^i (lifetimes >= 2^63 go to the last). */
#define LH_LIFETIME_BUCKETS 64

/* A lifetime histogram (LH_LIFETIME_BUCKETS power-of-two buckets) kept as
   the window of buckets [first, first + n) it uses (lh_histogram.c).  A
   window of one bucket (a site of one block size, or of blocks that all
   live about as long) keeps its count in place of the pointer: no
   allocation.  All zero is an empty histogram. */
typedef struct {
   union {
      ULong* counts;               /* n >= 2: n counts */
      ULong  only_count;           /* n == 1: the one bucket's count */
   };
   UChar  first, n;
} LH_Histogram;
/* One more in bucket: inline when the window holds it already (the
   usual case, on every free), else the window grows (lh_histogram.c). */
void  LH_(histogram_add_widening)(LH_Histogram* h, UInt bucket);
static inline void LH_(histogram_add)(LH_Histogram* h, UInt bucket)
{
   UInt offset = bucket - h->first;       /* wraps below the window */
   if (h->n >= 2 && offset < h->n) h->counts[offset]++;
   else if (h->n == 1 && offset == 0) h->only_count++;
   else LH_(histogram_add_widening)(h, bucket);
}
ULong LH_(histogram_at)(const LH_Histogram* h, UInt bucket);
void  LH_(histogram_copy)(LH_Histogram* to, const LH_Histogram* from);
/* Empties h (and frees its counts). */
void  LH_(histogram_clear)(LH_Histogram* h);
/* The counts of the window, first one first (n of them). */
static inline ULong* LH_(histogram_counts)(LH_Histogram* h)
{
   return h->n == 1 ? &h->only_count : h->counts;
}
/* One past the last bucket with a count (0 when empty). */
static inline UInt LH_(histogram_end)(const LH_Histogram* h)
{
   return h->n == 0 ? 0 : (UInt)h->first + h->n;
}

/* Lifetimes and sizes of a set of a site's blocks: its freed ones (in the
   record), or all of them, live ones counted up to now (at output). */
typedef struct {
   ULong sum, min, max;               /* lifetimes; min ~0 before any */
   LH_Histogram lifetime_histogram;
   LH_Histogram size_histogram;       /* log2 size buckets (lh_shapes.c) */
} LH_Lifetimes;

/* Distinct allocating threads are kept inline up to this many, then in a
   set (see lh_sites.c). */
#define LH_SITE_INLINE_THREADS 4

/* A site's figures that only the output reads, made when a profile is
   written (LH_(sites_finalize), then lh_symbols.c and lh_labels.c) and
   kept for the next one, so that the run's own state, touched by every
   malloc and free, does not carry them. */
typedef struct {
   /* Lifetimes and sizes of all the site's blocks, live ones counted up
      to now: the record's 'freed' itself for a site with no live block
      when the profile is written (most sites of a program that frees its
      blocks), else live_lifetimes, made by the first output that finds
      one and kept.  (Its live figures when the profile is written are
      the record's own: a report is built and rendered with no client
      code running in between; LH_(site_bytes_at_exit).) */
   LH_Lifetimes* lifetimes;
   LH_Lifetimes* live_lifetimes;

   /* Set at output by lh_symbols.c: the frame naming the site. */
   UInt         n_frames;        /* frames after inline expansion */
   UInt         name_frame;      /* index into frame_ids */
   UInt*        frame_ids;       /* indices into the frame table */
   Bool         runtime_only;    /* every frame is allocator or library code
                                    (a runtime's own start-up pool): no
                                    finding can name code the user owns */
   /* Set at output by lh_labels.c: how every reader names the site,
      unique among the profile's sites, as pieces (its text:
      LH_(site_label)): its last piece's node in the tree of the labels'
      pieces, and how many. */
   UInt         n_label_pieces;
   UInt         label_node;
   /* The site's fold of its live blocks, recomputed at every output
      (lh_access.c; NULL: no output found the site with a live block). */
   LH_AccessFold* live_fold;
} LH_SiteOutput;

/* A site's figures that most sites never need, apart from the record: made
   by the first event that needs one of them (a realloc, a block of 0
   bytes, a free by another thread than the allocating one, a fifth
   allocating thread, blocks in a second size class) and kept; a site
   without one has them all zero (LH_(site_rare)). */
typedef struct {
   ULong reallocs, realloc_requested_bytes, realloc_bytes_copied;
   ULong realloc_growth_bytes;  /* bytes added by growing reallocs */
   /* Blocks of 0 bytes (DHAT counts them as 1 byte: cli/report_dhat.c):
      allocated, live now, live at the global peak (kept with
      bytes_at_peak); live when the profile is written: out. */
   ULong zero_size_total, zero_size_curr, zero_size_at_peak;
   ULong cross_thread_frees;
   /* The cross-thread frees' waits on the parallel clock (a CPU per
      thread, lh_parallel_clock.c): their sum, how many, and the
      consumers' clocks at the first and last of them. */
   ULong parallel_wait_sum, parallel_handoffs;
   ULong parallel_first_free, parallel_last_free;
   void* more_threads;          /* WordFM set of serials beyond the inline ones */
   /* Blocks by log2 size x log2 lifetime, made only once the site's
      blocks fall in two size classes (NULL before: one size class's row
      is the lifetime histogram); lh_shapes.c. */
   struct LH_SiteGrid* size_lifetime;
} LH_SiteRare;

typedef struct LH_Site LH_Site;
struct LH_Site {
   /* The fields every malloc and free of the site touches come first, so
      that they share a few cache lines (a program with thousands of sites
      misses the cache on each site it touches); the figures only a
      profile reads are apart, in 'out'. */
   const UChar* stack;          /* the allocation stack (preload frames
                                   dropped), encoded: lh_site_stacks.c */
   UInt  id;                    /* position in the sorted output; set at output */
   UInt  serial;                /* 1, 2, ... in order of first use: the
                                   block file's name for the site */

   /* Totals (docs/format.md: a realloc is not a new block). */
   ULong total_blocks, total_bytes;
   /* Live now. */
   ULong curr_bytes, curr_blocks;
   /* The site's own maximum of live bytes, the blocks then, and when it
      was first reached. */
   ULong max_bytes, max_blocks, max_time;
   /* Live at the global peak: valid for output after LH_(sites_finalize);
      maintained lazily (see lh_sites.c). */
   ULong bytes_at_peak, blocks_at_peak;
   ULong peak_seq_seen;         /* LH_(heap).peak_seq when last modified */
   ULong first_alloc_time, last_alloc_time;
   /* When the site's first and latest block was freed (valid when
      LH_(site_freed_blocks) > 0): with the freed blocks, the rate its
      blocks are consumed at (lh_findings.c, missing backpressure). */
   ULong first_free_time, last_free_time;

   /* Distinct allocating threads, by thread serial (LH_(thread_serial));
      past the inline ones, in the rare part's set. */
   UInt  recent_threads[LH_SITE_INLINE_THREADS];

   LH_SiteTimeline timeline;    /* live bytes over time (lh_timeline.c) */
   LH_SiteAccess   access;      /* reads/writes (lh_access.c) */

   /* Lifetimes and sizes of the freed blocks (kept up to date on every
      free; with the live ones: out). */
   LH_Lifetimes freed;

   /* The figures most sites never need (NULL: all zero; LH_(site_rare)). */
   LH_SiteRare* rare;

   /* The figures only a profile reads (NULL until the first output
      makes them: LH_(sites_finalize)). */
   LH_SiteOutput* out;

   /* The frames of lifeheap's preload the first allocation passed
      through (malloc, or realloc then malloc): not part of the site's
      stack, written as "allocator_frames"; set when the site is made, so
      no malloc reads them.  A number in the table of distinct lists
      (LH_(allocator_frames_of)): a program has a handful. */
   UInt  allocator_frames;
   UInt  allocating_threads;    /* how many distinct (recent_threads) */
};

/* A list of preload frames, innermost first. */
#define LH_ALLOCATOR_FRAMES 2
typedef struct {
   Addr ips[LH_ALLOCATOR_FRAMES];
   UInt n;
} LH_AllocatorFrames;
/* The number of that list in the table of distinct lists, added on first
   use (lh_sites.c). */
UInt LH_(allocator_frames_number)(const Addr* ips, UInt n);
/* The site's list. */
const LH_AllocatorFrames* LH_(allocator_frames_of)(const LH_Site* site);

/* The site's rare figures, all zero when it has none. */
extern const LH_SiteRare LH_(no_rare_figures);
static inline const LH_SiteRare* LH_(site_rare)(const LH_Site* site)
{
   return site->rare != NULL ? site->rare : &LH_(no_rare_figures);
}
/* The site's rare figures, made (all zero) on first use. */
LH_SiteRare* LH_(site_rare_make)(LH_Site* site);
/* Blocks of the site freed so far: every block allocated is live or freed
   (a realloc is not a new block). */
static inline ULong LH_(site_freed_blocks)(const LH_Site* site)
{
   return site->total_blocks - site->curr_blocks;
}

/* The site's live bytes, blocks and 0-byte blocks when the profile is
   written (docs/format.md bytes_at_exit, blocks_at_exit,
   zero_size_blocks.at_exit): a report is built and rendered while no
   client code runs, so they are the live figures now. */
static inline ULong LH_(site_bytes_at_exit)(const LH_Site* site)
{
   return site->curr_bytes;
}
static inline ULong LH_(site_blocks_at_exit)(const LH_Site* site)
{
   return site->curr_blocks;
}
static inline ULong LH_(site_zero_size_at_exit)(const LH_Site* site)
{
   return LH_(site_rare)(site)->zero_size_curr;
}

/* The heap's global figures, one struct so that a report copies them at
   once (docs/format.md "totals" and "peak"). */
typedef struct {
   /* Live now, and at the peak of live bytes. */
   ULong curr_bytes, curr_blocks;
   ULong peak_bytes, peak_blocks, peak_time;
   /* Bumped each time the live bytes reach the running maximum (>=), so
      the latest of equal peaks wins.  0 before the first allocation. */
   ULong peak_seq;
   /* Whole-run totals. */
   ULong total_blocks, total_bytes, total_frees;
   ULong total_reallocs, total_realloc_requested_bytes,
         total_realloc_bytes_copied, total_realloc_growth_bytes;
   /* Frees (free, delete, realloc(p, 0)) and reallocs of a pointer that
      is not a live heap block (double, wild or interior frees): ignored,
      and counted (totals.invalid_frees, totals.invalid_reallocs). */
   ULong invalid_frees, invalid_reallocs;
} LH_HeapCounters;
extern LH_HeapCounters LH_(heap);

/* -1, 0 or 1 as a is below, equal to or above b: the tie-breaks of the
   sorts' comparisons. */
static inline Int LH_(compare_u64)(ULong a, ULong b)
{
   return a < b ? -1 : a > b ? 1 : 0;
}

/* Makes (*table)[index] exist: a table of *size pointers, NULL where
   unset, doubles from first_size until it holds index (lh_table.c). */
void LH_(grow_zeroed_table)(void*** table, UInt* size, UInt index,
                            UInt first_size, const HChar* cost_centre);

/* An allocation stack as unwound: code addresses, innermost first, in
   a buffer the next unwind reuses. */
typedef struct {
   const Addr* ips;
   UInt n;               /* 1 .. --num-callers */
} LH_UnwoundStack;

/* Sites are created on first use (a new site takes the allocator frames
   of the stack LH_(record_allocation_stack) just recorded); lookup is
   O(1) on average (lh_site_stacks.c). */
void     LH_(sites_init)(void);
LH_Site* LH_(site_for_stack)(LH_UnwoundStack stack);
UInt     LH_(n_sites)(void);
/* Iterates over all sites in creation order (not a stable order across
   runs: sort before writing).  Returns NULL at the end. */
LH_Site* LH_(site_at)(UInt i);
/* The site of a serial (1 .. LH_(n_sites)()), for the lookup by stack. */
extern LH_Site** LH_(sites_by_serial);
static inline LH_Site* LH_(site_by_serial)(UInt serial)
{
   return LH_(sites_by_serial)[serial - 1];
}

/* Accounting; each is O(1) and calls LH_(timeline_note_change).  The
   block's fields (req_size, alloc_time, ...) are those before the event
   unless said otherwise. */
/* (thread: the allocating thread's serial, LH_(thread_serial)) */
void LH_(site_note_alloc)(LH_Site* site, SizeT size, UInt thread);
void LH_(site_note_free)(LH_Site* site, SizeT size, ULong lifetime,
                         Bool cross_thread);
/* A realloc of a live block of site from old_size to new_size (either
   direction); copied bytes when it moved. */
void LH_(site_note_realloc)(LH_Site* site, SizeT old_size, SizeT new_size,
                            ULong bytes_copied);
/* A block still live, allocated at alloc_time, counts its life up to
   LH_(now) in its site's lifetime figures (every origin alike; called
   through LH_(blocks_count_live) by LH_(sites_finalize)). */
void LH_(site_count_live_lifetime)(LH_Site* site, ULong alloc_time);
/* Makes every per-site output figure current: bytes/blocks at peak and
   at exit, lifetimes including live blocks (up to LH_(now)).  Idempotent:
   a periodic dump may call it repeatedly. */
void LH_(sites_finalize)(void);

/*------------------------------------------------------------*/
/*--- Threads (lh_threads.c)                              ---*/
/*------------------------------------------------------------*/

/* Valgrind reuses ThreadIds after a thread exits; a serial number tells
   the threads of a run apart (1 = the main thread).  Valid for any tid of
   a live thread.  Asked on every malloc and free: the lookup is inline,
   the first use of a tid numbers it (lh_threads.c). */
extern UInt* LH_(serial_of_tid);     /* [VG_N_THREADS], 0 = not numbered */
UInt LH_(thread_serial_first)(ThreadId tid);
static inline UInt LH_(thread_serial)(ThreadId tid)
{
   UInt serial = LH_(serial_of_tid)[tid];
   return LIKELY(serial != 0) ? serial : LH_(thread_serial_first)(tid);
}
/* Number of client threads that ever existed. */
UInt LH_(threads_ever)(void);
void LH_(threads_init)(void);   /* registers the thread-creation tracker */

/* Each thread's clock on a CPU of its own (lh_parallel_clock.c). */
void  LH_(parallel_clock_init)(void);  /* registers the run/stop trackers */
void  LH_(parallel_clock_thread_created)(ThreadId parent, ThreadId child);
void  LH_(parallel_clock_pre_syscall)(ThreadId tid, UInt syscallno, UWord* args);
void  LH_(parallel_clock_post_syscall)(ThreadId tid, UInt syscallno, UWord* args,
                                       SysRes res);
/* A block of 'site' allocated by thread serial 'producer' at alloc_time
   is freed now by thread serial 'consumer', another one. */
void  LH_(parallel_clock_handoff)(LH_Site* site, UInt producer,
                                  ULong alloc_time, UInt consumer);
/* The run's length on a CPU per thread: the latest thread clock. */
ULong LH_(parallel_clock_end)(void);
void  LH_(parallel_clock_print_stats)(void);   /* --stats=yes */

/*------------------------------------------------------------*/
/*--- Blocks: one registry (lh_registry.c)                 ---*/
/*------------------------------------------------------------*/

/* Where a block's memory came from.  Every live block, whatever its
   origin, has one record (LH_Block) and goes through the same events:
   LH_(block_register), LH_(block_resize_begin)/LH_(block_resized),
   LH_(block_retire), and the live folds of each output. */
typedef enum {
   LH_ORIGIN_HEAP   = 0,   /* malloc family, from Valgrind's client allocator */
   LH_ORIGIN_SMALL  = 1,   /* malloc family, from a small-block slot
                              (lh_small_alloc.c) */
   LH_ORIGIN_CUSTOM = 2,   /* VALGRIND_MALLOCLIKE_BLOCK (lh_custom_alloc.c) */
   LH_ORIGIN_POOL   = 3    /* VALGRIND_MEMPOOL_ALLOC (lh_custom_alloc.c) */
} LH_BlockOrigin;

/* A live block's record.  Records live in pages indexed by the record's
   number (lh_shadow.c).  A heap block's number is also its owner number
   in the shadow map, through which it is found from its payload
   (LH_(find_block)); a custom allocator's block owns no granule (its
   bytes lie inside a heap block, the pool's) and is found through
   lh_custom_alloc.c's index of payloads. */
typedef struct LH_Block {
   Addr      payload;          /* first byte of the client's block */
   ULong     req_size : 48;    /* size the program asked for (current);
                                  user space is 47 bits on amd64 */
   ULong     small_class : 8;  /* lh_small_alloc.c's size class of the
                                  payload's slot; 0: any other origin */
   ULong     slotted : 1;      /* put in an access slot since the last
                                  slot epoch (lh_access_slots.c) */
   ULong     origin : 2;       /* LH_BlockOrigin */
   LH_BlockAccess access;      /* reads/writes state (lh_access.c); next to
                                  payload and size: the access path's part;
                                  all zero for a block not measured */
   LH_Site*  site;             /* allocation site; kept across realloc */
   ULong     alloc_time;       /* LH_(now) at the first allocation */
   /* LH_(heap).peak_seq just BEFORE this block's allocation was accounted.  The
      block was live at the latest global peak reached so far exactly when
      LH_(heap).peak_seq > peak_seq_at_alloc (and it is still live, or is
      being retired now); see LH_(block_live_at_peak). */
   ULong     peak_seq_at_alloc;
   UInt      shadow_index;     /* the record's number (for a heap block,
                                  its owner number in the shadow map) */
   UInt      alloc_thread;     /* serial of the allocating thread
                                  (LH_(thread_serial)) */
} LH_Block;   /* 96 bytes: the first 64 are the access path's */

/* The block's bytes are watched (it owns its granules in the shadow map)
   and its access figures are measured: the malloc family's blocks.  A
   custom allocator's accesses count on the pool's own heap block. */
static inline Bool LH_(block_measured)(const LH_Block* b)
{
   return b->origin == LH_ORIGIN_HEAP || b->origin == LH_ORIGIN_SMALL;
}

static inline Bool LH_(block_live_at_peak)(const LH_Block* b, ULong peak_seq)
{
   return peak_seq > b->peak_seq_at_alloc;
}

/* A new live block of 'size' bytes at payload, allocated by thread tid
   at the stack it is in now: its record, accounted at its site, in the
   access state (a measured block owns its granules; 'zeroed': the
   allocator zeroed it) and in the block file.  small_class: its slot's
   class for LH_ORIGIN_SMALL, else 0. */
LH_Block* LH_(block_register)(ThreadId tid, Addr payload, SizeT size,
                              LH_BlockOrigin origin, UInt small_class,
                              Bool zeroed);
/* A live block's size is about to change (not called when it stays the
   same): a block live at the latest peak leaves its at-peak figures, of
   its size then, with its site now. */
void LH_(block_resize_begin)(LH_Block* b);
/* The block has moved to b->payload (from old_payload; equal when it did
   not) and now has new_size bytes: the block file's record of the old
   size ends, the site accounts a realloc (bytes_copied when it moved)
   and a measured block's bits follow the data. */
void LH_(block_resized)(LH_Block* b, ThreadId tid, Addr old_payload,
                        SizeT new_size, ULong bytes_copied);
/* The one end of a block's life (free, delete, realloc to 0, FREELIKE,
   mempool free, trim and destroy): the block file's record, the access
   census, the site's lifetime, size and timeline figures; the record is
   then reused (the caller gives the payload back first, if it owns it). */
void LH_(block_retire)(LH_Block* b, ThreadId tid);
/* Iterates over every live block, of any origin, in record order: reset,
   then next until NULL.  The registry must not change meanwhile. */
void      LH_(blocks_iter_reset)(void);
LH_Block* LH_(blocks_iter_next)(void);
/* The live blocks' lifetimes (up to now) and sizes into their sites'
   figures and the run's shapes; from LH_(sites_finalize). */
void      LH_(blocks_count_live)(void);

void LH_(heap_init)(void);           /* in pre_clo_init: malloc replacement */
/* Whether f is one of the malloc replacement's functions (lh_heap.c). */
Bool LH_(is_heap_function)(Addr f);
/* A superblock that ends in a client request tries the malloc family's
   calls from the translation first (lh_client_calls.c). */
void LH_(inline_client_calls)(IRSB* sbOut);

/* lh_small_alloc.c: payloads of up to LH_SMALL_MAX_BYTES bytes come from
   runs of one size class.  small_class_of: the class (1..16) of a request,
   or 0 when it goes to Valgrind's allocator (too big, or aligned over
   16). */
#define LH_SMALL_MAX_BYTES 256
UInt  LH_(small_class_of)(SizeT size, SizeT align);
SizeT LH_(small_class_bytes)(UInt small_class);
void* LH_(small_alloc)(UInt small_class);       /* NULL: out of memory */
void  LH_(small_free)(void* p, UInt small_class);
/* The live heap block (origin heap or small) whose payload is exactly
   there, or NULL (lh_heap.c). */
LH_Block* LH_(find_block)(Addr payload);

/*------------------------------------------------------------*/
/*--- Access tracking (lh_access.c)                       ---*/
/*------------------------------------------------------------*/

void  LH_(access_init)(void);                           /* in post_clo_init */
void  LH_(access_block_new)(LH_Block* b, Bool zeroed);  /* block exists */
/* Before a block's size changes: a block live at the latest peak leaves
   its at-peak figures (of its size then) with its site now. */
void  LH_(access_block_before_resize)(LH_Block* b);
void  LH_(access_block_resized)(LH_Block* b, Addr old_payload, SizeT old_size);
/* At-peak bytes of a block whose accesses are not measured (a custom
   allocator's): 'live' at output time, or resized/freed now. */
void  LH_(access_unmeasured_at_peak)(LH_Site* site, SizeT size, Bool live);
/* A block that is not measured (LH_(block_measured)) was born, resized
   or died (lh_registry.c). */
void  LH_(access_blocks_changed)(void);
/* live_at_peak: the block was live at the latest global peak reached so
   far (LH_(block_live_at_peak)); a later, higher peak may still come. */
void  LH_(access_block_retire)(LH_Block* b, Bool live_at_peak);
void  LH_(access_write_site_json)(LH_Json* j, LH_Site* site);
ULong LH_(access_total_read)(void);
ULong LH_(access_total_written)(void);

/*------------------------------------------------------------*/
/*--- Timeline and findings (lh_timeline.c,               ---*/
/*--- lh_findings.c)                                       ---*/
/*------------------------------------------------------------*/

void LH_(timeline_init)(void);
void LH_(timeline_note_change)(LH_Site* site);
void LH_(timeline_mark)(const HChar* label);
void LH_(timeline_finish)(void);
void LH_(timeline_write_json)(LH_Json* j);

/* The shapes of the heap (lh_shapes.c): each site's blocks by log2 size,
   and by log2 size x log2 lifetime when they have more than one size,
   the run's blocks by log2 size x log2 lifetime.  A block is counted when
   freed, or, live, at each output (after shapes_output_begin), after its
   lifetime is counted in the site's freed.lifetime_histogram (freed) or
   out->lifetimes->lifetime_histogram (live). */
void LH_(shapes_note_freed)(LH_Site* site, ULong size, ULong lifetime);
void LH_(shapes_output_begin)(void);
void LH_(shapes_note_live)(LH_Site* site, ULong size, ULong lifetime);
void LH_(shapes_write_site_grid)(LH_Json* j, const LH_Site* site);
void LH_(shapes_write_run)(LH_Json* j);
void LH_(site_timeline_write_json)(LH_Json* j, LH_Site* site);
void LH_(findings_compute)(LH_Site** sorted_sites, UInt n_sites);
void LH_(findings_write_json)(LH_Json* j);
void LH_(findings_print_summary)(UInt max);

/*------------------------------------------------------------*/
/*--- Stacks (lh_alloc_stacks.c), symbols (lh_symbols.c) ---*/
/*------------------------------------------------------------*/

/* Unwinds tid's stack, drops the leading frames that lie in lifeheap's
   own malloc replacement and returns the rest (at most --num-callers
   frames). */
LH_UnwoundStack LH_(record_allocation_stack)(ThreadId tid);
/* --stats=yes: how many stacks were unwound and how deep. */
void LH_(stacks_print_stats)(void);
/* --lifeheap-check-unwind (a debugging option: --help-debug). */
Bool LH_(unwind_debug_option)(const HChar* arg);
void LH_(unwind_debug_usage)(void);
/* ip lies in the preload's string and memory functions (lh_replace_*.c,
   between the markers of lh_replace_begin.c and lh_replace_end.c), which
   the clock does not count. */
Bool LH_(in_replacement_code)(Addr ip);
/* Gives a new site the preload frames the last LH_(record_allocation_stack)
   dropped (lh_sites.c, when the site is made); and writes them
   (as an array under key, NULL inside an array: lh_site_json.c). */
void LH_(site_take_allocator_frames)(LH_Site* site);
void LH_(allocator_frames_write_json)(LH_Json* j, const HChar* key,
                                      const LH_Site* site);
/* Turns on reading inline info by default (pre_clo_init). */
void LH_(symbols_pre_clo_init)(void);

/* A frame of the table (one inline level at one code address). */
typedef struct {
   HChar* function;    /* NULL = unknown; demangled, without a Rust hash */
   HChar* file;        /* base name */
   HChar* directory;
   UInt   line;        /* 0 = unknown */
   HChar* object;
   Addr   address;
   Bool   inlined;
   Bool   machinery;   /* allocator or library frame: never a name frame */
} LH_Frame;

/* Names every code address of the given sites (once per run, with one
   run of the DWARF helper for the new ones) and sets each site's
   runtime_only: in any order, before the sites are sorted. */
void LH_(frames_symbolise)(LH_Site** sites, UInt n_sites);
/* Builds the frame table for the given sites (in their order), after
   frames_symbolise: sets each site's n_frames, frame_ids and
   name_frame. */
void LH_(frames_build)(LH_Site** sites, UInt n_sites);
/* Sets every site's label (lh_labels.c), after frames_build. */
void LH_(labels_build)(LH_Site** sites, UInt n_sites);
/* The site's label, unique among the sites of the last labels_build, in
   a buffer the next call reuses; NULL before the site's first output. */
const HChar* LH_(site_label)(const LH_Site* site);
/* Forgets the table, so the next build numbers frames from 0. */
void LH_(frames_reset)(void);
void LH_(frames_write_json)(LH_Json* j);
/* The frame with that id in the current table; NULL when out of range. */
const LH_Frame* LH_(frame_at)(UInt frame_id);
/* Text for the summary: "function (file:line)" of frame id, in buf. */
void LH_(frame_describe)(UInt frame_id, HChar* buf, SizeT buf_size);
/* "NAME (file:line)", "NAME (in object)" or "NAME": the frame's place
   after the name given (frame_describe's full name, a label's short one);
   "???" for an unknown frame id. */
void LH_(frame_name_place)(UInt frame_id, const HChar* name, HChar* buf,
                           SizeT buf_size);
/*------------------------------------------------------------*/
/*--- Sites by stack (lh_site_stacks.c)                    ---*/
/*------------------------------------------------------------*/

/* A hash of the code addresses. */
UInt     LH_(stack_hash)(const Addr* ips, UInt n);
/* The site whose stack is ips[0..n-1]; NULL if none, and then *hash is
   the stack's hash (for LH_(site_stacks_add)). */
LH_Site* LH_(site_stacks_find)(const Addr* ips, UInt n, UInt* hash);
/* Keeps ips[0..n-1] as the new site's stack (its serial set) and enters
   the site in the table. */
void     LH_(site_stacks_add)(LH_Site* site, const Addr* ips, UInt n,
                              UInt hash);
/* --stats=yes: how the lookups were answered. */
void     LH_(site_stacks_print_stats)(void);
/* Frees the table (at the end of the run: no lookup may follow). */
void     LH_(site_stacks_release)(void);
/* Compares two sites' stacks by code address (for the stable sort). */
Int      LH_(stack_compare)(const UChar* a, const UChar* b);
/* action on each address of the site's stack, innermost first, stopping
   after main() unless --show-below-main=yes (VG_(apply_StackTrace)). */
void     LH_(site_stack_apply)(const LH_Site* site,
                               void (*action)(UInt n, DiEpoch ep, Addr ip,
                                              void* opaque),
                               void* opaque);

/*------------------------------------------------------------*/
/*--- Options and output (lh_main.c, lh_output.c)          ---*/
/*------------------------------------------------------------*/

extern const HChar* LH_(clo_out_file);     /* --lifeheap-out-file */

/* How the profile came to be written, for run.exit/complete/dump_reason. */
typedef enum {
   LH_EndRunning,        /* a dump while the program runs */
   LH_EndExited,         /* exit code known */
   LH_EndSignal          /* killed by a signal */
} LH_EndKind;

typedef struct {
   LH_EndKind   kind;
   Int          exit_code;
   Int          signal;
   const HChar* dump_reason;   /* "exit", "interval", "monitor" */
} LH_RunEnd;

/* A report of the run (lh_report.h) is built from an LH_RunEnd and
   rendered as the profile and the summary. */

/* Run metadata recorded at start (lh_main.c). */
extern ULong LH_(start_unix_ms);

#endif /* LH_INCLUDE_H */
