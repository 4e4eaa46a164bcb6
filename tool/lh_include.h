/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_include.h: the types and interfaces shared by the tool's  ---*/
/*--- modules.                                                     ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   Data flows one way:

     client event (malloc/free/realloc, load/store, syscall, client request)
        -> Block  (lh_heap.c: block table, lifetimes, realloc)
        -> Site   (lh_sites.c: per-allocation-stack aggregation, peaks)
        -> profile (lh_json.c + lh_output.c: the JSON contract, docs/format.md)

   Modules and who calls whom:
     lh_main.c       tool glue: details, options, needs, fini, summary
     lh_instrument.c IR instrumentation: the instruction clock, memory accesses
     lh_heap.c       malloc replacements, the block table
     lh_sites.c      sites: lookup by ExeContext, aggregation, peak bookkeeping
     lh_access.c     per-block access state, fold into sites (issue 3)
     lh_shadow.c     address -> block map (O(1)) and per-byte read/written bits
     lh_timeline.c   global and per-site live bytes over time, markers (issue 4)
     lh_findings.c   the finding rules (issue 4)
     lh_symbols.c    frames: symbolisation, inline expansion, name frame
     lh_json.c       a small streaming JSON writer (escaping, numbers)
     lh_output.c     writing the profile file atomically, the stderr summary
*/
#ifndef LH_INCLUDE_H
#define LH_INCLUDE_H

#include "pub_tool_basics.h"
#include "pub_tool_execontext.h"

#define LH_(str) VGAPPEND(vgLifeheap_, str)

/*------------------------------------------------------------*/
/*--- The clock                                            ---*/
/*------------------------------------------------------------*/

/* Guest instructions executed so far, over all threads: lifeheap's only
   notion of time.  Incremented by the instrumented code (lh_instrument.c). */
extern ULong LH_(now);

/*------------------------------------------------------------*/
/*--- Per-block and per-site access state (lh_access.c)    ---*/
/*------------------------------------------------------------*/

#include "lh_access.h"   /* LH_BlockAccess, LH_SiteAccess */

/*------------------------------------------------------------*/
/*--- Sites                                                ---*/
/*------------------------------------------------------------*/

typedef struct LH_Site LH_Site;

/*------------------------------------------------------------*/
/*--- Blocks                                               ---*/
/*------------------------------------------------------------*/

typedef struct LH_Block {
   Addr      payload;          /* first byte of the client's block */
   SizeT     req_size;         /* size the program asked for (current) */
   LH_Site*  site;             /* allocation site; kept across realloc */
   ULong     alloc_time;       /* LH_(now) at the first allocation */
   ThreadId  alloc_tid;        /* allocating thread */
   ULong     peak_seq_at_alloc;/* LH_(peak_seq) when allocated: see lh_sites.c */
   LH_BlockAccess access;      /* reads/writes state (lh_access.c) */
} LH_Block;

#endif /* LH_INCLUDE_H */
