/*--------------------------------------------------------------------*/
/*--- lifeheap: heap lifetime and access profiler.                 ---*/
/*--- lh_access_path.c: the access path, from the generated code's ---*/
/*--- helper calls to the block's bits and its site's map.         ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   Every load and store that passes the inline heap filter calls one of
   the LH_(note_*) helpers (lh_instrument.c); the kernel's reads and
   writes during syscalls arrive through the core's pre_mem_read and
   post_mem_write events.  Each access finds its block (an access slot, or
   the shadow map of lh_shadow.c), sets the bytes' read or written bits,
   and adds to the block's times and high-water mark and to its site's map
   (lh_access_map.c); a reread of a block met at random waits in a short
   queue, so that its block's record is fetched while the program goes on
   ("Accesses counted later").  lh_access.c folds the blocks into their
   sites.

   This file holds the helpers and what they do in turn: the fast checks
   (below), an access in the slot's block, the slow way.  The access
   slots they use are lh_access_slots.c's, the queue and the runs
   lh_access_pending.c's; lh_access_path_private.h has their state and
   the short functions the helpers inline.

   Order of the checks.  Each call tries, without a further call, the
   slot's repeat key, then the run of its kind, then the slot's armed
   part, then the rest of its armed block (note_fast): the commonest
   hits first (a field reread, a byte loop), and each counts the access
   exactly as the ordinary way would, so the order changes speed, never
   a figure.  Only a miss calls on (note_access_unarmed: the slot's block,
   else elsewhere: the queue or the slow way).  These checks are made in
   the helper, not in the generated code (lh_instrument.c says why).
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_tooliface.h"
#include "lh_include.h"
#include "lh_shadow.h"
#include "lh_access_path_private.h"

/*------------------------------------------------------------*/
/*--- The hot path: one access                             ---*/
/*------------------------------------------------------------*/

LH_AccessPathStats LH_(access_path_stats);   /* --stats=yes */

/* Sets the bits of [s, e), all inside block b, granule by granule, and
   keeps the block's set-bit counts.  ref is s's granule. */
static inline __attribute__((always_inline))
void mark_bits(LH_BlockAccess* ba, Addr s, Addr e, Bool is_write,
               LH_GranuleRef* ref)
{
   Addr g = s;
   UInt newly = 0;
   for (;;) {
      Addr stop = LH_(granule_stop)(g, e);
      UShort mask = LH_(granule_mask)(g, stop);
      newly += LH_(shadow_mark)(ref, is_write, mask, (UInt)(stop - g));
      if (stop >= e) break;
      g = stop;
      if (!LH_(shadow_lookup)(g, ref)) break;   /* cannot happen */
   }
   if (newly != 0) {
      if (is_write) ba->written_bytes_set += newly;
      else ba->read_bytes_set += newly;
   }
}

/* The high-water mark, times and map of n bytes at 'offset' of block b.
   (A site's read and written byte counts are the sums of its map.) */
static inline __attribute__((always_inline))
void count_access(LH_Block* b, SizeT offset, UWord n, Bool is_write)
{
   LH_BlockAccess* ba = &b->access;
   if (is_write && offset + n > ba->written_high_water)
      ba->written_high_water = offset + n;
   if (UNLIKELY(ba->map == NULL)) {
      ba->first_access_time = LH_(now);
      ba->map = LH_(site_map)(&b->site->access);
   }
   ba->last_access_time = LH_(now);
   map_add(ba->map, b, offset, n, b->req_size, is_write);
}

/* The access of [a, a+n), all in the granule of ref, can wait in the
   queue of deferred accesses ("Accesses counted later"): every byte of
   it has a bit of either kind set (so it lies inside the block, and is
   not the block's first access), and it would not fill the slot (the
   slot does not hold the block and the block is not the slot's
   candidate; it becomes the candidate here, as slot_note_block makes
   it).  Its bits of its kind are set here when some are not yet, in a
   shared chunk only; *newly: how many.  Not once blocks have overlapped
   (the bits are then not trusted to be one block's). */
static inline Bool deferrable(Addr a, UWord n, Bool is_write,
                              const LH_GranuleRef* ref, AccessSlot* slot,
                              UInt* newly)
{
   UShort mask = (UShort)(((1u << n) - 1) << (a & (LH_GRANULE_SIZE - 1)));
   UShort* own = is_write ? ref->written_bits : ref->read_bits;
   UShort other = is_write ? *ref->read_bits : *ref->written_bits;
   UShort bits = *own;
   const LH_Block* b = ref->block;
   if ((bits & mask) != mask
       && (((bits | other) & mask) != mask || ref->solo != NULL))
      return False;
   if (LH_(shadow_overlap_seen)) return False;
   if ((slot->epoch == LH_(slot_epoch) && slot->block == b) || slot->candidate == b)
      return False;
   slot->candidate = b;
   if ((bits & mask) == mask) {
      *newly = 0;
   } else {
      *newly = LH_(popcount16)(mask & ~bits);
      *own = bits | mask;
   }
   return True;
}

/* Records the access of [a, a+size) for every live block it touches, and
   puts a big block it touches in 'slot' (NULL: no slot, as for the
   kernel's accesses).  Almost always one granule and one block: a wide or
   misaligned access may cross granules, and bytes outside a block's
   [payload, payload+size) (the allocator's slack in the last granule) are
   not counted.  known: the granule of a in a shared chunk, owned by a
   live block, when the caller has looked it up and found that the access
   cannot wait in the queue (NULL: look it up). */
static __attribute__((noinline))
void note_access_slow(Addr a, UWord size, Bool is_write, AccessSlot* slot,
                      LH_Granule* known)
{
   Addr end = a + size;
   if (slot != NULL) LH_(access_path_stats).slow++;
   while (a < end) {
      Addr granule_end = (a | (LH_GRANULE_SIZE - 1)) + 1;
      LH_GranuleRef ref;
      Bool may_defer = known == NULL, found;
      if (known != NULL) {
         LH_(shared_granule_ref)(known, &ref);
         known = NULL;
         found = True;
      } else {
         found = LH_(shadow_lookup)(a, &ref);
      }
      if (found) {
         /* All of [s, e) is this block's: blocks do not overlap, so the
            high-water mark, times and map are done once for the whole
            stretch, and only the bits go granule by granule. */
         LH_Block* b = ref.block;
         Addr block_end, s, e;
         UInt newly;
         /* (a is past the access's start when its first bytes were
            another block's, or the allocator's slack) */
         if (slot != NULL && may_defer && end <= granule_end
             && deferrable(a, end - a, is_write, &ref, slot, &newly)) {
            deferred_add(a, end - a, is_write, b, newly);
            LH_(access_path_stats).queued++;
            return;
         }
         block_end = b->payload + b->req_size;
         s = a > b->payload ? a : b->payload;
         e = end < block_end ? end : block_end;
         if (LIKELY(s < e)) {
            /* a block's map pointer is set at its first access */
            Bool first_touch = b->access.map == NULL;
            if (s != a && !LH_(shadow_lookup)(s, &ref))
               break;                                /* cannot happen */
            mark_bits(&b->access, s, e, is_write, &ref);
            count_access(b, s - b->payload, e - s, is_write);
            if (slot != NULL && !LH_(shadow_overlap_seen))
               slot_note_block(slot, b, is_write, first_touch);
            a = e > granule_end ? e : granule_end;
            continue;
         }
      }
      a = granule_end;
   }
}

/* Adds newly set bits to the block's count; the slot is saturated once
   every byte's bit of its kind is set. */
static inline void slot_count_newly(AccessSlot* slot, LH_BlockAccess* ba,
                                    UInt newly, Bool is_write)
{
   SizeT set;
   if (newly == 0) return;
   set = is_write ? (ba->written_bytes_set += newly)
                  : (ba->read_bytes_set += newly);
   if (set == slot->size) slot->saturated = True;
}

/* Sets the bits of [a, a+n) inside the slot's (unsaturated) block: through
   the slot's shadow chunk when that keeps its bits in arrays (a solo or
   medium chunk; found again when the access left it), else granule by
   granule through the shadow (a chunk shared by small blocks).  False
   only if the shadow disagrees with the slot, which cannot happen while
   the epoch is good. */
static Bool slot_mark_bits(AccessSlot* slot, Addr a, UWord n, Bool is_write)
{
   LH_Block* b = slot->block;
   LH_BlockAccess* ba = &b->access;
   LH_GranuleRef ref;
   Addr end = a + n;
   UInt newly;
   SizeT set;
   if (slot->granules != NULL) {
      /* a small block in a shared chunk: its granules are at hand */
      ref.block = b;
      ref.solo = NULL;
      newly = LH_(shadow_mark_granules)(&ref, is_write, &slot->granules[0].read_bits,
                            &slot->granules[0].written_bits,
                            sizeof(LH_Granule) / sizeof(UShort),
                            slot->lo & ~(LH_GRANULE_SIZE - 1), a, end);
      slot_count_newly(slot, ba, newly, is_write);
      return True;
   }
   if (a - slot->chunk_lo >= ((Addr)1 << LH_CHUNK_SHIFT)
       || end - 1 - slot->chunk_lo >= ((Addr)1 << LH_CHUNK_SHIFT)) {
      if (!LH_(shadow_lookup)(a, &ref) || ref.block != b)
         return False;                            /* cannot happen */
      if (ref.solo == NULL
          || end - 1 - (a & ~(((Addr)1 << LH_CHUNK_SHIFT) - 1))
             >= ((Addr)1 << LH_CHUNK_SHIFT)) {
         /* a chunk shared by small blocks, or an access across two
            chunks: granule by granule through the shadow */
         mark_bits(ba, a, end, is_write, &ref);
         set = is_write ? ba->written_bytes_set : ba->read_bytes_set;
         if (set == slot->size) slot->saturated = True;
         return True;
      }
      /* every bit may have been set through other slots since this one
         was filled: then it is saturated, with nothing to mark */
      set = is_write ? ba->written_bytes_set : ba->read_bytes_set;
      if (set == slot->size) {
         slot->saturated = True;
         return True;
      }
      slot->chunk = ref.solo;
      slot->chunk_lo = a & ~(((Addr)1 << LH_CHUNK_SHIFT) - 1);
   }
   ref.block = b;
   ref.solo = slot->chunk;
   newly = LH_(shadow_mark_chunk)(&ref, is_write, slot->chunk, slot->chunk_lo, a, end);
   slot_count_newly(slot, ba, newly, is_write);
   return True;
}

/* A loop walking forward through a block leaves its part for one of
   the next few (parts of a block under K bytes have a byte or none):
   found by their ends, a multiplication and a shift each, instead of the
   division of bucket_of_fast.  Part 'from' ends at from_hi <= offset.
   True with the part of 'offset' and its range [*lo, *hi), False when
   it is further on. */
static inline Bool part_after(SizeT offset, SizeT size, UWord from,
                              SizeT from_hi, UWord* j, SizeT* lo, SizeT* hi)
{
   UWord next;
   SizeT next_lo = from_hi;
   for (next = from + 1; next < K && next <= from + 4; next++) {
      SizeT next_hi = (SizeT)(((ULong)(next + 1) * size) / K);
      if (offset < next_hi) {
         *j = next;
         *lo = next_lo;
         *hi = next_hi;
         return True;
      }
      next_lo = next_hi;
   }
   return False;
}

/* An access inside the slot's block (epoch good), outside its armed
   part: counted here without a lookup of the block (and without the bits
   once they are all set), and the slot is armed with its part when it can
   be; else the slow way. */
static __attribute__((noinline))
void note_access_in_slot_block(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   UWord offset = a - slot->lo;
   const LH_BlockAccess* before = &slot->block->access;
   SizeT set_before = is_write ? before->written_bytes_set : before->read_bytes_set;
   LH_(access_path_stats).in_slot_block++;
   if (slot->saturated || slot_mark_bits(slot, a, n, is_write)) {
      LH_Block* b = slot->block;
      LH_BlockAccess* ba = &b->access;
      SizeT set_after = is_write ? ba->written_bytes_set : ba->read_bytes_set;
      /* no bit newly set: the access comes again (a field reread), and
         becomes the slot's repeatable one */
      Bool again = set_after == set_before;
      /* saturated, maybe by another slot (two loads sharing one array's
         reading): armed below, no more calls here */
      if (set_after == slot->size) slot->saturated = True;
      ba->last_access_time = LH_(now);
      run_start(&LH_(runs)[is_write], slot, a + n);
      if (is_write && offset + n > ba->written_high_water)
         ba->written_high_water = offset + n;
      if (slot->by_parts) {
         SizeT size = slot->size;
         UWord j;
         SizeT lo, hi;
         if (offset >= slot->part_lo && offset < slot->part_hi) {
            j = slot->part_index;           /* a loop still in its part */
            lo = slot->part_lo;
            hi = slot->part_hi;
         } else if (!(slot->part_hi != 0 && offset >= slot->part_hi
                      && part_after(offset, size, slot->part_index,
                                    slot->part_hi, &j, &lo, &hi))) {
            j = bucket_of_fast(offset, size, slot->inv_size);
            lo = (SizeT)(((ULong)j * size) / K);
            hi = (SizeT)(((ULong)(j + 1) * size) / K);
         }
         if (LIKELY(offset + n <= hi)) {
            slot->counts[j] += n;
            slot_arm(slot, j, lo, hi);
            if (again) slot_repeat_set(slot, repeat_key_of(a, n));
            return;
         }
         /* across parts: repeatable too (slot_repeats_flush splits it) */
         if (again) slot_repeat_set(slot, repeat_key_of(a, n));
      } else if (again) {
         slot_repeat_set(slot, repeat_key_of(a, n));
      }
      map_add(ba->map, b, offset, n, slot->size, is_write);
      return;
   }
   note_access_slow(a, n, is_write, slot, NULL);
}

/* An access outside the slot's block.  The commonest of them by far, a
   reread of one of many small blocks (a tree's walk, a table's probes),
   is queued here ("Accesses counted later") with one shadow lookup in a
   chunk shared by small blocks and no more: the slow way, a larger
   function with the bits, the counts and the slot to keep, is called
   only for the rest (a block's first access, with the granule found
   here; an access across granules, outside any block, or in a big or
   medium block's chunk, where it looks the granule up itself and may
   still queue the access). */
static __attribute__((noinline))
void note_access_elsewhere(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   LH_Granule* g;
   if (n != 0 && (a & (LH_GRANULE_SIZE - 1)) + n <= LH_GRANULE_SIZE
       && (g = LH_(shadow_shared_granule)(a)) != NULL) {
      LH_GranuleRef ref;
      UInt newly;
      LH_(shared_granule_ref)(g, &ref);
      if (deferrable(a, n, is_write, &ref, slot, &newly)) {
         LH_(access_path_stats).slow++;
         LH_(access_path_stats).queued++;
         deferred_add(a, n, is_write, ref.block, newly);
         return;
      }
      note_access_slow(a, n, is_write, slot, g);     /* its granule known */
      return;
   }
   /* (a granule of a solo or medium chunk, of no block, or across two) */
   note_access_slow(a, n, is_write, slot, NULL);
}

/* An access outside the slot's armed part: in the slot's block, or
   elsewhere. */
static inline __attribute__((always_inline))
void note_access_unarmed(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   UWord offset = a - slot->lo;
   if (offset < slot->size && n <= slot->size - offset
       && slot->epoch == LH_(slot_epoch))
      note_access_in_slot_block(a, n, is_write, slot);
   else
      note_access_elsewhere(a, n, is_write, slot);
}

/* The fastest path: an access inside the slot's armed part adds to its
   count and sets the block's last-access time.  False when the access is
   elsewhere. */
static inline __attribute__((always_inline))
Bool note_in_armed_part(AccessSlot* slot, Addr a, UWord n)
{
   UWord in_part = a - slot->part_base;
   if (in_part >= slot->part_room || n > slot->part_room - in_part)
      return False;
   *slot->part_count += n;
   slot->block->access.last_access_time = LH_(now);
   return True;
}

/* An access elsewhere in an armed slot's block (a gather over a big
   array): its part is found, counted and armed here, without a call.
   False when the access is not in the block or straddles two parts. */
static inline __attribute__((always_inline))
Bool note_in_armed_block(AccessSlot* slot, Addr a, UWord n)
{
   UWord offset = a - slot->lo;
   SizeT size = slot->size;
   UWord j;
   SizeT lo, hi;
   /* part_room is not 0 only while the slot is armed for its block */
   if (slot->part_room == 0 || offset >= size || n > size - offset)
      return False;
   j = bucket_of_fast(offset, size, slot->inv_size);
   lo = (SizeT)(((ULong)j * size) / K);
   hi = (SizeT)(((ULong)(j + 1) * size) / K);
   if (offset + n > hi) return False;
   slot->counts[j] += n;
   slot->block->access.last_access_time = LH_(now);
   slot_arm(slot, j, lo, hi);
   return True;
}

/* The slot's repeatable access again (lh_access_path.c's opening
   comment): one more pending repeat and the block's last-access time.
   False for any other access. */
static inline __attribute__((always_inline))
Bool note_repeat(AccessSlot* slot, Addr a, UWord n)
{
   if (((ULong)a | ((ULong)n << 48)) != slot->repeat_key
       || slot->epoch != LH_(slot_epoch))
      return False;
   slot->repeats++;
   slot->block->access.last_access_time = LH_(now);
   return True;
}

/* The next access of the run of its kind (lh_access_path.c's opening
   comment): the run's end moves on and the block's last-access time is
   set; its bits, set-bit count, high-water mark and map wait for the
   run's flush.  False for any other access. */
static inline __attribute__((always_inline))
Bool note_in_run(Addr a, UWord n, Bool is_write)
{
   AccessRun* run = &LH_(runs)[is_write];
   if (a != run->end || run->epoch != LH_(slot_epoch) || n > run->limit - a)
      return False;
   run->block->access.last_access_time = LH_(now);
   run->end = a + n;
   return True;
}

/* The checks that count an access without a call, commonest first: the
   slot's repeatable access, the next of its run, the slot's armed part,
   elsewhere in its armed block.  Any of them that holds counts the access
   exactly as the ordinary way would (the same counters, bits, times), so
   their order only decides which is tried first.  True when counted. */
static inline __attribute__((always_inline))
Bool note_fast(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   return note_repeat(slot, a, n) || note_in_run(a, n, is_write)
          || note_in_armed_part(slot, a, n) || note_in_armed_block(slot, a, n);
}

/* One access, when filtered (the address may be in the heap): the fast
   checks, else the slot's block or the slow way. */
static inline __attribute__((always_inline))
void note_access(Addr a, UWord n, Bool is_write, AccessSlot* slot)
{
   if (LIKELY(note_fast(a, n, is_write, slot))) return;
   note_access_unarmed(a, n, is_write, slot);
}

/* 'packed' is size | slot index << 32 (lh_instrument.c).  The helpers
   only do the fast checks themselves and leave the rest to a function
   called last, so that their common case saves no registers. */
static __attribute__((noinline))
void note_read_rest(Addr a, UWord packed)
{
   note_access_unarmed(a, packed & 0xFFFFFFFFul, False, slot_at(packed >> 32, False));
}

static __attribute__((noinline))
void note_write_rest(Addr a, UWord packed)
{
   note_access_unarmed(a, packed & 0xFFFFFFFFul, True, slot_at(packed >> 32, True));
}

VG_REGPARM(2) void LH_(note_read)(Addr a, UWord packed)
{
   if (LIKELY(note_fast(a, packed & 0xFFFFFFFFul, False, slot_at(packed >> 32, False))))
      return;
   note_read_rest(a, packed);
}

VG_REGPARM(2) void LH_(note_write)(Addr a, UWord packed)
{
   if (LIKELY(note_fast(a, packed & 0xFFFFFFFFul, True, slot_at(packed >> 32, True))))
      return;
   note_write_rest(a, packed);
}

/* Two accesses of one stretch in one call (lh_instrument.c pairs them):
   'packed' is size1 | size2 << 8 | slot1 << 16 | slot2 << 40.  The
   generated code calls when either address may be in the heap, so each is
   filtered again (after its fast checks: an armed part, a run or a
   repeatable access is in the heap). */
static inline __attribute__((always_inline))
void note_filtered(Addr a, UWord n, Bool is_write, UWord slot_index)
{
   AccessSlot* slot = slot_at(slot_index, is_write);
   if (LIKELY(note_fast(a, n, is_write, slot))) return;
   if (a - LH_(filter_base) < LH_(filter_span))
      note_access_unarmed(a, n, is_write, slot);
}

/* The rest of an access whose fast checks missed (note_pair made them,
   and nothing has changed since), when its address may be in the heap. */
static inline __attribute__((always_inline))
void note_filtered_unarmed(Addr a, UWord n, Bool is_write, UWord slot_index)
{
   if (a - LH_(filter_base) < LH_(filter_span))
      note_access_unarmed(a, n, is_write, slot_at(slot_index, is_write));
}

/* The pair when the first access is counted already (first_done) or
   either missed its fast check.  note_pair made the first's checks, and
   the second's when the first was counted: a check that missed there
   is not made again.  When the first missed, the second's checks are
   made here, after the first access is counted, so the two are counted
   in program order. */
static __attribute__((noinline))
void note_pair_rest(Addr a1, Addr a2, UWord packed, Bool first_write,
                    Bool second_write, Bool first_done)
{
   if (first_done) {
      note_filtered_unarmed(a2, (packed >> 8) & 0xFF, second_write, packed >> 40);
      return;
   }
   note_filtered_unarmed(a1, packed & 0xFF, first_write, packed >> 16);
   note_filtered(a2, (packed >> 8) & 0xFF, second_write, packed >> 40);
}

static inline __attribute__((always_inline))
void note_pair(Addr a1, Addr a2, UWord packed, Bool first_write, Bool second_write)
{
   Bool first_done = note_fast(a1, packed & 0xFF, first_write,
                               slot_at(packed >> 16, first_write));
   if (LIKELY(first_done)
       && LIKELY(note_fast(a2, (packed >> 8) & 0xFF, second_write,
                           slot_at(packed >> 40, second_write))))
      return;
   note_pair_rest(a1, a2, packed, first_write, second_write, first_done);
}

VG_REGPARM(3) void LH_(note_read_read)(Addr a1, Addr a2, UWord packed)
{
   note_pair(a1, a2, packed, False, False);
}

VG_REGPARM(3) void LH_(note_read_write)(Addr a1, Addr a2, UWord packed)
{
   note_pair(a1, a2, packed, False, True);
}

VG_REGPARM(3) void LH_(note_write_write)(Addr a1, Addr a2, UWord packed)
{
   note_pair(a1, a2, packed, True, True);
}

/*------------------------------------------------------------*/
/*--- The kernel's accesses during system calls            ---*/
/*------------------------------------------------------------*/

/* Only system calls and client requests are program accesses; the core
   also writes signal frames, which the program did not ask for. */
static Bool is_program_part(CorePart part)
{
   return part == Vg_CoreSysCall || part == Vg_CoreClientReq;
}

static void syscall_reads(CorePart part, ThreadId tid, const HChar* what,
                          Addr a, SizeT size)
{
   if (is_program_part(part) && size > 0) note_access_slow(a, size, False, NULL, NULL);
}

static void syscall_reads_string(CorePart part, ThreadId tid, const HChar* what,
                                 Addr str)
{
   /* The string and its terminating NUL; the core has checked that it is
      readable before calling us. */
   if (is_program_part(part))
      note_access_slow(str, VG_(strlen)((const HChar*)str) + 1, False, NULL, NULL);
}

/* Writes are counted after the call, with the size the kernel actually
   wrote (read() returning 10 for a 4096-byte request writes 10 bytes).
   The pre_mem_write event announces the most the call MAY write and is
   ignored. */
static void syscall_wrote(CorePart part, ThreadId tid, Addr a, SizeT size)
{
   if (is_program_part(part) && size > 0) note_access_slow(a, size, True, NULL, NULL);
}

void LH_(access_path_init)(void)
{
   VG_(track_pre_mem_read)(syscall_reads);
   VG_(track_pre_mem_read_asciiz)(syscall_reads_string);
   VG_(track_post_mem_write)(syscall_wrote);
}
