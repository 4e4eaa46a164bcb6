/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_shadow_private.h: what the two parts of the     ---*/
/*--- shadow map share.                                            ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later (it links Valgrind's core).

   lh_shadow.c         the three-level table, solo and shared chunks, the
                       block records, owning and forgetting ranges, the
                       census
   lh_shadow_medium.c  medium chunks: two parts a page, bits per page
   lh_shadow_frozen.c  medium chunks' page sets shared by content
*/
#ifndef LH_SHADOW_PRIVATE_H
#define LH_SHADOW_PRIVATE_H

#include "pub_tool_basics.h"
#include "lh_include.h"
#include "lh_shadow.h"

/* Bytes of memory the shadow holds (LH_(shadow_bytes_allocated)). */
extern ULong LH_(shadow_bytes);

/* A medium chunk with no owner and every page at LH_(bits_none). */
LH_MediumChunk* LH_(medium_new)(void);
/* Frees the chunk and its pages' sets. */
void LH_(medium_free)(LH_MediumChunk* m);
/* The owner of granule gi (0: none). */
UInt LH_(medium_owner)(const LH_MediumChunk* m, UWord gi);
/* Makes granules [g_lo, g_hi) of the chunk block idx's, bits clear; False
   (and nothing changed) when that would need a third part in a page or
   takes granules of another block: the chunk must become a shared one. */
Bool LH_(medium_own)(LH_MediumChunk* m, UInt idx, UWord g_lo, UWord g_hi);
/* Forgets block idx's granules in [g_lo, g_hi) of the chunk (owner and
   bits); False (and nothing changed) when a part would split in two. */
Bool LH_(medium_disown)(LH_MediumChunk* m, UInt idx, UWord g_lo, UWord g_hi);
/* Granule gi's read (or written) set of the page's own (made if the
   page is at a shared array). */
UShort* LH_(medium_own_bits)(LH_MediumChunk* m, Bool is_write, UWord gi);
/* Writes the chunk's owners and bits into the shared chunk c, granule by
   granule (granules of no block: owner 0, bits clear). */
void LH_(medium_to_shared)(const LH_MediumChunk* m, LH_SharedChunk* c);
/* Clears the bits of granule gi of the medium chunk at and above byte
   'keep' (the bytes below it keep theirs). */
void LH_(medium_clear_granule_from)(LH_MediumChunk* m, UWord gi, UInt keep);

/* Every medium chunk's page sets of their own, frozen: each page then
   points to the one frozen set of its content (lh_shadow_frozen.c) and
   its own set goes back to the pool.  Called by LH_(medium_own) and
   LH_(medium_disown) once enough sets of their own have been made since
   the last sweep: no caller then holds a pointer into a page's set. */
void LH_(medium_sweep)(void);

/* The frozen set with the content of the 128-byte page set 'set' (made
   if there is none), with one user more; NULL when the store is full. */
UShort* LH_(frozen_intern)(const UShort* set);
/* One user fewer of the frozen set (freed with its last). */
void LH_(frozen_release)(const UShort* set);
/* Frozen sets with users. */
UInt LH_(frozen_sets_in_use)(void);

/* True for a set in the frozen store (lh_shadow.h). */
static inline Bool LH_(set_is_frozen)(const UShort* set)
{
   return (UWord)set - LH_(frozen_base) < LH_(frozen_span);
}

#endif
