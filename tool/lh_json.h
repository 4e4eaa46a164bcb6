/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_json.h: a small streaming JSON writer.          ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The writer buffers output for a file descriptor and keeps track of
   nesting and commas, so callers only say what to write:

      LH_Json* j = LH_(json_open)(fd);
      LH_(json_object_begin)(j, NULL);          // top level
      LH_(json_u64)(j, "blocks", 3);
      LH_(json_array_begin)(j, "stack");
      LH_(json_u64)(j, NULL, 0);                // key NULL inside arrays
      LH_(json_array_end)(j);
      LH_(json_object_end)(j);
      ok = LH_(json_close)(j);                  // False if any write failed

   A key is required inside objects and must be NULL inside arrays and at
   the top level.  Strings are escaped completely (quotes, backslashes,
   control characters) and invalid UTF-8 becomes U+FFFD, so any text the
   program or its debug info contains yields valid JSON.

   Layout: every object member goes on its own indented line; arrays of
   plain values stay on one line (an access map of 4096 counters is one
   line, not 4096), arrays of objects put each object on its own line.
*/
#ifndef LH_JSON_H
#define LH_JSON_H

#include "pub_tool_basics.h"

#ifndef LH_
#define LH_(str) VGAPPEND(vgLifeheap_, str)
#endif

typedef struct LH_Json LH_Json;

/* Starts a writer on fd (the caller opens and closes fd). */
LH_Json* LH_(json_open)(Int fd);
/* Flushes, frees the writer; True when every write succeeded and the
   document was closed properly (balanced begins and ends). */
Bool LH_(json_close)(LH_Json* j);
/* Writes out what is buffered. */
void LH_(json_flush)(LH_Json* j);
/* True when a write has failed so far (the writer then discards output). */
Bool LH_(json_failed)(const LH_Json* j);

void LH_(json_object_begin)(LH_Json* j, const HChar* key);
void LH_(json_object_end)(LH_Json* j);
void LH_(json_array_begin)(LH_Json* j, const HChar* key);
void LH_(json_array_end)(LH_Json* j);
void LH_(json_u64)(LH_Json* j, const HChar* key, ULong v);
void LH_(json_i64)(LH_Json* j, const HChar* key, Long v);
/* Finite values are written with up to 6 decimals (trailing zeros
   trimmed, always at least one decimal); NaN and infinities as null. */
void LH_(json_double)(LH_Json* j, const HChar* key, double v);
/* s NULL writes null. */
void LH_(json_string)(LH_Json* j, const HChar* key, const HChar* s);
void LH_(json_bool)(LH_Json* j, const HChar* key, Bool v);
void LH_(json_null)(LH_Json* j, const HChar* key);

/* Formats a double exactly as json_double does (for tests and summaries);
   buf must hold at least 48 bytes. */
void LH_(format_double)(HChar* buf, double v);

#endif /* LH_JSON_H */
