/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_options.h: the values of the --lifeheap-*       ---*/
/*--- options (the list is lh_options.def).                        ---*/
/*--------------------------------------------------------------------*/
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LH_OPTIONS_H
#define LH_OPTIONS_H

#include "pub_tool_basics.h"
#include "lh_json.h"

#ifndef LH_
#define LH_(str) VGAPPEND(vgLifeheap_, str)
#endif

/* The largest byte or count threshold an option takes. */
#define LH_OPTION_BYTES_MAX (1LL << 62)

/* The thresholds in effect: one member per LH_COUNT (Long) and
   LH_FRACTION (double) entry of lh_options.def, set to its default and
   then to the command line's value. */
typedef struct {
#define LH_GROUP(heading)
#define LH_COUNT(name, key, min, max, default, applies, help) Long key;
#define LH_FRACTION(name, key, default, applies, help) double key;
#define LH_TEXT(name, key, hint, default_text, parse, write_json, help)
#define LH_VALGRIND(key, write_json)
#include "lh_options.def"
} LH_OptionValues;

extern LH_OptionValues LH_(options);

/* The tool's command-line hook: True when arg is one of lifeheap's
   options (a bad value gets Valgrind's fatal "Bad option" message). */
Bool LH_(options_process)(const HChar* arg);
/* --help: every option, its value, default and meaning. */
void LH_(options_print_usage)(void);
/* run.options: every option's value in effect, in the list's order. */
void LH_(options_write_json)(LH_Json* j);

/* Parses "--name=<n>" when arg is that option: sets *var and returns
   True; a value that is not digits only or lies outside [lo, hi] gets
   Valgrind's usual "Bad option" error (fatal while parsing the command
   line).  Valgrind's own VG_BINT_CLO accepts an empty value and wraps
   numbers beyond 64 bits into range. */
Bool LH_(parse_count_option)(const HChar* arg, const HChar* name,
                             Long* var, Long lo, Long hi);
/* The same for "--name=<number>" in [lo, hi]; lo_text and hi_text are the
   bounds as the error shows them. */
Bool LH_(parse_double_option)(const HChar* arg, const HChar* name,
                              double* var, double lo, const HChar* lo_text,
                              double hi, const HChar* hi_text);

/* Parses "--name=<file>" when arg is that option: sets *value and
   returns True; an empty name gets Valgrind's "Bad option" error. */
Bool LH_(file_name_option)(const HChar* arg, const HChar* name,
                           const HChar** value);

/* The LH_TEXT and LH_VALGRIND hooks of lh_main.c. */
Bool LH_(out_file_option)(const HChar* arg);
void LH_(out_file_write_json)(LH_Json* j);
void LH_(num_callers_write_json)(LH_Json* j);

#endif /* LH_OPTIONS_H */
