/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_custom_alloc.c: blocks of the program's own     ---*/
/*--- allocators (valgrind.h client requests).                     ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A program with its own allocator (an arena, a pool, a slab) can tell
   Valgrind tools what it hands out, with the requests of valgrind.h:

     VALGRIND_MALLOCLIKE_BLOCK(addr, size, rz, zeroed)   a block is born
     VALGRIND_RESIZEINPLACE_BLOCK(addr, old, new, rz)    resized in place
     VALGRIND_FREELIKE_BLOCK(addr, rz)                   a block dies
     VALGRIND_CREATE_MEMPOOL(pool, rz, zeroed)           a pool (anchor address)
     VALGRIND_MEMPOOL_ALLOC(pool, addr, size)            a block of the pool
     VALGRIND_MEMPOOL_FREE(pool, addr)
     VALGRIND_MEMPOOL_TRIM(pool, addr, size)             frees the pool's blocks
                                                         outside [addr, addr+size)
     VALGRIND_MEMPOOL_CHANGE(pool, old, new, size)       moved and/or resized
     VALGRIND_MOVE_MEMPOOL(old_anchor, new_anchor)
     VALGRIND_DESTROY_MEMPOOL(pool)                      frees all its blocks
     VALGRIND_MEMPOOL_EXISTS(pool)

   lifeheap accounts each such block exactly like a malloc'd block: it is
   registered in the one block registry (lh_registry.c) with the origin
   LH_ORIGIN_CUSTOM (MALLOCLIKE) or LH_ORIGIN_POOL (a mempool's), at the
   site (stack) of the code that made the request, with its size,
   lifetime, thread, and its share of the peak, the timeline, the shapes,
   the findings and the block file.  This file keeps only what is the
   requests' own: an index from payload to record (such a block is not in
   the shadow map, so lh_heap.c cannot find it) and the pools.  Why not in
   the shadow map:
     - their memory usually lies inside a block the pool got from malloc,
       and the access shadow map (lh_shadow.c) gives each 16-byte granule
       to exactly one block: the reads and writes of a pool's blocks are
       therefore counted on the pool's own malloc'd block, and a custom
       site's "access" figures stay zero (the block is not "measured");
     - a free() or realloc() of a custom block by mistake must not hand
       pool memory to Valgrind's allocator: lh_heap.c does not find the
       address and ignores it with a warning.
   A pool whose memory came from malloc is counted twice in the totals:
   once as the malloc'd block at the site that created the pool, once as
   the blocks handed out (docs/reliability.md).
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_hashtable.h"
#include "valgrind.h"
#include "lh_include.h"
#include "lh_custom_alloc.h"

/* The index entry of a live custom block: payload -> record. */
typedef struct CustomBlock {
   struct CustomBlock* next;   /* VgHashNode layout: keep first */
   Addr      payload;          /* the key (= block->payload) */
   LH_Block* block;            /* its record in the registry */
   Addr      pool;             /* its pool's anchor; 0 for MALLOCLIKE */
} CustomBlock;

typedef struct Pool {
   struct Pool* next;          /* VgHashNode layout */
   Addr         anchor;        /* the key */
} Pool;

static VgHashTable* custom_blocks = NULL;   /* payload -> CustomBlock */
static VgHashTable* pools = NULL;           /* anchor -> Pool */
static Bool warned_bad_request = False;

static void init_tables(void)
{
   if (custom_blocks) return;
   custom_blocks = VG_(HT_construct)("lh.custom.blocks");
   pools = VG_(HT_construct)("lh.custom.pools");
}

/* The program misused a request: say so once, carry on. */
static void warn_once(const HChar* what, Addr addr)
{
   if (warned_bad_request) return;
   warned_bad_request = True;
   VG_(umsg)("lifeheap: warning: %s (address %#lx); ignored "
             "(further such warnings are not shown)\n", what, addr);
}

/*------------------------------------------------------------*/
/*--- Births, deaths, resizes                              ---*/
/*------------------------------------------------------------*/

/* A custom block must fit in the address space (amd64's user half,
   2^47 bytes), and the profile's byte totals must stay below 2^53 (the
   largest integer JSON readers such as the viewer's keep exact).  A
   request past either (VALGRIND_MALLOCLIKE_BLOCK of 2^63 bytes, an
   allocator reporting garbage) is ignored with one message. */
#define LH_MAX_CUSTOM_BLOCK_BYTES (1ULL << 47)
#define LH_MAX_PROFILE_BYTES      ((1ULL << 53) - 1)

static Bool warned_size = False;

static Bool size_acceptable(const HChar* request, Addr payload, SizeT size,
                            SizeT growth, Bool resize)
{
   if (size <= LH_MAX_CUSTOM_BLOCK_BYTES && payload + size >= payload
       && LH_(heap).total_bytes + growth <= LH_MAX_PROFILE_BYTES
       && LH_(heap).curr_bytes + growth <= LH_MAX_PROFILE_BYTES
       && (!resize || LH_(heap).total_realloc_requested_bytes + size
                      <= LH_MAX_PROFILE_BYTES))
      return True;
   if (!warned_size) {
      warned_size = True;
      VG_(umsg)("lifeheap: warning: %s of %lu bytes at %#lx is larger than "
                "the address space or would take the profile's byte totals "
                "past 2^53; ignored (further such requests are ignored "
                "silently)\n", request, size, payload);
   }
   return False;
}

static void block_born(ThreadId tid, Addr payload, SizeT size, Addr pool)
{
   CustomBlock* cb;
   if (!size_acceptable(pool ? "VALGRIND_MEMPOOL_ALLOC" : "VALGRIND_MALLOCLIKE_BLOCK",
                        payload, size, size, False))
      return;
   if (VG_(HT_lookup)(custom_blocks, payload) != NULL) {
      warn_once("a custom allocator reported a block that is already live",
                payload);
      return;
   }
   cb = VG_(malloc)("lh.custom.block", sizeof(CustomBlock));
   cb->payload = payload;
   cb->pool    = pool;
   cb->block   = LH_(block_register)(tid, payload, size,
                                     pool ? LH_ORIGIN_POOL : LH_ORIGIN_CUSTOM,
                                     0, False);
   VG_(HT_add_node)(custom_blocks, cb);
}

static void block_dies(ThreadId tid, CustomBlock* cb)
{
   VG_(HT_remove)(custom_blocks, cb->payload);
   LH_(block_retire)(cb->block, tid);
   VG_(free)(cb);
}

static void block_dies_at(ThreadId tid, Addr payload, const HChar* what)
{
   CustomBlock* cb = VG_(HT_lookup)(custom_blocks, payload);
   if (cb == NULL) { warn_once(what, payload); return; }
   block_dies(tid, cb);
}

/* Moves (new_payload != payload) and/or resizes a live custom block: a
   realloc in the profile's terms (no bytes copied by the tool). */
static void block_changes(ThreadId tid, Addr payload, Addr new_payload,
                          SizeT new_size)
{
   CustomBlock* cb = VG_(HT_lookup)(custom_blocks, payload);
   SizeT old_size;
   if (cb == NULL) {
      warn_once("a custom allocator resized a block that is not live", payload);
      return;
   }
   old_size = cb->block->req_size;
   if (!size_acceptable("a custom block's resize", new_payload, new_size,
                        new_size > old_size ? new_size - old_size : 0, True))
      return;
   if (new_payload != payload
       && VG_(HT_lookup)(custom_blocks, new_payload) != NULL) {
      warn_once("a custom allocator moved a block onto a live block",
                new_payload);
      return;
   }
   if (new_size != old_size) LH_(block_resize_begin)(cb->block);
   if (new_payload != payload) {
      VG_(HT_remove)(custom_blocks, payload);
      cb->payload = new_payload;
      cb->block->payload = new_payload;
      VG_(HT_add_node)(custom_blocks, cb);
   }
   LH_(block_resized)(cb->block, tid, payload, new_size, 0);
}

/* Every live block of a pool, or NULL when it has none; *n is the count.
   A copy, so that the caller may retire them. */
static CustomBlock** blocks_of_pool(Addr anchor, UInt* n)
{
   UInt all, i, k = 0;
   VgHashNode** nodes = VG_(HT_to_array)(custom_blocks, &all);
   CustomBlock** out;
   if (all == 0) { *n = 0; if (nodes) VG_(free)(nodes); return NULL; }
   out = (CustomBlock**)nodes;        /* filtered in place */
   for (i = 0; i < all; i++)
      if (((CustomBlock*)nodes[i])->pool == anchor) out[k++] = (CustomBlock*)nodes[i];
   *n = k;
   return out;
}

/*------------------------------------------------------------*/
/*--- Pools                                                ---*/
/*------------------------------------------------------------*/

static void pool_create(Addr anchor)
{
   Pool* p;
   if (VG_(HT_lookup)(pools, anchor) != NULL) {
      warn_once("VALGRIND_CREATE_MEMPOOL of a pool that exists", anchor);
      return;
   }
   p = VG_(malloc)("lh.custom.pool", sizeof(Pool));
   p->anchor = anchor;
   VG_(HT_add_node)(pools, p);
}

/* Takes the pool out of the table; NULL, with a warning, when there is
   no such pool. */
static Pool* pool_take(Addr anchor, const HChar* request)
{
   Pool* p = VG_(HT_remove)(pools, anchor);
   if (p == NULL) warn_once(request, anchor);
   return p;
}

/* Frees the pool's blocks that lie wholly outside [addr, addr+size): with
   an empty range at 0, all of them.  (Blocks that straddle an end are
   kept whole: lifeheap does not split a block's history.) */
static void pool_trim(ThreadId tid, Addr anchor, Addr addr, SizeT size)
{
   UInt n, i;
   CustomBlock** blocks = blocks_of_pool(anchor, &n);
   for (i = 0; i < n; i++) {
      CustomBlock* cb = blocks[i];
      if (cb->payload + cb->block->req_size <= addr || cb->payload >= addr + size)
         block_dies(tid, cb);
   }
   if (blocks) VG_(free)(blocks);
}

static void pool_destroy(ThreadId tid, Addr anchor)
{
   Pool* p = pool_take(anchor, "VALGRIND_DESTROY_MEMPOOL of an unknown pool");
   if (p == NULL) return;
   VG_(free)(p);
   pool_trim(tid, anchor, 0, 0);
}

static void pool_move(Addr old_anchor, Addr new_anchor)
{
   UInt n, i;
   CustomBlock** blocks;
   Pool* p = pool_take(old_anchor, "VALGRIND_MOVE_MEMPOOL of an unknown pool");
   if (p == NULL) return;
   p->anchor = new_anchor;
   VG_(HT_add_node)(pools, p);
   blocks = blocks_of_pool(old_anchor, &n);
   for (i = 0; i < n; i++) blocks[i]->pool = new_anchor;
   if (blocks) VG_(free)(blocks);
}

/*------------------------------------------------------------*/
/*--- The requests                                         ---*/
/*------------------------------------------------------------*/

/* For a request in an existing pool, the warning when arg[1] names none;
   NULL for the other requests. */
static const HChar* unknown_pool_warning(UWord request)
{
   switch (request) {
      case VG_USERREQ__MEMPOOL_ALLOC:
         return "VALGRIND_MEMPOOL_ALLOC in an unknown pool";
      case VG_USERREQ__MEMPOOL_FREE:
         return "VALGRIND_MEMPOOL_FREE in an unknown pool";
      case VG_USERREQ__MEMPOOL_TRIM:
         return "VALGRIND_MEMPOOL_TRIM of an unknown pool";
      case VG_USERREQ__MEMPOOL_CHANGE:
         return "VALGRIND_MEMPOOL_CHANGE in an unknown pool";
      default:
         return NULL;
   }
}

Bool LH_(custom_alloc_client_request)(ThreadId tid, UWord* arg, UWord* ret)
{
   const HChar* unknown_pool = unknown_pool_warning(arg[0]);
   /* valgrind.h numbers these eleven requests 0x1301 .. 0x130b */
   if (arg[0] < VG_USERREQ__MALLOCLIKE_BLOCK
       || arg[0] > VG_USERREQ__RESIZEINPLACE_BLOCK)
      return False;
   init_tables();
   *ret = 0;
   if (unknown_pool != NULL && VG_(HT_lookup)(pools, arg[1]) == NULL) {
      warn_once(unknown_pool, arg[1]);
      return True;
   }
   switch (arg[0]) {
      case VG_USERREQ__MALLOCLIKE_BLOCK:
         if (arg[1] != 0) block_born(tid, arg[1], arg[2], 0);
         break;
      case VG_USERREQ__FREELIKE_BLOCK:
         if (arg[1] != 0) block_dies_at(tid, arg[1], "VALGRIND_FREELIKE_BLOCK "
                                        "of an address that is not a live block");
         break;
      case VG_USERREQ__RESIZEINPLACE_BLOCK: block_changes(tid, arg[1], arg[1], arg[3]); break;
      case VG_USERREQ__CREATE_MEMPOOL:      pool_create(arg[1]); break;
      case VG_USERREQ__DESTROY_MEMPOOL:     pool_destroy(tid, arg[1]); break;
      case VG_USERREQ__MEMPOOL_ALLOC:       block_born(tid, arg[2], arg[3], arg[1]); break;
      case VG_USERREQ__MEMPOOL_FREE:
         block_dies_at(tid, arg[2], "VALGRIND_MEMPOOL_FREE of an address that "
                                    "is not a live block");
         break;
      case VG_USERREQ__MEMPOOL_TRIM:        pool_trim(tid, arg[1], arg[2], arg[3]); break;
      case VG_USERREQ__MOVE_MEMPOOL:        pool_move(arg[1], arg[2]); break;
      case VG_USERREQ__MEMPOOL_CHANGE:      block_changes(tid, arg[2], arg[3], arg[4]); break;
      case VG_USERREQ__MEMPOOL_EXISTS:      *ret = VG_(HT_lookup)(pools, arg[1]) != NULL; break;
   }
   return True;
}
