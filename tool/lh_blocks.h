/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_blocks.h: every block's life, one record per    ---*/
/*--- block, streamed to the --lifeheap-blocks file (lh_blocks.c;  ---*/
/*--- the format is in docs/format.md, "The block file").          ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Who calls what:
     lh_main.c          option, usage, init (post_clo_init), finish (fini),
                        flush before an exec, run.options.blocks_file
     lh_dump.c          flush at every dump
     lh_fork.c          after_fork in a forked child
     lh_heap.c          birth, realloc and free of a heap block
     lh_custom_alloc.c  the same for a custom allocator's block
   Every hook returns at once when the option is off (LH_(blocks_on)).
*/
#ifndef LH_BLOCKS_H
#define LH_BLOCKS_H

#include "pub_tool_basics.h"
#include "lh_json.h"

struct LH_Block;

/* True when --lifeheap-blocks was given: the hooks' one test. */
extern Bool LH_(blocks_on);

/* The history of a piece of a block that ends now (a free, a realloc, or
   the end of the run), as the record writes it.  Times are LH_(now)
   values; threads are thread serials. */
typedef struct {
   ULong previous;        /* record this one continues (0: none) */
   ULong birth;           /* allocation, or the realloc that started it */
   ULong size;
   ULong first_access, last_access;   /* valid when 'accessed' */
   ULong bytes_read, bytes_written;
   UInt  site_serial;
   UInt  alloc_thread;    /* the thread of the birth */
   Bool  accessed;
   Bool  custom;          /* a custom allocator's block */
} LH_BlockLife;

/* How it ended. */
typedef enum {
   LH_BlockFreed,         /* free, delete, FREELIKE, mempool free */
   LH_BlockReallocated,   /* realloc in place (a new record continues it) */
   LH_BlockMoved,         /* realloc that moved it (likewise) */
   LH_BlockLiveAtEnd      /* still live when the file was finished */
} LH_BlockEnding;

Bool LH_(blocks_process_option)(const HChar* arg);
void LH_(blocks_write_options_json)(LH_Json* j);
void LH_(blocks_init)(void);          /* opens the file (or fails the run) */
/* Writes a record; returns its number (1-based, over the run). */
ULong LH_(blocks_write)(const LH_BlockLife* life, LH_BlockEnding ending,
                        UInt end_thread);
void LH_(blocks_flush)(void);         /* buffered records to the file now */
void LH_(blocks_finish)(void);        /* live blocks, the trailer, close */
void LH_(blocks_after_fork)(void);    /* a forked child: its own file */

/* Heap blocks (lh_heap.c).  birth: a new block; realloc: before the
   block's size (and payload) change, with the old figures in b; free:
   before the block is retired. */
void LH_(blocks_heap_birth)(struct LH_Block* b);
void LH_(blocks_heap_realloc)(struct LH_Block* b, ThreadId tid, Bool moved);
void LH_(blocks_heap_free)(struct LH_Block* b, ThreadId tid);

/* lh_custom_alloc.c: a record for each custom block still live. */
void LH_(custom_blocks_write_live)(void);

#endif
