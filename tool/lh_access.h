/* lh_access.h: per-block and per-site access state (issue 3).
   Placeholder types until lh_access.c lands; the prototypes are final. */
#ifndef LH_ACCESS_H
#define LH_ACCESS_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

typedef struct { ULong bytes_read, bytes_written; } LH_BlockAccess;
typedef struct { ULong bytes_read, bytes_written; } LH_SiteAccess;

/* lh_instrument.c: the IR pass that lh_main.c registers with
   VG_(basic_tool_funcs).  It maintains the clock LH_(now). */
IRSB* LH_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy);

#endif
