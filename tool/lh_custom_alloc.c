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

   lifeheap accounts each such block exactly like a malloc'd block: at the
   site (stack) of the code that made the request, with its size, lifetime,
   thread, and its share of the peak, the timeline and the findings (the
   lh_sites.c accounting calls).  The blocks are kept in a table of their
   own, not in the heap's block table, for two reasons:
     - their memory usually lies inside a block the pool got from malloc,
       and the access shadow map (lh_shadow.c) gives each 16-byte granule
       to exactly one block: the reads and writes of a pool's blocks are
       therefore counted on the pool's own malloc'd block, and a custom
       site's "access" figures stay zero;
     - a free() or realloc() of a custom block by mistake must not hand
       pool memory to Valgrind's allocator: lh_heap.c does not know the
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
#include "lh_blocks.h"

typedef struct CustomBlock {
   struct CustomBlock* next;   /* VgHashNode layout: keep first */
   Addr      payload;          /* the key */
   SizeT     size;
   LH_Site*  site;
   ULong     alloc_time;
   UInt      alloc_thread;     /* LH_(thread_serial) */
   Addr      pool;             /* its pool's anchor; 0 for MALLOCLIKE */
   ULong     peak_seq_at_alloc; /* as LH_Block's: live at the latest peak
                                   when LH_(peak_seq) is above it */
   /* For the block file (lh_blocks.c): the record this stretch of the
      block continues after a resize (0: none), and that resize's time
      and thread. */
   ULong     previous_record;
   ULong     segment_birth;
   UInt      segment_thread;
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
       && LH_(total_bytes) + growth <= LH_MAX_PROFILE_BYTES
       && LH_(curr_bytes) + growth <= LH_MAX_PROFILE_BYTES
       && (!resize || LH_(total_realloc_requested_bytes) + size
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

static Bool live_at_peak(const CustomBlock* cb)
{
   return LH_(peak_seq) > cb->peak_seq_at_alloc;
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
   cb->payload      = payload;
   cb->size         = size;
   cb->site         = LH_(site_for_stack)(LH_(record_allocation_stack)(tid));
   cb->alloc_time   = LH_(now);
   cb->alloc_thread = LH_(thread_serial)(tid);
   cb->pool         = pool;
   cb->peak_seq_at_alloc = LH_(peak_seq);
   cb->previous_record = 0;
   cb->segment_birth   = cb->alloc_time;
   cb->segment_thread  = cb->alloc_thread;
   VG_(HT_add_node)(custom_blocks, cb);
   LH_(access_blocks_changed)();
   LH_(site_note_alloc)(cb->site, size, tid);
}

/* The block file's record of cb as it is now.  Accesses are counted on
   the malloc'd block that holds the pool (see the top): none here. */
static void custom_life(const CustomBlock* cb, LH_BlockLife* life)
{
   VG_(memset)(life, 0, sizeof(*life));
   life->previous     = cb->previous_record;
   life->birth        = cb->segment_birth;
   life->size         = cb->size;
   life->site_serial  = cb->site->serial;
   life->alloc_thread = cb->segment_thread;
   life->custom       = True;
}

static void block_dies(ThreadId tid, CustomBlock* cb)
{
   if (LH_(blocks_on)) {
      LH_BlockLife life;
      custom_life(cb, &life);
      LH_(blocks_write)(&life, LH_BlockFreed, LH_(thread_serial)(tid));
   }
   VG_(HT_remove)(custom_blocks, cb->payload);
   if (live_at_peak(cb)) LH_(access_unmeasured_at_peak)(cb->site, cb->size, False);
   LH_(site_note_free)(cb->site, cb->size, LH_(now) - cb->alloc_time,
                       LH_(thread_serial)(tid) != cb->alloc_thread);
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
   old_size = cb->size;
   if (!size_acceptable("a custom block's resize", new_payload, new_size,
                        new_size > old_size ? new_size - old_size : 0, True))
      return;
   if (new_payload != payload
       && VG_(HT_lookup)(custom_blocks, new_payload) != NULL) {
      warn_once("a custom allocator moved a block onto a live block",
                new_payload);
      return;
   }
   if (LH_(blocks_on)) {
      LH_BlockLife life;
      UInt thread = LH_(thread_serial)(tid);
      custom_life(cb, &life);
      cb->previous_record = LH_(blocks_write)(&life,
         new_payload != payload ? LH_BlockMoved : LH_BlockReallocated, thread);
      cb->segment_birth  = LH_(now);
      cb->segment_thread = thread;
   }
   if (new_payload != payload) {
      VG_(HT_remove)(custom_blocks, payload);
      cb->payload = new_payload;
      VG_(HT_add_node)(custom_blocks, cb);
   }
   if (new_size != old_size && live_at_peak(cb)) {
      /* its at-peak bytes are those of its size at the peak (lh_access.c,
         LH_(access_block_before_resize)) */
      LH_(access_unmeasured_at_peak)(cb->site, old_size, False);
      cb->peak_seq_at_alloc = LH_(peak_seq);
   }
   cb->size = new_size;
   LH_(site_note_realloc)(cb->site, old_size, new_size, 0);
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

static Bool pool_known(Addr anchor, const HChar* request)
{
   if (VG_(HT_lookup)(pools, anchor) != NULL) return True;
   warn_once(request, anchor);
   return False;
}

static void pool_destroy(ThreadId tid, Addr anchor)
{
   UInt n, i;
   CustomBlock** blocks;
   Pool* p = VG_(HT_remove)(pools, anchor);
   if (p == NULL) {
      warn_once("VALGRIND_DESTROY_MEMPOOL of an unknown pool", anchor);
      return;
   }
   VG_(free)(p);
   blocks = blocks_of_pool(anchor, &n);
   for (i = 0; i < n; i++) block_dies(tid, blocks[i]);
   if (blocks) VG_(free)(blocks);
}

/* Frees the pool's blocks that lie wholly outside [addr, addr+size).
   (Blocks that straddle an end are kept whole: lifeheap does not split a
   block's history.) */
static void pool_trim(ThreadId tid, Addr anchor, Addr addr, SizeT size)
{
   UInt n, i;
   CustomBlock** blocks = blocks_of_pool(anchor, &n);
   for (i = 0; i < n; i++) {
      CustomBlock* cb = blocks[i];
      if (cb->payload + cb->size <= addr || cb->payload >= addr + size)
         block_dies(tid, cb);
   }
   if (blocks) VG_(free)(blocks);
}

static void pool_move(Addr old_anchor, Addr new_anchor)
{
   UInt n, i;
   CustomBlock** blocks;
   Pool* p = VG_(HT_remove)(pools, old_anchor);
   if (p == NULL) {
      warn_once("VALGRIND_MOVE_MEMPOOL of an unknown pool", old_anchor);
      return;
   }
   p->anchor = new_anchor;
   VG_(HT_add_node)(pools, p);
   blocks = blocks_of_pool(old_anchor, &n);
   for (i = 0; i < n; i++) blocks[i]->pool = new_anchor;
   if (blocks) VG_(free)(blocks);
}

/*------------------------------------------------------------*/
/*--- The requests                                         ---*/
/*------------------------------------------------------------*/

Bool LH_(custom_alloc_client_request)(ThreadId tid, UWord* arg, UWord* ret)
{
   init_tables();
   switch (arg[0]) {
      case VG_USERREQ__MALLOCLIKE_BLOCK:
         if (arg[1] != 0) block_born(tid, arg[1], arg[2], 0);
         break;
      case VG_USERREQ__FREELIKE_BLOCK:
         if (arg[1] != 0)
            block_dies_at(tid, arg[1],
               "VALGRIND_FREELIKE_BLOCK of an address that is not a live block");
         break;
      case VG_USERREQ__RESIZEINPLACE_BLOCK:
         block_changes(tid, arg[1], arg[1], arg[3]);
         break;
      case VG_USERREQ__CREATE_MEMPOOL:
         pool_create(arg[1]);
         break;
      case VG_USERREQ__DESTROY_MEMPOOL:
         pool_destroy(tid, arg[1]);
         break;
      case VG_USERREQ__MEMPOOL_ALLOC:
         if (pool_known(arg[1], "VALGRIND_MEMPOOL_ALLOC in an unknown pool"))
            block_born(tid, arg[2], arg[3], arg[1]);
         break;
      case VG_USERREQ__MEMPOOL_FREE:
         if (pool_known(arg[1], "VALGRIND_MEMPOOL_FREE in an unknown pool"))
            block_dies_at(tid, arg[2],
               "VALGRIND_MEMPOOL_FREE of an address that is not a live block");
         break;
      case VG_USERREQ__MEMPOOL_TRIM:
         if (pool_known(arg[1], "VALGRIND_MEMPOOL_TRIM of an unknown pool"))
            pool_trim(tid, arg[1], arg[2], arg[3]);
         break;
      case VG_USERREQ__MOVE_MEMPOOL:
         pool_move(arg[1], arg[2]);
         break;
      case VG_USERREQ__MEMPOOL_CHANGE:
         if (pool_known(arg[1], "VALGRIND_MEMPOOL_CHANGE in an unknown pool"))
            block_changes(tid, arg[2], arg[3], arg[4]);
         break;
      case VG_USERREQ__MEMPOOL_EXISTS:
         *ret = VG_(HT_lookup)(pools, arg[1]) != NULL;
         return True;
      default:
         return False;
   }
   *ret = 0;
   return True;
}

/*------------------------------------------------------------*/
/*--- Output                                               ---*/
/*------------------------------------------------------------*/

void LH_(custom_blocks_finalize)(void)
{
   CustomBlock* cb;
   if (custom_blocks == NULL) return;
   VG_(HT_ResetIter)(custom_blocks);
   while ((cb = VG_(HT_Next)(custom_blocks)) != NULL) {
      LH_(site_count_live_lifetime)(cb->site, cb->alloc_time);
      LH_(shapes_note_live)(cb->site, cb->size, LH_(now) - cb->alloc_time);
   }
}

void LH_(custom_blocks_fold_at_peak)(void)
{
   CustomBlock* cb;
   if (custom_blocks == NULL) return;
   VG_(HT_ResetIter)(custom_blocks);
   while ((cb = VG_(HT_Next)(custom_blocks)) != NULL)
      if (live_at_peak(cb)) LH_(access_unmeasured_at_peak)(cb->site, cb->size, True);
}

/* The block file's records of the blocks still live at the end. */
void LH_(custom_blocks_write_live)(void)
{
   CustomBlock* cb;
   if (custom_blocks == NULL) return;
   VG_(HT_ResetIter)(custom_blocks);
   while ((cb = VG_(HT_Next)(custom_blocks)) != NULL) {
      LH_BlockLife life;
      custom_life(cb, &life);
      LH_(blocks_write)(&life, LH_BlockLiveAtEnd, 0);
   }
}
