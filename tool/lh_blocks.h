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
     lh_registry.c      birth, resize and retirement of a block, of any
                        origin (heap, small slot, custom, pool)
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

/* A block's stretches (lh_registry.c, for blocks of every origin).
   birth: a new block; resized: before the block's size changes, with the
   old figures in b (the payload may have moved already); retired:
   before the block's record is reused.  thread: a thread serial. */
void LH_(blocks_birth)(struct LH_Block* b);
void LH_(blocks_resized)(struct LH_Block* b, UInt thread, Bool moved);
void LH_(blocks_retired)(struct LH_Block* b, UInt thread);

#endif
