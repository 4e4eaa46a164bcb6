/*--------------------------------------------------------------------*/
/*--- lifeheap: numbers as people read them (summary, findings).  ---*/
/*--- lh_text.h                                                    ---*/
/*--------------------------------------------------------------------*/
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LH_TEXT_H
#define LH_TEXT_H

#include "pub_tool_basics.h"

/* Sizes, percentages and counts as common/lh_numbers.h writes them (the
   rules are at its top and in docs/format.md, "Numbers for people"). */

/* "512 B", "1.5 KiB", "23.0 MiB": one decimal, binary units. */
void LH_(format_bytes)(HChar* buf, SizeT size, ULong bytes);

/* "62%", "0.4%", "99.9%", "<0.1%": whole percents from 10% up, tenths
   below; never rounds a fraction below 1 up to 100%. */
void LH_(format_percent)(HChar* buf, SizeT size, double fraction);

/* part's share of whole as LH_(format_percent) writes it ("0%" when
   whole is 0): the summary's shares of the peak and of the run. */
void LH_(format_share)(HChar* buf, SizeT size, ULong part, ULong whole);

/* one when n is 1, many otherwise. */
const HChar* LH_(plural)(ULong n, const HChar* one, const HChar* many);

#endif
