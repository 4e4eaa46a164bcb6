/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_findings_private.h: a finding as the rules      ---*/
/*--- (lh_findings.c) make it and the sentences                    ---*/
/*--- (lh_findings_text.c) read it.                                ---*/
/*--------------------------------------------------------------------*/
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LH_FINDINGS_PRIVATE_H
#define LH_FINDINGS_PRIVATE_H

#include "pub_tool_basics.h"

struct LH_Site;

typedef enum {   /* also the tie-break order when sorting */
   Kind_MissingBackpressure,
   Kind_UnboundedGrowth,
   Kind_OversizedPreallocation,
   Kind_UnusedCapacity,
   Kind_Leak,
   Kind_ShortLivedChurn,
   Kind_ReallocGrowth
} FindingKind;

typedef enum { Severity_Low, Severity_Medium, Severity_High } Severity;

extern const HChar* const LH_(finding_kind_names)[];   /* by FindingKind */
extern const HChar* const LH_(severity_names)[];       /* by Severity */

#define MAX_EVIDENCE 24

typedef struct {
   const HChar* name;
   Bool         is_double;
   ULong        count;
   double       fraction;
} Evidence;

typedef struct {
   FindingKind kind;
   Severity    severity;
   struct LH_Site* site;
   UInt        site_index;     /* = the site's id: position in sorted order */
   UInt        n_evidence;
   Evidence    evidence[MAX_EVIDENCE];
   HChar*      summary;        /* the sentence, written once the findings
                                  are sorted (LH_(finding_sentence)) */
} Finding;

/* A named evidence number (it must be there). */
ULong  LH_(evidence_count)(const Finding* f, const HChar* name);
double LH_(evidence_fraction)(const Finding* f, const HChar* name);

/* The --lifeheap-churn-lifetime-fraction in effect (the churn sentence
   states it). */
double LH_(findings_churn_lifetime_fraction)(void);

/* The finding's one plain sentence, naming the site's function. */
/* The finding's sentence, whole (allocated in the tool's arena; the caller
   owns it). */
HChar* LH_(finding_sentence)(const Finding* f);

#endif /* LH_FINDINGS_PRIVATE_H */
