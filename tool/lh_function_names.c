/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_function_names.c: a function's name as a reader ---*/
/*--- recognises it.                                               ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Demangled names carry what helps a compiler, not a reader: parameter
   lists, generic arguments, return types, "<T as Trait>" and "<impl ...>"
   wrappers.  A name is split into its path components without them
   (split_path), then written:

     - short (LH_(short_function_name), the labels' form): the last
       component with one qualifier, its type or module
       ("<conns::ConnState>::new" is "ConnState::new"); a closure or a C++
       lambda keeps its function ("parse_row::{closure#0}",
       "main::{lambda(int)#1}" for the lambda's operator()); a blanket
       impl's "<T as alloc::string::ToString>::to_string" is named by its
       trait, "ToString::to_string";
     - whole (LH_(function_path), LH_(function_path_joined)): every
       component, joined by "::".
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "lh_include.h"
#include "lh_labels.h"

#define LH_MAX_COMPONENTS 64
#define LH_COMPONENT_CHARS 256

typedef struct {
   HChar text[LH_MAX_COMPONENTS][LH_COMPONENT_CHARS];
   UInt  n;
   /* A top-level space (a C++ return type before it) forgets the
      components of the split in progress only, not those of the enclosing
      path ("f::<<T>::g::{closure#0}, ()>" keeps "f"); the labels forget
      all of them (their text is in profiles already written). */
   Bool  keep_outer_on_space;
} LH_Path;

static Bool is_name_char(HChar c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9') || c == '_';
}

/* Index just past the '>' that closes the '<' at s[open] ("->" inside,
   as in Rust's "fn(&str) -> Box<str>", is not a bracket); the string's
   end when unbalanced. */
static SizeT skip_angle(const HChar* s, SizeT open)
{
   Int depth = 0;
   SizeT i;
   for (i = open; s[i]; i++) {
      if (s[i] == '<') depth++;
      else if (s[i] == '>' && !(i > 0 && s[i - 1] == '-')) {
         depth--;
         if (depth == 0) return i + 1;
      }
   }
   return i;
}

/* Index of the first top-level occurrence of word in s[0, len), or -1. */
static Int find_top_level(const HChar* s, SizeT len, const HChar* word)
{
   Int depth = 0;
   SizeT i, wlen = VG_(strlen)(word);
   for (i = 0; i + wlen <= len; i++) {
      HChar c = s[i];
      if (c == '<' || c == '(' || c == '[') depth++;
      else if ((c == '>' && !(i > 0 && s[i - 1] == '-')) || c == ')' || c == ']')
         depth--;
      else if (depth == 0 && VG_(strncmp)(s + i, word, wlen) == 0)
         return (Int)i;
   }
   return -1;
}

static void path_push(LH_Path* p, const HChar* text, SizeT len)
{
   if (p->n >= LH_MAX_COMPONENTS) return;
   if (len >= LH_COMPONENT_CHARS) len = LH_COMPONENT_CHARS - 1;
   VG_(memcpy)(p->text[p->n], text, len);
   p->text[p->n][len] = 0;
   p->n++;
}

static void split_path(const HChar* s, SizeT len, LH_Path* p);

/* Whether s[0, len) is a generic type parameter ("T", "K", "Alloc"):
   one identifier starting with a capital letter.  Rust's demangled
   names give every concrete type its whole path (alloc::string::String,
   inventory::Item); its primitive types are lower case (str, u32). */
static Bool is_type_parameter(const HChar* s, SizeT len)
{
   SizeT i;
   if (len == 0 || !(s[0] >= 'A' && s[0] <= 'Z')) return False;
   for (i = 1; i < len; i++)
      if (!is_name_char(s[i])) return False;
   return True;
}

/* "<X as Trait>", "<X>" or "<impl Trait for X>": the path of X, or of
   Trait when X is a type parameter. */
static void split_qualified_self(const HChar* inner, SizeT len, LH_Path* p)
{
   Int at;
   while (len > 0 && (*inner == '&' || *inner == '*' || *inner == ' ')) {
      inner++; len--;
   }
   if (len >= 4 && VG_(strncmp)(inner, "mut ", 4) == 0) { inner += 4; len -= 4; }
   if (len >= 6 && VG_(strncmp)(inner, "const ", 6) == 0) { inner += 6; len -= 6; }
   if (len >= 5 && VG_(strncmp)(inner, "impl ", 5) == 0) {
      inner += 5; len -= 5;
      at = find_top_level(inner, len, " for ");
      if (at >= 0) { inner += at + 5; len -= at + 5; }
   }
   at = find_top_level(inner, len, " as ");
   if (at >= 0 && is_type_parameter(inner, (SizeT)at)) {
      /* "<T as alloc::string::ToString>::to_string": a blanket impl, whose
         type is only a parameter: the trait names it (ToString::to_string) */
      split_path(inner + at + 4, len - at - 4, p);
      return;
   }
   if (at >= 0) len = (SizeT)at;
   split_path(inner, len, p);
}

/* Splits a demangled name into its path components, dropping generic
   arguments, parameters and a C++ return type. */
static void split_path(const HChar* s, SizeT len, LH_Path* p)
{
   HChar current[LH_COMPONENT_CHARS];
   SizeT used = 0, i = 0;
   UInt start_n = p->n;
   while (i < len) {
      HChar c = s[i];
      Bool is_operator = used >= 8 && VG_(strncmp)(current, "operator", 8) == 0
                         && (used == 8 || !is_name_char(current[8]));
      if (c == ':' && i + 1 < len && s[i + 1] == ':' && !is_operator) {
         path_push(p, current, used);
         used = 0;
         i += 2;
      } else if (is_operator && c != ':') {
         /* "operator()", "operator<<", "operator new": all of it */
         if (c == '(' && !(i + 1 < len && s[i + 1] == ')')
             && !(used == 8))
            break;                                   /* the parameters */
         if (used + 1 < sizeof current) current[used++] = c;
         i++;
         if (c == '(' && i < len && s[i] == ')') {
            if (used + 1 < sizeof current) current[used++] = ')';
            i++;
         }
      } else if (c == '(') {
         if (VG_(strncmp)(s + i, "(anonymous namespace)", 21) == 0) {
            SizeT k;
            for (k = 0; k < 21 && used + 1 < sizeof current; k++)
               current[used++] = s[i + k];
            i += 21;
         } else {
            break;                                   /* the parameters */
         }
      } else if (c == '<') {
         SizeT close = skip_angle(s, i);
         if (close > len) close = len;
         if (used == 0) {
            /* Rust's "<X as Trait>::f", "<X>::f", "alloc::slice::<impl [T]>" */
            SizeT inner_len = close > i + 1 ? close - i - 2 : 0;
            split_qualified_self(s + i + 1, inner_len, p);
            i = close;
            if (i + 1 < len && s[i] == ':' && s[i + 1] == ':') i += 2;
         } else {
            i = close;                               /* generic arguments */
         }
      } else if (c == '{') {
         /* "{closure#0}", "{{closure}}", "{impl#3}": kept whole */
         Int depth = 0;
         for (; i < len; i++) {
            if (used + 1 < sizeof current) current[used++] = s[i];
            if (s[i] == '{') depth++;
            else if (s[i] == '}' && --depth == 0) { i++; break; }
         }
      } else if (c == ' ') {
         /* A C++ return type ("void ns::f<int>(int)") ends at a top-level
            space: what came before is not the name. */
         p->n = p->keep_outer_on_space ? start_n : 0;
         used = 0;
         i++;
      } else {
         if (used + 1 < sizeof current) current[used++] = c;
         i++;
      }
   }
   if (used > 0) path_push(p, current, used);
}

/* The function's path components joined by "::": all of them (whole) or
   the last that is not a closure with its qualifier; the name itself when
   it has no path. */
static void write_path(const HChar* function, Bool whole, HChar* out,
                       SizeT size)
{
   static LH_Path path;           /* big: not on the tool's small stack */
   Int last, first = 0;
   UInt k;
   SizeT used = 0;
   path.n = 0;
   path.keep_outer_on_space = whole;
   split_path(function, VG_(strlen)(function), &path);
   if (path.n == 0) {
      VG_(snprintf)(out, size, "%s", function);
      return;
   }
   if (!whole) {
      /* A C++ lambda's call operator ("main::{lambda(int)#1}::operator()")
         reads as the lambda in its function, as a Rust closure does
         ("main::{lambda(int)#1}", "parse_row::{closure#0}"). */
      if (path.n >= 2 && VG_(strcmp)(path.text[path.n - 1], "operator()") == 0
          && VG_(strncmp)(path.text[path.n - 2], "{lambda", 7) == 0)
         path.n--;
      for (last = (Int)path.n - 1; last > 0; last--)
         if (path.text[last][0] != '{') break;
      first = last > 0 ? last - 1 : 0;
   }
   out[0] = 0;
   for (k = (UInt)first; k < path.n; k++) {
      Int wrote = VG_(snprintf)(out + used, size - used, "%s%s",
                                k > (UInt)first ? "::" : "", path.text[k]);
      if (wrote < 0 || used + wrote >= size) break;
      used += wrote;
   }
}

void LH_(short_function_name)(const HChar* function, HChar* out, SizeT size)
{
   write_path(function, False, out, size);
}

void LH_(function_path)(const HChar* function, HChar* out, SizeT size)
{
   write_path(function, True, out, size);
}

void LH_(function_path_joined)(const HChar* function, HChar* out, SizeT size)
{
   static LH_Path path;           /* big: not on the tool's small stack */
   SizeT used = 0;
   UInt k;
   path.n = 0;
   path.keep_outer_on_space = False;
   split_path(function, VG_(strlen)(function), &path);
   out[0] = 0;
   for (k = 0; k < path.n && used + 2 < size; k++) {
      Int wrote = VG_(snprintf)(out + used, size - used, "%s%s",
                                k ? "::" : "", path.text[k]);
      if (wrote < 0) break;
      used += wrote;
   }
}

/* A label names a frame without a source line by its object's file name,
   not its path: "jv_parser_next (in libjq.so.1.0.4)", which a chain of
   callers in one library repeats ("... via jq_next (in libjq.so.1.0.4)").
   The frame's object keeps its path (frames[].object, the stacks the
   summary and the report print). */
void LH_(frame_label_text)(UInt frame_id, HChar* out, SizeT size)
{
   const LH_Frame* f = LH_(frame_at)(frame_id);
   HChar name[512];
   if (f && f->function) LH_(short_function_name)(f->function, name, sizeof name);
   else VG_(strcpy)(name, "???");
   if (f && !(f->file && f->line) && f->object) {
      const HChar* base = VG_(strrchr)(f->object, '/');
      VG_(snprintf)(out, size, "%s (in %s)", name,
                    base && base[1] ? base + 1 : f->object);
      return;
   }
   LH_(frame_name_place)(frame_id, name, out, size);
}

/*--------------------------------------------------------------------*/
/*--- end                                     lh_function_names.c ---*/
/*--------------------------------------------------------------------*/
