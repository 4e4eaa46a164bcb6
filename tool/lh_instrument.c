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
*/

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "lh_include.h"

ULong LH_(now) = 0;

/*------------------------------------------------------------*/
/*--- IR building helpers                                  ---*/
/*------------------------------------------------------------*/

#define mkexpr(_tmp)             IRExpr_RdTmp((_tmp))
#define mkU64(_n)                IRExpr_Const(IRConst_U64(_n))
#define assign(_t, _e)           IRStmt_WrTmp((_t), (_e))

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

   if (gWordTy != hWordTy)
      VG_(tool_panic)("lifeheap: host/guest word size mismatch is not supported");

   sbOut = deepCopyIRSBExceptStmts(sbIn);

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
            pending_instrs++;
            break;
         case Ist_Exit:
            if (pending_instrs > 0) {
               add_clock_update(sbOut, pending_instrs);
               pending_instrs = 0;
            }
            break;
         default:
            break;
      }
      addStmtToIRSB(sbOut, st);
   }

   if (pending_instrs > 0)
      add_clock_update(sbOut, pending_instrs);
   return sbOut;
}
