/* Minimal placeholder tool: replaced by the real lifeheap tool. */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "lh_include.h"

static void lh_post_clo_init(void) {}
static IRSB* lh_instrument(VgCallbackClosure* closure, IRSB* sb,
                           const VexGuestLayout* layout,
                           const VexGuestExtents* vge,
                           const VexArchInfo* archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{ return sb; }
static void lh_fini(Int exitcode) {}
static void lh_pre_clo_init(void)
{
   VG_(details_name)("lifeheap");
   VG_(details_version)(LIFEHEAP_VERSION);
   VG_(details_description)("heap lifetime and access profiler");
   VG_(details_copyright_author)("Copyright (C) 2026 the lifeheap authors.");
   VG_(details_bug_reports_to)("the lifeheap issue tracker");
   VG_(basic_tool_funcs)(lh_post_clo_init, lh_instrument, lh_fini);
}
VG_DETERMINE_INTERFACE_VERSION(lh_pre_clo_init)
