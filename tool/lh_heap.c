/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_heap.c: the malloc replacement and the blocks'  ---*/
/*--- records.                                                     ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The preload (vgpreload_lifeheap-*.so, Valgrind's own
   libreplacemalloc_toolpreload less a few names no glibc has, see
   tool/Makefile.am) redirects the program's malloc family to
   the functions below, which run on the real CPU.  Each allocates from
   a small-block slot (lh_small_alloc.c, up to 256 bytes) or Valgrind's
   client arena (VG_(cli_malloc)) and registers the block (lh_registry.c,
   origin LH_ORIGIN_SMALL or LH_ORIGIN_HEAP), which keeps its record and
   accounts its life:

      payload --shadow map--> owner number --> LH_Block { size, site,
                                                 alloc time, thread }

   There is no table of heap blocks: the shadow map (lh_shadow.c) already
   knows which live block owns each 16-byte granule, for the loads and
   stores, and a block's record sits at its owner number in the record
   pages.  A free or realloc looks its payload up there and checks that
   the record starts at that exact address: O(1), and the granule it reads
   is the one the free's census reads next.

   Semantics follow glibc:
     malloc(0)        a unique 0-byte block (a block with no bytes)
     realloc(NULL,n)  = malloc(n)  (the preload turns it into malloc)
     realloc(p,0)     frees p, returns NULL (the preload turns it into free)
     calloc overflow  NULL, no block (the preload checks; checked here too)
     huge requests    NULL, no block
   A realloc continues the block's life at its first site: shrinking is in
   place, growing is in place while the payload's room allows (its slot's
   size, or VG_(cli_malloc_usable_size)), otherwise the block moves and the copy is
   counted in realloc_bytes_copied.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "lh_include.h"
#include "lh_shadow.h"

static Bool warned_unknown_free = False;
static Bool warned_unknown_realloc = False;

/*------------------------------------------------------------*/
/*--- Finding a block                                      ---*/
/*------------------------------------------------------------*/

/* A live block is found from its payload through the shadow map, which
   knows the owner of every granule (a zero-size block owns its first
   one): no table of blocks to keep in step, and the granule's line is the
   one a free's census reads next anyway.  Payloads are 16-aligned. */
LH_Block* LH_(find_block)(Addr payload)
{
   UInt owner;
   LH_Block* b;
   if (payload == 0 || (payload & (LH_GRANULE_SIZE - 1)) != 0) return NULL;
   owner = LH_(shadow_owner)(payload);
   if (owner == 0) return NULL;
   b = LH_(block_record)(owner);
   return b->payload == payload ? b : NULL;
}

/*------------------------------------------------------------*/
/*--- Allocation and free                                  ---*/
/*------------------------------------------------------------*/

/* The largest alignment Valgrind's client allocator serves: it stops the
   whole run (VG_(core_panic)) on a larger one. */
#define LH_MAX_ALIGNMENT (16 * 1024 * 1024)

static Bool warned_alignment = False;

/* A payload of size bytes: from a small-block slot when the size and
   alignment allow (*small_class set to its class), else from Valgrind's
   client allocator (*small_class 0).  NULL when out of memory, or when
   the alignment is beyond what Valgrind's allocator serves (the program
   sees an allocation failure: NULL, ENOMEM from posix_memalign; one
   warning says why). */
static void* acquire_payload(SizeT size, SizeT align, UInt* small_class)
{
   if (align > LH_MAX_ALIGNMENT) {
      if (!warned_alignment) {
         warned_alignment = True;
         VG_(umsg)("lifeheap: warning: an allocation asked for %lu-byte "
                   "alignment; Valgrind's allocator serves at most %d, so it "
                   "failed (NULL to the program)\n", align, LH_MAX_ALIGNMENT);
      }
      *small_class = 0;
      return NULL;
   }
   /* a power of two of at least 16, as Valgrind's allocator wants (the
      preload rounds memalign's; aligned new passes the program's own) */
   if (align < 16) align = 16;
   while ((align & (align - 1)) != 0) align++;
   *small_class = LH_(small_class_of)(size, align);
   return *small_class != 0 ? LH_(small_alloc)(*small_class)
                            : VG_(cli_malloc)(align, size);
}

/* Gives a payload back to the allocator it came from. */
static void release_payload(void* p, UInt small_class)
{
   if (small_class != 0) LH_(small_free)(p, small_class);
   else VG_(cli_free)(p);
}

static void* new_block(ThreadId tid, SizeT size, SizeT align, Bool zeroed)
{
   void* p;
   UInt small_class;

   if ((SSizeT)size < 0) return NULL;           /* more than half the space */
   p = acquire_payload(size, align, &small_class);
   if (p == NULL) return NULL;
   if (zeroed) VG_(memset)(p, 0, size);
   LH_(block_register)(tid, (Addr)p, size,
                       small_class != 0 ? LH_ORIGIN_SMALL : LH_ORIGIN_HEAP,
                       small_class, zeroed);
   return p;
}

/* A free or realloc of p, which is not a live heap block (a wild or
   double free, a custom allocator's block): the memory is left alone and
   counted, and the first time it is said why. */
static void not_a_live_block(ULong* count, Bool* warned, const HChar* what,
                             void* p, const HChar* why, const HChar* outcome)
{
   (*count)++;
   if (*warned) return;
   *warned = True;
   VG_(umsg)("lifeheap: warning: %s of %p, which is not a live heap block "
             "(%s); %s (the summary counts them all)\n", what, p, why,
             outcome);
}

static void free_block(ThreadId tid, void* p)
{
   LH_Block* b = LH_(find_block)((Addr)p);
   UInt small_class;
   if (b == NULL) {
      not_a_live_block(&LH_(heap).invalid_frees, &warned_unknown_free, "free", p,
                       "double or invalid free", "ignored");
      return;
   }
   small_class = b->small_class;
   LH_(block_retire)(b, tid);
   release_payload(p, small_class);
}

static void* lh_malloc(ThreadId tid, SizeT n)
{
   return new_block(tid, n, VG_(clo_alignment), False);
}

static void* lh_builtin_new(ThreadId tid, SizeT n)
{
   return new_block(tid, n, VG_(clo_alignment), False);
}

static void* lh_builtin_new_aligned(ThreadId tid, SizeT n, SizeT align)
{
   return new_block(tid, n, align, False);
}

static void* lh_builtin_vec_new(ThreadId tid, SizeT n)
{
   return new_block(tid, n, VG_(clo_alignment), False);
}

static void* lh_builtin_vec_new_aligned(ThreadId tid, SizeT n, SizeT align)
{
   return new_block(tid, n, align, False);
}

/* memalign, and through the preload posix_memalign, aligned_alloc and
   valloc (which validate or round the alignment first). */
static void* lh_memalign(ThreadId tid, SizeT align, SizeT n)
{
   return new_block(tid, n, align, False);
}

static void* lh_calloc(ThreadId tid, SizeT nmemb, SizeT size1)
{
   ULong bytes;
   if (size1 != 0 && nmemb > (SizeT)-1 / size1) return NULL;   /* overflow */
   bytes = (ULong)nmemb * size1;
   return new_block(tid, bytes, VG_(clo_alignment), True);
}

static void lh_free(ThreadId tid, void* p)
{
   free_block(tid, p);
}

static void lh_builtin_delete(ThreadId tid, void* p)
{
   free_block(tid, p);
}

static void lh_builtin_delete_aligned(ThreadId tid, void* p, SizeT align)
{
   free_block(tid, p);
}

static void lh_builtin_vec_delete(ThreadId tid, void* p)
{
   free_block(tid, p);
}

static void lh_builtin_vec_delete_aligned(ThreadId tid, void* p, SizeT align)
{
   free_block(tid, p);
}

static void* lh_realloc(ThreadId tid, void* p_old, SizeT new_size)
{
   LH_Block* b;
   SizeT old_size;
   Addr  old_payload;
   ULong bytes_copied = 0;

   /* The preload handles NULL and 0 itself; direct calls behave the same. */
   if (p_old == NULL) return lh_malloc(tid, new_size);
   if (new_size == 0) { free_block(tid, p_old); return NULL; }
   if ((SSizeT)new_size < 0) return NULL;

   b = LH_(find_block)((Addr)p_old);
   if (b == NULL) {
      not_a_live_block(&LH_(heap).invalid_reallocs, &warned_unknown_realloc,
                       "realloc", p_old, "freed or invalid", "NULL returned");
      return NULL;
   }
   old_size    = b->req_size;
   old_payload = b->payload;
   if (new_size != old_size) LH_(block_resize_begin)(b);

   if (new_size > old_size
       && new_size > (b->small_class != 0 ? LH_(small_class_bytes)(b->small_class)
                                          : VG_(cli_malloc_usable_size)(p_old))) {
      /* No room where it is: move it. */
      UInt new_class;
      void* p_new = acquire_payload(new_size, VG_(clo_alignment), &new_class);
      if (p_new == NULL) return NULL;          /* the old block stays valid */
      VG_(memcpy)(p_new, p_old, old_size);
      bytes_copied = old_size;
      release_payload(p_old, b->small_class);
      b->payload = (Addr)p_new;
      b->small_class = new_class;
      b->origin = new_class != 0 ? LH_ORIGIN_SMALL : LH_ORIGIN_HEAP;
   }
   LH_(block_resized)(b, tid, old_payload, new_size, bytes_copied);
   return (void*)b->payload;
}

/* The requested size, as memcheck and DHAT answer: the bytes beyond it
   are not part of the block as far as the profile is concerned. */
static SizeT lh_malloc_usable_size(ThreadId tid, void* p)
{
   LH_Block* b = LH_(find_block)((Addr)p);
   return b ? b->req_size : 0;
}

/* One of the functions the preload's requests call (lh_client_calls.c
   calls these from the translation instead of the scheduler). */
Bool LH_(is_heap_function)(Addr f)
{
   return f == (Addr)lh_malloc || f == (Addr)lh_free
       || f == (Addr)lh_calloc || f == (Addr)lh_realloc
       || f == (Addr)lh_builtin_new || f == (Addr)lh_builtin_delete
       || f == (Addr)lh_builtin_vec_new || f == (Addr)lh_builtin_vec_delete
       || f == (Addr)lh_builtin_new_aligned
       || f == (Addr)lh_builtin_delete_aligned
       || f == (Addr)lh_builtin_vec_new_aligned
       || f == (Addr)lh_builtin_vec_delete_aligned
       || f == (Addr)lh_memalign || f == (Addr)lh_malloc_usable_size;
}

void LH_(heap_init)(void)
{
   VG_(needs_malloc_replacement)(lh_malloc,
                                 lh_builtin_new,
                                 lh_builtin_new_aligned,
                                 lh_builtin_vec_new,
                                 lh_builtin_vec_new_aligned,
                                 lh_memalign,
                                 lh_calloc,
                                 lh_free,
                                 lh_builtin_delete,
                                 lh_builtin_delete_aligned,
                                 lh_builtin_vec_delete,
                                 lh_builtin_vec_delete_aligned,
                                 lh_realloc,
                                 lh_malloc_usable_size,
                                 0 /* no redzone: no error checking */);
}
