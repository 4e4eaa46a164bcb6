/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_site_stacks.c: the sites' allocation stacks,    ---*/
/*--- kept compactly, and the table that finds a site by its stack.---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A site is one allocation stack: the code addresses left after the
   preload's frames are dropped, at most --num-callers of them
   (lh_alloc_stacks.c).  Every allocation looks its stack up here; a stack not
   seen before makes a new site (lh_sites.c), which keeps its stack
   encoded here.

   The encoding (a site's 'stack', never freed)
   --------------------------------------------
   A record is the site's serial (4 bytes), then the number of addresses,
   the first address and each address's difference from the one before
   it, every number as a variable-length integer (7 bits a byte, low bits
   first, the top bit set on every byte but the last; differences
   zigzag-mapped, so small negative ones are small too):

      serial (4 bytes) | n=12 | ip0 | ip1-ip0 | ip2-ip1 | ... | ip11-ip10
                         ^ the site's 'stack'

   With --keep-debuginfo=yes the record ends with the debug-information
   epoch it was made in (a variable-length integer), and the output names
   its frames in that epoch, so a library the program unloaded since
   still names them (Valgrind's ExeContexts were archived with the epoch
   for the same reason); otherwise frames are named in the current epoch,
   as Valgrind does for a stack never archived.

   The frames of one program lie close together: a recursive function's
   return addresses repeat (difference 0, one byte), calls within a
   function differ by tens of bytes (one or two), and only a step into
   another object takes four or five.  bintree's stacks of 12 addresses
   take about 20 bytes (Valgrind's ExeContext held them in 120).  The
   records are packed one after another in chunks of 16 KiB (one arena
   block each), with no header and no alignment; 32 bits name a record:
   its chunk's number + 1 and its offset there (up to 65,535 chunks, 1
   GiB of stacks).

   The table
   ---------
   Open addressing with linear probing: an entry is the stack's 32-bit
   hash and its record's name (0 = empty), 8 bytes; the table doubles
   before it is three quarters full.  A lookup compares hashes in the
   table and a record only where they match, so a hit reads the entry and
   the record, and the record's serial gives the site.  The record is
   compared without decoding it: each address's difference from the one
   before, zigzag-mapped, is checked against the record's bytes in its
   own encoding (an encoding is unique, so equal bytes mean equal
   numbers).  The hash is a rotate and an exclusive or per address (no
   chain of multiplies: it runs on every allocation), then the word's
   halves folded together and one multiply to spread its bits.

   Before the table, two shortcuts, both comparing whole addresses:
   16 entries keep stacks found recently with their addresses in full
   (one entry per value of the hash's top four bits, stacks of up to 16
   addresses; a stack takes its entry when the table found it twice in a
   row there), and the entry that answered the last lookup is tried
   before the stack is even hashed.  A loop allocating at one stack
   finds it as the last answer; a loop over a few stacks among the 16; a
   recursion's tree of stacks, which comes round only after thousands of
   others, goes to the table without copying addresses for nothing.
   Every answer compares the whole stack, so it is exact.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
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

/* The rest of a number of two bytes or more, after its first byte. */
static const UChar* get_varint_long(const UChar* p, ULong first, ULong* v)
{
   ULong value = (first & 0x7f) | ((ULong)(p[0] & 0x7f) << 7);
   UInt shift = 14;
   UChar byte;
   if (p[0] < 0x80) {
      *v = value;
      return p + 1;
   }
   p++;
   do {
      byte = *p++;
      value |= (ULong)(byte & 0x7f) << shift;
      shift += 7;
   } while (byte & 0x80);
   *v = value;
   return p;
}

/* Most numbers of a stack are one byte: that case is inline. */
static inline const UChar* get_varint(const UChar* p, ULong* v)
{
   ULong first = *p++;
   if (LIKELY(first < 0x80)) {
      *v = first;
      return p;
   }
   return get_varint_long(p, first, v);
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

#define LH_STACK_CHUNK 16384     /* offsets in a chunk fit 16 bits */

static UChar** chunks = NULL;        /* every chunk, in order */
static UInt    n_chunks = 0, chunks_size = 0;
static SizeT   chunk_used = 0;     /* of the last chunk */

/* A stored stack is named in the table by 32 bits: its chunk's number + 1
   (0 = an empty entry) and its offset there. */
static inline const UChar* stack_record(UInt ref)
{
   return chunks[(ref >> 16) - 1] + (ref & 0xffff);
}

/* A record: the site's serial (4 bytes, little-endian, unaligned), then
   the encoding described at the top, which the site points to. */
static inline UInt record_serial(const UChar* record)
{
   return (UInt)record[0] | ((UInt)record[1] << 8) | ((UInt)record[2] << 16)
          | ((UInt)record[3] << 24);
}

static UInt store_stack(UInt serial, const Addr* ips, UInt n)
{
   /* the longest record: --num-callers is at most 500 (made once, in the
      arena: the tool's static data keeps its layout) */
   static UChar* record = NULL;
   UChar* end;
   Addr previous = 0;
   UInt k;
   SizeT length;
   tl_assert(n <= 500);
   if (record == NULL)
      record = VG_(malloc)("lh.sites.stack_buffers", 4 + LH_VARINT_MAX * (500 + 2));
   end = record + 4;
   record[0] = serial & 0xff;
   record[1] = (serial >> 8) & 0xff;
   record[2] = (serial >> 16) & 0xff;
   record[3] = serial >> 24;
   end = put_varint(end, n);
   for (k = 0; k < n; k++) {
      end = put_varint(end, zigzag((ULong)(ips[k] - previous)));
      previous = ips[k];
   }
   if (VG_(clo_keep_debuginfo))
      end = put_varint(end, VG_(current_DiEpoch)().n);
   length = end - record;
   if (n_chunks == 0 || chunk_used + length > LH_STACK_CHUNK) {
      if (n_chunks == chunks_size) {
         chunks_size = chunks_size ? 2 * chunks_size : 16;
         chunks = VG_(realloc)("lh.sites.stacks", chunks, chunks_size * sizeof(UChar*));
      }
      tl_assert2(n_chunks < 0xffff, "lifeheap: more than 1 GiB of stacks");
      chunks[n_chunks++] = VG_(malloc)("lh.sites.stacks", LH_STACK_CHUNK);
      chunk_used = 0;
   }
   VG_(memcpy)(chunks[n_chunks - 1] + chunk_used, record, length);
   chunk_used += length;
   return (n_chunks << 16) | (UInt)(chunk_used - length);
}

/*------------------------------------------------------------*/
/*--- The table                                            ---*/
/*------------------------------------------------------------*/

typedef struct {
   UInt hash;
   UInt ref;        /* the stored stack (stack_record); 0 = empty */
} LH_StackSlot;

static LH_StackSlot* slots = NULL;
static Bool stacks_released = False;     /* LH_(site_stacks_release) */
static UInt n_slots = 0;          /* a power of two */
static UInt n_used = 0;

#define LH_STACK_TABLE_FIRST 256

/* A rotate and an exclusive or per address (no chain of multiplies: this
   runs on every allocation), then the two halves folded together and one
   multiply to spread the bits: the table's index is the low bits of the
   result, bits 32 and up of the product, which only the word's bits below
   them reach, so without the fold the addresses rotated into the top of
   the word would never move a stack's index (a recursion's stacks then
   crowd into runs of neighbouring entries). */
UInt LH_(stack_hash)(const Addr* ips, UInt n)
{
   ULong h = n;
   UInt k;
   for (k = 0; k < n; k++)
      h = ((h << 19) | (h >> 45)) ^ ips[k];
   h ^= h >> 32;
   h *= 0x9E3779B97F4A7C15ULL;
   return (UInt)(h >> 32);
}

/* The next number of an encoding, at *at, is z: compared byte for byte
   with the encoding z has (one encoding per number: equal bytes, equal
   numbers), without decoding. */
static inline Bool varint_is(const UChar** at, ULong z)
{
   const UChar* p = *at;
   while (UNLIKELY(z >= 0x80)) {
      if (*p++ != (UChar)(z | 0x80)) return False;
      z >>= 7;
   }
   if (*p != (UChar)z) return False;
   *at = p + 1;
   return True;
}

/* The encoded stack holds exactly ips[0 .. n): each address's difference
   from the one before is compared in its encoded form. */
static Bool stack_equals(const UChar* stack, const Addr* ips, UInt n)
{
   const UChar* p = stack;
   Addr previous = 0;
   UInt k;
   if (!varint_is(&p, n)) return False;
   for (k = 0; k < n; k++) {
      if (!varint_is(&p, zigzag((ULong)(ips[k] - previous)))) return False;
      previous = ips[k];
   }
   return True;
}

/* The stacks found most recently, their addresses in full, one entry per
   value of the hash's top bits: a program allocating in a loop finds its
   few stacks here with one comparison of whole addresses, without
   decoding.  The comparison is complete: an entry answers only for the
   very same addresses.  A stack found in the table takes its entry only
   when it was also the last one found there for that entry (its hash is
   the entry's candidate): copying the addresses costs as much as the
   comparison saves, and a program whose stacks come round in a cycle
   longer than the entries (a recursion's tree of stacks) would copy at
   every allocation and never find one here. */
#define LH_RECENT_STACKS 16        /* a power of two */
#define LH_RECENT_DEPTH  16        /* longer stacks are not kept here */

typedef struct {
   LH_Site* site;                  /* NULL = empty */
   UInt hash, n;
   UInt candidate;                 /* the hash found last for this entry */
   Addr ips[LH_RECENT_DEPTH];
} LH_RecentStack;

static LH_RecentStack* recent = NULL;   /* LH_RECENT_STACKS, made with the table */

/* How lookups were answered, for --stats=yes (LH_(site_stacks_print_stats)). */
static struct {
   ULong lookups;
   ULong by_last;         /* the entry that answered the lookup before */
   ULong by_recent;       /* one of the recent entries */
   ULong by_table;        /* the table */
   ULong probes;          /* table entries read by lookups */
   ULong copies;          /* stacks copied into a recent entry */
} find_stats;

void LH_(site_stacks_print_stats)(void)
{
   VG_(dmsg)("lifeheap: sites by stack: %'llu lookups, %'llu answered by "
             "the last answer, %'llu by the recent stacks, %'llu by the "
             "table (%'llu entries read), %'llu stacks copied to the recent "
             "ones\n",
             find_stats.lookups, find_stats.by_last, find_stats.by_recent,
             find_stats.by_table, find_stats.probes, find_stats.copies);
}

static inline LH_RecentStack* recent_entry(UInt hash)
{
   return &recent[hash >> 28];
}

/* A stack just found in the table (or just added): it takes the entry
   the second time in a row. */
static void found_in_table(LH_RecentStack* entry, LH_Site* site,
                           const Addr* ips, UInt n, UInt hash)
{
   UInt k;
   if (entry->candidate != hash) {
      entry->candidate = hash;
      return;
   }
   if (n > LH_RECENT_DEPTH) return;
   find_stats.copies++;
   entry->site = site;
   entry->hash = hash;
   entry->n = n;
   for (k = 0; k < n; k++) entry->ips[k] = ips[k];
}

/* The recent entry that answered the last lookup (NULL when the table
   answered it, or nothing did): a program allocating again and again at
   one stack finds it there before any hashing, and one whose stacks
   change at every allocation does not compare with it. */
static LH_RecentStack* last_answer = NULL;

static inline Bool recent_holds(const LH_RecentStack* entry, const Addr* ips,
                                UInt n)
{
   UInt k;
   if (entry->site == NULL || entry->n != n) return False;
   for (k = 0; k < n && entry->ips[k] == ips[k]; k++) {}
   return k == n;
}

LH_Site* LH_(site_stacks_find)(const Addr* ips, UInt n, UInt* hash)
{
   LH_RecentStack* entry;
   UInt mask = n_slots - 1, i, h;
   find_stats.lookups++;
   if (last_answer != NULL && recent_holds(last_answer, ips, n)) {
      find_stats.by_last++;
      return last_answer->site;
   }
   last_answer = NULL;
   h = *hash = LH_(stack_hash)(ips, n);
   if (n_slots == 0) return NULL;
   entry = recent_entry(h);
   if (entry->hash == h && recent_holds(entry, ips, n)) {
      find_stats.by_recent++;
      last_answer = entry;
      return entry->site;
   }
   for (i = h & mask; slots[i].ref != 0; i = (i + 1) & mask) {
      find_stats.probes++;
      if (slots[i].hash == h) {
         const UChar* record = stack_record(slots[i].ref);
         if (stack_equals(record + 4, ips, n)) {
            LH_Site* site = LH_(site_by_serial)(record_serial(record));
            find_stats.by_table++;
            found_in_table(entry, site, ips, n, h);
            return site;
         }
      }
   }
   return NULL;
}

static void insert_slot(LH_StackSlot* table, UInt size, UInt hash, UInt ref)
{
   UInt mask = size - 1, i;
   for (i = hash & mask; table[i].ref != 0; i = (i + 1) & mask) {}
   table[i].hash = hash;
   table[i].ref = ref;
}

static void grow_table(void)
{
   UInt new_size = n_slots ? 2 * n_slots : LH_STACK_TABLE_FIRST, i;
   LH_StackSlot* bigger;
   tl_assert(new_size > n_slots);
   bigger = VG_(calloc)("lh.sites.by_stack", new_size, sizeof(LH_StackSlot));
   if (recent == NULL)
      recent = VG_(calloc)("lh.sites.recent_stacks", LH_RECENT_STACKS,
                           sizeof(LH_RecentStack));
   for (i = 0; i < n_slots; i++)
      if (slots[i].ref != 0)
         insert_slot(bigger, new_size, slots[i].hash, slots[i].ref);
   if (slots) VG_(free)(slots);
   slots = bigger;
   n_slots = new_size;
}

void LH_(site_stacks_add)(LH_Site* site, const Addr* ips, UInt n, UInt hash)
{
   UInt ref;
   tl_assert(site->serial != 0);
   tl_assert2(!stacks_released, "lifeheap: an allocation after the run's end");
   ref = store_stack(site->serial, ips, n);
   site->stack = stack_record(ref) + 4;
   if (4 * (n_used + 1) > 3 * n_slots) grow_table();
   insert_slot(slots, n_slots, hash, ref);
   n_used++;
   found_in_table(recent_entry(hash), site, ips, n, hash);
}

/* At the end of the run no stack is looked up again: the table and the
   recent entries go, so the report's memory reuses theirs (the records
   stay: the output reads the sites' stacks). */
void LH_(site_stacks_release)(void)
{
   if (slots != NULL) VG_(free)(slots);
   if (recent != NULL) VG_(free)(recent);
   slots = NULL;
   recent = NULL;
   last_answer = NULL;
   n_slots = n_used = 0;
   stacks_released = True;
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
   static Addr* ips = NULL;     /* made once, in the arena */
   LH_StackReader r;
   DiEpoch ep;
   UInt n = reader_start(&r, site->stack), k;
   tl_assert(n >= 1 && n <= 500);
   if (ips == NULL) ips = VG_(malloc)("lh.sites.stack_buffers", 500 * sizeof(Addr));
   for (k = 0; k < n; k++) ips[k] = reader_next(&r);
   if (VG_(clo_keep_debuginfo)) {
      ULong recorded;
      (void)get_varint(r.p, &recorded);
      ep.n = (UInt)recorded;
   } else {
      ep = VG_(current_DiEpoch)();
   }
   /* Stops after main() unless --show-below-main=yes, as Valgrind's own
      stack traces do. */
   VG_(apply_StackTrace)(action, opaque, ep, ips, n);
}
