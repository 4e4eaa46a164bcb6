/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_reliability.h: keeping the data when programs   ---*/
/*--- misbehave (issue 7): periodic and on-demand dumps, the       ---*/
/*--- output path, fork scoping, custom allocators.                ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   lh_main.c calls the hooks below (each call is marked "issue 7" there):

     options        LH_(dump_process_option), LH_(dump_print_usage)
     post_clo_init  LH_(reliability_init): resolves the profile path once
                    and checks that it can be written (before the program
                    runs), registers the fork handlers and the dump timer
     client request LH_(reliability_client_request): MALLOCLIKE_BLOCK and
                    friends, mempools, vgdb "monitor lifeheap ..."
     run.options    LH_(dump_write_options_json)
     fini           LH_(profile_path): the same path the dumps used
     execve         LH_(before_exec): the profile so far, when the new
                    program will run without lifeheap

   lh_sites.c calls LH_(custom_blocks_finalize) from LH_(sites_finalize).
*/
#ifndef LH_RELIABILITY_H
#define LH_RELIABILITY_H

#include "pub_tool_basics.h"
#include "lh_json.h"

/* lh_dump.c */
Bool LH_(dump_process_option)(const HChar* arg);
void LH_(dump_print_usage)(void);
void LH_(dump_write_options_json)(LH_Json* j);
void LH_(reliability_init)(void);
/* The profile's path, expanded once (%p, %q{VAR}, %n) and again in a
   forked child: every dump and the final write go to the same file. */
const HChar* LH_(profile_path)(void);
/* Forgets the expanded path (a forked child expands its own). */
void LH_(profile_path_reset)(void);
/* Writes a partial profile ("complete": false) to the profile's path now,
   with the given dump_reason; False when it could not be written. */
Bool LH_(write_dump)(const HChar* reason);
/* The monitor command and the client requests of issue 7. */
Bool LH_(reliability_client_request)(ThreadId tid, UWord* arg, UWord* ret);
Bool LH_(dump_monitor_command)(ThreadId tid, const HChar* command);

/* lh_fork.c */
void LH_(fork_init)(void);
/* The program is about to exec 'program' with the NULL-terminated 'argv'
   (lh_main.c's syscall hook; "" when the name is unreadable). */
void LH_(before_exec)(const HChar* program, const HChar** argv);

/* lh_custom_alloc.c */
Bool LH_(custom_alloc_client_request)(ThreadId tid, UWord* arg, UWord* ret);
/* Adds the lifetimes of live custom blocks (up to now) to their sites;
   called by LH_(sites_finalize) after it did the same for heap blocks. */
void LH_(custom_blocks_finalize)(void);
/* Adds the live custom blocks that were live at the latest peak to their
   sites' at-peak bytes (LH_(access_unmeasured_at_peak)); called when the
   output refreshes the live folds (lh_access.c). */
void LH_(custom_blocks_fold_at_peak)(void);

#endif /* LH_RELIABILITY_H */
