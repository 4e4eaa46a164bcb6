/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_fork.h: a forked child's own profile; the       ---*/
/*--- profile so far before an exec (lh_fork.c).                   ---*/
/*--------------------------------------------------------------------*/
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LH_FORK_H
#define LH_FORK_H

#include "pub_tool_basics.h"

#ifndef LH_
#define LH_(str) VGAPPEND(vgLifeheap_, str)
#endif

void LH_(fork_init)(void);   /* post_clo_init: registers the fork handlers */
/* The program is about to exec 'program' with the NULL-terminated 'argv'
   (lh_main.c's syscall hook; "" when the name is unreadable). */
void LH_(before_exec)(const HChar* program, const HChar** argv);

#endif /* LH_FORK_H */
