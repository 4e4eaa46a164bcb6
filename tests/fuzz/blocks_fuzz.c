/* libFuzzer target for the block file reader and the `lifeheap sql` build
 * (cli/block_file.c, cli/sql_build.c): any bytes must load into an
 * in-memory database or be refused with a message, never crash or leak.
 * The reader takes a path, so each input is written to a file first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "block_file.h"
#include "sql_build.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/lifeheap-blocks-fuzz.%ld",
                 (long)getpid());
    FILE *out = fopen(path, "wb");
    if (!out)
        abort();
    if (size && fwrite(data, 1, size, out) != size)
        abort();
    fclose(out);

    char error[1024];
    struct block_file file;
    if (!block_file_open(&file, path, error, sizeof error)) {
        if (strncmp(error, "lifeheap: ", 10) != 0)
            abort();   /* every refusal says why */
        return 0;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        abort();
    struct sql_block_summary summary;
    if (!sql_build(db, NULL, &file, &summary, error, sizeof error) &&
        strncmp(error, "lifeheap: ", 10) != 0)
        abort();
    sqlite3_close(db);
    block_file_close(&file);
    return 0;
}
