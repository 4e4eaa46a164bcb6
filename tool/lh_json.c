/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_json.c: a small streaming JSON writer.          ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   See lh_json.h for the interface.  The writer keeps a stack of open
   containers; each entry remembers whether it is an object or an array,
   whether it already has an element (so the next one needs a comma) and,
   for arrays, whether a container was nested in it (then its elements go
   on their own lines).  Output goes through a 64 KiB buffer; after the
   first failed write the writer stops writing and json_close reports it.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "lh_json.h"

#define LH_JSON_BUF_SIZE  (64 * 1024)
#define LH_JSON_MAX_DEPTH 64

typedef struct {
   Bool is_array;
   Bool has_elements;
   Bool has_containers;   /* arrays only: an object/array was nested */
} LH_JsonLevel;

struct LH_Json {
   Int   fd;
   Bool  failed;           /* a write failed: output is lost */
   Bool  misused;          /* unbalanced or misplaced calls */
   Bool  top_written;      /* the top-level value has been written */
   Int   depth;            /* number of open containers */
   LH_JsonLevel level[LH_JSON_MAX_DEPTH];
   UInt  used;
   HChar buf[LH_JSON_BUF_SIZE];
};

/*------------------------------------------------------------*/
/*--- Output buffer                                        ---*/
/*------------------------------------------------------------*/

static void flush(LH_Json* j)
{
   UInt done = 0;
   while (!j->failed && done < j->used) {
      Int n = VG_(write)(j->fd, j->buf + done, j->used - done);
      if (n <= 0) j->failed = True;   /* disk full, EIO, ... */
      else done += n;
   }
   j->used = 0;
}

static void put_bytes(LH_Json* j, const HChar* s, UInt n)
{
   while (n > 0) {
      UInt room, chunk;
      if (j->used == LH_JSON_BUF_SIZE) flush(j);
      room  = LH_JSON_BUF_SIZE - j->used;
      chunk = n < room ? n : room;
      VG_(memcpy)(j->buf + j->used, s, chunk);
      j->used += chunk; s += chunk; n -= chunk;
   }
}

static void put_char(LH_Json* j, HChar c)
{
   if (j->used == LH_JSON_BUF_SIZE) flush(j);
   j->buf[j->used++] = c;
}

static void put_str(LH_Json* j, const HChar* s)
{
   put_bytes(j, s, VG_(strlen)(s));
}

static void put_newline_indent(LH_Json* j, Int depth)
{
   Int i;
   put_char(j, '\n');
   for (i = 0; i < depth; i++) put_char(j, ' ');
}

/*------------------------------------------------------------*/
/*--- Strings: escaping and UTF-8 validation               ---*/
/*------------------------------------------------------------*/

/* Length of the valid UTF-8 sequence starting at s (1..4), or 0 when the
   bytes there are not valid UTF-8 (bad lead byte, missing or bad
   continuation bytes, overlong form, surrogate, above U+10FFFF). */
static Int utf8_sequence_length(const UChar* s)
{
   UChar c = s[0];
   UInt  cp, min_cp;
   Int   len, i;
   if (c < 0x80) return 1;
   if      ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min_cp = 0x80; }
   else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min_cp = 0x800; }
   else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min_cp = 0x10000; }
   else return 0;
   for (i = 1; i < len; i++) {
      if ((s[i] & 0xC0) != 0x80) return 0;   /* also stops at the NUL */
      cp = (cp << 6) | (s[i] & 0x3F);
   }
   if (cp < min_cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return 0;
   return len;
}

/* Bytes that go out as they are: printable ASCII but the quote and the
   backslash.  A table, since every byte of every key and string of the
   profile is looked up (a profile's keys alone are some fifty a site). */
static const UChar plain_byte[256] = {
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0x00 */
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0x10 */
   1,1,0,1,1,1,1,1,1,1,1,1,1,1,1,1,   /* 0x20 */
   1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,   /* 0x30 */
   1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,   /* 0x40 */
   1,1,1,1,1,1,1,1,1,1,1,1,0,1,1,1,   /* 0x50 */
   1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,   /* 0x60 */
   1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,   /* 0x70 */
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0x80 */
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0x90 */
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0xa0 */
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0xb0 */
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0xc0 */
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0xd0 */
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0xe0 */
   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,   /* 0xf0 */
};

/* Copies the run of plain bytes at *s straight into the buffer (flushing
   when it fills) and moves *s past it. */
static void put_plain_run(LH_Json* j, const UChar** s)
{
   const UChar* in = *s;
   for (;;) {
      HChar* out = j->buf + j->used;
      UInt room = LH_JSON_BUF_SIZE - j->used, n = 0;
      while (n < room && plain_byte[in[n]]) { out[n] = (HChar)in[n]; n++; }
      j->used += n;
      in += n;
      if (n < room) break;
      flush(j);
   }
   *s = in;
}

static void put_escaped_string(LH_Json* j, const HChar* str)
{
   static const HChar hex[] = "0123456789abcdef";
   const UChar* s = (const UChar*)str;
   put_char(j, '"');
   while (*s) {
      UChar c = *s;
      Int len;
      if (plain_byte[c]) {
         put_plain_run(j, &s);
         continue;
      }
      if (c == '"')       { put_str(j, "\\\""); s++; continue; }
      if (c == '\\')      { put_str(j, "\\\\"); s++; continue; }
      if (c == '\n')      { put_str(j, "\\n");  s++; continue; }
      if (c == '\t')      { put_str(j, "\\t");  s++; continue; }
      if (c == '\r')      { put_str(j, "\\r");  s++; continue; }
      if (c < 0x20 || c == 0x7F) {
         HChar esc[7] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0 };
         put_str(j, esc); s++; continue;
      }
      len = utf8_sequence_length(s);
      if (len == 0) {
         put_str(j, "\xEF\xBF\xBD");   /* U+FFFD for one bad byte */
         s++;
      } else {
         put_bytes(j, (const HChar*)s, len);
         s += len;
      }
   }
   put_char(j, '"');
}

/* A whole number in decimal, without the formatting machinery of
   VG_(sprintf): a profile holds hundreds of thousands of them. */
static void put_u64(LH_Json* j, ULong v)
{
   HChar digits[20];
   UInt n = 0;
   do {
      digits[n++] = (HChar)('0' + v % 10);
      v /= 10;
   } while (v != 0);
   if (LH_JSON_BUF_SIZE - j->used < n) flush(j);
   while (n > 0) j->buf[j->used++] = digits[--n];
}

/*------------------------------------------------------------*/
/*--- Structure: commas, keys, nesting                     ---*/
/*------------------------------------------------------------*/

/* Layout: the top two levels are indented, one member per line; anything
   nested deeper is written compactly, so a site, a frame or run.exit takes
   one line.  That keeps the profile readable with grep and a pager while a
   100,000-site profile stays about a quarter smaller than fully indented. */
#define LH_JSON_INDENTED_DEPTH 2

static Bool is_compact(const LH_Json* j)
{
   return j->depth > LH_JSON_INDENTED_DEPTH;
}

/* Writes what goes before a value: comma, line break, key. */
static void begin_value(LH_Json* j, const HChar* key, Bool value_is_container)
{
   LH_JsonLevel* lv;
   if (j->depth == 0) {
      if (j->top_written || key != NULL) j->misused = True;
      j->top_written = True;
      return;
   }
   lv = &j->level[j->depth - 1];
   if (is_compact(j)) {
      if ((key != NULL) == lv->is_array) {
         j->misused = True;
         if (key == NULL) key = "";
      }
      if (lv->has_elements) put_char(j, ',');
      if (!lv->is_array) {
         put_escaped_string(j, key);
         put_char(j, ':');
      }
   } else if (lv->is_array) {
      if (key != NULL) j->misused = True;
      if (lv->has_elements) put_char(j, ',');
      if (value_is_container) {
         lv->has_containers = True;
         put_newline_indent(j, j->depth);
      } else if (lv->has_elements) {
         put_char(j, ' ');
      }
   } else {
      if (key == NULL) { j->misused = True; key = ""; }
      if (lv->has_elements) put_char(j, ',');
      put_newline_indent(j, j->depth);
      put_escaped_string(j, key);
      put_str(j, ": ");
   }
   lv->has_elements = True;
}

static void open_container(LH_Json* j, const HChar* key, Bool is_array)
{
   begin_value(j, key, True);
   if (j->depth == LH_JSON_MAX_DEPTH) {
      /* Deeper than any profile needs: a programming error. */
      VG_(tool_panic)("lifeheap: JSON nesting too deep");
   }
   j->level[j->depth].is_array       = is_array;
   j->level[j->depth].has_elements   = False;
   j->level[j->depth].has_containers = False;
   j->depth++;
   put_char(j, is_array ? '[' : '{');
}

static void close_container(LH_Json* j, Bool is_array)
{
   LH_JsonLevel* lv;
   if (j->depth == 0 || j->level[j->depth - 1].is_array != is_array) {
      j->misused = True;
      return;
   }
   lv = &j->level[j->depth - 1];
   {
      Bool was_compact = is_compact(j);
      j->depth--;
      if (!was_compact && (!is_array ? lv->has_elements : lv->has_containers))
         put_newline_indent(j, j->depth);
   }
   put_char(j, is_array ? ']' : '}');
   if (j->depth == 0) put_char(j, '\n');
}

/*------------------------------------------------------------*/
/*--- Public interface                                     ---*/
/*------------------------------------------------------------*/

LH_Json* LH_(json_open)(Int fd)
{
   LH_Json* j = VG_(malloc)("lh.json.writer", sizeof(LH_Json));
   VG_(memset)(j, 0, sizeof(LH_Json));
   j->fd = fd;
   return j;
}

Bool LH_(json_close)(LH_Json* j)
{
   Bool ok;
   flush(j);
   ok = !j->failed && !j->misused && j->depth == 0 && j->top_written;
   VG_(free)(j);
   return ok;
}

void LH_(json_flush)(LH_Json* j)
{
   flush(j);
}

Bool LH_(json_failed)(const LH_Json* j)
{
   return j->failed;
}

void LH_(json_object_begin)(LH_Json* j, const HChar* key)
{
   open_container(j, key, False);
}

void LH_(json_object_end)(LH_Json* j)
{
   close_container(j, False);
}

void LH_(json_array_begin)(LH_Json* j, const HChar* key)
{
   open_container(j, key, True);
}

void LH_(json_array_end)(LH_Json* j)
{
   close_container(j, True);
}

void LH_(json_u64)(LH_Json* j, const HChar* key, ULong v)
{
   begin_value(j, key, False);
   put_u64(j, v);
}

void LH_(json_i64)(LH_Json* j, const HChar* key, Long v)
{
   begin_value(j, key, False);
   if (v < 0) {
      put_char(j, '-');
      put_u64(j, (ULong)(-(v + 1)) + 1);   /* also the most negative */
   } else {
      put_u64(j, (ULong)v);
   }
}

/* Fixed-point with 6 decimals, rounded half away from zero; values too
   large for that (>= 1e12) in scientific notation with 6 significant
   decimals.  Written by hand so the output does not depend on the core's
   printf support for floating point. */
void LH_(format_double)(HChar* buf, double v)
{
   const ULong scale = 1000000ULL;
   HChar* p = buf;
   Int    exponent = 0;
   ULong  scaled, int_part, frac_part;
   Int    i;
   HChar  frac[8];

   if (v != v || v > 1.7976931348623157e308 || v < -1.7976931348623157e308) {
      VG_(strcpy)(buf, "null");
      return;
   }
   if (v < 0) { *p++ = '-'; v = -v; }
   if (v >= 1e12) {
      while (v >= 10.0) { v /= 10.0; exponent++; }
   }
   scaled    = (ULong)(v * (double)scale + 0.5);
   int_part  = scaled / scale;
   frac_part = scaled % scale;
   if (exponent > 0 && int_part >= 10) {   /* 9.9999996 rounded up to 10 */
      int_part = 1; frac_part = 0; exponent++;
   }
   for (i = 5; i >= 0; i--) { frac[i] = '0' + (HChar)(frac_part % 10); frac_part /= 10; }
   frac[6] = 0;
   for (i = 5; i > 0 && frac[i] == '0'; i--) frac[i] = 0;   /* keep one digit */
   p += VG_(sprintf)(p, "%llu.%s", int_part, frac);
   if (exponent > 0) VG_(sprintf)(p, "e%d", exponent);
   if (buf[0] == '-' && VG_(strcmp)(buf, "-0.0") == 0) VG_(strcpy)(buf, "0.0");
}

void LH_(json_double)(LH_Json* j, const HChar* key, double v)
{
   HChar num[48];
   begin_value(j, key, False);
   LH_(format_double)(num, v);
   put_str(j, num);
}

void LH_(json_string)(LH_Json* j, const HChar* key, const HChar* s)
{
   begin_value(j, key, False);
   if (s == NULL) put_str(j, "null");
   else put_escaped_string(j, s);
}

void LH_(json_bool)(LH_Json* j, const HChar* key, Bool v)
{
   begin_value(j, key, False);
   put_str(j, v ? "true" : "false");
}

void LH_(json_null)(LH_Json* j, const HChar* key)
{
   begin_value(j, key, False);
   put_str(j, "null");
}
