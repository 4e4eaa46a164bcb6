/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_dump.h: the profile's path, periodic dumps and  ---*/
/*--- vgdb "monitor lifeheap dump" (lh_dump.c).                    ---*/
/*--------------------------------------------------------------------*/
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LH_DUMP_H
#define LH_DUMP_H

#include "pub_tool_basics.h"
#include "lh_json.h"

#ifndef LH_
#define LH_(str) VGAPPEND(vgLifeheap_, str)
#endif

/* --lifeheap-dump-interval (lh_options.def). */
Bool LH_(dump_process_option)(const HChar* arg);
Bool LH_(dump_run_record_option)(const HChar* arg);
void LH_(dump_write_options_json)(LH_Json* j);
/* post_clo_init: resolves the profile path once and checks that it can
   be written (before the program runs), starts the dump timer. */
void LH_(dump_init)(void);
/* A periodic dump when one is due (Valgrind's start_client_code). */
void LH_(dump_maybe)(ThreadId tid, ULong blocks_dispatched);
/* The profile's path, expanded once (%p, %q{VAR}, %n) and again in a
   forked child: every dump and the final write go to the same file. */
const HChar* LH_(profile_path)(void);
/* Forgets the expanded path (a forked child expands its own). */
void LH_(profile_path_reset)(void);
/* Writes a partial profile ("complete": false) to the profile's path now,
   with the given dump_reason; False when it could not be written. */
Bool LH_(write_dump)(const HChar* reason);
/* vgdb "monitor lifeheap ..." (a gdbserver client request). */
Bool LH_(dump_client_request)(ThreadId tid, UWord* arg, UWord* ret);

#endif /* LH_DUMP_H */
