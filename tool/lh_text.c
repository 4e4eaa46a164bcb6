/*--------------------------------------------------------------------*/
/*--- lifeheap: numbers as people read them (summary, findings).  ---*/
/*--- lh_text.c                                                    ---*/
/*--------------------------------------------------------------------*/
/* The rules and their one implementation are in common/lh_numbers.h,
   shared with the lifeheap command (the viewer follows the same rules).

   SPDX-License-Identifier: GPL-3.0-or-later */

#include "pub_tool_basics.h"

#include "lh_include.h"
#include "lh_text.h"
#include "lh_numbers.h"

void LH_(format_bytes)(HChar* buf, SizeT size, ULong bytes)
{
   lh_numbers_bytes(buf, size, bytes);
}

void LH_(format_percent)(HChar* buf, SizeT size, double fraction)
{
   lh_numbers_percent(buf, size, fraction);
}

void LH_(format_share)(HChar* buf, SizeT size, ULong part, ULong whole)
{
   lh_numbers_percent(buf, size, whole == 0 ? 0.0 : (double)part / whole);
}

const HChar* LH_(plural)(ULong n, const HChar* one, const HChar* many)
{
   return n == 1 ? one : many;
}
