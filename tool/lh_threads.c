/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_threads.c: a serial number for every thread.    ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Valgrind reuses a ThreadId once its thread has exited; the blocks, the
   sites' allocating-thread counts and the block file need to tell the
   threads of a run apart, so each thread gets a serial when it is
   created, or when first asked about (the main thread, 1, exists before
   the tracker): a table indexed by ThreadId, rewritten when an id is
   reused.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "lh_include.h"

UInt* LH_(serial_of_tid) = NULL;     /* [VG_N_THREADS], 0 = not assigned */
static UInt  threads_created = 0;

static void thread_created(ThreadId parent, ThreadId child)
{
   tl_assert(child < VG_N_THREADS);
   LH_(serial_of_tid)[child] = ++threads_created;
   LH_(parallel_clock_thread_created)(parent, child);
}

void LH_(threads_init)(void)
{
   LH_(serial_of_tid) = VG_(malloc)("lh.threads", VG_N_THREADS * sizeof(UInt));
   VG_(memset)(LH_(serial_of_tid), 0, VG_N_THREADS * sizeof(UInt));
   VG_(track_pre_thread_ll_create)(thread_created);
}

/* A tid used before its creation was seen (the main thread). */
UInt LH_(thread_serial_first)(ThreadId tid)
{
   tl_assert(tid < VG_N_THREADS);
   if (LH_(serial_of_tid)[tid] == 0) LH_(serial_of_tid)[tid] = ++threads_created;
   return LH_(serial_of_tid)[tid];
}

UInt LH_(threads_ever)(void)
{
   return threads_created;
}
