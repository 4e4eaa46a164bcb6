/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_replace.h: naming the preload's string and      ---*/
/*--- memory functions for Valgrind's redirection.                 ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   lh_replace_strmem.c (memory), lh_replace_str.c (NUL-terminated
   strings) and lh_replace_wcs.c (wide strings) are linked into
   vgpreload_lifeheap-*.so.  Each defines one implementation per function
   and gives it every name Valgrind should redirect to it: a symbol
   _vgr<tag>ZZ_<soname>_<function> (pub_tool_redir.h) tells Valgrind to
   run it instead of <function> of any object whose soname matches.

   The names are aliases of one function, not copies: glibc gives one
   address several names (memcpy@GLIBC_2.2.5 is __memcpy_sse2_unaligned,
   __memmove_avx_unaligned_erms is __memcpy_avx_unaligned_erms), and
   Valgrind redirects an address only once, so every name of that
   address must lead to the same replacement.

   The names come from memcheck's list (Valgrind's shared/
   vg_replace_strmem.c) and from the implementations glibc selects at
   load time (IFUNC) on x86-64: the public name (memcpy, whose IFUNC
   resolver Valgrind redirects) covers the program's calls; the
   implementations' own names (__memcpy_avx_unaligned_erms, ...) cover the
   calls glibc makes internally (strdup's copy, printf's strlen), which
   Valgrind sees when glibc's symbol table is available (Debian: the
   libc6-dbg package).

   Valgrind redirects addresses, so a name glibc gives the same address as
   a listed one adds nothing: the weak aliases __x of x (__mempcpy,
   __strnlen, __wcslen, ...), index, rindex and bcmp (strchr's, strrchr's
   and memcmp's), and the hidden __GI_x aliases of the internal calls,
   which are the default implementation's address (caught by the
   implementation patterns below).  They are not listed: every name costs
   start-up time (below).  Names glibc 2.36 lacks are listed only where a
   later glibc has them (strlcpy and strlcat since 2.38; the AVX2 versions
   of wcscpy and wcscat).

   The lists of names after each function are tables, one per function,
   and alike in shape from one function to the next (a duplicate finder
   pairs them): what differs is the names, which are the point.

   lh_instrument.c does not count the instructions of these files in the
   run's clock (docs/metrics.md: Time); it recognises them by their
   addresses, which the link lays out between two marker functions
   (lh_replace_begin.c, lh_replace_end.c), so the preload needs no debug
   information for it.
*/
#ifndef LH_REPLACE_H
#define LH_REPLACE_H

#include "pub_tool_basics.h"
#include "pub_tool_redir.h"

/* A name by which Valgrind redirects soname's fnname (Z-encoded) to impl,
   which must be defined earlier in the same file. */
#define LH_REPLACE(impl, tag, soname, fnname) \
   extern __typeof__(impl) VG_REPLACE_FUNCTION_EZZ(tag, soname, fnname) \
      __attribute__((alias(#impl)));

#define LH_LIBC(impl, tag, fnname)  LH_REPLACE(impl, tag, VG_Z_LIBC_SONAME, fnname)

/* glibc's x86-64 implementations of base: base_avx2, base_sse2_unaligned,
   base_ssse3, ... chosen at load time by IFUNC, as two patterns ("Za" is
   Z-encoding's "*") rather than each name: Valgrind matches every pattern
   against every symbol of libc (thousands with its debug symbols), so
   fewer patterns start programs faster (each costs about half a
   millisecond of start-up).  "ss", not "s": __strcpy_small and friends
   are old functions of another kind.  Neither matches base_chk_...
   (another function), base_ifunc (a resolver) or base_l_...
   (strcasecmp_l's), checked against glibc 2.36's symbols.

   No pattern for the AVX-512 implementations base_evex* (base_avx512*
   match "a*" anyway): Valgrind 3.19 runs no AVX-512 instruction and tells
   the program its CPU has none, so glibc never selects them.  Of glibc's "e" implementations only the "rep movsb /
   stosb" copies and fills remain, base_erms, which glibc chooses when the
   CPU prefers them (GLIBC_TUNABLES can ask for it):
   LH_IMPLEMENTATIONS_ERMS names those. */
#define LH_IMPLEMENTATIONS(impl, tag, base) \
   LH_IMPLEMENTATIONS_AVX(impl, tag, base) \
   LH_IMPLEMENTATIONS_SSE(impl, tag, base)

/* One of the two, for a function glibc implements only one way: strspn,
   strcspn and strpbrk have SSE 4.2 and generic versions only, wcsncmp
   AVX2, EVEX and generic ones only. */
#define LH_IMPLEMENTATIONS_AVX(impl, tag, base) LH_LIBC(impl, tag, base##_aZa)
#define LH_IMPLEMENTATIONS_SSE(impl, tag, base) LH_LIBC(impl, tag, base##_ssZa)

/* The same for the copies and fills that also have a "rep movsb/stosb"
   implementation, base_erms. */
#define LH_IMPLEMENTATIONS_ERMS(impl, tag, base) \
   LH_IMPLEMENTATIONS(impl, tag, base) \
   LH_LIBC(impl, tag, base##_erms)

/* The dynamic linker's own copies (it uses them before and besides libc). */
#define LH_LDSO(impl, tag, fnname)  LH_REPLACE(impl, tag, VG_Z_LD_LINUX_X86_64_SO_2, fnname)

/* _FORTIFY_SOURCE's checks: a copy that would overflow its destination
   ends the program as glibc's would (__chk_fail prints "buffer overflow
   detected" and aborts); weak, so that the preload loads without libc. */
extern void __chk_fail(void) __attribute__((weak, noreturn));
static inline void lh_check_fits(SizeT n, SizeT dst_len)
{
   if (n > dst_len && __chk_fail) __chk_fail();
}

/* The _FORTIFY_SOURCE variant 'checked' of impl(a, b, n), which writes n
   elements at a: ends the program as above when they do not fit the
   destination's dst_len (its size as the compiler knew it), else does
   impl's work. */
#define LH_CHECKED(checked, impl, result, a_type, b_type) \
   static result checked(a_type a, b_type b, SizeT n, SizeT dst_len) \
   { \
      lh_check_fits(n, dst_len); \
      return impl(a, b, n); \
   }

typedef unsigned long lh_word8;   /* an 8-byte word on amd64 */

#endif
