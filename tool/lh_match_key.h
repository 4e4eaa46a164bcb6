/* lh_match_key.h: a site's identity across two runs (lh_match_key.c).
   lifeheap is free software: GPL-3.0-or-later. */
#ifndef LH_MATCH_KEY_H
#define LH_MATCH_KEY_H

#include "pub_tool_basics.h"
#include "lh_include.h"
#include "lh_json.h"

/* Writes the site's "match_key" and "match_lines" (after the frame table
   is built: LH_(frames_build)). */
void LH_(match_key_write_json)(LH_Json* j, const LH_Site* s);

#endif /* LH_MATCH_KEY_H */
