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
#endif /* LH_CUSTOM_ALLOC_H */
