/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_replace_str.c: byte-exact functions on NUL-     ---*/
/*--- terminated strings, preloaded into the client.               ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The str* and stp* families (lengths, searches, comparisons, copies,
   concatenations, case-insensitive comparison and search) and their
   _FORTIFY_SOURCE variants, written so that each reads and writes the
   bytes its definition needs, each once: a length reads the string and
   its NUL; a search stops at the answer; a comparison stops at the first
   difference or the common NUL; a copy reads the source once and writes
   each destination byte once.  The functions that wide strings have too
   (lengths, searches for one byte, strcmp/strncmp, copies and
   concatenations) are lh_replace_string_template.h's, instantiated here
   for char; this file names them and adds the byte-only ones.  Why, and
   how they are named for Valgrind: lh_replace_strmem.c and lh_replace.h.
*/

#include "lh_replace.h"

#define LH_ELEM        char
#define LH_UNIT        UChar
#define LH_ELEM_ARG    int
#define LH_ORDER(a, b) ((int)(a) - (int)(b))
#define LH_STR(name)   lh_str##name
#define LH_STP(name)   lh_stp##name
#include "lh_replace_string_template.h"

/*------------------------------------------------------------*/
/*--- Names of the functions of the template               ---*/
/*------------------------------------------------------------*/

LH_LIBC(lh_strlen, 20040, strlen)
LH_IMPLEMENTATIONS(lh_strlen, 20040, __strlen)
LH_LDSO(lh_strlen, 20040, strlen)

LH_LIBC(lh_strnlen, 20041, strnlen)
LH_IMPLEMENTATIONS(lh_strnlen, 20041, __strnlen)

LH_LIBC(lh_strchr, 20042, strchr)
LH_IMPLEMENTATIONS(lh_strchr, 20042, __strchr)
LH_LDSO(lh_strchr, 20042, strchr)

LH_LIBC(lh_strchrnul, 20043, strchrnul)
LH_IMPLEMENTATIONS(lh_strchrnul, 20043, __strchrnul)

LH_LIBC(lh_strrchr, 20044, strrchr)
LH_IMPLEMENTATIONS(lh_strrchr, 20044, __strrchr)

LH_LIBC(lh_strcmp, 20050, strcmp)
LH_IMPLEMENTATIONS(lh_strcmp, 20050, __strcmp)
LH_LDSO(lh_strcmp, 20050, strcmp)

LH_LIBC(lh_strncmp, 20051, strncmp)
LH_IMPLEMENTATIONS(lh_strncmp, 20051, __strncmp)
LH_LDSO(lh_strncmp, 20051, strncmp)

LH_LIBC(lh_strcpy, 20060, strcpy)
LH_IMPLEMENTATIONS(lh_strcpy, 20060, __strcpy)

LH_LIBC(lh_stpcpy, 20061, stpcpy)
LH_IMPLEMENTATIONS(lh_stpcpy, 20061, __stpcpy)
LH_LDSO(lh_stpcpy, 20061, stpcpy)

LH_LIBC(lh_strcpy_chk, 20062, __strcpy_chk)
LH_LIBC(lh_stpcpy_chk, 20063, __stpcpy_chk)

LH_LIBC(lh_strncpy, 20064, strncpy)
LH_IMPLEMENTATIONS(lh_strncpy, 20064, __strncpy)

LH_LIBC(lh_stpncpy, 20065, stpncpy)
LH_IMPLEMENTATIONS(lh_stpncpy, 20065, __stpncpy)

LH_LIBC(lh_strncpy_chk, 20066, __strncpy_chk)
LH_LIBC(lh_stpncpy_chk, 20067, __stpncpy_chk)

LH_LIBC(lh_strcat, 20068, strcat)
LH_IMPLEMENTATIONS(lh_strcat, 20068, __strcat)

LH_LIBC(lh_strncat, 20069, strncat)
LH_IMPLEMENTATIONS(lh_strncat, 20069, __strncat)

LH_LIBC(lh_strcat_chk, 20070, __strcat_chk)
LH_LIBC(lh_strncat_chk, 20071, __strncat_chk)

/*------------------------------------------------------------*/
/*--- Case-insensitive comparisons                         ---*/
/*------------------------------------------------------------*/

/* Case folding as glibc does it: through the locale's tolower table
   (indexable from -128 to 255), the current thread's for strcasecmp, the
   given one for strcasecmp_l.  The layout of a locale_t is glibc's public
   ABI (<bits/types/__locale_t.h>). */
struct lh_glibc_locale {
   void*        locales[13];
   const UShort* ctype_b;
   const int*   ctype_tolower;
   const int*   ctype_toupper;
   const char*  names[13];
};
extern const int** __ctype_tolower_loc(void) __attribute__((weak));

/* The table of the thread's locale, or NULL (ASCII) without libc. */
static const int* thread_tolower(void)
{
   return __ctype_tolower_loc ? *__ctype_tolower_loc() : NULL;
}

static inline int fold(const int* table, UChar c)
{
   if (table != NULL) return table[c];
   return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Compares at most n bytes ignoring case, with the locale's table. */
static int casecmp(const char* a, const char* b, SizeT n, const int* table)
{
   const UChar* x = (const UChar*)a;
   const UChar* y = (const UChar*)b;
   for (; n > 0; n--, x++, y++) {
      UChar cx = *x, cy = *y;
      int fx = fold(table, cx), fy = fold(table, cy);
      if (fx != fy) return fx - fy;
      if (cx == 0) return 0;
   }
   return 0;
}

static int lh_strcasecmp(const char* a, const char* b)
{
   return casecmp(a, b, (SizeT)-1, thread_tolower());
}
LH_LIBC(lh_strcasecmp, 20052, strcasecmp)
LH_IMPLEMENTATIONS(lh_strcasecmp, 20052, __strcasecmp)

static int lh_strncasecmp(const char* a, const char* b, SizeT n)
{
   return casecmp(a, b, n, thread_tolower());
}
LH_LIBC(lh_strncasecmp, 20053, strncasecmp)
LH_IMPLEMENTATIONS(lh_strncasecmp, 20053, __strncasecmp)

static int lh_strcasecmp_l(const char* a, const char* b,
                           const struct lh_glibc_locale* locale)
{
   return casecmp(a, b, (SizeT)-1, locale ? locale->ctype_tolower : NULL);
}
LH_LIBC(lh_strcasecmp_l, 20054, strcasecmp_l)
LH_IMPLEMENTATIONS(lh_strcasecmp_l, 20054, __strcasecmp_l)

static int lh_strncasecmp_l(const char* a, const char* b, SizeT n,
                            const struct lh_glibc_locale* locale)
{
   return casecmp(a, b, n, locale ? locale->ctype_tolower : NULL);
}
LH_LIBC(lh_strncasecmp_l, 20055, strncasecmp_l)
LH_IMPLEMENTATIONS(lh_strncasecmp_l, 20055, __strncasecmp_l)

/*------------------------------------------------------------*/
/*--- Bounded copies (BSD)                                 ---*/
/*------------------------------------------------------------*/

/* strlcpy/strlcat (glibc 2.38, BSD): the answer is the length of the
   string they tried to make, so src is read to its NUL once. */
static SizeT lh_strlcpy(char* dst, const char* src, SizeT size)
{
   SizeT i;
   for (i = 0; src[i] != 0; i++)
      if (i + 1 < size) dst[i] = src[i];
   if (size > 0) dst[i < size ? i : size - 1] = 0;
   return i;
}
LH_LIBC(lh_strlcpy, 20072, strlcpy)

static SizeT lh_strlcat(char* dst, const char* src, SizeT size)
{
   SizeT end = 0;
   while (end < size && dst[end] != 0) end++;
   if (end == size) return size + lh_strlen(src);
   return end + lh_strlcpy(dst + end, src, size - end);
}
LH_LIBC(lh_strlcat, 20073, strlcat)

/*------------------------------------------------------------*/
/*--- Spans and substrings                                 ---*/
/*------------------------------------------------------------*/

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
   of chars; *stop, unless stop is NULL, gets the byte that ended it (0
   at the end of s). */
static SizeT span(const char* s, const char* chars, Bool in_set, UChar* stop)
{
   ULong table[4];
   SizeT n = 0;
   set_of(chars, table);
   for (;; n++) {
      UChar c = (UChar)s[n];
      Bool member = (table[c >> 6] >> (c & 63)) & 1;
      if (c == 0 || member != in_set) {
         if (stop != NULL) *stop = c;
         return n;
      }
   }
}

static SizeT lh_strspn(const char* s, const char* accept)
{
   return span(s, accept, True, NULL);
}
LH_LIBC(lh_strspn, 20080, strspn)
LH_LIBC(lh_strspn, 20080, __strspn_generic)
LH_IMPLEMENTATIONS_SSE(lh_strspn, 20080, __strspn)

static SizeT lh_strcspn(const char* s, const char* reject)
{
   return span(s, reject, False, NULL);
}
LH_LIBC(lh_strcspn, 20081, strcspn)
LH_LIBC(lh_strcspn, 20081, __strcspn_generic)
LH_IMPLEMENTATIONS_SSE(lh_strcspn, 20081, __strcspn)

static char* lh_strpbrk(const char* s, const char* accept)
{
   UChar stop;
   SizeT n = span(s, accept, False, &stop);
   return stop != 0 ? (char*)s + n : NULL;
}
LH_LIBC(lh_strpbrk, 20082, strpbrk)
LH_LIBC(lh_strpbrk, 20082, __strpbrk_generic)
LH_IMPLEMENTATIONS_SSE(lh_strpbrk, 20082, __strpbrk)

/* strstr/strcasestr: the needle is read once with its NUL (copied to the
   stack when it has at most LH_NEEDLE_MAX bytes), the haystack once, up
   to the end of the first match or its NUL: a Knuth-Morris-Pratt scan,
   which never goes back in the haystack.  A longer needle is compared in
   place, so bytes of both may then be read more than once.  'table':
   case folding (strcasestr), or NULL. */
#define LH_NEEDLE_MAX 256

static char* find(const char* haystack, const char* needle, const int* table,
                  Bool fold_case)
{
   const UChar* h = (const UChar*)haystack;
   const UChar* n = (const UChar*)needle;
   int copy[LH_NEEDLE_MAX];
   UShort next[LH_NEEDLE_MAX];
   SizeT len, i, k;
#  define F(c) (fold_case ? fold(table, (c)) : (int)(c))
   for (len = 0; len <= LH_NEEDLE_MAX; len++) {
      UChar c = n[len];
      if (c == 0) break;
      if (len < LH_NEEDLE_MAX) copy[len] = F(c);
   }
   if (len == 0) return (char*)h;
   if (len > LH_NEEDLE_MAX) {
      for (i = 0; h[i] != 0; i++) {
         for (k = 0; n[k] != 0 && h[i + k] != 0 && F(h[i + k]) == F(n[k]); k++) ;
         if (n[k] == 0) return (char*)(h + i);
         if (h[i + k] == 0) return NULL;
      }
      return NULL;
   }
   next[0] = 0;
   for (i = 1, k = 0; i < len; i++) {
      while (k > 0 && copy[i] != copy[k]) k = next[k - 1];
      if (copy[i] == copy[k]) k++;
      next[i] = (UShort)k;
   }
   for (i = 0, k = 0;; i++) {
      UChar c = h[i];
      int f;
      if (c == 0) return NULL;
      f = F(c);
      while (k > 0 && f != copy[k]) k = next[k - 1];
      if (f == copy[k]) k++;
      if (k == len) return (char*)(h + i + 1 - len);
   }
#  undef F
}

static char* lh_strstr(const char* haystack, const char* needle)
{
   return find(haystack, needle, NULL, False);
}
LH_LIBC(lh_strstr, 20083, strstr)
LH_LIBC(lh_strstr, 20083, __strstr_generic)
LH_IMPLEMENTATIONS(lh_strstr, 20083, __strstr)

static char* lh_strcasestr(const char* haystack, const char* needle)
{
   return find(haystack, needle, thread_tolower(), True);
}
LH_LIBC(lh_strcasestr, 20084, strcasestr)
