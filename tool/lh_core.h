/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_core.h: the parts of Valgrind's core the tool   ---*/
/*--- uses without a pub_tool_ declaration.                        ---*/
/*--------------------------------------------------------------------*/
/*
   SPDX-License-Identifier: GPL-3.0-or-later

   The tool links statically with libcoregrind, so it can reach the
   core's own functions and variables; Valgrind's tool headers do not
   declare these, so their declarations are written here, once, from
   Valgrind 3.19's sources.  configure reads every "extern" line of this
   file and checks that the installed libcoregrind defines the symbol, and
   refuses a Valgrind older than 3.19: a core that renamed or dropped one
   fails at configure time with the symbol's name, not at link time.
*/
#ifndef LH_CORE_H
#define LH_CORE_H

#include "pub_tool_basics.h"

/* m_demangle: undoes C++ and Rust (legacy and v0) mangling; *result is
   valid until the next call. */
extern void VG_(demangle)(Bool do_cxx_demangling, Bool do_z_demangling,
                          const HChar* orig, const HChar** result);

/* m_main: the descriptor Valgrind keeps open on the client executable. */
extern Int VG_(cl_exec_fd);

/* m_threadstate: client threads alive now. */
extern Int VG_(count_living_threads)(void);

/* m_libcfile: moves a descriptor above the client's limit, where Valgrind
   keeps its own, so the program cannot close or reuse it. */
extern Int VG_(safe_fd)(Int oldfd);

/* m_options: --read-inline-info. */
extern Bool VG_(clo_read_inline_info);

/* m_options: --valgrind-stacksize, the bytes of Valgrind's own stack for
   each thread (read when a thread's stack is made). */
extern Word VG_(clo_valgrind_stacksize);

/* m_debuginfo: the symbols Valgrind read for an object, by index
   (0 .. howmany-1); SymAVMAs is one address on amd64 and x86. */
struct _DebugInfo;
typedef struct { Addr main; } LH_SymAVMAs;
extern Int VG_(DebugInfo_syms_howmany)(const struct _DebugInfo* di);
extern void VG_(DebugInfo_syms_getidx)(const struct _DebugInfo* di, Int idx,
                                       LH_SymAVMAs* avmas, UInt* size,
                                       const HChar** pri_name,
                                       const HChar*** sec_names,
                                       Bool* is_text, Bool* is_ifunc,
                                       Bool* is_global);

/* m_machine, m_stacks, m_debuginfo: the pieces of Valgrind's amd64 stack
   unwinder (m_stacktrace.c's VG_(get_StackTrace_wrk)), for the tool's own
   loop over them (lh_alloc_stacks.c).  The start registers' layout is
   3.19's UnwindStartRegs: the pc, the sp, then a union whose amd64 member
   is the frame pointer (the union's largest member, s390x's, is ten
   words).  A step of the CFI unwinder works on the three registers. */
typedef struct {
   ULong r_pc;
   ULong r_sp;
   union {
      struct { ULong r_rbp; } AMD64;
      ULong words[10];
   } misc;
} LH_UnwindStartRegs;
typedef struct { Addr xip; Addr xsp; Addr xbp; } LH_D3UnwindRegs;
extern void VG_(get_UnwindStartRegs)(LH_UnwindStartRegs* regs, ThreadId tid);
extern void VG_(stack_limits)(Addr SP, Addr* start, Addr* end);
extern Bool VG_(use_CF_info)(LH_D3UnwindRegs* uregs, Addr min_accessible,
                             Addr max_accessible);

#endif /* LH_CORE_H */
