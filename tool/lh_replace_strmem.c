/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_replace_strmem.c: byte-exact string and memory  ---*/
/*--- functions, preloaded into the client.                        ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Why
   ---
   lifeheap counts every byte the program reads and writes.  glibc's
   optimised string functions touch bytes the program never asked for:
   strlen/strchr/memchr read whole aligned 16- or 32-byte words past the
   terminating NUL or the match, memcpy/memmove copy small tails with two
   overlapping loads (bytes 3..7 of a 7-byte copy read twice), memcmp
   compares whole words after the first difference.  Those reads would
   show as reads of bytes the program never logically read, and a buffer
   whose tail is never used would look used.

   So this file, linked into vgpreload_lifeheap-*.so, replaces them (for
   the program's calls into libc.so) with versions that access each byte
   they logically need exactly once: copies move 8 bytes at a time without
   overlap, searches and comparisons go byte by byte and stop at the
   answer.  The code runs on Valgrind's simulated CPU, so its loads and
   stores are what lifeheap counts.

   Not covered: calls glibc makes internally (printf's own strlen, for
   example) go to glibc's private copies, which Valgrind cannot redirect
   without glibc's debug symbols.

   Compiled with -fno-builtin -fno-tree-loop-distribute-patterns so that
   gcc does not turn these loops back into calls to memcpy/memset.
*/

#include "pub_tool_basics.h"
#include "pub_tool_redir.h"

typedef unsigned long Word8;   /* an 8-byte word on amd64 */

/* Each replacement is declared, then defined for every name it replaces.
   The equivalence-class tag (the 5-digit number) groups the names of one
   function, as Valgrind's own preloads do. */
#define LIBC VG_Z_LIBC_SONAME

/*------------------------------------------------------------*/
/*--- Copies                                               ---*/
/*------------------------------------------------------------*/

/* memmove semantics: each source byte read once, each destination byte
   written once, correct for overlapping ranges (so it also serves memcpy,
   which old binaries call with overlaps). */
static void* lh_move(void* dst, const void* src, SizeT n)
{
   UChar* d = dst;
   const UChar* s = src;
   if (d == s || n == 0) return dst;
   if (d < s || d >= s + n) {
      /* Forward: a word store to d+i only overwrites source bytes below
         s+i+8, which were already read. */
      while (n >= 8) {
         *(Word8*)d = *(const Word8*)s;
         d += 8; s += 8; n -= 8;
      }
      while (n > 0) { *d++ = *s++; n--; }
   } else {
      d += n; s += n;
      while (n >= 8) {
         d -= 8; s -= 8; n -= 8;
         *(Word8*)d = *(const Word8*)s;
      }
      while (n > 0) { *--d = *--s; n--; }
   }
   return dst;
}

#define MEMMOVE(tag, soname, fnname) \
   void* VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(void* dst, const void* src, SizeT n); \
   void* VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(void* dst, const void* src, SizeT n) \
   { return lh_move(dst, src, n); }

MEMMOVE(20010, LIBC, memcpy)
MEMMOVE(20010, LIBC, memcpyZAZAGLIBCZu2Zd14)   /* memcpy@@GLIBC_2.14 */
MEMMOVE(20010, LIBC, memcpyZAGLIBCZu2Zd2Zd5)   /* memcpy@GLIBC_2.2.5 */
MEMMOVE(20011, LIBC, memmove)

#define MEMPCPY(tag, soname, fnname) \
   void* VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(void* dst, const void* src, SizeT n); \
   void* VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(void* dst, const void* src, SizeT n) \
   { lh_move(dst, src, n); return (UChar*)dst + n; }

MEMPCPY(20012, LIBC, mempcpy)
MEMPCPY(20012, LIBC, __mempcpy)

/* The _FORTIFY_SOURCE variants: the destination size was checked by the
   compiler's object-size analysis; a real overflow would have aborted in
   glibc, here it goes ahead (lifeheap is not a checker). */
#define MEMMOVE_CHK(tag, soname, fnname) \
   void* VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(void* dst, const void* src, SizeT n, SizeT dstlen); \
   void* VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(void* dst, const void* src, SizeT n, SizeT dstlen) \
   { return lh_move(dst, src, n); }

MEMMOVE_CHK(20013, LIBC, __memcpy_chk)
MEMMOVE_CHK(20014, LIBC, __memmove_chk)

static void* lh_set(void* s, int c, SizeT n)
{
   UChar* d = s;
   Word8 pattern = (UChar)c;
   pattern |= pattern << 8;
   pattern |= pattern << 16;
   pattern |= pattern << 32;
   while (n >= 8) { *(Word8*)d = pattern; d += 8; n -= 8; }
   while (n > 0) { *d++ = (UChar)c; n--; }
   return s;
}

#define MEMSET(tag, soname, fnname) \
   void* VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(void* s, int c, SizeT n); \
   void* VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(void* s, int c, SizeT n) \
   { return lh_set(s, c, n); }

MEMSET(20020, LIBC, memset)

void* VG_REPLACE_FUNCTION_EZU(20021, LIBC, __memset_chk)(void* s, int c, SizeT n, SizeT len);
void* VG_REPLACE_FUNCTION_EZU(20021, LIBC, __memset_chk)(void* s, int c, SizeT n, SizeT len)
{
   return lh_set(s, c, n);
}

void VG_REPLACE_FUNCTION_EZU(20022, LIBC, bzero)(void* s, SizeT n);
void VG_REPLACE_FUNCTION_EZU(20022, LIBC, bzero)(void* s, SizeT n)
{
   lh_set(s, 0, n);
}

/*------------------------------------------------------------*/
/*--- Comparisons and searches over sized memory           ---*/
/*------------------------------------------------------------*/

static int lh_memcmp(const void* a, const void* b, SizeT n)
{
   const UChar* x = a;
   const UChar* y = b;
   for (; n > 0; n--, x++, y++)
      if (*x != *y) return (int)*x - (int)*y;
   return 0;
}

#define MEMCMP(tag, soname, fnname) \
   int VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(const void* a, const void* b, SizeT n); \
   int VG_REPLACE_FUNCTION_EZU(tag, soname, fnname)(const void* a, const void* b, SizeT n) \
   { return lh_memcmp(a, b, n); }

MEMCMP(20030, LIBC, memcmp)
MEMCMP(20030, LIBC, bcmp)

void* VG_REPLACE_FUNCTION_EZU(20031, LIBC, memchr)(const void* s, int c, SizeT n);
void* VG_REPLACE_FUNCTION_EZU(20031, LIBC, memchr)(const void* s, int c, SizeT n)
{
   const UChar* p = s;
   for (; n > 0; n--, p++)
      if (*p == (UChar)c) return (void*)p;
   return NULL;
}

void* VG_REPLACE_FUNCTION_EZU(20032, LIBC, memrchr)(const void* s, int c, SizeT n);
void* VG_REPLACE_FUNCTION_EZU(20032, LIBC, memrchr)(const void* s, int c, SizeT n)
{
   const UChar* p = (const UChar*)s + n;
   while (n-- > 0)
      if (*--p == (UChar)c) return (void*)p;
   return NULL;
}

void* VG_REPLACE_FUNCTION_EZU(20033, LIBC, rawmemchr)(const void* s, int c);
void* VG_REPLACE_FUNCTION_EZU(20033, LIBC, rawmemchr)(const void* s, int c)
{
   const UChar* p = s;
   while (*p != (UChar)c) p++;
   return (void*)p;
}

/*------------------------------------------------------------*/
/*--- NUL-terminated strings                               ---*/
/*------------------------------------------------------------*/

SizeT VG_REPLACE_FUNCTION_EZU(20040, LIBC, strlen)(const char* s);
SizeT VG_REPLACE_FUNCTION_EZU(20040, LIBC, strlen)(const char* s)
{
   SizeT n = 0;
   while (s[n] != 0) n++;
   return n;
}

SizeT VG_REPLACE_FUNCTION_EZU(20041, LIBC, strnlen)(const char* s, SizeT max);
SizeT VG_REPLACE_FUNCTION_EZU(20041, LIBC, strnlen)(const char* s, SizeT max)
{
   SizeT n = 0;
   while (n < max && s[n] != 0) n++;
   return n;
}

char* VG_REPLACE_FUNCTION_EZU(20042, LIBC, strchr)(const char* s, int c);
char* VG_REPLACE_FUNCTION_EZU(20042, LIBC, strchr)(const char* s, int c)
{
   for (;; s++) {
      if (*s == (char)c) return (char*)s;
      if (*s == 0) return NULL;
   }
}

char* VG_REPLACE_FUNCTION_EZU(20043, LIBC, index)(const char* s, int c);
char* VG_REPLACE_FUNCTION_EZU(20043, LIBC, index)(const char* s, int c)
{
   for (;; s++) {
      if (*s == (char)c) return (char*)s;
      if (*s == 0) return NULL;
   }
}

char* VG_REPLACE_FUNCTION_EZU(20044, LIBC, strchrnul)(const char* s, int c);
char* VG_REPLACE_FUNCTION_EZU(20044, LIBC, strchrnul)(const char* s, int c)
{
   while (*s != (char)c && *s != 0) s++;
   return (char*)s;
}

char* VG_REPLACE_FUNCTION_EZU(20045, LIBC, strrchr)(const char* s, int c);
char* VG_REPLACE_FUNCTION_EZU(20045, LIBC, strrchr)(const char* s, int c)
{
   const char* last = NULL;
   for (;; s++) {
      if (*s == (char)c) last = s;
      if (*s == 0) return (char*)last;
   }
}

char* VG_REPLACE_FUNCTION_EZU(20046, LIBC, rindex)(const char* s, int c);
char* VG_REPLACE_FUNCTION_EZU(20046, LIBC, rindex)(const char* s, int c)
{
   const char* last = NULL;
   for (;; s++) {
      if (*s == (char)c) last = s;
      if (*s == 0) return (char*)last;
   }
}

int VG_REPLACE_FUNCTION_EZU(20047, LIBC, strcmp)(const char* a, const char* b);
int VG_REPLACE_FUNCTION_EZU(20047, LIBC, strcmp)(const char* a, const char* b)
{
   const UChar* x = (const UChar*)a;
   const UChar* y = (const UChar*)b;
   for (;; x++, y++) {
      UChar cx = *x, cy = *y;
      if (cx != cy) return (int)cx - (int)cy;
      if (cx == 0) return 0;
   }
}

int VG_REPLACE_FUNCTION_EZU(20048, LIBC, strncmp)(const char* a, const char* b, SizeT n);
int VG_REPLACE_FUNCTION_EZU(20048, LIBC, strncmp)(const char* a, const char* b, SizeT n)
{
   const UChar* x = (const UChar*)a;
   const UChar* y = (const UChar*)b;
   for (; n > 0; n--, x++, y++) {
      UChar cx = *x, cy = *y;
      if (cx != cy) return (int)cx - (int)cy;
      if (cx == 0) return 0;
   }
   return 0;
}

/* Copies src with its NUL to dst; returns the address of dst's NUL. */
static char* lh_stpcpy(char* dst, const char* src)
{
   for (;; dst++, src++) {
      char c = *src;
      *dst = c;
      if (c == 0) return dst;
   }
}

char* VG_REPLACE_FUNCTION_EZU(20050, LIBC, strcpy)(char* dst, const char* src);
char* VG_REPLACE_FUNCTION_EZU(20050, LIBC, strcpy)(char* dst, const char* src)
{
   lh_stpcpy(dst, src);
   return dst;
}

char* VG_REPLACE_FUNCTION_EZU(20051, LIBC, stpcpy)(char* dst, const char* src);
char* VG_REPLACE_FUNCTION_EZU(20051, LIBC, stpcpy)(char* dst, const char* src)
{
   return lh_stpcpy(dst, src);
}

char* VG_REPLACE_FUNCTION_EZU(20052, LIBC, __strcpy_chk)(char* dst, const char* src, SizeT len);
char* VG_REPLACE_FUNCTION_EZU(20052, LIBC, __strcpy_chk)(char* dst, const char* src, SizeT len)
{
   lh_stpcpy(dst, src);
   return dst;
}

char* VG_REPLACE_FUNCTION_EZU(20053, LIBC, __stpcpy_chk)(char* dst, const char* src, SizeT len);
char* VG_REPLACE_FUNCTION_EZU(20053, LIBC, __stpcpy_chk)(char* dst, const char* src, SizeT len)
{
   return lh_stpcpy(dst, src);
}

/* strncpy: copies up to n bytes of src, stopping after its NUL, and pads
   dst with NULs to n bytes (those pad bytes are program writes too). */
char* VG_REPLACE_FUNCTION_EZU(20054, LIBC, strncpy)(char* dst, const char* src, SizeT n);
char* VG_REPLACE_FUNCTION_EZU(20054, LIBC, strncpy)(char* dst, const char* src, SizeT n)
{
   SizeT i = 0;
   for (; i < n && src[i] != 0; i++) dst[i] = src[i];
   for (; i < n; i++) dst[i] = 0;
   return dst;
}

char* VG_REPLACE_FUNCTION_EZU(20055, LIBC, strcat)(char* dst, const char* src);
char* VG_REPLACE_FUNCTION_EZU(20055, LIBC, strcat)(char* dst, const char* src)
{
   char* end = dst;
   while (*end != 0) end++;
   lh_stpcpy(end, src);
   return dst;
}

char* VG_REPLACE_FUNCTION_EZU(20056, LIBC, strncat)(char* dst, const char* src, SizeT n);
char* VG_REPLACE_FUNCTION_EZU(20056, LIBC, strncat)(char* dst, const char* src, SizeT n)
{
   char* end = dst;
   SizeT i;
   while (*end != 0) end++;
   for (i = 0; i < n && src[i] != 0; i++) end[i] = src[i];
   end[i] = 0;
   return dst;
}

/* strspn/strcspn/strpbrk: the set is read once into a 256-bit table (on
   the stack, not the heap), then s is scanned up to the answer. */
static void set_of(const char* chars, ULong table[4])
{
   table[0] = table[1] = table[2] = table[3] = 0;
   for (; *chars != 0; chars++) {
      UChar c = (UChar)*chars;
      table[c >> 6] |= 1UL << (c & 63);
   }
}

/* Length of the prefix of s whose bytes are (in_set) or are not members
   of chars; *stop gets the byte that ended it (0 at the end of s). */
static SizeT span(const char* s, const char* chars, Bool in_set, UChar* stop)
{
   ULong table[4];
   SizeT n = 0;
   set_of(chars, table);
   for (;; n++) {
      UChar c = (UChar)s[n];
      Bool member = (table[c >> 6] >> (c & 63)) & 1;
      if (c == 0 || member != in_set) {
         *stop = c;
         return n;
      }
   }
}

SizeT VG_REPLACE_FUNCTION_EZU(20060, LIBC, strspn)(const char* s, const char* accept);
SizeT VG_REPLACE_FUNCTION_EZU(20060, LIBC, strspn)(const char* s, const char* accept)
{
   UChar stop;
   return span(s, accept, True, &stop);
}

SizeT VG_REPLACE_FUNCTION_EZU(20061, LIBC, strcspn)(const char* s, const char* reject);
SizeT VG_REPLACE_FUNCTION_EZU(20061, LIBC, strcspn)(const char* s, const char* reject)
{
   UChar stop;
   return span(s, reject, False, &stop);
}

char* VG_REPLACE_FUNCTION_EZU(20062, LIBC, strpbrk)(const char* s, const char* accept);
char* VG_REPLACE_FUNCTION_EZU(20062, LIBC, strpbrk)(const char* s, const char* accept)
{
   UChar stop;
   SizeT n = span(s, accept, False, &stop);
   return stop != 0 ? (char*)s + n : NULL;
}
