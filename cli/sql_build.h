/* Building the SQLite database of `lifeheap sql` from a profile (through
 * profile.h's model) and a block file (block_file.h). The schema is
 * docs/sql.md's; sql_schema is its text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_SQL_BUILD_H
#define LIFEHEAP_SQL_BUILD_H

#include <sqlite3.h>
#include <stdint.h>

#include "block_file.h"
#include "profile.h"

/* The CREATE TABLE statements (the indexes are sql_indexes). */
extern const char sql_schema[];
extern const char sql_indexes[];

/* What loading the blocks found, for the messages of cmd_sql.c. */
struct sql_block_summary {
    uint64_t records;           /* block records loaded */
    uint64_t unmapped_records;  /* whose site serial the profile lacks */
    uint64_t unmapped_sites;    /* distinct such serials */
    uint64_t live_records;
};

/* Creates the tables in `db`, loads `profile` (may be NULL) and the
 * records of `blocks` (may be NULL), then creates the indexes. False with
 * "lifeheap: reason" in `error`. */
bool sql_build(sqlite3 *db, const struct profile *profile,
               struct block_file *blocks, struct sql_block_summary *summary,
               char *error, size_t error_size);

#endif
