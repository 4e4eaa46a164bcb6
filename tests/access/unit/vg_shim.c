/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * vg_shim.c: the Valgrind core functions and the lifeheap functions that
 * tool/lh_access_map.c calls, for a host build of it (access_map_test.c):
 * the arena functions on the C library's (frees counted), the JSON writer as a recorder
 * of the arrays written, the access path's slot hooks as counters.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"
#include "lh_access_private.h"
#include "vg_shim.h"

void* VG_(malloc)(const HChar* cc, SizeT nbytes)
{
   void* p = malloc(nbytes);
   if (p == NULL) { fprintf(stderr, "out of memory (%s)\n", cc); exit(2); }
   return p;
}

static int frees;
void VG_(free)(void* p) { frees++; free(p); }
int shim_frees(void) { return frees; }
void* VG_(memcpy)(void* d, const void* s, SizeT sz) { return memcpy(d, s, sz); }
void* VG_(memset)(void* s, Int c, SizeT sz) { return memset(s, c, sz); }

void VG_(assert_fail)(Bool isCore, const HChar* expr, const HChar* file,
                      Int line, const HChar* fn, const HChar* format, ...)
{
   printf("FAIL access map: assertion '%s' at %s:%d (%s)\n", expr, file, line, fn);
   exit(1);
}

static int flushes, epochs;
void LH_(slots_flush_repeats)(void) { flushes++; }
void LH_(slots_new_epoch)(void) { epochs++; }
int shim_flushes(void) { return flushes; }
int shim_epochs(void) { return epochs; }

/* The arrays written since the last reset, by key. */
#define MAX_ARRAYS 8
#define MAX_TEXT (128 * 1024)
static struct { char key[32]; char text[MAX_TEXT]; size_t at; } arrays[MAX_ARRAYS];
static int n_arrays, open_array = -1;

void shim_json_reset(void) { n_arrays = 0; open_array = -1; }

const char* shim_json_array(const char* key)
{
   int i;
   for (i = 0; i < n_arrays; i++)
      if (strcmp(arrays[i].key, key) == 0) return arrays[i].text;
   return NULL;
}

void LH_(json_array_begin)(LH_Json* j, const HChar* key)
{
   if (n_arrays == MAX_ARRAYS) { printf("FAIL access map: too many arrays\n"); exit(1); }
   open_array = n_arrays++;
   snprintf(arrays[open_array].key, sizeof(arrays[open_array].key), "%s", key);
   arrays[open_array].at = (size_t)snprintf(arrays[open_array].text, MAX_TEXT, "[");
}

void LH_(json_array_end)(LH_Json* j)
{
   if (open_array >= 0) {
      size_t at = arrays[open_array].at;
      snprintf(arrays[open_array].text + at, MAX_TEXT - at, "]");
   }
   open_array = -1;
}

void LH_(json_u64)(LH_Json* j, const HChar* key, ULong v)
{
   if (open_array >= 0 && key == NULL) {
      size_t at = arrays[open_array].at;
      arrays[open_array].at += (size_t)snprintf(arrays[open_array].text + at,
                                                MAX_TEXT - at, "%s%llu",
                                                at > 1 ? "," : "",
                                                (unsigned long long)v);
   }
}

void LH_(json_object_begin)(LH_Json* j, const HChar* key) { }
void LH_(json_object_end)(LH_Json* j) { }
void LH_(json_string)(LH_Json* j, const HChar* key, const HChar* s) { }
void LH_(json_null)(LH_Json* j, const HChar* key) { }
