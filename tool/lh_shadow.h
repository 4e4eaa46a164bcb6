/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_shadow.h: address -> live block map, and the    ---*/
/*--- per-byte "ever read" / "ever written" bits.  See lh_shadow.c ---*/
/*--------------------------------------------------------------------*/
#ifndef LH_SHADOW_H
#define LH_SHADOW_H

#include "pub_tool_basics.h"

struct LH_Block;

/* Client memory is shadowed in 16-byte granules.  Valgrind's client
   allocator aligns every payload to 16 on amd64, so a granule belongs to
   at most one live block. */
#define LH_GRANULE_BITS 4
#define LH_GRANULE_SIZE ((Addr)1 << LH_GRANULE_BITS)

typedef struct {
   UInt   block_index;    /* slot in LH_(shadow_blocks); 0 = no live block */
   UShort read_bits;      /* bit i set: byte i of the granule was ever read */
   UShort written_bits;   /* bit i set: byte i was ever written */
} LH_Granule;

/* The live blocks by shadow index (slot 0 is never used). */
extern struct LH_Block** LH_(shadow_blocks);

/* The inline filter: an access of at most LH_FILTER_MAX_ACCESS bytes at
   address a can touch a live block only if (a - LH_(filter_base)) <u
   LH_(filter_span).  The range only ever widens (a superset of every live
   block); the exact answer comes from the granule map. */
#define LH_FILTER_MAX_ACCESS 64
extern Addr  LH_(filter_base);
extern UWord LH_(filter_span);

/* A new shadow index for block b (not yet owning any memory). */
UInt LH_(shadow_new_index)(struct LH_Block* b);
void LH_(shadow_free_index)(UInt index);

/* Makes the granules of [lo, hi) belong to index; lo must be 16-aligned.
   Their bits must be clear (granules of no live block always are). */
void LH_(shadow_own)(UInt index, Addr lo, Addr hi);

/* Forgets the granules of [lo, hi) (owner and bits); lo 16-aligned. */
void LH_(shadow_disown)(Addr lo, Addr hi);

/* Clears the bits of the bytes at and above 'end' in end's granule: used
   when a block shrinks to end inside a granule. */
void LH_(shadow_clear_bits_from)(Addr end);

/* The granule holding addr if a live block owns it, else NULL. */
LH_Granule* LH_(shadow_granule)(Addr addr);

/* Copies the bits of n bytes from src to dst (both 16-aligned, owned). */
void LH_(shadow_copy_bits)(Addr dst, Addr src, SizeT n);

/* Counts over [lo, lo+size): bytes never read, never written, neither,
   and written but never read. */
typedef struct {
   ULong never_read, never_written, never_accessed, written_never_read;
} LH_ByteCensus;
void LH_(shadow_census)(Addr lo, SizeT size, LH_ByteCensus* out);

/* Bytes of memory the shadow currently holds (tables and granules). */
ULong LH_(shadow_bytes_allocated)(void);

#endif
