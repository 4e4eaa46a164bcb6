/* Writing an output file without damaging what its name points at
 * (output_file.c has the rules: atomic replacement of regular files,
 * devices and FIFOs written through, never replaced).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_OUTPUT_FILE_H
#define LIFEHEAP_OUTPUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

enum output_kind {
    OUTPUT_STDOUT,         /* "-" */
    OUTPUT_REPLACE,        /* a regular file or a new name: temp + rename */
    OUTPUT_WRITE_THROUGH,  /* a device or a FIFO */
    OUTPUT_APPEND,         /* a descriptor's regular file (/dev/stdout) */
};

struct output_file {
    enum output_kind kind;
    const char *path;     /* as given */
    char *target;         /* the file written or replaced, links resolved */
    char *temporary;      /* OUTPUT_REPLACE: the exclusive temporary file */
    FILE *stream;         /* write here between open and commit */
    char error[4400];     /* why open or commit failed, one line */
};

/* Opens `path` ("-" is standard output) for writing. False, with
 * out->error set, when it cannot be written. */
bool output_open(struct output_file *out, const char *path);

/* Finishes the output: flushes, closes and renames the temporary file over
 * the target. False, with out->error set and the target untouched, when a
 * write failed. */
bool output_commit(struct output_file *out);

/* Gives up: the temporary file is removed, the target untouched. */
void output_abort(struct output_file *out);

/* Creates "<target>.tmp-<pid>-<n>" with O_CREAT|O_EXCL|O_NOFOLLOW (n counts
 * up past any existing name) and returns its descriptor, the name in
 * *temporary (malloc'd); -1 with errno set when it cannot. For writers that
 * need a name rather than a stream (an SQLite database). */
int output_exclusive_temporary(const char *target, char **temporary);

#endif
