/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_parallel_clock.c: each thread's time as if it   ---*/
/*--- had a CPU of its own, and the waits of hand-offs in it.      ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Valgrind runs one thread at a time.  LH_(now) counts every thread's
   instructions, so a message waits, in LH_(now), for its consumer's CPU
   as much as for its consumer's work: a consumer that keeps up on a real
   machine falls behind under Valgrind while the scheduler runs its
   producer.  The parallel clock removes the first: it is the time of the
   run on a machine where every thread has a CPU of its own.

   Each thread has a clock that counts its own instructions only, and
   that catches up with another thread's clock when it learns something
   from it, as Lamport's clocks do:
     - a new thread starts at its creator's clock;
     - freeing a block that another thread allocated: the freeing thread
       now knows the block, so its clock is at least the allocating
       thread's clock at the allocation (the message was there);
     - a futex wake: the woken thread's clock is at least the waker's
       clock at the wake (a thread blocked on a condition variable, a
       full queue, a contended lock resumes when it is woken, not before).
   A thread waiting for Valgrind's CPU, or blocked until someone wakes it,
   does not advance its own clock; it catches up when it receives.

   A thread's clock is kept as its offset from LH_(now): while the thread
   runs both advance together, so the offset changes only when it gets
   the CPU back (it falls by the instructions the others ran meanwhile)
   and when it catches up.  Every change is kept as a step (time, offset),
   so that the allocating thread's clock at any past allocation time is
   found (binary search) when the block is freed by another thread: the
   block records nothing more.  A step costs 16 bytes; a thread keeps at
   most MAX_STEPS, thinning its older ones (thin_steps).  Nothing is done
   per instruction, per allocation or per same-thread free; the trackers
   of a thread's start and stop on the CPU run once per time slice and
   per system call (the start tracker also checks whether a periodic dump
   is due, lh_dump.c).

   What the clock cannot see is a wait that goes through neither a block
   nor a futex: a thread that spins on a flag, or yields the CPU until
   another has run, does not catch up, so its clock stays behind a real
   machine's (docs/metrics.md, "Time").

   A hand-off's parallel wait is the consumer's clock at the free minus
   the producer's clock at the allocation: what the message would wait on
   a machine with a CPU per thread.  Its sum and the span of the frees in
   the consumers' clocks go into the site's rare figures.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_wordfm.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "lh_include.h"
#include "lh_dump.h"

/* A futex operation without its flags (private, realtime clock). */
#define FUTEX_COMMAND 0x7f

typedef struct {
   ULong time;         /* LH_(now) from which ... */
   Long  offset;       /* ... the thread's clock is LH_(now) + offset */
} ClockStep;

typedef struct {
   Long       offset;       /* now, while the thread runs */
   ULong      stopped_at;   /* LH_(now) when it last left the CPU */
   Bool       started;
   ClockStep* steps;
   UInt       n_steps, steps_capacity;
} ThreadClock;

static ThreadClock* clocks;          /* indexed by thread serial */
static UInt         clocks_capacity;
static WordFM*      wake_clocks;     /* futex word -> clock at its last wake */
static ULong        added_steps, thinned_steps;   /* --stats=yes */

static ThreadClock* clock_of(UInt serial)
{
   if (serial >= clocks_capacity) {
      UInt capacity = clocks_capacity == 0 ? 16 : clocks_capacity;
      while (capacity <= serial) capacity *= 2;
      clocks = VG_(realloc)("lh.parallel_clock", clocks, capacity * sizeof *clocks);
      VG_(memset)(clocks + clocks_capacity, 0,
                  (capacity - clocks_capacity) * sizeof *clocks);
      clocks_capacity = capacity;
   }
   return &clocks[serial];
}

/* A thread keeps at most this many steps: when they are all used, the
   older half is thinned to every other step (below). */
#define MAX_STEPS 8192

/* Keeps the newer half of the steps as they are and every other step of
   the older half: the history of a long run gets coarser with its age
   (a time between two kept steps takes the earlier one's offset), in at
   most MAX_STEPS * 16 bytes per thread. */
static void thin_steps(ThreadClock* c)
{
   UInt half = c->n_steps / 2, kept = 0, i;
   for (i = 0; i < half; i += 2) c->steps[kept++] = c->steps[i];
   for (i = half; i < c->n_steps; i++) c->steps[kept++] = c->steps[i];
   c->n_steps = kept;
   thinned_steps += half / 2;
}

static void add_step(ThreadClock* c)
{
   if (c->n_steps > 0 && c->steps[c->n_steps - 1].time == LH_(now)) {
      c->steps[c->n_steps - 1].offset = c->offset;
      return;
   }
   if (c->n_steps == MAX_STEPS) thin_steps(c);
   if (c->n_steps == c->steps_capacity) {
      c->steps_capacity = c->steps_capacity == 0 ? 16 : 2 * c->steps_capacity;
      c->steps = VG_(realloc)("lh.parallel_clock.steps", c->steps,
                              c->steps_capacity * sizeof *c->steps);
   }
   c->steps[c->n_steps].time = LH_(now);
   c->steps[c->n_steps].offset = c->offset;
   c->n_steps++;
   added_steps++;
}

/* A thread first seen (the main thread; one created before the tracker):
   its clock starts at LH_(now). */
static ThreadClock* started_clock(UInt serial)
{
   ThreadClock* c = clock_of(serial);
   if (!c->started) {
      c->started = True;
      c->offset = 0;
      c->stopped_at = LH_(now);
      add_step(c);
   }
   return c;
}

static ULong clock_now(const ThreadClock* c)
{
   return (ULong)((Long)LH_(now) + c->offset);
}

/* The thread's clock is at least 'time' from now on. */
static void catch_up(ThreadClock* c, ULong time)
{
   if (clock_now(c) < time) {
      c->offset = (Long)time - (Long)LH_(now);
      add_step(c);
   }
}

/* The thread's clock at LH_(now) == time, in the past. */
static ULong clock_at(const ThreadClock* c, ULong time)
{
   UInt low = 0, high = c->n_steps;     /* the last step at or before time */
   if (c->n_steps == 0) return time;
   while (high - low > 1) {
      UInt middle = low + (high - low) / 2;
      if (c->steps[middle].time <= time) low = middle; else high = middle;
   }
   return (ULong)((Long)time + c->steps[low].offset);
}

/*------------------------------------------------------------*/
/*--- Events                                               ---*/
/*------------------------------------------------------------*/

/* (The main thread is created by no thread: parent VG_INVALID_THREADID.) */
void LH_(parallel_clock_thread_created)(ThreadId parent, ThreadId child)
{
   ThreadClock* c = clock_of(LH_(thread_serial)(child));
   c->started = True;
   c->offset = parent == VG_INVALID_THREADID
               ? 0 : started_clock(LH_(thread_serial)(parent))->offset;
   c->stopped_at = LH_(now);
   add_step(c);
}

static void thread_runs(ThreadId tid, ULong blocks_dispatched)
{
   ThreadClock* c = started_clock(LH_(thread_serial)(tid));
   if (LH_(now) > c->stopped_at) {
      c->offset -= (Long)(LH_(now) - c->stopped_at);
      add_step(c);
   }
   LH_(dump_maybe)(tid, blocks_dispatched);
}

static void thread_stops(ThreadId tid, ULong blocks_dispatched)
{
   started_clock(LH_(thread_serial)(tid))->stopped_at = LH_(now);
}

void LH_(parallel_clock_init)(void)
{
   VG_(track_start_client_code)(thread_runs);
   VG_(track_stop_client_code)(thread_stops);
}

/* The futex operations that wake a waiter, and those that wait. */
static Bool futex_wakes(UWord op)
{
   switch (op & FUTEX_COMMAND) {
      case VKI_FUTEX_WAKE: case VKI_FUTEX_WAKE_BITSET: case VKI_FUTEX_WAKE_OP:
      case VKI_FUTEX_REQUEUE: case VKI_FUTEX_CMP_REQUEUE: case VKI_FUTEX_UNLOCK_PI:
         return True;
      default:
         return False;
   }
}

static Bool futex_waits(UWord op)
{
   switch (op & FUTEX_COMMAND) {
      case VKI_FUTEX_WAIT: case VKI_FUTEX_WAIT_BITSET: case VKI_FUTEX_LOCK_PI:
         return True;
      default:
         return False;
   }
}

void LH_(parallel_clock_pre_syscall)(ThreadId tid, UInt syscallno, UWord* args)
{
   ThreadClock* c;
   UWord known;
   ULong now_clock;
   if (syscallno != __NR_futex || !futex_wakes(args[1])) return;
   c = started_clock(LH_(thread_serial)(tid));
   now_clock = clock_now(c);
   if (wake_clocks == NULL)
      wake_clocks = VG_(newFM)(VG_(malloc), "lh.parallel_clock.wakes",
                               VG_(free), NULL);
   if (!VG_(lookupFM)(wake_clocks, NULL, &known, args[0]) || known < now_clock)
      VG_(addToFM)(wake_clocks, args[0], (UWord)now_clock);
   /* A requeue moves waiters to a second word: they are woken from it. */
   if ((args[1] & FUTEX_COMMAND) == VKI_FUTEX_CMP_REQUEUE
       || (args[1] & FUTEX_COMMAND) == VKI_FUTEX_REQUEUE
       || (args[1] & FUTEX_COMMAND) == VKI_FUTEX_WAKE_OP) {
      if (!VG_(lookupFM)(wake_clocks, NULL, &known, args[4]) || known < now_clock)
         VG_(addToFM)(wake_clocks, args[4], (UWord)now_clock);
   }
}

void LH_(parallel_clock_post_syscall)(ThreadId tid, UInt syscallno, UWord* args,
                                      SysRes res)
{
   UWord known;
   if (syscallno != __NR_futex || !futex_waits(args[1]) || sr_isError(res)
       || wake_clocks == NULL)
      return;
   if (VG_(lookupFM)(wake_clocks, NULL, &known, args[0]))
      catch_up(started_clock(LH_(thread_serial)(tid)), (ULong)known);
}

/* A block of 'site' allocated by thread 'producer' at alloc_time is freed
   now by thread 'consumer' (another one). */
void LH_(parallel_clock_handoff)(LH_Site* site, UInt producer, ULong alloc_time,
                                 UInt consumer)
{
   ThreadClock* p = started_clock(producer);
   ThreadClock* c = started_clock(consumer);
   LH_SiteRare* rare = LH_(site_rare_make)(site);
   ULong sent = clock_at(p, alloc_time), received;
   catch_up(c, sent);
   received = clock_now(c);
   rare->parallel_wait_sum += received - sent;
   if (rare->parallel_handoffs == 0 || received < rare->parallel_first_free)
      rare->parallel_first_free = received;
   if (received > rare->parallel_last_free)
      rare->parallel_last_free = received;
   rare->parallel_handoffs++;
}

/* The run's length on a CPU per thread: the latest clock. */
ULong LH_(parallel_clock_end)(void)
{
   ULong end = 0;
   UInt serial;
   ThreadId running = VG_(get_running_tid)();
   for (serial = 0; serial < clocks_capacity; serial++) {
      if (clocks[serial].started) {
         ULong last = (ULong)((Long)clocks[serial].stopped_at + clocks[serial].offset);
         if (last > end) end = last;
      }
   }
   /* A dump's running thread: its clock is now's. */
   if (running != VG_INVALID_THREADID && running < VG_N_THREADS
       && LH_(serial_of_tid)[running] != 0) {
      ULong clock = clock_now(clock_of(LH_(serial_of_tid)[running]));
      if (clock > end) end = clock;
   }
   return end;
}

void LH_(parallel_clock_print_stats)(void)
{
   VG_(umsg)("lifeheap: parallel clock: %llu steps kept, %llu thinned out\n",
             added_steps - thinned_steps, thinned_steps);
}
