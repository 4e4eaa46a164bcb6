/* pattern_match_test: tool/lh_pattern_match.c against the matcher of
   Valgrind's core, both built for the host.
   The core's object (m_seqmatch.o, taken out of libcoregrind-<platform>.a
   by tests/cost/run.sh) has its two functions renamed core_string_match
   and core_generic_match; this file gives both objects the two core
   functions they call.  Compared:
     - VG_(string_match) on every pattern of up to 6 characters over
       "ab*?" against every string of up to 7 characters over "ab";
     - VG_(generic_match) on every pattern of up to 5 elements against
       every input of up to 5, whole and prefix matching, with the input
       given as an array and built by an input completer: the same answer
       and the same calls of the callbacks in the same order.
   Prints the suite's PASS/FAIL lines. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned char Bool;
typedef unsigned long UWord;
typedef unsigned long SizeT;

/* The core functions both matchers call. */
SizeT vgPlain_strlen(const char* s) { return strlen(s); }
void vgPlain_assert_fail(Bool is_core, const char* expr, const char* file,
                         int line, const char* fn, const char* format, ...)
{
   printf("FAIL pattern matcher: assertion '%s' at %s:%d\n", expr, file, line);
   exit(1);
}

typedef Bool (*GenericMatch)(Bool, const void*, SizeT, UWord, UWord,
                             const void*, SizeT, UWord, UWord,
                             Bool (*)(const void*), Bool (*)(const void*),
                             Bool (*)(const void*, const void*, void*, UWord),
                             void*, Bool (*)(void*, UWord));
Bool vgPlain_string_match(const char* patt, const char* input);
Bool core_string_match(const char* patt, const char* input);
Bool vgPlain_generic_match(Bool, const void*, SizeT, UWord, UWord,
                           const void*, SizeT, UWord, UWord,
                           Bool (*)(const void*), Bool (*)(const void*),
                           Bool (*)(const void*, const void*, void*, UWord),
                           void*, Bool (*)(void*, UWord));
Bool core_generic_match(Bool, const void*, SizeT, UWord, UWord,
                        const void*, SizeT, UWord, UWord,
                        Bool (*)(const void*), Bool (*)(const void*),
                        Bool (*)(const void*, const void*, void*, UWord),
                        void*, Bool (*)(void*, UWord));

/* The i-th string over alphabet (of k letters) in order of length, then
   of digits: 0 is "", 1..k the one-letter strings, ... */
static void nth_string(unsigned long i, const char* alphabet, char* out)
{
   unsigned long k = strlen(alphabet), len = 0, count = 1;
   while (i >= count) { i -= count; count *= k; len++; }
   out[len] = 0;
   while (len > 0) { out[--len] = alphabet[i % k]; i /= k; }
}

static unsigned long strings_up_to(unsigned long k, unsigned len)
{
   unsigned long total = 0, count = 1;
   for (unsigned l = 0; l <= len; l++) { total += count; count *= k; }
   return total;
}

/* Generic elements: two bytes each, the pattern's meaning in the first. */
typedef struct { char c; char pad; } Elem;
static char call_log[4096];
static size_t call_len;
static void log_call(char what, UWord ix)
{
   if (call_len + 8 < sizeof(call_log))
      call_len += (size_t)snprintf(call_log + call_len, sizeof(call_log) - call_len,
                                   "%c%lu", what, ix);
}
static Bool is_star(const void* p) { log_call('*', 0); return ((const Elem*)p)->c == '*'; }
static Bool is_query(const void* p) { log_call('?', 0); return ((const Elem*)p)->c == '?'; }
static const Elem* completer_input;
static UWord completer_length;
static Bool elem_equal(const void* p, const void* in, void* completer, UWord ix)
{
   const Elem* e = completer ? &completer_input[ix] : in;
   log_call('=', ix);
   return ((const Elem*)p)->c == e->c;
}
static Bool have_input(void* completer, UWord ix)
{
   log_call('h', ix);
   return ix < completer_length;
}

static Bool run_generic(GenericMatch match, Bool all, const Elem* patt, UWord n_patt,
                        const Elem* input, UWord n_input, Bool lazy, char* log_out)
{
   Bool answer;
   call_len = 0;
   call_log[0] = 0;
   completer_input = input;
   completer_length = n_input;
   answer = match(all, patt, sizeof(Elem), n_patt, 0,
                  lazy ? NULL : input, sizeof(Elem), lazy ? 0 : n_input, 0,
                  is_star, is_query, elem_equal,
                  lazy ? (void*)&completer_input : NULL, lazy ? have_input : NULL);
   strcpy(log_out, call_log);
   return answer;
}

static void to_elems(const char* s, Elem* out)
{
   for (size_t i = 0; s[i]; i++) { out[i].c = s[i]; out[i].pad = 0; }
}

int main(void)
{
   char patt[16], input[16];
   unsigned long n_patt = strings_up_to(4, 6), n_input = strings_up_to(2, 7);
   unsigned long pairs = 0, differ = 0, yes = 0;
   for (unsigned long i = 0; i < n_patt; i++) {
      nth_string(i, "ab*?", patt);
      for (unsigned long j = 0; j < n_input; j++) {
         Bool ours, core;
         nth_string(j, "ab", input);
         ours = vgPlain_string_match(patt, input);
         core = core_string_match(patt, input);
         pairs++;
         if (ours != core) {
            if (differ++ < 5)
               printf("    '%s' against '%s': %d, the core's %d\n", patt, input, ours, core);
         } else if (ours) yes++;
      }
   }
   if (differ == 0 && pairs == 5461UL * 255 && yes > 0 && yes < pairs)
      printf("PASS pattern matcher: VG_(string_match) answers as the core's on %lu pairs (%lu match)\n",
             pairs, yes);
   else
      printf("FAIL pattern matcher: VG_(string_match): %lu of %lu pairs answered otherwise than the core's (%lu match)\n",
             differ, pairs, yes);

   pairs = differ = yes = 0;
   n_patt = strings_up_to(4, 5);
   n_input = strings_up_to(2, 5);
   for (unsigned long i = 0; i < n_patt; i++) {
      Elem pe[16], ie[16];
      nth_string(i, "ab*?", patt);
      to_elems(patt, pe);
      for (unsigned long j = 0; j < n_input; j++) {
         nth_string(j, "ab", input);
         to_elems(input, ie);
         for (int all = 0; all < 2; all++) {
            for (int lazy = 0; lazy < 2; lazy++) {
               static char ours_log[4096], core_log[4096];
               Bool ours = run_generic(vgPlain_generic_match, all, pe, strlen(patt),
                                       ie, strlen(input), lazy, ours_log);
               Bool core = run_generic(core_generic_match, all, pe, strlen(patt),
                                       ie, strlen(input), lazy, core_log);
               pairs++;
               if (ours != core || strcmp(ours_log, core_log) != 0) {
                  if (differ++ < 5)
                     printf("    generic '%s' against '%s' (all %d, completer %d): %d %s, the core's %d %s\n",
                            patt, input, all, lazy, ours, ours_log, core, core_log);
               } else if (ours) yes++;
            }
         }
      }
   }
   if (differ == 0 && pairs == 1365UL * 63 * 4 && yes > 0 && yes < pairs)
      printf("PASS pattern matcher: VG_(generic_match) answers as the core's, with the same callbacks in the same order, on %lu cases (%lu match)\n",
             pairs, yes);
   else
      printf("FAIL pattern matcher: VG_(generic_match): %lu of %lu cases answered or called back otherwise than the core's\n",
             differ, pairs);
   return 0;
}
