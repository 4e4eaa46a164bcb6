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
   does.  How they are named for Valgrind: lh_replace.h.
*/

#include "lh_replace.h"

typedef Int lh_wchar;   /* wchar_t on Linux */

/*------------------------------------------------------------*/
/*--- Lengths, searches, comparisons                       ---*/
/*------------------------------------------------------------*/

static SizeT lh_wcslen(const lh_wchar* s)
{
   SizeT n = 0;
   while (s[n] != 0) n++;
   return n;
}
LH_LIBC(lh_wcslen, 20100, wcslen)
LH_LIBC(lh_wcslen, 20100, __wcslen)
LH_IMPLEMENTATIONS(lh_wcslen, 20100, __wcslen)

static SizeT lh_wcsnlen(const lh_wchar* s, SizeT max)
{
   SizeT n = 0;
   while (n < max && s[n] != 0) n++;
   return n;
}
LH_LIBC(lh_wcsnlen, 20101, wcsnlen)
LH_LIBC(lh_wcsnlen, 20101, __wcsnlen)
LH_LIBC(lh_wcsnlen, 20101, __GI_wcsnlen)
LH_LIBC(lh_wcsnlen, 20101, __wcsnlen_generic)
LH_IMPLEMENTATIONS(lh_wcsnlen, 20101, __wcsnlen)

static lh_wchar* lh_wcschr(const lh_wchar* s, lh_wchar c)
{
   for (;; s++) {
      if (*s == c) return (lh_wchar*)s;
      if (*s == 0) return NULL;
   }
}
LH_LIBC(lh_wcschr, 20102, wcschr)
LH_LIBC(lh_wcschr, 20102, __wcschr)
LH_IMPLEMENTATIONS(lh_wcschr, 20102, __wcschr)

static lh_wchar* lh_wcschrnul(const lh_wchar* s, lh_wchar c)
{
   while (*s != c && *s != 0) s++;
   return (lh_wchar*)s;
}
LH_LIBC(lh_wcschrnul, 20103, wcschrnul)
LH_LIBC(lh_wcschrnul, 20103, __wcschrnul)

static lh_wchar* lh_wcsrchr(const lh_wchar* s, lh_wchar c)
{
   const lh_wchar* last = NULL;
   for (;; s++) {
      if (*s == c) last = s;
      if (*s == 0) return (lh_wchar*)last;
   }
}
LH_LIBC(lh_wcsrchr, 20104, wcsrchr)
LH_IMPLEMENTATIONS(lh_wcsrchr, 20104, __wcsrchr)

static int compare(lh_wchar a, lh_wchar b)
{
   return a < b ? -1 : a > b ? 1 : 0;
}

static int lh_wcscmp(const lh_wchar* a, const lh_wchar* b)
{
   for (;; a++, b++) {
      lh_wchar ca = *a, cb = *b;
      if (ca != cb) return compare(ca, cb);
      if (ca == 0) return 0;
   }
}
LH_LIBC(lh_wcscmp, 20105, wcscmp)
LH_LIBC(lh_wcscmp, 20105, __wcscmp)
LH_IMPLEMENTATIONS(lh_wcscmp, 20105, __wcscmp)

static int lh_wcsncmp(const lh_wchar* a, const lh_wchar* b, SizeT n)
{
   for (; n > 0; n--, a++, b++) {
      lh_wchar ca = *a, cb = *b;
      if (ca != cb) return compare(ca, cb);
      if (ca == 0) return 0;
   }
   return 0;
}
LH_LIBC(lh_wcsncmp, 20106, wcsncmp)
LH_LIBC(lh_wcsncmp, 20106, __wcsncmp_generic)
LH_IMPLEMENTATIONS(lh_wcsncmp, 20106, __wcsncmp)

static lh_wchar* lh_wmemchr(const lh_wchar* s, lh_wchar c, SizeT n)
{
   for (; n > 0; n--, s++)
      if (*s == c) return (lh_wchar*)s;
   return NULL;
}
LH_LIBC(lh_wmemchr, 20107, wmemchr)
LH_LIBC(lh_wmemchr, 20107, __wmemchr)
LH_LIBC(lh_wmemchr, 20107, __GI_wmemchr)
LH_IMPLEMENTATIONS(lh_wmemchr, 20107, __wmemchr)

static int lh_wmemcmp(const lh_wchar* a, const lh_wchar* b, SizeT n)
{
   for (; n > 0; n--, a++, b++)
      if (*a != *b) return compare(*a, *b);
   return 0;
}
LH_LIBC(lh_wmemcmp, 20108, wmemcmp)
LH_LIBC(lh_wmemcmp, 20108, __wmemcmp)
LH_IMPLEMENTATIONS(lh_wmemcmp, 20108, __wmemcmp)

/*------------------------------------------------------------*/
/*--- Copies, concatenations, fills                        ---*/
/*------------------------------------------------------------*/

/* Copies src with its terminator; the address of dst's terminator.  No
   element at or past dst_max (the _chk variants' limit, in elements). */
static lh_wchar* copy_wide(lh_wchar* dst, const lh_wchar* src, SizeT dst_max)
{
   SizeT i;
   for (i = 0;; i++) {
      lh_wchar c = src[i];
      lh_check_fits(i + 1, dst_max);
      dst[i] = c;
      if (c == 0) return dst + i;
   }
}

static lh_wchar* lh_wcscpy(lh_wchar* dst, const lh_wchar* src)
{
   copy_wide(dst, src, (SizeT)-1);
   return dst;
}
LH_LIBC(lh_wcscpy, 20110, wcscpy)
LH_LIBC(lh_wcscpy, 20110, __wcscpy)
LH_LIBC(lh_wcscpy, 20110, __wcscpy_generic)
LH_IMPLEMENTATIONS(lh_wcscpy, 20110, __wcscpy)

static lh_wchar* lh_wcpcpy(lh_wchar* dst, const lh_wchar* src)
{
   return copy_wide(dst, src, (SizeT)-1);
}
LH_LIBC(lh_wcpcpy, 20111, wcpcpy)
LH_LIBC(lh_wcpcpy, 20111, __wcpcpy)

static lh_wchar* lh_wcscpy_chk(lh_wchar* dst, const lh_wchar* src, SizeT dst_len)
{
   copy_wide(dst, src, dst_len);
   return dst;
}
LH_LIBC(lh_wcscpy_chk, 20112, __wcscpy_chk)

static lh_wchar* lh_wcpcpy_chk(lh_wchar* dst, const lh_wchar* src, SizeT dst_len)
{
   return copy_wide(dst, src, dst_len);
}
LH_LIBC(lh_wcpcpy_chk, 20113, __wcpcpy_chk)

/* wcsncpy/wcpncpy: up to n elements of src, then L'\0' padding to n. */
static lh_wchar* copy_wide_padded(lh_wchar* dst, const lh_wchar* src, SizeT n,
                                  SizeT dst_len)
{
   SizeT i = 0, copied;
   lh_check_fits(n, dst_len);
   for (; i < n && src[i] != 0; i++) dst[i] = src[i];
   copied = i;
   for (; i < n; i++) dst[i] = 0;
   return dst + copied;
}

static lh_wchar* lh_wcsncpy(lh_wchar* dst, const lh_wchar* src, SizeT n)
{
   copy_wide_padded(dst, src, n, (SizeT)-1);
   return dst;
}
LH_LIBC(lh_wcsncpy, 20114, wcsncpy)
LH_LIBC(lh_wcsncpy, 20114, __wcsncpy)

static lh_wchar* lh_wcpncpy(lh_wchar* dst, const lh_wchar* src, SizeT n)
{
   return copy_wide_padded(dst, src, n, (SizeT)-1);
}
LH_LIBC(lh_wcpncpy, 20115, wcpncpy)
LH_LIBC(lh_wcpncpy, 20115, __wcpncpy)

static lh_wchar* lh_wcsncpy_chk(lh_wchar* dst, const lh_wchar* src, SizeT n,
                                SizeT dst_len)
{
   copy_wide_padded(dst, src, n, dst_len);
   return dst;
}
LH_LIBC(lh_wcsncpy_chk, 20116, __wcsncpy_chk)

static lh_wchar* lh_wcpncpy_chk(lh_wchar* dst, const lh_wchar* src, SizeT n,
                                SizeT dst_len)
{
   return copy_wide_padded(dst, src, n, dst_len);
}
LH_LIBC(lh_wcpncpy_chk, 20117, __wcpncpy_chk)

static lh_wchar* append_wide(lh_wchar* dst, const lh_wchar* src, SizeT n,
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

static lh_wchar* lh_wcscat(lh_wchar* dst, const lh_wchar* src)
{
   return append_wide(dst, src, (SizeT)-1, (SizeT)-1);
}
LH_LIBC(lh_wcscat, 20118, wcscat)
LH_LIBC(lh_wcscat, 20118, __wcscat)
LH_LIBC(lh_wcscat, 20118, __wcscat_avx2)

static lh_wchar* lh_wcsncat(lh_wchar* dst, const lh_wchar* src, SizeT n)
{
   return append_wide(dst, src, n, (SizeT)-1);
}
LH_LIBC(lh_wcsncat, 20119, wcsncat)

static lh_wchar* lh_wcscat_chk(lh_wchar* dst, const lh_wchar* src, SizeT dst_len)
{
   return append_wide(dst, src, (SizeT)-1, dst_len);
}
LH_LIBC(lh_wcscat_chk, 20120, __wcscat_chk)

static lh_wchar* lh_wcsncat_chk(lh_wchar* dst, const lh_wchar* src, SizeT n,
                                SizeT dst_len)
{
   return append_wide(dst, src, n, dst_len);
}
LH_LIBC(lh_wcsncat_chk, 20121, __wcsncat_chk)

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
LH_LIBC(lh_wmemmove, 20122, __wmemcpy)
LH_LIBC(lh_wmemmove, 20122, wmemmove)
LH_LIBC(lh_wmemmove, 20122, __wmemmove)

static lh_wchar* lh_wmempcpy(lh_wchar* dst, const lh_wchar* src, SizeT n)
{
   lh_wmemmove(dst, src, n);
   return dst + n;
}
LH_LIBC(lh_wmempcpy, 20123, wmempcpy)
LH_LIBC(lh_wmempcpy, 20123, __wmempcpy)

static lh_wchar* lh_wmemmove_chk(lh_wchar* dst, const lh_wchar* src, SizeT n,
                                 SizeT dst_len)
{
   lh_check_fits(n, dst_len);
   return lh_wmemmove(dst, src, n);
}
LH_LIBC(lh_wmemmove_chk, 20124, __wmemcpy_chk)
LH_LIBC(lh_wmemmove_chk, 20124, __wmemmove_chk)

static lh_wchar* lh_wmempcpy_chk(lh_wchar* dst, const lh_wchar* src, SizeT n,
                                 SizeT dst_len)
{
   lh_check_fits(n, dst_len);
   return lh_wmempcpy(dst, src, n);
}
LH_LIBC(lh_wmempcpy_chk, 20125, __wmempcpy_chk)

static lh_wchar* lh_wmemset(lh_wchar* s, lh_wchar c, SizeT n)
{
   SizeT i;
   for (i = 0; i < n; i++) s[i] = c;
   return s;
}

LH_LIBC(lh_wmemset, 20126, wmemset)
LH_LIBC(lh_wmemset, 20126, __wmemset)
LH_IMPLEMENTATIONS(lh_wmemset, 20126, __wmemset)

static lh_wchar* lh_wmemset_chk(lh_wchar* s, lh_wchar c, SizeT n, SizeT dst_len)
{
   lh_check_fits(n, dst_len);
   return lh_wmemset(s, c, n);
}
LH_LIBC(lh_wmemset_chk, 20127, __wmemset_chk)
LH_IMPLEMENTATIONS(lh_wmemset_chk, 20127, __wmemset_chk)
