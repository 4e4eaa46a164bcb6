/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_replace_wcs.c: element-exact functions on wide  ---*/
/*--- strings and wide memory, preloaded into the client.          ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The wcs*, wcp* and wmem* families (wchar_t is 4 bytes on Linux):
   each reads and writes the elements its definition needs, each once, as
   lh_replace_str.c does for bytes.  glibc's own versions read whole
   vectors: wcslen of a 6-character string reads 32 bytes where its
   definition reads 28 (the characters and the terminating L'\0').
   Comparisons compare wchar_t as the signed integers they are, as glibc
   does.  The wcs* and wcp* functions are lh_replace_string_template.h's,
   instantiated here for wchar_t (the same template gives
   lh_replace_str.c its str* and stp* ones); the wmem* ones are this file's.
   How they are named for Valgrind: lh_replace.h.
*/

#include "lh_replace.h"

typedef Int lh_wchar;   /* wchar_t on Linux */

/* Comparisons compare wchar_t as the signed integers they are. */
static int compare(lh_wchar a, lh_wchar b)
{
   return a < b ? -1 : a > b ? 1 : 0;
}

#define LH_ELEM        lh_wchar
#define LH_UNIT        lh_wchar
#define LH_ELEM_ARG    lh_wchar
#define LH_ORDER(a, b) compare((a), (b))
#define LH_STR(name)   lh_wcs##name
#define LH_STP(name)   lh_wcp##name
#include "lh_replace_string_template.h"

/*------------------------------------------------------------*/
/*--- Names of the functions of the template               ---*/
/*------------------------------------------------------------*/

LH_LIBC(lh_wcslen, 20100, wcslen)
LH_IMPLEMENTATIONS(lh_wcslen, 20100, __wcslen)

LH_LIBC(lh_wcsnlen, 20101, wcsnlen)
LH_LIBC(lh_wcsnlen, 20101, __wcsnlen_generic)
LH_IMPLEMENTATIONS(lh_wcsnlen, 20101, __wcsnlen)

LH_LIBC(lh_wcschr, 20102, wcschr)
LH_IMPLEMENTATIONS(lh_wcschr, 20102, __wcschr)

LH_LIBC(lh_wcschrnul, 20103, wcschrnul)

LH_LIBC(lh_wcsrchr, 20104, wcsrchr)
LH_IMPLEMENTATIONS(lh_wcsrchr, 20104, __wcsrchr)

LH_LIBC(lh_wcscmp, 20105, wcscmp)
LH_IMPLEMENTATIONS(lh_wcscmp, 20105, __wcscmp)

LH_LIBC(lh_wcsncmp, 20106, wcsncmp)
LH_LIBC(lh_wcsncmp, 20106, __wcsncmp_generic)
LH_IMPLEMENTATIONS_AVX(lh_wcsncmp, 20106, __wcsncmp)

LH_LIBC(lh_wcscpy, 20110, wcscpy)
LH_LIBC(lh_wcscpy, 20110, __wcscpy_generic)
LH_IMPLEMENTATIONS(lh_wcscpy, 20110, __wcscpy)

LH_LIBC(lh_wcpcpy, 20111, wcpcpy)

LH_LIBC(lh_wcscpy_chk, 20112, __wcscpy_chk)
LH_LIBC(lh_wcpcpy_chk, 20113, __wcpcpy_chk)

LH_LIBC(lh_wcsncpy, 20114, wcsncpy)

LH_LIBC(lh_wcpncpy, 20115, wcpncpy)

LH_LIBC(lh_wcsncpy_chk, 20116, __wcsncpy_chk)
LH_LIBC(lh_wcpncpy_chk, 20117, __wcpncpy_chk)

LH_LIBC(lh_wcscat, 20118, wcscat)
LH_LIBC(lh_wcscat, 20118, __wcscat_avx2)

LH_LIBC(lh_wcsncat, 20119, wcsncat)
LH_LIBC(lh_wcscat_chk, 20120, __wcscat_chk)
LH_LIBC(lh_wcsncat_chk, 20121, __wcsncat_chk)

/*------------------------------------------------------------*/
/*--- Wide memory                                          ---*/
/*------------------------------------------------------------*/


static lh_wchar* lh_wmemchr(const lh_wchar* s, lh_wchar c, SizeT n)
{
   for (; n > 0; n--, s++)
      if (*s == c) return (lh_wchar*)s;
   return NULL;
}
LH_LIBC(lh_wmemchr, 20107, wmemchr)
LH_IMPLEMENTATIONS(lh_wmemchr, 20107, __wmemchr)

static int lh_wmemcmp(const lh_wchar* a, const lh_wchar* b, SizeT n)
{
   for (; n > 0; n--, a++, b++)
      if (*a != *b) return compare(*a, *b);
   return 0;
}
LH_LIBC(lh_wmemcmp, 20108, wmemcmp)
LH_IMPLEMENTATIONS(lh_wmemcmp, 20108, __wmemcmp)

/* wmemcpy/wmemmove/wmempcpy: memmove of 4-byte elements, each element
   read and written once (8 bytes at a time, then the odd one). */
static lh_wchar* lh_wmemmove(lh_wchar* dst, const lh_wchar* src, SizeT n)
{
   UChar* d = (UChar*)dst;
   const UChar* s = (const UChar*)src;
   SizeT bytes = n * sizeof(lh_wchar);
   if (d == s || bytes == 0) return dst;
   if (d < s || d >= s + bytes) {
      while (bytes >= 8) { *(lh_word8*)d = *(const lh_word8*)s; d += 8; s += 8; bytes -= 8; }
      if (bytes) *(lh_wchar*)d = *(const lh_wchar*)s;
   } else {
      d += bytes; s += bytes;
      while (bytes >= 8) { d -= 8; s -= 8; bytes -= 8; *(lh_word8*)d = *(const lh_word8*)s; }
      if (bytes) *(lh_wchar*)(d - 4) = *(const lh_wchar*)(s - 4);
   }
   return dst;
}
LH_LIBC(lh_wmemmove, 20122, wmemcpy)
LH_LIBC(lh_wmemmove, 20122, wmemmove)

static lh_wchar* lh_wmempcpy(lh_wchar* dst, const lh_wchar* src, SizeT n)
{
   lh_wmemmove(dst, src, n);
   return dst + n;
}
LH_LIBC(lh_wmempcpy, 20123, wmempcpy)

LH_CHECKED(lh_wmemmove_chk, lh_wmemmove, lh_wchar*, lh_wchar*, const lh_wchar*)
LH_LIBC(lh_wmemmove_chk, 20124, __wmemcpy_chk)
LH_LIBC(lh_wmemmove_chk, 20124, __wmemmove_chk)

LH_CHECKED(lh_wmempcpy_chk, lh_wmempcpy, lh_wchar*, lh_wchar*, const lh_wchar*)
LH_LIBC(lh_wmempcpy_chk, 20125, __wmempcpy_chk)

static lh_wchar* lh_wmemset(lh_wchar* s, lh_wchar c, SizeT n)
{
   SizeT i;
   for (i = 0; i < n; i++) s[i] = c;
   return s;
}

LH_LIBC(lh_wmemset, 20126, wmemset)
LH_IMPLEMENTATIONS(lh_wmemset, 20126, __wmemset)

LH_CHECKED(lh_wmemset_chk, lh_wmemset, lh_wchar*, lh_wchar*, lh_wchar)
LH_LIBC(lh_wmemset_chk, 20127, __wmemset_chk)
LH_IMPLEMENTATIONS(lh_wmemset_chk, 20127, __wmemset_chk)
