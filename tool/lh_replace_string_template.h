/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_replace_string_template.h: the string functions ---*/
/*--- written once for any element type.                           ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The functions that exist for narrow strings (str*, stp*) and for wide
   strings (wcs*, wcp*) with the same definition: lengths, searches for
   one element, comparisons, copies, padded copies and concatenations,
   plain and _FORTIFY_SOURCE (_chk).  Each reads and writes the elements
   its definition needs, each once (why: lh_replace_strmem.c).

   lh_replace_str.c and lh_replace_wcs.c include this file once each,
   after defining:

     LH_ELEM          the element type (char, or wchar_t's Int)
     LH_UNIT          the type two elements are compared as (UChar for
                      bytes, as glibc does; the signed Int for wchar_t)
     LH_ELEM_ARG      the type of the element argument of the searches
                      (int for strchr, wchar_t for wcschr)
     LH_ORDER(a, b)   <0, 0 or >0 as a sorts before, with or after b
     LH_STR(name)     the function's name in the str/wcs family
                      (LH_STR(len) is lh_strlen or lh_wcslen)
     LH_STP(name)     the same in the stp/wcp family (returns the end)

   and give the functions their Valgrind names (lh_replace.h) after it.
   Its name starts with "lh_replace" so that lh_instrument.c leaves the
   instructions of the functions it defines out of the clock.
*/

/*------------------------------------------------------------*/
/*--- Lengths and searches for one element                 ---*/
/*------------------------------------------------------------*/

static SizeT LH_STR(len)(const LH_ELEM* s)
{
   SizeT n = 0;
   while (s[n] != 0) n++;
   return n;
}

static SizeT LH_STR(nlen)(const LH_ELEM* s, SizeT max)
{
   SizeT n = 0;
   while (n < max && s[n] != 0) n++;
   return n;
}

static LH_ELEM* LH_STR(chr)(const LH_ELEM* s, LH_ELEM_ARG c)
{
   for (;; s++) {
      if (*s == (LH_ELEM)c) return (LH_ELEM*)s;
      if (*s == 0) return NULL;
   }
}

static LH_ELEM* LH_STR(chrnul)(const LH_ELEM* s, LH_ELEM_ARG c)
{
   while (*s != (LH_ELEM)c && *s != 0) s++;
   return (LH_ELEM*)s;
}

static LH_ELEM* LH_STR(rchr)(const LH_ELEM* s, LH_ELEM_ARG c)
{
   const LH_ELEM* last = NULL;
   for (;; s++) {
      if (*s == (LH_ELEM)c) last = s;
      if (*s == 0) return (LH_ELEM*)last;
   }
}

/*------------------------------------------------------------*/
/*--- Comparisons                                          ---*/
/*------------------------------------------------------------*/

/* At most n elements (all of them for the unbounded form): stops at the
   first difference or the common terminator. */
static int LH_STR(ncmp)(const LH_ELEM* a, const LH_ELEM* b, SizeT n)
{
   const LH_UNIT* x = (const LH_UNIT*)a;
   const LH_UNIT* y = (const LH_UNIT*)b;
   for (; n > 0; n--, x++, y++) {
      LH_UNIT cx = *x, cy = *y;
      if (cx != cy) return LH_ORDER(cx, cy);
      if (cx == 0) return 0;
   }
   return 0;
}

static int LH_STR(cmp)(const LH_ELEM* a, const LH_ELEM* b)
{
   return LH_STR(ncmp)(a, b, (SizeT)-1);
}

/*------------------------------------------------------------*/
/*--- Copies and concatenations                            ---*/
/*------------------------------------------------------------*/

/* Copies src with its terminator to dst, writing nothing at or past
   dst_max elements (the _chk variants' limit: ends the program there, as
   glibc does); returns the address of dst's terminator. */
static LH_ELEM* LH_STR(copy_terminated)(LH_ELEM* dst, const LH_ELEM* src,
                                        SizeT dst_max)
{
   SizeT i;
   for (i = 0;; i++) {
      LH_ELEM c = src[i];
      lh_check_fits(i + 1, dst_max);
      dst[i] = c;
      if (c == 0) return dst + i;
   }
}

/* strncpy/stpncpy: copies up to n elements of src, stopping at its
   terminator, and pads dst with zeros to n elements (the padding is
   written by the program too).  Returns the address after the last
   element copied from src (the first zero written, or dst + n). */
static LH_ELEM* LH_STR(copy_padded)(LH_ELEM* dst, const LH_ELEM* src, SizeT n,
                                    SizeT dst_len)
{
   SizeT i = 0, copied;
   lh_check_fits(n, dst_len);
   for (; i < n && src[i] != 0; i++) dst[i] = src[i];
   copied = i;
   for (; i < n; i++) dst[i] = 0;
   return dst + copied;
}

/* strcat/strncat: dst is read up to its terminator, then src is appended
   (at most n elements of it for strncat) with a terminator. */
static LH_ELEM* LH_STR(append)(LH_ELEM* dst, const LH_ELEM* src, SizeT n,
                               SizeT dst_len)
{
   SizeT end = 0, i;
   while (dst[end] != 0) end++;
   for (i = 0; i < n && src[i] != 0; i++) {
      lh_check_fits(end + i + 1, dst_len);
      dst[end + i] = src[i];
   }
   lh_check_fits(end + i + 1, dst_len);
   dst[end + i] = 0;
   return dst;
}

/* The entry points: no limit, or the destination's size as the compiler
   knew it (_chk); the str/wcs form returns dst, the stp/wcp form the end
   of what it wrote. */
static LH_ELEM* LH_STR(cpy)(LH_ELEM* dst, const LH_ELEM* src)
{ LH_STR(copy_terminated)(dst, src, (SizeT)-1); return dst; }
static LH_ELEM* LH_STP(cpy)(LH_ELEM* dst, const LH_ELEM* src)
{ return LH_STR(copy_terminated)(dst, src, (SizeT)-1); }
static LH_ELEM* LH_STR(cpy_chk)(LH_ELEM* dst, const LH_ELEM* src, SizeT dst_len)
{ LH_STR(copy_terminated)(dst, src, dst_len); return dst; }
static LH_ELEM* LH_STP(cpy_chk)(LH_ELEM* dst, const LH_ELEM* src, SizeT dst_len)
{ return LH_STR(copy_terminated)(dst, src, dst_len); }

static LH_ELEM* LH_STR(ncpy)(LH_ELEM* dst, const LH_ELEM* src, SizeT n)
{ LH_STR(copy_padded)(dst, src, n, (SizeT)-1); return dst; }
static LH_ELEM* LH_STP(ncpy)(LH_ELEM* dst, const LH_ELEM* src, SizeT n)
{ return LH_STR(copy_padded)(dst, src, n, (SizeT)-1); }
static LH_ELEM* LH_STR(ncpy_chk)(LH_ELEM* dst, const LH_ELEM* src, SizeT n,
                                 SizeT dst_len)
{ LH_STR(copy_padded)(dst, src, n, dst_len); return dst; }
static LH_ELEM* LH_STP(ncpy_chk)(LH_ELEM* dst, const LH_ELEM* src, SizeT n,
                                 SizeT dst_len)
{ return LH_STR(copy_padded)(dst, src, n, dst_len); }

static LH_ELEM* LH_STR(cat)(LH_ELEM* dst, const LH_ELEM* src)
{ return LH_STR(append)(dst, src, (SizeT)-1, (SizeT)-1); }
static LH_ELEM* LH_STR(ncat)(LH_ELEM* dst, const LH_ELEM* src, SizeT n)
{ return LH_STR(append)(dst, src, n, (SizeT)-1); }
static LH_ELEM* LH_STR(cat_chk)(LH_ELEM* dst, const LH_ELEM* src, SizeT dst_len)
{ return LH_STR(append)(dst, src, (SizeT)-1, dst_len); }
static LH_ELEM* LH_STR(ncat_chk)(LH_ELEM* dst, const LH_ELEM* src, SizeT n,
                                 SizeT dst_len)
{ return LH_STR(append)(dst, src, n, dst_len); }
