/*--------------------------------------------------------------------*/
/*--- lifeheap: numbers as people read them (summary, findings).  ---*/
/*--- lh_text.c                                                    ---*/
/*--------------------------------------------------------------------*/
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"

#include "lh_include.h"
#include "lh_text.h"

void LH_(format_bytes)(HChar* buf, SizeT size, ULong bytes)
{
   static const HChar* const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
   ULong divisor = 1024, tenths;
   Int u = 0;
   if (bytes < 1024) {
      VG_(snprintf)(buf, size, "%llu B", bytes);
      return;
   }
   while (u < 4 && bytes / divisor >= 1024) {
      divisor *= 1024;
      u++;
   }
   /* bytes / divisor in tenths, rounded to nearest, without overflow. */
   tenths = (bytes / divisor) * 10
            + ((bytes % divisor) * 10 + divisor / 2) / divisor;
   VG_(snprintf)(buf, size, "%llu.%llu %s", tenths / 10, tenths % 10,
                 units[u]);
}

/* "62%", "0.4%", "99.9%": whole percents from 10% up, tenths below;
   never rounds a fraction below 1 up to 100%. */
void LH_(format_percent)(HChar* buf, SizeT size, double fraction)
{
   ULong tenths, whole;
   if (!(fraction > 0)) {
      VG_(snprintf)(buf, size, "0%%");
      return;
   }
   tenths = (ULong)(fraction * 1000.0 + 0.5);
   if (tenths == 0) {
      VG_(snprintf)(buf, size, "under 0.1%%");
      return;
   }
   if (tenths < 100) {
      VG_(snprintf)(buf, size, "%llu.%llu%%", tenths / 10, tenths % 10);
      return;
   }
   if (tenths >= 990 && fraction < 1.0) {   /* "99.9%", not "100%" */
      if (tenths > 999)
         tenths = 999;
      VG_(snprintf)(buf, size, "%llu.%llu%%", tenths / 10, tenths % 10);
      return;
   }
   whole = (ULong)(fraction * 100.0 + 0.5);
   if (whole >= 100 && fraction < 1.0)
      whole = 99;
   VG_(snprintf)(buf, size, "%llu%%", whole);
}

UInt LH_(percent_whole)(ULong part, ULong whole)
{
   if (whole == 0) return 0;
   return (UInt)((part * 100.0) / whole + 0.5);
}

const HChar* LH_(plural)(ULong n, const HChar* one, const HChar* many)
{
   return n == 1 ? one : many;
}
