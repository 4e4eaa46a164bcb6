/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_outfile.h: writing the profile without damaging ---*/
/*--- what its name points at (lh_outfile.c has the table).        ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.
*/
#ifndef LH_OUTFILE_H
#define LH_OUTFILE_H

#include "pub_tool_basics.h"

typedef enum {
   LH_OutReplace,       /* a regular file or a new name: temp + rename */
   LH_OutWriteThrough,  /* a device or a FIFO: opened and written */
   LH_OutAppend,        /* a descriptor's regular file (/dev/stdout) */
   LH_OutRefused        /* a directory, a socket, a symlink loop */
} LH_OutKind;

typedef struct {
   LH_OutKind   kind;
   const HChar* path;        /* as given */
   HChar*       target;      /* the file written or replaced (links resolved) */
   HChar*       temporary;   /* LH_OutReplace: the exclusive temporary file */
   Int          fd;          /* where the bytes go */
} LH_OutFile;

/* What `path` is now and which file it leads to (*target, malloc'd, NULL
   when refused); *error is the errno of a refusal. */
LH_OutKind LH_(outfile_classify)(const HChar* path, HChar** target,
                                 UWord* error);

/* Opens the destination (printing one clear line and returning False when
   it cannot); write to out->fd, then commit or abort. */
Bool LH_(outfile_open)(const HChar* path, LH_OutFile* out);
/* Closes; renames the temporary over the target.  False (with a line
   printed) when the rename failed. */
Bool LH_(outfile_commit)(LH_OutFile* out);
/* Closes and removes the temporary file; the target is untouched. */
void LH_(outfile_abort)(LH_OutFile* out);

/* True when writes to `path` replace a regular file atomically (so a
   periodic dump may rewrite it). */
Bool LH_(outfile_is_replaced)(const HChar* path);

/* Start-up check: whether the profile could be written to `path` (for a
   replaced file, by creating and removing a temporary beside it); *why
   says why not. */
Bool LH_(outfile_probe)(const HChar* path, const HChar** why);

/* errno in words (there is no strerror here). */
const HChar* LH_(errno_text)(UWord err);

#endif /* LH_OUTFILE_H */
