/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vg_shim.h: what access_map_test reads back from the shim (vg_shim.c). */
#ifndef VG_SHIM_H
#define VG_SHIM_H

/* Forgets the arrays the JSON writer was given. */
void shim_json_reset(void);
/* The array written under key since the last reset, as "[1,2,3]"; NULL
   when none was. */
const char* shim_json_array(const char* key);
/* How often the map asked the access path to flush its slots' pending
   repeats, and to move the slots' epoch. */
int shim_flushes(void);
int shim_epochs(void);
/* How many arena blocks the map gave back. */
int shim_frees(void);

#endif
