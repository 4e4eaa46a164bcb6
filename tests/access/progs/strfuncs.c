/* String and memory functions that glibc implements with vector loads
   (reading past the terminator or the answer) count exactly the bytes
   their definition reads and writes.  Every buffer is filled byte by byte
   by fill() (a write per byte, the terminator included) and then handed
   to one function; the expected figures of each site are in
   tests/access/run.sh, derived as follows:

     wcslen(L"hello")                    reads 6 wchar_t = 24 bytes
     strstr("hello!", "lo")              haystack 5 bytes (to the end of
                                         the match), needle 3 (with NUL)
     strstr("hello!", "xyz")             haystack 7 (to its NUL), needle 4
     strcasecmp("Hello", "hELLo")        6 bytes of each
     strncasecmp("Hello, world", "hELLO there", 5)   5 bytes of each
     memmem("xxabcxx", 7, "abc", 3)      haystack 5, needle 3
     stpncpy(dst, "abc", 10)             source 4 read; 10 written
     strncat("ab", "xyz", 2)             dst: 3 read, 3 more written;
                                         source 2 read
     wcscmp(L"abc", L"abd")              3 wchar_t = 12 bytes of each
     wmemset(w, L'x', 5)                 20 bytes written
     memccpy(dst, "abcdef", 'c', 10)     source 3 read, 3 written
     __memcmpeq("abcdef", "abXdef", 6)   3 bytes of each
     strcasestr("Hello World", "WORLD")  haystack 11, needle 6
     __strcpy_chk(dst, "hi", 16)         source 3 read, 3 written
     strdup("hello")                     glibc's own strlen and memcpy
                                         inside strdup: 6 + 6 bytes of the
                                         source read (when Valgrind sees
                                         glibc's symbols: libc6-dbg), 6
                                         written in the copy */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

int __memcmpeq(const void* a, const void* b, size_t n);
char* __strcpy_chk(char* dst, const char* src, size_t dst_len);

static char* fill(char* block, const char* s, size_t n)
{
   volatile char* d = block;
   for (size_t i = 0; i < n; i++) d[i] = s[i];
   return block;
}
#define TEXT(name, s) \
   static char* name(void) { return fill(malloc(64), s, sizeof(s)); }
#define BYTES(name, s, n) \
   static char* name(void) { return fill(malloc(64), s, n); }

static wchar_t* wfill(wchar_t* block, const wchar_t* s, size_t n)
{
   volatile wchar_t* d = block;
   for (size_t i = 0; i < n; i++) d[i] = s[i];
   return block;
}
#define WIDE(name, s) \
   static wchar_t* name(void) \
   { return wfill(malloc(64), s, sizeof(s) / sizeof(wchar_t)); }

WIDE(wide_len, L"hello")
TEXT(hay_found, "hello!")
TEXT(needle_found, "lo")
TEXT(hay_missed, "hello!")
TEXT(needle_missed, "xyz")
TEXT(case_a, "Hello")
TEXT(case_b, "hELLo")
TEXT(ncase_a, "Hello, world")
TEXT(ncase_b, "hELLO there")
BYTES(mem_hay, "xxabcxx", 7)
BYTES(mem_needle, "abc", 3)
TEXT(stpn_src, "abc")
static char* stpn_dst(void) { return malloc(16); }
TEXT(cat_dst, "ab")
TEXT(cat_src, "xyz")
WIDE(wide_a, L"abc")
WIDE(wide_b, L"abd")
static wchar_t* wide_set(void) { return malloc(40); }
TEXT(ccpy_src, "abcdef")
static char* ccpy_dst(void) { return malloc(16); }
TEXT(eq_a, "abcdef")
TEXT(eq_b, "abXdef")
TEXT(casestr_hay, "Hello World")
TEXT(casestr_needle, "WORLD")
TEXT(chk_src, "hi")
static char* chk_dst(void) { return malloc(16); }
TEXT(dup_src, "hello")

int main(void)
{
   int bad = 0;
   bad |= wcslen(wide_len()) != 5;
   char* h = hay_found();
   bad |= strstr(h, needle_found()) != h + 3;
   bad |= strstr(hay_missed(), needle_missed()) != NULL;
   bad |= strcasecmp(case_a(), case_b()) != 0;
   bad |= strncasecmp(ncase_a(), ncase_b(), 5) != 0;
   char* m = mem_hay();
   bad |= memmem(m, 7, mem_needle(), 3) != m + 2;
   char* d = stpn_dst();
   bad |= stpncpy(d, stpn_src(), 10) != d + 3;
   bad |= strcmp(strncat(cat_dst(), cat_src(), 2), "abxy") != 0;
   bad |= wcscmp(wide_a(), wide_b()) >= 0;
   wmemset(wide_set(), L'x', 5);
   char* c = ccpy_dst();
   bad |= memccpy(c, ccpy_src(), 'c', 10) != c + 3;
   bad |= __memcmpeq(eq_a(), eq_b(), 6) == 0;
   char* cs = casestr_hay();
   bad |= strcasestr(cs, casestr_needle()) != cs + 6;
   __strcpy_chk(chk_dst(), chk_src(), 16);
   bad |= strdup(dup_src())[4] != 'o';
   return bad;
}
