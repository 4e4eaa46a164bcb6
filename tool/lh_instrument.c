/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_instrument.c: IR instrumentation — the instruction clock  ---*/
/*--- and every guest memory access.                               ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   The instruction clock
   ---------------------
   LH_(now) counts guest instructions executed over all threads.  It is
   lifeheap's only notion of time.  Rather than one increment per guest
   instruction, each superblock counts the IMarks it passes and adds the
   batch to LH_(now) with three inline IR statements (load, add, store)
   just before every side exit and before the block's end:

      IMark            n=1
      ...
      IMark            n=2
      (add 2)          <- before the Exit, then n=0
      Exit ...
      IMark            n=1
      (add 1)          <- before the final jump
      goto next

   No helper call is involved, so the clock costs a few host instructions
   per superblock.  Only one thread runs at a time under Valgrind, so the
   unlocked read-modify-write is exact.

   The instructions of lifeheap's own string and memory functions (the
   preload's memcpy, memset, strlen, ... of lh_replace_*.c) are not
   counted: their IMarks are skipped when the superblock is translated
   (LH_(in_replacement_code)), so the clock does not depend on how those
   replacements are written, and a memset of 1 MiB costs the caller's
   call instruction, not the replacement's loop.  The malloc family's
   wrappers (Valgrind's own preload code, the same as DHAT's) are
   counted, so that a program calling none of those functions has the
   same count as under DHAT.

   Memory accesses
   ---------------
   Every guest access becomes an event (address, size, read or write,
   guard).  For each event the pass emits, before the access (after it for
   the write half of a CAS or an SC, whose success is only known then):

      t1 = LDle:I64(&LH_(filter_base))
      t2 = Sub64(addr, t1)
      t3 = LDle:I64(&LH_(filter_span))
      t4 = CmpLT64U(t2, t3)              -- may the address be in the heap?
      t5 = And1(t4, guard)               -- only for guarded accesses
      DIRTY t5 ::: LH_(note_read|note_write)(addr, size | slot << 32)

   so a stack or global access costs a few inline instructions and no
   call.  'slot' is the event's access slot (lh_access_slots.c), fixed
   when the superblock is translated.  Everything after the filter is
   the helper's: its first lines count the common hits (a repeat key, a
   run, an armed part; lh_access_path.c, "Order of the checks").  Those
   checks made here in IR cost every access more than the calls they
   saved, since most calls carry two accesses and one is still made when
   either misses (docs/performance.md, "The access path: common hits
   first, runs kept aside").

   Plain loads and stores are not reported one by one: within a stretch
   of the superblock without a side exit (so all of them execute), those
   whose addresses are the same temp plus different constants are sorted
   and adjacent, non-overlapping ones merged into one event, emitted at
   the end of the stretch.  current[i-1], current[i], current[i+1] (three
   8-byte loads) become one 24-byte read: each byte is still counted once
   per access, with one call instead of three.  Overlapping accesses are
   never merged (a byte read twice counts twice).  The filter is a superset of every live block (lh_shadow.c); the
   helper decides exactly, with the shadow map.  Events of more than
   LH_FILTER_MAX_ACCESS bytes (dirty helpers such as FXSAVE) always call.

      statement                 events
      WrTmp(t, Load)            read  (size of the loaded type)
      Store                     write
      LoadG / StoreG            read / write when the guard holds
      CAS (single, double)      read; write when the old value equalled
                                the expected one (the swap happened).
                                A locked read-modify-write (lock add,
                                xadd, inc, bts, ...) arrives as a Load
                                and then a CAS whose expected value is
                                that load's result, at the same address:
                                its CAS is only the write (the Load was
                                the one read), so the byte counts as read
                                once, as the instruction reads it once.
      LLSC: LL / SC             read / write when the SC succeeded
      Dirty with mFx            read and/or write of mSize bytes at mAddr,
                                when the dirty call's guard holds
*/

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"
#include "lh_shadow.h"

ULong LH_(now) = 0;

/*------------------------------------------------------------*/
/*--- IR building helpers                                  ---*/
/*------------------------------------------------------------*/

#define mkexpr(_tmp)             IRExpr_RdTmp((_tmp))
#define mkU64(_n)                IRExpr_Const(IRConst_U64(_n))
#define assign(_t, _e)           IRStmt_WrTmp((_t), (_e))
#define binop(_op, _a1, _a2)     IRExpr_Binop((_op), (_a1), (_a2))

/* Appends "LH_(now) += n" to sbOut. */
static void add_clock_update(IRSB* sbOut, Int n)
{
   IRTemp old_now = newIRTemp(sbOut->tyenv, Ity_I64);
   IRTemp new_now = newIRTemp(sbOut->tyenv, Ity_I64);
   IRExpr* now_addr = mkIRExpr_HWord((HWord)&LH_(now));
   addStmtToIRSB(sbOut, assign(old_now, IRExpr_Load(Iend_LE, Ity_I64, now_addr)));
   addStmtToIRSB(sbOut, assign(new_now, IRExpr_Binop(Iop_Add64, mkexpr(old_now),
                                                     mkU64((ULong)n))));
   addStmtToIRSB(sbOut, IRStmt_Store(Iend_LE, now_addr, mkexpr(new_now)));
}

/*------------------------------------------------------------*/
/*--- Memory access events                                 ---*/
/*------------------------------------------------------------*/

/* Access slots (lh_access_slots.c): every access event of a superblock gets
   its own slot index, a hash of the superblock's guest address and the
   event's number in it, so a loop's load meets its block again in its
   slot.  Instrumentation is not re-entered, so the counter is static. */
static Addr sb_slot_seed;
static UWord sb_slot_next;

static UWord next_slot(void)
{
   ULong key = (ULong)sb_slot_seed + ((ULong)sb_slot_next++ << 52);
   return (UWord)((key * 0x9E3779B97F4A7C15ULL) >> 50)
          & (LH_ACCESS_SLOTS - 1);
}

/* A new I1 temp holding e. */
static IRExpr* bind_bit(IRSB* sbOut, IRExpr* e)
{
   IRTemp t = newIRTemp(sbOut->tyenv, Ity_I1);
   addStmtToIRSB(sbOut, assign(t, e));
   return mkexpr(t);
}

/* Makes addr an atom of the host word type (64-bit on amd64). */
static IRExpr* addr_atom(IRSB* sbOut, IRExpr* addr)
{
   IRType ty = typeOfIRExpr(sbOut->tyenv, addr);
   if (ty == Ity_I32) {
      IRTemp t = newIRTemp(sbOut->tyenv, Ity_I64);
      addStmtToIRSB(sbOut, assign(t, IRExpr_Unop(Iop_32Uto64, addr)));
      return mkexpr(t);
   }
   tl_assert(ty == Ity_I64);
   return addr;
}

/* Appends a call to the read or write helper for size bytes at addr,
   made only when guard (an I1 atom, or NULL for "always") holds and the
   address passes the inline heap filter. */
static void add_access_event(IRSB* sbOut, Bool is_write, IRExpr* addr,
                             Int size, IRExpr* guard)
{
   IRExpr* call_guard = guard;
   IRDirty* di;
   IRExpr* a = addr_atom(sbOut, addr);

   if (size <= 0) return;
   if (size <= LH_FILTER_MAX_ACCESS) {
      IRTemp base = newIRTemp(sbOut->tyenv, Ity_I64);
      IRTemp delta = newIRTemp(sbOut->tyenv, Ity_I64);
      IRTemp span = newIRTemp(sbOut->tyenv, Ity_I64);
      IRExpr* in_heap;
      addStmtToIRSB(sbOut, assign(base, IRExpr_Load(Iend_LE, Ity_I64,
                               mkIRExpr_HWord((HWord)&LH_(filter_base)))));
      addStmtToIRSB(sbOut, assign(delta, binop(Iop_Sub64, a, mkexpr(base))));
      addStmtToIRSB(sbOut, assign(span, IRExpr_Load(Iend_LE, Ity_I64,
                               mkIRExpr_HWord((HWord)&LH_(filter_span)))));
      in_heap = bind_bit(sbOut, binop(Iop_CmpLT64U, mkexpr(delta), mkexpr(span)));
      call_guard = guard == NULL ? in_heap
                                 : bind_bit(sbOut, binop(Iop_And1, in_heap, guard));
   }
   di = unsafeIRDirty_0_N(2,
                          is_write ? "LH_(note_write)" : "LH_(note_read)",
                          VG_(fnptr_to_fnentry)(is_write ? (void*)&LH_(note_write)
                                                         : (void*)&LH_(note_read)),
                          mkIRExprVec_2(a, mkIRExpr_HWord((HWord)size
                                              | ((HWord)next_slot() << 32))));
   if (call_guard != NULL) di->guard = call_guard;
   addStmtToIRSB(sbOut, IRStmt_Dirty(di));
}

/* I1 atom: "value == expected" for an integer type of any width. */
static IRExpr* equal_bit(IRSB* sbOut, IRType ty, IRExpr* value, IRExpr* expected)
{
   IROp op;
   switch (ty) {
      case Ity_I8:  op = Iop_CmpEQ8;  break;
      case Ity_I16: op = Iop_CmpEQ16; break;
      case Ity_I32: op = Iop_CmpEQ32; break;
      case Ity_I64: op = Iop_CmpEQ64; break;
      default: return NULL;     /* unknown width: count the write anyway */
   }
   return bind_bit(sbOut, binop(op, value, expected));
}

/* The write half of a CAS: it wrote only if the old value(s) equalled the
   expected one(s).  Emitted after the CAS statement. */
static void add_cas_write(IRSB* sbOut, IRCAS* cas, Int size)
{
   IRType ty = typeOfIRExpr(sbOut->tyenv, cas->dataLo);
   IRExpr* ok = equal_bit(sbOut, ty, mkexpr(cas->oldLo), cas->expdLo);
   if (ok != NULL && cas->dataHi != NULL) {
      IRExpr* ok_hi = equal_bit(sbOut, ty, mkexpr(cas->oldHi), cas->expdHi);
      ok = ok_hi == NULL ? NULL : bind_bit(sbOut, binop(Iop_And1, ok, ok_hi));
   }
   add_access_event(sbOut, True, cas->addr, size, ok);
}

/* For the locked read-modify-write pattern: which temps hold the result
   of a Load in this superblock, and from which address (atom). */
typedef struct {
   IRExpr** load_addr;     /* indexed by IRTemp; NULL: not a load result */
   Addr*    load_insn;     /* the guest instruction that did the load */
   Int      n_temps;
   Addr     current_insn;  /* address of the instruction being translated */
} LoadTemps;

static IRExpr* loaded_from(const LoadTemps* lt, IRExpr* e)
{
   if (e == NULL || e->tag != Iex_RdTmp) return NULL;
   if (e->Iex.RdTmp.tmp >= (IRTemp)lt->n_temps) return NULL;
   return lt->load_addr[e->Iex.RdTmp.tmp];
}

/* True when cas re-reads what a Load of the same address by the same
   guest instruction fetched as its expected value: a locked
   read-modify-write, already counted as read.  (A cmpxchg whose expected
   value comes from an earlier instruction's load really reads again.) */
static Bool cas_is_rmw_write(const LoadTemps* lt, IRCAS* cas)
{
   IRExpr* from = loaded_from(lt, cas->expdLo);
   return cas->dataHi == NULL && from != NULL && eqIRAtom(from, cas->addr)
          && lt->load_insn[cas->expdLo->Iex.RdTmp.tmp] == lt->current_insn;
}

/* The dirty call's own guard, or NULL when it always runs. */
static IRExpr* dirty_guard(IRDirty* d)
{
   if (d->guard == NULL) return NULL;
   if (d->guard->tag == Iex_Const && d->guard->Iex.Const.con->tag == Ico_U1
       && d->guard->Iex.Const.con->Ico.U1 == True)
      return NULL;
   return d->guard;
}

/*------------------------------------------------------------*/
/*--- Merging adjacent plain accesses                      ---*/
/*------------------------------------------------------------*/

/* Every temp as (base temp, constant offset): t = Add64(b, c) gives
   base(b), offset(b) + c.  A temp that is not such a sum is its own base. */
typedef struct {
   IRTemp* base;
   Long*   offset;
   Int     n_temps;
} TempOffsets;

static void note_temp_def(TempOffsets* to, IRTemp t, IRExpr* e)
{
   to->base[t] = t;
   to->offset[t] = 0;
   if (e->tag == Iex_RdTmp && e->Iex.RdTmp.tmp < (IRTemp)to->n_temps) {
      IRTemp b = e->Iex.RdTmp.tmp;
      to->base[t] = to->base[b];
      to->offset[t] = to->offset[b];
   } else if (e->tag == Iex_Binop
              && (e->Iex.Binop.op == Iop_Add64 || e->Iex.Binop.op == Iop_Sub64)
              && e->Iex.Binop.arg1->tag == Iex_RdTmp
              && e->Iex.Binop.arg2->tag == Iex_Const
              && e->Iex.Binop.arg2->Iex.Const.con->tag == Ico_U64) {
      IRTemp b = e->Iex.Binop.arg1->Iex.RdTmp.tmp;
      Long c = (Long)e->Iex.Binop.arg2->Iex.Const.con->Ico.U64;
      if (b < (IRTemp)to->n_temps) {
         to->base[t] = to->base[b];
         to->offset[t] = to->offset[b] + (e->Iex.Binop.op == Iop_Add64 ? c : -c);
      }
   }
}

#define MAX_PENDING 64
typedef struct {
   Bool    is_write;
   IRTemp  base;
   Long    offset;
   Int     size;
   IRExpr* addr;
} PendingAccess;

typedef struct {
   PendingAccess event[MAX_PENDING];
   Int n;
} PendingList;

/* One call for two plain accesses (sizes <= LH_FILTER_MAX_ACCESS), made
   when either address passes the inline filter; the helper filters each
   again.  first is a read whenever second is. */
static void add_pair_event(IRSB* sbOut, const PendingAccess* first,
                           const PendingAccess* second)
{
   IRTemp base = newIRTemp(sbOut->tyenv, Ity_I64);
   IRTemp span = newIRTemp(sbOut->tyenv, Ity_I64);
   IRTemp delta1 = newIRTemp(sbOut->tyenv, Ity_I64);
   IRTemp delta2 = newIRTemp(sbOut->tyenv, Ity_I64);
   IRExpr* a1 = addr_atom(sbOut, first->addr);
   IRExpr* a2 = addr_atom(sbOut, second->addr);
   IRExpr *in1, *in2;
   const HChar* name;
   void* fn;
   IRDirty* di;
   tl_assert(first->size <= LH_FILTER_MAX_ACCESS && second->size <= LH_FILTER_MAX_ACCESS);
   tl_assert(!first->is_write || second->is_write);
   addStmtToIRSB(sbOut, assign(base, IRExpr_Load(Iend_LE, Ity_I64,
                            mkIRExpr_HWord((HWord)&LH_(filter_base)))));
   addStmtToIRSB(sbOut, assign(span, IRExpr_Load(Iend_LE, Ity_I64,
                            mkIRExpr_HWord((HWord)&LH_(filter_span)))));
   addStmtToIRSB(sbOut, assign(delta1, binop(Iop_Sub64, a1, mkexpr(base))));
   addStmtToIRSB(sbOut, assign(delta2, binop(Iop_Sub64, a2, mkexpr(base))));
   in1 = bind_bit(sbOut, binop(Iop_CmpLT64U, mkexpr(delta1), mkexpr(span)));
   in2 = bind_bit(sbOut, binop(Iop_CmpLT64U, mkexpr(delta2), mkexpr(span)));
   if (second->is_write && first->is_write) {
      name = "LH_(note_write_write)"; fn = (void*)&LH_(note_write_write);
   } else if (second->is_write) {
      name = "LH_(note_read_write)"; fn = (void*)&LH_(note_read_write);
   } else {
      name = "LH_(note_read_read)"; fn = (void*)&LH_(note_read_read);
   }
   di = unsafeIRDirty_0_N(3, name, VG_(fnptr_to_fnentry)(fn),
                          mkIRExprVec_3(a1, a2,
                             mkIRExpr_HWord((HWord)first->size
                                            | ((HWord)second->size << 8)
                                            | ((HWord)next_slot() << 16)
                                            | ((HWord)next_slot() << 40))));
   di->guard = bind_bit(sbOut, binop(Iop_Or1, in1, in2));
   addStmtToIRSB(sbOut, IRStmt_Dirty(di));
}

/* Emits the pending events, adjacent ones of the same kind and base
   merged, and empties the list. */
static void flush_pending(IRSB* sbOut, PendingList* pl)
{
   PendingAccess runs[MAX_PENDING];
   Int n_runs;
   Int i, j;
   /* insertion sort by (is_write, base, offset); lists are short */
   for (i = 1; i < pl->n; i++) {
      PendingAccess e = pl->event[i];
      for (j = i - 1; j >= 0; j--) {
         PendingAccess* p = &pl->event[j];
         Bool after = p->is_write != e.is_write ? p->is_write > e.is_write
                      : p->base != e.base ? p->base > e.base
                      : p->offset > e.offset;
         if (!after) break;
         pl->event[j + 1] = *p;
      }
      pl->event[j + 1] = e;
   }
   n_runs = 0;
   i = 0;
   while (i < pl->n) {
      PendingAccess run = pl->event[i];
      for (j = i + 1; j < pl->n; j++) {
         PendingAccess* next = &pl->event[j];
         if (next->is_write != run.is_write || next->base != run.base
             || next->offset != run.offset + run.size
             || run.size + next->size > LH_FILTER_MAX_ACCESS)
            break;
         run.size += next->size;
      }
      runs[n_runs++] = run;
      i = j;
   }
   /* runs are reads first, then writes: call for two at a time */
   for (i = 0; i + 1 < n_runs; i += 2)
      add_pair_event(sbOut, &runs[i], &runs[i + 1]);
   if (i < n_runs)
      add_access_event(sbOut, runs[i].is_write, runs[i].addr, runs[i].size, NULL);
   pl->n = 0;
}

/* A plain load or store: queued when its address is a temp, else
   reported at once. */
static void add_plain_access(IRSB* sbOut, PendingList* pl, const TempOffsets* to,
                             Bool is_write, IRExpr* addr, Int size)
{
   PendingAccess* e;
   if (addr->tag != Iex_RdTmp || addr->Iex.RdTmp.tmp >= (IRTemp)to->n_temps
       || size > LH_FILTER_MAX_ACCESS) {
      add_access_event(sbOut, is_write, addr, size, NULL);
      return;
   }
   if (pl->n == MAX_PENDING) flush_pending(sbOut, pl);
   e = &pl->event[pl->n++];
   e->is_write = is_write;
   e->base = to->base[addr->Iex.RdTmp.tmp];
   e->offset = to->offset[addr->Iex.RdTmp.tmp];
   e->size = size;
   e->addr = addr;
}

/*------------------------------------------------------------*/
/*--- The instrumentation pass                             ---*/
/*------------------------------------------------------------*/

IRSB* LH_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy)
{
   Int i;
   Int pending_instrs = 0;   /* IMarks passed since the last clock update */
   IRSB* sbOut;
   LoadTemps load_temps;
   TempOffsets temp_offsets;
   PendingList pending;

   if (gWordTy != hWordTy)
      VG_(tool_panic)("lifeheap: host/guest word size mismatch is not supported");

   sbOut = deepCopyIRSBExceptStmts(sbIn);
   load_temps.n_temps = sbIn->tyenv->types_used;
   load_temps.load_addr = VG_(calloc)("lh.instrument.loads",
                                      load_temps.n_temps > 0 ? load_temps.n_temps : 1,
                                      sizeof(IRExpr*));
   load_temps.load_insn = VG_(calloc)("lh.instrument.loads",
                                      load_temps.n_temps > 0 ? load_temps.n_temps : 1,
                                      sizeof(Addr));
   load_temps.current_insn = 0;
   temp_offsets.n_temps = load_temps.n_temps;
   temp_offsets.base = VG_(malloc)("lh.instrument.offsets",
                                   (temp_offsets.n_temps > 0 ? temp_offsets.n_temps : 1)
                                   * sizeof(IRTemp));
   temp_offsets.offset = VG_(malloc)("lh.instrument.offsets",
                                     (temp_offsets.n_temps > 0 ? temp_offsets.n_temps : 1)
                                     * sizeof(Long));
   for (i = 0; i < temp_offsets.n_temps; i++) {
      temp_offsets.base[i] = (IRTemp)i;
      temp_offsets.offset[i] = 0;
   }
   pending.n = 0;
   sb_slot_seed = (Addr)vge->base[0];
   sb_slot_next = 0;

   /* The preamble before the first IMark is copied unchanged. */
   i = 0;
   while (i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark) {
      addStmtToIRSB(sbOut, sbIn->stmts[i]);
      i++;
   }

   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (!st || st->tag == Ist_NoOp)
         continue;
      switch (st->tag) {
         case Ist_IMark:
            /* the preload's string and memory functions are not counted
               (docs/metrics.md: Time) */
            if (!LH_(in_replacement_code)((Addr)st->Ist.IMark.addr))
               pending_instrs++;
            load_temps.current_insn = (Addr)st->Ist.IMark.addr;
            break;
         case Ist_Exit:
            flush_pending(sbOut, &pending);
            if (pending_instrs > 0) {
               add_clock_update(sbOut, pending_instrs);
               pending_instrs = 0;
            }
            break;
         case Ist_WrTmp: {
            IRExpr* data = st->Ist.WrTmp.data;
            note_temp_def(&temp_offsets, st->Ist.WrTmp.tmp, data);
            if (data->tag == Iex_Load) {
               add_plain_access(sbOut, &pending, &temp_offsets, False,
                                data->Iex.Load.addr, sizeofIRType(data->Iex.Load.ty));
               load_temps.load_addr[st->Ist.WrTmp.tmp] = data->Iex.Load.addr;
               load_temps.load_insn[st->Ist.WrTmp.tmp] = load_temps.current_insn;
            } else if (data->tag == Iex_RdTmp) {
               /* a copy of a load's result is still that load's result */
               IRTemp src = data->Iex.RdTmp.tmp;
               if (src < (IRTemp)load_temps.n_temps) {
                  load_temps.load_addr[st->Ist.WrTmp.tmp] = load_temps.load_addr[src];
                  load_temps.load_insn[st->Ist.WrTmp.tmp] = load_temps.load_insn[src];
               }
            }
            break;
         }
         case Ist_Store: {
            IRExpr* data = st->Ist.Store.data;
            add_plain_access(sbOut, &pending, &temp_offsets, True, st->Ist.Store.addr,
                             sizeofIRType(typeOfIRExpr(sbIn->tyenv, data)));
            break;
         }
         case Ist_LoadG: {
            IRLoadG* lg = st->Ist.LoadG.details;
            IRType loaded = Ity_INVALID, widened = Ity_INVALID;
            typeOfIRLoadGOp(lg->cvt, &widened, &loaded);
            add_access_event(sbOut, False, lg->addr, sizeofIRType(loaded), lg->guard);
            break;
         }
         case Ist_StoreG: {
            IRStoreG* sg = st->Ist.StoreG.details;
            add_access_event(sbOut, True, sg->addr,
                             sizeofIRType(typeOfIRExpr(sbIn->tyenv, sg->data)),
                             sg->guard);
            break;
         }
         case Ist_CAS: {
            IRCAS* cas = st->Ist.CAS.details;
            Int size = sizeofIRType(typeOfIRExpr(sbIn->tyenv, cas->dataLo));
            if (cas->dataHi != NULL) size *= 2;    /* double-word CAS */
            if (!cas_is_rmw_write(&load_temps, cas))
               add_access_event(sbOut, False, cas->addr, size, NULL);
            addStmtToIRSB(sbOut, st);
            add_cas_write(sbOut, cas, size);
            continue;
         }
         case Ist_LLSC: {
            if (st->Ist.LLSC.storedata == NULL) {         /* load-linked */
               add_access_event(sbOut, False, st->Ist.LLSC.addr,
                  sizeofIRType(typeOfIRTemp(sbIn->tyenv, st->Ist.LLSC.result)), NULL);
            } else {                                      /* store-conditional */
               addStmtToIRSB(sbOut, st);
               add_access_event(sbOut, True, st->Ist.LLSC.addr,
                  sizeofIRType(typeOfIRExpr(sbIn->tyenv, st->Ist.LLSC.storedata)),
                  mkexpr(st->Ist.LLSC.result));
               continue;
            }
            break;
         }
         case Ist_Dirty: {
            IRDirty* d = st->Ist.Dirty.details;
            if (d->mFx != Ifx_None) {
               IRExpr* guard = dirty_guard(d);
               if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
                  add_access_event(sbOut, False, d->mAddr, d->mSize, guard);
               if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
                  add_access_event(sbOut, True, d->mAddr, d->mSize, guard);
            }
            break;
         }
         default:
            break;
      }
      addStmtToIRSB(sbOut, st);
   }

   flush_pending(sbOut, &pending);
   if (pending_instrs > 0)
      add_clock_update(sbOut, pending_instrs);
   LH_(inline_client_calls)(sbOut);     /* after the clock: LH_(now) is up to date */
   VG_(free)(temp_offsets.base);
   VG_(free)(temp_offsets.offset);
   VG_(free)(load_temps.load_addr);
   VG_(free)(load_temps.load_insn);
   return sbOut;
}
