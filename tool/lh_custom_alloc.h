/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_custom_alloc.h: blocks of custom allocators and ---*/
/*--- memory pools, told by client requests (lh_custom_alloc.c).   ---*/
/*--------------------------------------------------------------------*/
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LH_CUSTOM_ALLOC_H
#define LH_CUSTOM_ALLOC_H

#include "pub_tool_basics.h"

#ifndef LH_
#define LH_(str) VGAPPEND(vgLifeheap_, str)
#endif

/* MALLOCLIKE_BLOCK, FREELIKE_BLOCK, RESIZEINPLACE_BLOCK and the mempool
   requests; False for any other request. */
Bool LH_(custom_alloc_client_request)(ThreadId tid, UWord* arg, UWord* ret);
/* Adds the lifetimes of live custom blocks (up to now) to their sites;
   called by LH_(sites_finalize) after it did the same for heap blocks. */
void LH_(custom_blocks_finalize)(void);
/* Adds the live custom blocks that were live at the latest peak to their
   sites' at-peak bytes (LH_(access_unmeasured_at_peak)); called when the
   output refreshes the live folds (lh_access.c). */
void LH_(custom_blocks_fold_at_peak)(void);

#endif /* LH_CUSTOM_ALLOC_H */
