/* lh_access.h: per-block and per-site access state (owned by the access
   tracking work, issue 3). Placeholder until that lands. */
#ifndef LH_ACCESS_H
#define LH_ACCESS_H
typedef struct { ULong bytes_read, bytes_written; } LH_BlockAccess;
typedef struct { ULong bytes_read, bytes_written; } LH_SiteAccess;
#endif
