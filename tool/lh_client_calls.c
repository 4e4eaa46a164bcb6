/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_client_calls.c: the malloc family's calls into  ---*/
/*--- the tool, made from the translation itself.                  ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Every malloc, free, realloc, ... of the program enters the preload's
   replacement (Valgrind's own malloc wrappers), which hands the request
   to the tool with a client request, VALGRIND_NON_SIMD_CALL1..3: it
   stores the request (CLIENT_CALL1..3, the tool's function, its
   arguments) in an array on the stack, puts the array's address in RAX
   and executes the magic preamble.  VEX ends the superblock there with
   the jump kind Ijk_ClientReq, so the translation returns to the
   dispatcher and the scheduler, whose do_client_request calls the
   function and puts its result in RDX, and then re-enters the
   translations.  That round trip (saving and restoring the host's
   state, the scheduler's loop and checks) cost more than lifeheap's own
   bookkeeping of the allocation.

   A superblock that ends in a client request is instrumented here to
   try the call first, with a helper called from the translation:

      ...                                (the block, its clock update)
      PUT(RIP) = next                    the address after the request,
                                         as the scheduler would see it
      t = DIRTY lh_client_call(GET(RAX), reads RIP, RSP, RBP (the unwind
                               GSPTR)    of an allocation's stack);
                                         RDX: the result, when handled,
                                         written through the guest state
                                         pointer
      if (t == 0) goto next  Ijk_ClientReq   not one of ours: the scheduler
      goto next  Ijk_Boring

   lh_client_call handles only CLIENT_CALL1..3 of the malloc
   replacement's own functions (lh_heap.c, LH_(is_heap_function)), and
   makes exactly the call do_client_request makes (the running thread's
   id first, then the arguments), its result put in RDX as
   SET_CLCALL_RETVAL does; every other request, and the program's own
   client requests, return 0 and take the exit to the scheduler as
   before.  Nothing else changes: the same guest instructions run (the
   clock, LH_(now), counts the same), the helper sees the same registers
   (RIP is the request's next address, as after the exit; the unwind
   reads RIP, RSP and RBP, which the helper's declared reads keep in the
   guest state), and the functions do what they did from the scheduler:
   none of them needs the scheduler (they allocate, unwind the stack,
   update records).  A forced dump (--lifeheap-dump-interval) is checked
   when the scheduler starts client code (lh_dump.c): it comes at the
   next of the other returns to the scheduler (a system call, the end of
   a time slice) instead of at the next malloc.

   Only for amd64, the one platform the tool is built for; elsewhere the
   superblock is left as it is.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_clreq.h"
#include "pub_tool_guest.h"
#include "lh_include.h"

#if defined(VGA_amd64)

#include <stddef.h>     /* offsetof: a compiler builtin, no libc */

#define GUEST_OFFSET(reg) ((Int)offsetof(VexGuestAMD64State, reg))

/* args: the request array (RAX); guest: the running thread's guest
   state (the call's IRExpr_GSPTR()), whose RDX takes the result, as
   SET_CLCALL_RETVAL puts it (declared modified: VEX reloads it after the
   call).  1 when the call was made here, 0 when the scheduler must handle
   the request. */
static VG_REGPARM(2) UWord lh_client_call(UWord* args, VexGuestAMD64State* guest)
{
   ThreadId tid;
   switch (args[0]) {
      case VG_USERREQ__CLIENT_CALL1: {
         UWord (*f)(ThreadId, UWord) = (void*)args[1];
         if (!LH_(is_heap_function)((Addr)f)) return 0;
         tid = VG_(get_running_tid)();
         guest->guest_RDX = f(tid, args[2]);
         return 1;
      }
      case VG_USERREQ__CLIENT_CALL2: {
         UWord (*f)(ThreadId, UWord, UWord) = (void*)args[1];
         if (!LH_(is_heap_function)((Addr)f)) return 0;
         tid = VG_(get_running_tid)();
         guest->guest_RDX = f(tid, args[2], args[3]);
         return 1;
      }
      case VG_USERREQ__CLIENT_CALL3: {
         UWord (*f)(ThreadId, UWord, UWord, UWord) = (void*)args[1];
         if (!LH_(is_heap_function)((Addr)f)) return 0;
         tid = VG_(get_running_tid)();
         guest->guest_RDX = f(tid, args[2], args[3], args[4]);
         return 1;
      }
      default:
         return 0;
   }
}

void LH_(inline_client_calls)(IRSB* sbOut)
{
   IRTemp args, handled, not_handled;
   IRDirty* call;
   IRConst* next;

   if (sbOut->jumpkind != Ijk_ClientReq || sbOut->next->tag != Iex_Const)
      return;
   next = sbOut->next->Iex.Const.con;
   if (next->tag != Ico_U64) return;

   addStmtToIRSB(sbOut, IRStmt_Put(sbOut->offsIP, IRExpr_Const(next)));
   args = newIRTemp(sbOut->tyenv, Ity_I64);
   addStmtToIRSB(sbOut, IRStmt_WrTmp(args,
                    IRExpr_Get(GUEST_OFFSET(guest_RAX), Ity_I64)));
   handled = newIRTemp(sbOut->tyenv, Ity_I64);
   call = unsafeIRDirty_1_N(handled, 2, "lh_client_call",
                            VG_(fnptr_to_fnentry)(&lh_client_call),
                            mkIRExprVec_2(IRExpr_RdTmp(args), IRExpr_GSPTR()));
   call->nFxState = 4;
   VG_(memset)(&call->fxState, 0, sizeof(call->fxState));
   call->fxState[0].fx     = Ifx_Read;
   call->fxState[0].offset = GUEST_OFFSET(guest_RIP);
   call->fxState[0].size   = sizeof(ULong);
   call->fxState[1].fx     = Ifx_Read;
   call->fxState[1].offset = GUEST_OFFSET(guest_RSP);
   call->fxState[1].size   = sizeof(ULong);
   call->fxState[2].fx     = Ifx_Read;
   call->fxState[2].offset = GUEST_OFFSET(guest_RBP);
   call->fxState[2].size   = sizeof(ULong);
   /* Modify, not Write: when the scheduler handles the request, RDX must
      still hold the default value the request put there */
   call->fxState[3].fx     = Ifx_Modify;
   call->fxState[3].offset = GUEST_OFFSET(guest_RDX);
   call->fxState[3].size   = sizeof(ULong);
   addStmtToIRSB(sbOut, IRStmt_Dirty(call));
   not_handled = newIRTemp(sbOut->tyenv, Ity_I1);
   addStmtToIRSB(sbOut, IRStmt_WrTmp(not_handled,
                    IRExpr_Binop(Iop_CmpEQ64, IRExpr_RdTmp(handled),
                                 IRExpr_Const(IRConst_U64(0)))));
   addStmtToIRSB(sbOut, IRStmt_Exit(IRExpr_RdTmp(not_handled),
                                    Ijk_ClientReq, next, sbOut->offsIP));
   sbOut->jumpkind = Ijk_Boring;
}

#else

void LH_(inline_client_calls)(IRSB* sbOut)
{
}

#endif
