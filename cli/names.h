/* Function names as a path, without generic arguments, parameters or
 * return types (names.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_NAMES_H
#define LIFEHEAP_NAMES_H

#include <stddef.h>
#include <stdio.h>

/* "<alloc::vec::Vec<u8>>::with_capacity" -> "alloc::vec::Vec::with_capacity" */
void function_path(const char *function, char *out, size_t size);

#endif
