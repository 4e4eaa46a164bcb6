/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_replace_strmem.c: byte-exact memory functions,  ---*/
/*--- preloaded into the client.                                   ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Why
   ---
   lifeheap counts every byte the program reads and writes.  glibc's
   optimised string and memory functions touch bytes the program never
   asked for: strlen/strchr/memchr read whole aligned 16- or 32-byte words
   past the terminating NUL or the match, memcpy/memmove copy small tails
   with two overlapping loads (bytes 3..7 of a 7-byte copy read twice),
   memcmp compares whole words after the first difference.  Those reads
   would show as reads of bytes the program never logically read, and a
   buffer whose tail is never used would look used.

   So this file, lh_replace_str.c and lh_replace_wcs.c, linked into
   vgpreload_lifeheap-*.so, replace them with versions that access each
   byte their definition needs exactly once: copies move 8 bytes at a time
   without overlap, searches and comparisons go element by element and
   stop at the answer.  The code runs on Valgrind's simulated CPU, so its
   loads and stores are what lifeheap counts; its instructions are not
   counted in the clock (lh_instrument.c).  Which names are replaced:
   lh_replace.h.

   This file: the mem* family (copies, fills, comparisons, searches over
   sized memory), bcopy/bzero and their _FORTIFY_SOURCE (__*_chk)
   variants.

   Compiled with -fno-builtin -fno-tree-loop-distribute-patterns so that
   gcc does not turn these loops back into calls to memcpy/memset.
*/

#include "lh_replace.h"

/*------------------------------------------------------------*/
/*--- Copies                                               ---*/
/*------------------------------------------------------------*/

/* memmove semantics: each source byte read once, each destination byte
   written once, correct for overlapping ranges (so it also serves memcpy,
   which old binaries call with overlaps, and which glibc implements at
   the same address as memmove). */
static void* lh_memmove(void* dst, const void* src, SizeT n)
{
   UChar* d = dst;
   const UChar* s = src;
   if (d == s || n == 0) return dst;
   if (d < s || d >= s + n) {
      /* Forward: a word store to d+i only overwrites source bytes below
         s+i+8, which were already read. */
      while (n >= 8) {
         *(lh_word8*)d = *(const lh_word8*)s;
         d += 8; s += 8; n -= 8;
      }
      while (n > 0) { *d++ = *s++; n--; }
   } else {
      d += n; s += n;
      while (n >= 8) {
         d -= 8; s -= 8; n -= 8;
         *(lh_word8*)d = *(const lh_word8*)s;
      }
      while (n > 0) { *--d = *--s; n--; }
   }
   return dst;
}

/* glibc's x86-64 implementations of memcpy and memmove (one address for
   the two names of each). */
LH_LIBC(lh_memmove, 20010, memcpy)
LH_LIBC(lh_memmove, 20010, memcpyZAZAGLIBCZu2Zd14)  /* memcpy@@GLIBC_2.14 */
LH_LIBC(lh_memmove, 20010, memcpyZAGLIBCZu2Zd2Zd5)  /* memcpy@GLIBC_2.2.5 */
LH_LIBC(lh_memmove, 20010, memmove)
LH_IMPLEMENTATIONS_ERMS(lh_memmove, 20010, __memcpy)
LH_IMPLEMENTATIONS_ERMS(lh_memmove, 20010, __memmove)
LH_REPLACE(lh_memmove, 20010, NONE, ZuintelZufastZumemcpy)  /* _intel_fast_memcpy */

static void* lh_mempcpy(void* dst, const void* src, SizeT n)
{
   lh_memmove(dst, src, n);
   return (UChar*)dst + n;
}
LH_LIBC(lh_mempcpy, 20011, mempcpy)
LH_IMPLEMENTATIONS_ERMS(lh_mempcpy, 20011, __mempcpy)
LH_LDSO(lh_mempcpy, 20011, mempcpy)

static void lh_bcopy(const void* src, void* dst, SizeT n)
{
   lh_memmove(dst, src, n);
}
LH_LIBC(lh_bcopy, 20012, bcopy)

/* The _FORTIFY_SOURCE variants (lh_replace.h). */
LH_CHECKED(lh_memmove_chk, lh_memmove, void*, void*, const void*)
LH_LIBC(lh_memmove_chk, 20013, __memcpy_chk)
LH_LIBC(lh_memmove_chk, 20013, __memmove_chk)
LH_IMPLEMENTATIONS_ERMS(lh_memmove_chk, 20013, __memcpy_chk)
LH_IMPLEMENTATIONS_ERMS(lh_memmove_chk, 20013, __memmove_chk)

LH_CHECKED(lh_mempcpy_chk, lh_mempcpy, void*, void*, const void*)
LH_LIBC(lh_mempcpy_chk, 20014, __mempcpy_chk)
LH_IMPLEMENTATIONS_ERMS(lh_mempcpy_chk, 20014, __mempcpy_chk)

/* memccpy: copies up to and including the first byte equal to c, at most
   n bytes; the address after that byte in dst, or NULL. */
static void* lh_memccpy(void* dst, const void* src, int c, SizeT n)
{
   UChar* d = dst;
   const UChar* s = src;
   for (; n > 0; n--) {
      UChar b = *s++;
      *d++ = b;
      if (b == (UChar)c) return d;
   }
   return NULL;
}
LH_LIBC(lh_memccpy, 20015, memccpy)

/*------------------------------------------------------------*/
/*--- Fills                                                ---*/
/*------------------------------------------------------------*/

static void* lh_memset(void* s, int c, SizeT n)
{
   UChar* d = s;
   lh_word8 pattern = (UChar)c;
   pattern |= pattern << 8;
   pattern |= pattern << 16;
   pattern |= pattern << 32;
   while (n >= 8) { *(lh_word8*)d = pattern; d += 8; n -= 8; }
   while (n > 0) { *d++ = (UChar)c; n--; }
   return s;
}

LH_LIBC(lh_memset, 20020, memset)
LH_IMPLEMENTATIONS_ERMS(lh_memset, 20020, __memset)

LH_CHECKED(lh_memset_chk, lh_memset, void*, void*, int)
LH_LIBC(lh_memset_chk, 20021, __memset_chk)
LH_IMPLEMENTATIONS_ERMS(lh_memset_chk, 20021, __memset_chk)

static void lh_bzero(void* s, SizeT n)
{
   lh_memset(s, 0, n);
}
LH_LIBC(lh_bzero, 20022, bzero)

/*------------------------------------------------------------*/
/*--- Comparisons and searches over sized memory           ---*/
/*------------------------------------------------------------*/

/* Stops at the first difference: memcmp("abcX", "abcY", 4) reads 4 bytes
   of each, memcmp("Xbcd", "Ybcd", 4) one.  Also bcmp and __memcmpeq
   (whose answer only needs to be zero or not; gcc calls it for
   memcmp(...) == 0), which glibc may implement at memcmp's address. */
static int lh_memcmp(const void* a, const void* b, SizeT n)
{
   const UChar* x = a;
   const UChar* y = b;
   for (; n > 0; n--, x++, y++)
      if (*x != *y) return (int)*x - (int)*y;
   return 0;
}
LH_LIBC(lh_memcmp, 20030, memcmp)
LH_LIBC(lh_memcmp, 20030, __memcmpeq)
LH_IMPLEMENTATIONS(lh_memcmp, 20030, __memcmpeq)
LH_IMPLEMENTATIONS(lh_memcmp, 20030, __memcmp)

static void* lh_memchr(const void* s, int c, SizeT n)
{
   const UChar* p = s;
   for (; n > 0; n--, p++)
      if (*p == (UChar)c) return (void*)p;
   return NULL;
}
LH_LIBC(lh_memchr, 20031, memchr)
LH_IMPLEMENTATIONS(lh_memchr, 20031, __memchr)

static void* lh_memrchr(const void* s, int c, SizeT n)
{
   const UChar* p = (const UChar*)s + n;
   while (n-- > 0)
      if (*--p == (UChar)c) return (void*)p;
   return NULL;
}
LH_LIBC(lh_memrchr, 20032, memrchr)
LH_IMPLEMENTATIONS(lh_memrchr, 20032, __memrchr)

static void* lh_rawmemchr(const void* s, int c)
{
   const UChar* p = s;
   while (*p != (UChar)c) p++;
   return (void*)p;
}
LH_LIBC(lh_rawmemchr, 20033, rawmemchr)
LH_IMPLEMENTATIONS(lh_rawmemchr, 20033, __rawmemchr)

/* memmem: the needle is read once (into a copy on the stack when it is
   short enough, LH_NEEDLE_COPY_MAX bytes) and the haystack once, from its
   start to the end of the first match (or to its end): a Knuth-Morris-
   Pratt scan, which never goes back in the haystack.  Longer needles are
   compared in place, so bytes of both may be read more than once. */
#define LH_NEEDLE_COPY_MAX 256

static void* lh_memmem(const void* haystack, SizeT h_len,
                       const void* needle, SizeT n_len)
{
   const UChar* h = haystack;
   const UChar* n = needle;
   UChar copy[LH_NEEDLE_COPY_MAX];
   UShort next[LH_NEEDLE_COPY_MAX];   /* KMP: longest proper border */
   SizeT i, k;
   if (n_len == 0) return (void*)h;
   if (n_len > h_len) return NULL;              /* cannot fit: nothing read */
   if (n_len > LH_NEEDLE_COPY_MAX) {
      for (i = 0; i + n_len <= h_len; i++) {
         for (k = 0; k < n_len && h[i + k] == n[k]; k++) ;
         if (k == n_len) return (void*)(h + i);
      }
      return NULL;
   }
   for (i = 0; i < n_len; i++) copy[i] = n[i];
   next[0] = 0;
   for (i = 1, k = 0; i < n_len; i++) {
      while (k > 0 && copy[i] != copy[k]) k = next[k - 1];
      if (copy[i] == copy[k]) k++;
      next[i] = (UShort)k;
   }
   for (i = 0, k = 0; i < h_len; i++) {
      UChar c = h[i];
      while (k > 0 && c != copy[k]) k = next[k - 1];
      if (c == copy[k]) k++;
      if (k == n_len) return (void*)(h + i + 1 - n_len);
   }
   return NULL;
}
LH_LIBC(lh_memmem, 20034, memmem)
