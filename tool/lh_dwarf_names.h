/* lh_dwarf_names.h: inline chains and names from the DWARF, through the
   lifeheap-symbolize helper (lh_dwarf_names.c).
   lifeheap is free software: GPL-3.0-or-later. */
#ifndef LH_DWARF_NAMES_H
#define LH_DWARF_NAMES_H

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"

/* One inline level of a code address, as the DWARF describes it. */
typedef struct {
   HChar* function;     /* demangled; NULL when the DWARF names none */
   HChar* path;         /* source file with its directory; NULL unknown */
   UInt   line;         /* 0 = unknown */
} LH_DwarfLevel;

typedef struct {
   Addr    ip;          /* in: a code address of the client */
   DiEpoch ep;          /* in: the epoch it was recorded in */
   UInt    n_levels;    /* out: 0 when the DWARF says nothing */
   LH_DwarfLevel* levels;   /* out: innermost first */
} LH_DwarfQuery;

/* Answers every query it can with one run of the helper; the others get
   n_levels 0.  Says once on stderr when the helper is missing or fails. */
void LH_(dwarf_names_resolve)(LH_DwarfQuery* queries, UInt n);
void LH_(dwarf_query_free)(LH_DwarfQuery* q);
/* The helper that answered the last resolve, or NULL. */
const HChar* LH_(dwarf_names_helper)(void);

Bool LH_(dwarf_names_process_option)(const HChar* arg);

#endif /* LH_DWARF_NAMES_H */
