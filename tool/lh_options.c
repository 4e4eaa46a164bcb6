/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_options.c: parsing, --help and run.options,     ---*/
/*--- all from the one list of options (lh_options.def).           ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   lh_options.def is expanded twice here: into LH_(options), the values
   (each threshold starts at its default), and into a table that says for
   each option its name, kind, range, default, run.options key and help.
   Parsing, --help and run.options walk the table, so an option added to
   the list is parsed, explained and recorded, and docs/findings.md's
   options table is written from the same list (scripts/options-doc.py).
   Options whose value is text (a path, an interval) are parsed by their
   module, which the list names.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "lh_include.h"
#include "lh_options.h"
#include "lh_dump.h"
#include "lh_blocks.h"
#include "lh_dwarf_names.h"

LH_OptionValues LH_(options) = {
#define LH_GROUP(heading)
#define LH_COUNT(name, key, min, max, default, applies, help) .key = default,
#define LH_FRACTION(name, key, default, applies, help) .key = default,
#define LH_TEXT(name, key, hint, default_text, parse, write_json, help)
#define LH_VALGRIND(key, write_json)
#include "lh_options.def"
};

typedef enum { OptGroup, OptCount, OptFraction, OptText, OptValgrind } OptKind;

typedef struct {
   OptKind      kind;
   const HChar* name;          /* "--lifeheap-...", or a group's heading */
   const HChar* key;           /* run.options member */
   const HChar* hint;          /* "<file>"; NULL: from the kind and range */
   Long         min, max;      /* OptCount */
   const HChar* default_text;
   void*        value;         /* Long* or double* */
   Bool (*parse)(const HChar* arg);            /* OptText */
   void (*write_json)(LH_Json* j);             /* OptText, OptValgrind */
   const HChar* help;
} Option;

static const Option table[] = {
#define LH_GROUP(heading) \
   { OptGroup, heading, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL },
#define LH_COUNT(name, key, min, max, default, applies, help) \
   { OptCount, "--lifeheap-" name, #key, NULL, min, max, #default, \
     &LH_(options).key, NULL, NULL, help },
#define LH_FRACTION(name, key, default, applies, help) \
   { OptFraction, "--lifeheap-" name, #key, "<0..1>", 0, 0, #default, \
     &LH_(options).key, NULL, NULL, help },
#define LH_TEXT(name, key, hint, default_text, parse, write_json, help) \
   { OptText, "--lifeheap-" name, #key, hint, 0, 0, default_text, NULL, \
     parse, write_json, help },
#define LH_VALGRIND(key, write_json) \
   { OptValgrind, NULL, #key, NULL, 0, 0, NULL, NULL, NULL, write_json, NULL },
#include "lh_options.def"
};

#define N_OPTIONS (sizeof(table) / sizeof(table[0]))

/*------------------------------------------------------------*/
/*--- Parsing                                              ---*/
/*------------------------------------------------------------*/

Bool LH_(parse_double_option)(const HChar* arg, const HChar* name,
                              double* var, double lo, const HChar* lo_text,
                              double hi, const HChar* hi_text)
{
   SizeT  name_len = VG_(strlen)(name);
   const HChar* text;
   HChar* end;
   double value;
   if (VG_(strncmp)(arg, name, name_len) != 0 || arg[name_len] != '=')
      return False;
   text = arg + name_len + 1;
   value = VG_(strtod)(text, &end);
   if (text[0] == '\0' || end[0] != '\0') {
      VG_(fmsg_bad_option)(arg, "Invalid number '%s'\n", text);
      return True;
   }
   if (!(value >= lo && value <= hi)) {   /* also rejects NaN */
      VG_(fmsg_bad_option)(arg, "'%s' argument must be between %s and %s\n",
                           name, lo_text, hi_text);
      return True;
   }
   *var = value;
   return True;
}

Bool LH_(file_name_option)(const HChar* arg, const HChar* name,
                           const HChar** value)
{
   SizeT name_len = VG_(strlen)(name);
   if (VG_(strncmp)(arg, name, name_len) != 0 || arg[name_len] != '=')
      return False;
   if (arg[name_len + 1] == '\0')
      VG_(fmsg_bad_option)(arg, "expected a file name\n");
   *value = arg + name_len + 1;
   return True;
}

Bool LH_(parse_count_option)(const HChar* arg, const HChar* name,
                             Long* var, Long lo, Long hi)
{
   SizeT  name_len = VG_(strlen)(name);
   const HChar* text;
   const HChar* p;
   ULong value = 0;
   if (VG_(strncmp)(arg, name, name_len) != 0 || arg[name_len] != '=')
      return False;
   text = arg + name_len + 1;
   if (text[0] == '\0') {
      VG_(fmsg_bad_option)(arg, "Missing number after '='\n");
      return True;
   }
   for (p = text; *p; p++) {
      if (*p < '0' || *p > '9') {
         VG_(fmsg_bad_option)(arg, "Invalid number '%s' (digits only)\n",
                              text);
         return True;
      }
      if (value > ((ULong)hi - (ULong)(*p - '0')) / 10) {   /* overflow */
         value = (ULong)hi + 1;
         break;
      }
      value = value * 10 + (ULong)(*p - '0');
   }
   if (value < (ULong)lo || value > (ULong)hi) {
      VG_(fmsg_bad_option)(arg, "'%s' argument must be between %lld and %lld\n",
                           name, lo, hi);
      return True;
   }
   *var = (Long)value;
   return True;
}

Bool LH_(options_process)(const HChar* arg)
{
   UInt i;
   if (LH_(unwind_debug_option)(arg)) return True;   /* --help-debug's */
   for (i = 0; i < N_OPTIONS; i++) {
      const Option* o = &table[i];
      switch (o->kind) {
         case OptCount:
            if (LH_(parse_count_option)(arg, o->name, o->value, o->min, o->max))
               return True;
            break;
         case OptFraction:
            if (LH_(parse_double_option)(arg, o->name, o->value,
                                         0.0, "0", 1.0, "1"))
               return True;
            break;
         case OptText:
            if (o->parse(arg)) return True;
            break;
         case OptGroup:
         case OptValgrind:
            break;
      }
   }
   /* Anything else, including an unknown --lifeheap-* option, is rejected
      by the core with a clear message. */
   return False;
}

/*------------------------------------------------------------*/
/*--- --help                                               ---*/
/*------------------------------------------------------------*/

#define HELP_INDENT 4
#define HELP_COLUMN 45    /* where the explanations start */
#define HELP_WIDTH  80

static void print_word(const HChar* p, UInt length)
{
   HChar word[128];
   UInt i;
   for (i = 0; i < length && i + 1 < sizeof word; i++) word[i] = p[i];
   word[i] = '\0';
   VG_(printf)("%s", word);
}

/* Prints the words of text on a line at *column, wrapping at HELP_WIDTH
   to HELP_COLUMN.  *fresh: nothing printed yet where the words go (no
   space before the first one). */
static void print_wrapped(const HChar* text, UInt* column, Bool* fresh)
{
   const HChar* p = text;
   while (*p) {
      UInt word = 0;
      while (p[word] && p[word] != ' ') word++;
      if (!*fresh && *column + 1 + word > HELP_WIDTH) {
         VG_(printf)("\n%*s", HELP_COLUMN, "");
         *column = HELP_COLUMN;
         *fresh = True;
      }
      if (!*fresh) {
         VG_(printf)(" ");
         (*column)++;
      }
      print_word(p, word);   /* VG_(printf) ignores a precision on %s */
      *column += word;
      *fresh = False;
      p += word;
      while (*p == ' ') p++;
   }
}

void LH_(options_print_usage)(void)
{
   UInt i;
   for (i = 0; i < N_OPTIONS; i++) {
      const Option* o = &table[i];
      HChar head[96], hint[48], tail[160];
      UInt column;
      Bool fresh = True;
      if (o->kind == OptValgrind) continue;
      if (o->kind == OptGroup) {
         if (o->name[0]) VG_(printf)("%*s%s\n", HELP_INDENT, "", o->name);
         continue;
      }
      if (o->hint)
         VG_(snprintf)(hint, sizeof hint, "%s", o->hint);
      else if (o->max == LH_OPTION_BYTES_MAX)
         VG_(snprintf)(hint, sizeof hint, "<n>");
      else
         VG_(snprintf)(hint, sizeof hint, "<%lld..%lld>", o->min, o->max);
      VG_(snprintf)(head, sizeof head, "%*s%s=%s", HELP_INDENT, "", o->name,
                    hint);
      column = VG_(strlen)(head);
      VG_(printf)("%s%*s", head,
                  column < HELP_COLUMN ? (Int)(HELP_COLUMN - column) : 1, "");
      column = column < HELP_COLUMN ? HELP_COLUMN : column + 1;
      print_wrapped(o->help, &column, &fresh);
      VG_(snprintf)(tail, sizeof tail, "[%s]", o->default_text);
      print_wrapped(tail, &column, &fresh);
      VG_(printf)("\n");
   }
}

/*------------------------------------------------------------*/
/*--- run.options                                          ---*/
/*------------------------------------------------------------*/

void LH_(options_write_json)(LH_Json* j)
{
   UInt i;
   for (i = 0; i < N_OPTIONS; i++) {
      const Option* o = &table[i];
      switch (o->kind) {
         case OptCount:
            LH_(json_u64)(j, o->key, (ULong)*(const Long*)o->value);
            break;
         case OptFraction:
            LH_(json_double)(j, o->key, *(const double*)o->value);
            break;
         case OptText:
         case OptValgrind:
            if (o->write_json) o->write_json(j);
            break;
         case OptGroup:
            break;
      }
   }
}
