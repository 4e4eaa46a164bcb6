/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_site_stacks.c: the sites' allocation stacks,    ---*/
/*--- kept compactly, and the table that finds a site by its stack.---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A site is one allocation stack: the code addresses left after the
   preload's frames are dropped, at most --num-callers of them
   (lh_symbols.c).  Every allocation looks its stack up here; a stack not
   seen before makes a new site (lh_sites.c), which keeps its stack
   encoded here.

   The encoding (a site's 'stack', never freed)
   --------------------------------------------
   The number of addresses, then the first address, then each address's
   difference from the one before it, every number as a variable-length
   integer (7 bits a byte, low bits first, the top bit set on every byte
   but the last; differences zigzag-mapped, so small negative ones are
   small too):

      n=12 | ip0 | ip1-ip0 | ip2-ip1 | ... | ip11-ip10

   The frames of one program lie close together: a recursive function's
   return addresses repeat (difference 0, one byte), calls within a
   function differ by tens of bytes (one or two), and only a step into
   another object takes four or five.  bintree's stacks of 12 addresses
   take about 20 bytes (Valgrind's ExeContext held them in 120).  The
   encodings are packed one after another in chunks (4 KiB doubling to
   64 KiB, one arena block each), with no header and no alignment.

   The table
   ---------
   Open addressing with linear probing: an entry is the stack's 32-bit
   hash and its site's serial (0 = empty), 8 bytes; the table doubles
   before it is three quarters full.  A lookup compares hashes in the
   table and decodes a stack only where they match; a hit costs one hash
   of the unwound addresses (a multiply per address) and one decode.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_options.h"
#include "lh_include.h"

/*------------------------------------------------------------*/
/*--- Variable-length integers                             ---*/
/*------------------------------------------------------------*/

/* At most 10 bytes for 64 bits. */
#define LH_VARINT_MAX 10

static inline UChar* put_varint(UChar* p, ULong v)
{
   while (v >= 0x80) {
      *p++ = (UChar)(v | 0x80);
      v >>= 7;
   }
   *p++ = (UChar)v;
   return p;
}

static inline const UChar* get_varint(const UChar* p, ULong* v)
{
   ULong value = 0;
   UInt shift = 0;
   UChar byte;
   do {
      byte = *p++;
      value |= (ULong)(byte & 0x7f) << shift;
      shift += 7;
   } while (byte & 0x80);
   *v = value;
   return p;
}

/* Differences of either sign as unsigned numbers: 0, -1, 1, -2, 2 ... ->
   0, 1, 2, 3, 4 ... */
static inline ULong zigzag(ULong difference)
{
   return (difference << 1) ^ (ULong)((Long)difference >> 63);
}

static inline ULong unzigzag(ULong z)
{
   return (z >> 1) ^ (ULong)(-(Long)(z & 1));
}

/* A stack being decoded: the next address, one at a time. */
typedef struct {
   const UChar* p;
   Addr previous;
} LH_StackReader;

static inline UInt reader_start(LH_StackReader* r, const UChar* stack)
{
   ULong n;
   r->p = get_varint(stack, &n);
   r->previous = 0;
   return (UInt)n;
}

static inline Addr reader_next(LH_StackReader* r)
{
   ULong z;
   r->p = get_varint(r->p, &z);
   r->previous += (Addr)unzigzag(z);
   return r->previous;
}

/*------------------------------------------------------------*/
/*--- Storage of the encodings                             ---*/
/*------------------------------------------------------------*/

#define LH_STACK_CHUNK_FIRST  4096
#define LH_STACK_CHUNK_LARGEST 65536

static UChar* chunk_free = NULL;
static SizeT  chunk_left = 0;
static SizeT  next_chunk_size = LH_STACK_CHUNK_FIRST;

static const UChar* store_stack(const Addr* ips, UInt n)
{
   /* the longest encoding: --num-callers is at most 500 */
   static UChar encoded[LH_VARINT_MAX * (500 + 1)];
   UChar* end = encoded;
   Addr previous = 0;
   UInt k;
   SizeT length;
   UChar* stored;
   tl_assert(n <= 500);
   end = put_varint(end, n);
   for (k = 0; k < n; k++) {
      end = put_varint(end, zigzag((ULong)(ips[k] - previous)));
      previous = ips[k];
   }
   length = end - encoded;
   if (length > chunk_left) {
      SizeT size = next_chunk_size;
      if (size < length) size = length;
      chunk_free = VG_(malloc)("lh.sites.stacks", size);
      chunk_left = size;
      if (next_chunk_size < LH_STACK_CHUNK_LARGEST) next_chunk_size *= 2;
   }
   stored = chunk_free;
   VG_(memcpy)(stored, encoded, length);
   chunk_free += length;
   chunk_left -= length;
   return stored;
}

/*------------------------------------------------------------*/
/*--- The table                                            ---*/
/*------------------------------------------------------------*/

typedef struct {
   UInt hash;
   UInt serial;     /* the site's; 0 = empty */
} LH_StackSlot;

static LH_StackSlot* slots = NULL;
static UInt n_slots = 0;          /* a power of two */
static UInt n_used = 0;

#define LH_STACK_TABLE_FIRST 256

UInt LH_(stack_hash)(const Addr* ips, UInt n)
{
   ULong h = n;
   UInt k;
   for (k = 0; k < n; k++)
      h = (h ^ ips[k]) * 0x9E3779B97F4A7C15ULL;
   return (UInt)(h ^ (h >> 32));
}

static Bool stack_equals(const UChar* stack, const Addr* ips, UInt n)
{
   LH_StackReader r;
   UInt k;
   if (reader_start(&r, stack) != n) return False;
   for (k = 0; k < n; k++)
      if (reader_next(&r) != ips[k]) return False;
   return True;
}

LH_Site* LH_(site_stacks_find)(const Addr* ips, UInt n, UInt hash)
{
   UInt mask = n_slots - 1, i;
   if (n_slots == 0) return NULL;
   for (i = hash & mask; slots[i].serial != 0; i = (i + 1) & mask) {
      if (slots[i].hash == hash) {
         LH_Site* site = LH_(site_at)(slots[i].serial - 1);
         if (stack_equals(site->stack, ips, n)) return site;
      }
   }
   return NULL;
}

static void insert_slot(LH_StackSlot* table, UInt size, UInt hash, UInt serial)
{
   UInt mask = size - 1, i;
   for (i = hash & mask; table[i].serial != 0; i = (i + 1) & mask) {}
   table[i].hash = hash;
   table[i].serial = serial;
}

static void grow_table(void)
{
   UInt new_size = n_slots ? 2 * n_slots : LH_STACK_TABLE_FIRST, i;
   LH_StackSlot* bigger;
   tl_assert(new_size > n_slots);
   bigger = VG_(calloc)("lh.sites.by_stack", new_size, sizeof(LH_StackSlot));
   for (i = 0; i < n_slots; i++)
      if (slots[i].serial != 0)
         insert_slot(bigger, new_size, slots[i].hash, slots[i].serial);
   if (slots) VG_(free)(slots);
   slots = bigger;
   n_slots = new_size;
}

void LH_(site_stacks_add)(LH_Site* site, const Addr* ips, UInt n, UInt hash)
{
   tl_assert(site->serial != 0);
   site->stack = store_stack(ips, n);
   if (4 * (n_used + 1) > 3 * n_slots) grow_table();
   insert_slot(slots, n_slots, hash, site->serial);
   n_used++;
}

/*------------------------------------------------------------*/
/*--- Reading a site's stack                               ---*/
/*------------------------------------------------------------*/

Int LH_(stack_compare)(const UChar* a, const UChar* b)
{
   LH_StackReader ra, rb;
   UInt na = reader_start(&ra, a), nb = reader_start(&rb, b), k;
   for (k = 0; k < na && k < nb; k++) {
      Addr ia = reader_next(&ra), ib = reader_next(&rb);
      if (ia < ib) return -1;
      if (ia > ib) return 1;
   }
   return LH_(compare_u64)(na, nb);
}

void LH_(site_stack_apply)(const LH_Site* site,
                           void (*action)(UInt n, DiEpoch ep, Addr ip,
                                          void* opaque),
                           void* opaque)
{
   static Addr ips[500];
   LH_StackReader r;
   UInt n = reader_start(&r, site->stack), k;
   tl_assert(n >= 1 && n <= 500);
   for (k = 0; k < n; k++) ips[k] = reader_next(&r);
   /* Stops after main() unless --show-below-main=yes, as Valgrind's own
      stack traces do. */
   VG_(apply_StackTrace)(action, opaque, VG_(current_DiEpoch)(), ips, n);
}
