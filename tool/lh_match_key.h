/* lh_match_key.h: a site's identity across two runs (lh_match_key.c).
   lifeheap is free software: GPL-3.0-or-later. */
#ifndef LH_MATCH_KEY_H
#define LH_MATCH_KEY_H

#include "pub_tool_basics.h"
#include "lh_include.h"
#include "lh_json.h"

/* Writes the site's "match_frames" (the stack positions of its key's
   frames) unless every position is kept; after LH_(frames_build). */
void LH_(match_key_write_json)(LH_Json* j, const LH_Site* s);
/* A frame's line of a key, "path<TAB>file" (no newline), in out; False
   (out untouched) for a frame without a name, which no key holds. */
Bool LH_(frame_match_text)(UInt frame_id, HChar* out, SizeT size);

#endif /* LH_MATCH_KEY_H */
