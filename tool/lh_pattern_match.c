/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_pattern_match.c: the core's '*'/'?' matcher,    ---*/
/*--- without measuring both strings on every call.                ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Why the tool has its own VG_(string_match) and VG_(generic_match).

   At start-up Valgrind binds the preload's redirection names to the
   functions of each object it loads: for every text symbol of libc
   (some 9,300 names with glibc's debug symbols installed) it calls
   VG_(string_match)(pattern, name) with every name the preload gives
   for "libc.so*" (about 190 for lifeheap: the malloc family and the
   string functions whose instructions the clock does not count).  That
   is close to two million calls in every process, before main.  The
   core's VG_(string_match) takes VG_(strlen) of both strings and hands
   them to VG_(generic_match), which walks them through function
   pointers (one call each to test for '*', for '?' and to compare two
   characters); most pairs differ at the first or second character, so
   the two strlens were most of the work: 0.05 s of an empty program's
   0.3 s under lifeheap (docs/performance.md).

   Both functions live in one object of Valgrind's core library
   (m_seqmatch.o), which defines nothing else.  The tool executable links
   its own objects first (tool/Makefile.am, --whole-archive), so with both
   defined here the linker never takes that object: every caller in the
   core (redirections, --trace-children-skip, suppressions, soname
   checks) calls these.  Were a later Valgrind to put another symbol in
   m_seqmatch.o, the link would fail on the duplicate definitions instead
   of mixing the two.

   Meaning (pub_tool_seqmatch.h), kept exactly: '*' matches any run of
   input elements, the empty run included; '?' matches exactly one;
   anything else matches an equal element.  VG_(string_match) matches the
   whole of a NUL-terminated string against a NUL-terminated pattern; no
   escape exists.  VG_(generic_match) matches abstract sequences (or a
   prefix of the input when matchAll is False), possibly built lazily by
   an input completer; it asks the callbacks the same questions in the
   same order as the core's, trying each '*' as short as possible first,
   since m_errormgr's completer builds suppression frames on demand.

   VG_(string_match) here walks both strings once, without measuring
   them: a literal pattern character is compared with the input's at
   once, a run of '*' is skipped as one, and a pattern that ends in '*'
   matches whatever remains.  tests/cost/run.sh checks that the tool
   executable has this matcher and not the core's, and builds both for the
   host (tests/cost/unit/pattern_match_test.c) to compare them on every
   short pattern and input: the same answers, and for VG_(generic_match)
   the same callbacks in the same order.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_seqmatch.h"
#include "lh_include.h"

/* The rest of pattern p against the rest of input s, both NUL-terminated;
   p's first character may be anything. */
static Bool match_rest(const HChar* p, const HChar* s)
{
   for (;;) {
      HChar pc = *p;
      if (pc == '*') {
         do p++; while (*p == '*');
         if (*p == 0) return True;        /* a final '*' takes the rest */
         /* The shortest run first, as the core does: the answer is the
            same whichever order the runs are tried in. */
         for (;; s++) {
            if (match_rest(p, s)) return True;
            if (*s == 0) return False;
         }
      }
      if (pc == 0) return *s == 0;
      if (*s == 0) return False;
      if (pc != '?' && pc != *s) return False;
      p++;
      s++;
   }
}

Bool VG_(string_match)(const HChar* patt, const HChar* input)
{
   return match_rest(patt, input);
}

Bool VG_(generic_match)(Bool matchAll,
                        const void* patt, SizeT szbPatt, UWord nPatt, UWord ixPatt,
                        const void* input, SizeT szbInput, UWord nInput, UWord ixInput,
                        Bool (*pIsStar)(const void*),
                        Bool (*pIsQuery)(const void*),
                        Bool (*pattEQinp)(const void*, const void*, void*, UWord),
                        void* inputCompleter,
                        Bool (*haveInputInpC)(void*, UWord))
{
   for (;;) {
      Bool havePatt = ixPatt < nPatt;
      Bool haveInput = inputCompleter
                          ? haveInputInpC(inputCompleter, ixInput)
                          : ixInput < nInput;
      const HChar* currPatt = havePatt
                                 ? (const HChar*)patt + szbPatt * ixPatt : NULL;
      const HChar* currInput = haveInput && !inputCompleter
                                  ? (const HChar*)input + szbInput * ixInput : NULL;
      tl_assert(ixPatt <= nPatt);
      tl_assert(inputCompleter || ixInput <= nInput);

      if (havePatt && pIsStar(currPatt)) {
         if (!haveInput) { ixPatt++; continue; }      /* '*' matches nothing */
         if (VG_(generic_match)(matchAll, patt, szbPatt, nPatt, ixPatt + 1,
                                input, szbInput, nInput, ixInput,
                                pIsStar, pIsQuery, pattEQinp,
                                inputCompleter, haveInputInpC))
            return True;
         ixInput++;                                   /* '*' takes one more */
         continue;
      }
      if (havePatt && pIsQuery(currPatt)) {
         if (!haveInput) return False;
         ixPatt++;
         ixInput++;
         continue;
      }
      if (havePatt && haveInput) {
         if (!pattEQinp(currPatt, currInput, inputCompleter, ixInput))
            return False;
         ixPatt++;
         ixInput++;
         continue;
      }
      if (havePatt) return False;                     /* input ran out */
      if (haveInput) return !matchAll;                /* pattern ran out */
      return True;
   }
}
