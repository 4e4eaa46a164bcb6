/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_table.c: tables of pointers indexed by a number ---*/
/*--- that grow by doubling.                                       ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The block file's side pages by record number (lh_blocks.c) are an
   array of pointers, NULL where nothing is yet, that must reach a given
   index: the array doubles (from first_size) until it does, keeping its
   entries, so reaching n costs O(n) copies over the run.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"

void LH_(grow_zeroed_table)(void*** table, UInt* size, UInt index,
                            UInt first_size, const HChar* cost_centre)
{
   UInt new_size = *size ? *size : first_size;
   void** bigger;
   if (index < *size) return;
   while (new_size <= index) {
      tl_assert(new_size * 2 > new_size);
      new_size *= 2;
   }
   bigger = VG_(malloc)(cost_centre, new_size * sizeof(void*));
   VG_(memset)(bigger, 0, new_size * sizeof(void*));
   if (*table) {
      VG_(memcpy)(bigger, *table, *size * sizeof(void*));
      VG_(free)(*table);
   }
   *table = bigger;
   *size = new_size;
}
