/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_access.h: per-block and per-site access state,  ---*/
/*--- and the hooks the block registry and the output call.        ---*/
/*--------------------------------------------------------------------*/
#ifndef LH_ACCESS_H
#define LH_ACCESS_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

struct LH_Block;
struct LH_Site;
struct LH_Json;

/* Number of equal parts a "buckets" access map divides a block into. */
#define LH_ACCESS_MAP_BUCKETS 64
/* Largest block size that gets an exact per-byte map. */
#define LH_ACCESS_MAP_MAX_BYTES 4096

/* What one live block has done so far.  The per-byte "ever read" and
   "ever written" bits live in the shadow map (lh_shadow.c), not here.
   With the block's payload and size just before them, these fields are
   the first 64 bytes of the record: everything an access of a small
   block reads or writes. */
typedef struct {
   struct LH_SiteMap* map;       /* the site's map, set at the first access:
                                    NULL = never accessed */
   ULong last_access_time;       /* valid when accessed */
   SizeT written_high_water;     /* 1 + highest offset ever written, or the
                                    size for a block the allocator zeroed;
                                    0 = none */
   /* Bytes whose "ever read" / "ever written" bit is set: equal to the
      block's size once every byte was, and then the access path need not
      touch the bits (lh_access.c, the access slots). */
   SizeT read_bytes_set;
   SizeT written_bytes_set;
   ULong first_access_time;      /* valid when accessed */
} LH_BlockAccess;

typedef enum {
   LH_MAP_NONE = 0,              /* the site has no block yet */
   LH_MAP_BYTES,                 /* all blocks one size <= 4096: per offset */
   LH_MAP_BUCKETS                /* LH_ACCESS_MAP_BUCKETS parts of each block */
} LH_MapKind;

/* Access figures of a set of blocks, folded block by block. */
typedef struct {
   ULong measured_bytes;
   ULong never_read_bytes, never_written_bytes, never_accessed_bytes;
   ULong written_never_read_bytes;
   ULong unused_capacity_bytes;
   ULong idle_before_free;
   ULong first_access_delay;
   /* The blocks live at the latest global peak: valid only while
      at_peak_seq == LH_(heap).peak_seq.  A newer peak makes them stale and the
      next fold resets them, so nothing is walked when a peak is reached. */
   ULong at_peak_seq;
   ULong at_peak_bytes, at_peak_never_read, at_peak_never_written,
         at_peak_never_accessed, at_peak_unused_capacity;
} LH_AccessFold;

/* A site's access map, in one allocation so that the access path touches
   one place: the header and, for small blocks, the counts share cache
   lines (a per-offset map has room for just its block size's counts).
   The header never moves (live blocks keep a pointer to it).

   A per-offset map's counts are 2 bytes each, in 'counts' (its reads,
   then its writes: LH_(map_counts2)), until an add would take one past
   65,535: then all its counts move, exactly, to 4-byte counts allocated
   apart (at 'reads4' and 'writes4'), and from those, when one would pass
   2^32 - 1, to 8-byte counts allocated apart (at 'reads' and 'writes');
   'width' says which (lh_access_map.c).  A map of parts begins its
   'counts' with its part cache (LH_(map_part_cache)) and has 8-byte
   counts from the start, after the cache when made as one, else apart: a
   per-offset map turns into parts in place when its room allows.  Every
   form apart has its reads at 'reads' and its writes 'capacity' entries
   further, at 'writes' (LH_(map_counts), LH_(map_counts4)). */
typedef struct LH_SiteMap {
   UChar  kind;                        /* LH_MapKind */
   UChar  width;                       /* LH_MAP_BYTES: bytes a count, 2 (in
                                          counts[]), 4 or 8 (apart) */
   UInt   room;                        /* bytes of counts[], at least those
                                          of an LH_PartCache */
   UInt   capacity;                    /* entries in each of reads, writes */
   UInt   block_size;                  /* LH_MAP_BYTES: the one block size */
   union {                             /* NULL while the counts are 2 bytes */
      ULong* reads;                    /* 8-byte counts: parts, or per offset */
      UInt*  reads4;                   /* 4-byte counts per offset */
   };
   union {                             /* = reads + capacity (the ordinary
                                          way's add loads one pointer) */
      ULong* writes;
      UInt*  writes4;
   };
   ULong  counts[];                    /* room bytes */
} LH_SiteMap;

/* LH_MAP_BUCKETS: the part the last access fell in, so that a loop over
   a big block needs no arithmetic per access; the first bytes of a map
   of parts' counts[]. */
typedef struct {
   const struct LH_Block* block;       /* NULL: none */
   SizeT  lo, hi;                      /* offsets [lo, hi) */
   UWord  index;
} LH_PartCache;

static inline LH_PartCache* LH_(map_part_cache)(LH_SiteMap* m)
{
   return (LH_PartCache*)m->counts;
}

/* Forgets the part cache of a map of parts if it names block b (b is
   going away or changing size). */
static inline void LH_(map_forget_block)(LH_SiteMap* m, const struct LH_Block* b)
{
   if (m != NULL && m->kind == LH_MAP_BUCKETS && LH_(map_part_cache)(m)->block == b)
      LH_(map_part_cache)(m)->block = NULL;
}

/* The 8-byte reads or writes of a map of parts or a per-offset map of
   width 8. */
static inline ULong* LH_(map_counts)(const LH_SiteMap* m, Bool is_write)
{
   return is_write ? m->writes : m->reads;
}

/* The 4-byte reads or writes of a per-offset map of width 4. */
static inline UInt* LH_(map_counts4)(const LH_SiteMap* m, Bool is_write)
{
   return is_write ? m->writes4 : m->reads4;
}

/* The 2-byte reads or writes of a per-offset map of width 2. */
static inline UShort* LH_(map_counts2)(LH_SiteMap* m, Bool is_write)
{
   return (UShort*)m->counts + (is_write ? m->capacity : 0);
}

/* What all blocks of one site did.  'retired' holds the blocks already
   freed (folded when freed); 'live' is recomputed from the live blocks
   each time a profile is written, so a dump while the program runs
   and the final profile both cover every block.  The map is updated by
   the accesses themselves. */
typedef struct {
   /* (In one word: a block's size is below 2^48, as LH_Block.req_size.) */
   ULong  map_block_size : 48;   /* the first block's size */
   ULong  map_kind : 8;          /* LH_MapKind, decided by the blocks' sizes */
   ULong  mixed_sizes : 1;       /* a block had another size, at any time */
   LH_SiteMap* map;              /* NULL until the first access */
   LH_AccessFold retired;        /* touched by every free */
   /* (The fold of the live blocks, which only a profile reads, is the
      output figures' own, LH_SiteOutput.live_fold: read it with
      LH_(site_live_fold).) */
} LH_SiteAccess;

/*--- Hooks the block registry and the output call (lh_access.c) ---*/

void  LH_(access_init)(void);                        /* in post_clo_init */
/* b: a record just made by LH_(block_record_new), its access state all
   zero */
void  LH_(access_block_new)(struct LH_Block* b, Bool zeroed);
void  LH_(access_block_before_resize)(struct LH_Block* b);
void  LH_(access_unmeasured_at_peak)(struct LH_Site* site, SizeT size, Bool live);
void  LH_(access_blocks_changed)(void);
void  LH_(access_block_resized)(struct LH_Block* b, Addr old_payload,
                                SizeT old_size);
void  LH_(access_block_retire)(struct LH_Block* b, Bool live_at_peak);
void  LH_(access_write_site_json)(struct LH_Json* json, struct LH_Site* site);
ULong LH_(access_total_read)(void);
/* A site's read or written bytes, all blocks (the sums of its map). */
ULong LH_(access_site_bytes)(const struct LH_Site* site, Bool written);
/* The site's fold of its live blocks as of the last output (all zero
   when it had none then); current once the findings were computed or
   the site's "access" member written. */
const LH_AccessFold* LH_(site_live_fold)(const struct LH_Site* site);
ULong LH_(access_total_written)(void);
/* The access path keeps a walk through a small block (a run) aside and
   puts its bytes in the block's bits, set-bit counts and written
   high-water mark when it ends, and counts some accesses of blocks met at
   random later (their times, high-water marks and maps): this puts them
   all there now.  Called before anything outside the access path reads a
   live block's access state, and before a block's payload moves. */
void  LH_(access_settle)(void);
/* --stats=yes: how many of the program's accesses went past the fast
   checks (lh_access_path.c, "Order of the checks"), and which way. */
void  LH_(access_path_print_stats)(void);

/*--- The instrumentation's helpers (called from generated code) ---*/

/* Access slots per kind (reads, writes): each access event of the
   translated code names one, by a hash the instrumentation computes.  A
   power of two, and an index fits in 16 bits. */
#define LH_ACCESS_SLOTS 1024

/* One access: packed = size | slot << 32. */
VG_REGPARM(2) void LH_(note_read)(Addr a, UWord packed);
VG_REGPARM(2) void LH_(note_write)(Addr a, UWord packed);
/* Two plain accesses of one stretch (sizes at most 255 bytes):
   packed = size1 | size2 << 8 | slot1 << 16 | slot2 << 40. */
VG_REGPARM(3) void LH_(note_read_read)(Addr a1, Addr a2, UWord packed);
VG_REGPARM(3) void LH_(note_read_write)(Addr a1, Addr a2, UWord packed);
VG_REGPARM(3) void LH_(note_write_write)(Addr a1, Addr a2, UWord packed);

/*--- lh_instrument.c ------------------------------------------------*/

/* The IR pass that lh_main.c registers with VG_(basic_tool_funcs).  It
   maintains the clock LH_(now) and reports every guest memory access. */
IRSB* LH_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy);

#endif
