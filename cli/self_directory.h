/* The directory of the running program, for lifeheap and cargo-lifeheap
 * alike (each finds the build tree's or the installed tool, viewer or
 * lifeheap beside itself). A file of its own because cargo-lifeheap links
 * only json-c and this file, not lifeheap's util.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_SELF_DIRECTORY_H
#define LIFEHEAP_SELF_DIRECTORY_H

#include <stdbool.h>
#include <stddef.h>

/* The directory holding the running binary (from /proc/self/exe), without
 * a trailing slash. False when it cannot be read or does not fit. */
bool executable_directory(char *buffer, size_t size);

#endif
