/* `lifeheap sql [PROFILE] [BLOCKS] [-o DB] [-e SQL]...`: every block's life,
 * and the profile around it, in an SQLite database (docs/sql.md).
 *
 * Inputs are told apart by their content: a block file starts with
 * "LHBLOCKS", an SQLite database with "SQLite format 3", anything else is
 * read as a profile. So
 *   lifeheap sql prof.json blocks.bin -o heap.db      builds heap.db
 *   lifeheap sql prof.json blocks.bin -e 'SELECT …'   builds in memory, asks
 *   lifeheap sql heap.db -e 'SELECT …'                asks a built database
 *   lifeheap sql blocks.bin -o heap.db                a killed run without a
 *                                                     profile: blocks only
 *
 * The database is written to "DB.tmp-<pid>-<n>" beside DB (created with
 * O_EXCL|O_NOFOLLOW, output_file.c) and renamed over it
 * when complete, so DB is either the old file or the whole new one; DB
 * must be a regular file if it exists (or a new name).
 *
 * Results of -e are printed as tab-separated values: a header line of
 * column names, then one line per row; NULL is an empty field, and a tab,
 * newline, carriage return or backslash inside a value is written as \t,
 * \n, \r or \\.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "block_file.h"
#include "command_args.h"
#include "commands.h"
#include "output_file.h"
#include "sql_build.h"
#include "util.h"

const char sql_usage[] =
    "usage: lifeheap sql [PROFILE] [BLOCKS] [-o DB] [-e SQL]...\n"
    "       lifeheap sql DB -e SQL...\n"
    "       lifeheap sql --schema\n"
    "\n"
    "Builds an SQLite database of a run: the profile's run, sites, frames,\n"
    "stacks, findings and timeline, and with BLOCKS (the file written by\n"
    "--lifeheap-blocks=FILE) one row per block. Each input is recognised by\n"
    "its content (profile, block file or database). docs/sql.md has the\n"
    "tables and the queries that answer common questions.\n"
    "\n"
    "  -o, --output DB   write the database to DB (replaced atomically)\n"
    "  -e, --execute SQL run SQL on the database (built in memory when there\n"
    "                    is no -o) and print the rows as tab-separated\n"
    "                    values with a header line; may be repeated\n"
    "  --schema          print the tables and indexes, and exit\n"
    "  -q, --quiet       no notes on stderr (errors are still printed)\n"
    "\n"
    "Exit status: 0 on success, 2 on bad usage, unreadable input or an SQL\n"
    "error.\n";

enum input_kind { INPUT_PROFILE, INPUT_BLOCKS, INPUT_DATABASE };

/* Only a regular file is sniffed: reading the start of a pipe
 * (`<(zcat p.json.gz)`) would take it from the reader, so anything else is
 * read as a profile. */
static enum input_kind sniff(const char *path)
{
    char head[16];
    if (!is_regular_file(path))
        return INPUT_PROFILE;
    if (block_file_sniff(path))
        return INPUT_BLOCKS;
    FILE *stream = fopen(path, "rb");
    if (stream) {
        size_t got = fread(head, 1, sizeof head, stream);
        fclose(stream);
        if (got == sizeof head && memcmp(head, "SQLite format 3", 16) == 0)
            return INPUT_DATABASE;
    }
    return INPUT_PROFILE;
}

/*--- Printing results -----------------------------------------------------*/

static void print_field(const unsigned char *text)
{
    for (; text && *text; text++) {
        switch (*text) {
        case '\t': fputs("\\t", stdout); break;
        case '\n': fputs("\\n", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        case '\\': fputs("\\\\", stdout); break;
        default: putchar(*text);
        }
    }
}

/* Runs every statement of `sql`, printing the rows of those that return
 * some (a header line first). */
static bool run_query(sqlite3 *db, const char *sql)
{
    const char *rest = sql;
    while (rest && *rest) {
        sqlite3_stmt *statement = NULL;
        const char *tail = NULL;
        if (sqlite3_prepare_v2(db, rest, -1, &statement, &tail) !=
            SQLITE_OK) {
            fprintf(stderr, "lifeheap: sql: %s\n", sqlite3_errmsg(db));
            return false;
        }
        rest = tail;
        if (!statement)
            continue;   /* whitespace or a comment */
        int columns = sqlite3_column_count(statement);
        for (int c = 0; c < columns; c++) {
            if (c)
                putchar('\t');
            print_field((const unsigned char *)sqlite3_column_name(statement,
                                                                   c));
        }
        if (columns)
            putchar('\n');
        int status;
        while ((status = sqlite3_step(statement)) == SQLITE_ROW) {
            for (int c = 0; c < columns; c++) {
                if (c)
                    putchar('\t');
                print_field(sqlite3_column_text(statement, c));
            }
            putchar('\n');
        }
        if (status != SQLITE_DONE) {
            fprintf(stderr, "lifeheap: sql: %s\n", sqlite3_errmsg(db));
            sqlite3_finalize(statement);
            return false;
        }
        sqlite3_finalize(statement);
    }
    return fflush(stdout) == 0;
}

/*--- Inputs ---------------------------------------------------------------*/

struct inputs {
    const char *profile_path, *blocks_path, *database_path;
    struct profile *profile;
    struct block_file blocks;
    bool have_blocks;
};

static bool place_input(struct inputs *in, const char *path)
{
    if (strcmp(path, "-") != 0 && access(path, R_OK) != 0) {
        fprintf(stderr, "lifeheap: %s: %s\n", path, strerror(errno));
        return false;
    }
    const char **slot;
    const char *what;
    switch (strcmp(path, "-") == 0 ? INPUT_PROFILE : sniff(path)) {
    case INPUT_BLOCKS: slot = &in->blocks_path; what = "block file"; break;
    case INPUT_DATABASE: slot = &in->database_path; what = "database"; break;
    default: slot = &in->profile_path; what = "profile"; break;
    }
    if (*slot) {
        fprintf(stderr, "lifeheap: sql: two %ss given (%s and %s); a "
                        "database holds one run\n", what, *slot, path);
        return false;
    }
    *slot = path;
    return true;
}

/* The block file must come from the run of the profile. */
static bool same_run(const struct profile *p, const struct block_file *f)
{
    if ((uint64_t)p->pid != f->pid ||
        (p->started_at_unix_ms && f->started_at_unix_ms &&
         p->started_at_unix_ms != f->started_at_unix_ms)) {
        fprintf(stderr,
                "lifeheap: sql: %s is from another run than %s (pid %u "
                "started at %" PRIu64 " ms, the profile's pid %" PRId64
                " at %" PRIu64 " ms)\n",
                f->path, p->path, f->pid, f->started_at_unix_ms, p->pid,
                p->started_at_unix_ms);
        return false;
    }
    return true;
}

static bool load_inputs(struct inputs *in)
{
    char error[1024];
    if (in->profile_path) {
        in->profile = profile_load(in->profile_path, error, sizeof error);
        if (!in->profile) {
            print_error(error);
            return false;
        }
    }
    if (in->blocks_path) {
        if (!block_file_open(&in->blocks, in->blocks_path, error,
                             sizeof error)) {
            print_error(error);
            return false;
        }
        in->have_blocks = true;
        if (in->profile && !same_run(in->profile, &in->blocks))
            return false;
    }
    return true;
}

static void report_blocks(const struct inputs *in,
                          const struct sql_block_summary *summary)
{
    const struct block_file *f = &in->blocks;
    if (!f->trailer_seen)
        fprintf(stderr,
                "lifeheap: sql: %s has no trailer: the run did not end "
                "normally (killed?); loaded its %" PRIu64 " records up to "
                "the last flush%s\n",
                f->path, summary->records,
                f->torn_bytes ? ", and ignored a partly written last record"
                              : "");
    else if (f->trailer_records != summary->records)
        fprintf(stderr,
                "lifeheap: sql: %s: the trailer counts %" PRIu64
                " records, the file holds %" PRIu64 " (a write failed?)\n",
                f->path, f->trailer_records, summary->records);
    bool profile_has_serials = false;
    for (size_t i = 0; in->profile && i < in->profile->site_count; i++)
        profile_has_serials |= in->profile->sites[i].has_serial;
    if (summary->unmapped_records && in->profile && !profile_has_serials)
        fprintf(stderr,
                "lifeheap: sql: the profile's sites have no serials (it was "
                "written by an older lifeheap): no block can be given its "
                "site_id\n");
    else if (summary->unmapped_records)
        fprintf(stderr,
                "lifeheap: sql: %" PRIu64 " of %" PRIu64 " blocks (%" PRIu64
                " sites) name a site %s; their site_id is NULL, site_serial "
                "is kept\n",
                summary->unmapped_records, summary->records,
                summary->unmapped_sites,
                in->profile ? "the profile does not have (it was written "
                              "before their first block: a dump?)"
                            : "only a profile can name (no profile given)");
}

/*--- Output ---------------------------------------------------------------*/

/* True when a and b name the same file. */
static bool same_file(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev &&
           x.st_ino == y.st_ino;
}

/* DB may be a new name, or an existing SQLite database (a regular file):
 * never a symbolic link, a directory, a device, one of the inputs, or a
 * file of another kind (a profile given by mistake). */
static bool output_allowed(const char *path, const struct inputs *in)
{
    struct stat info;
    if (strcmp(path, "-") == 0) {
        fprintf(stderr, "lifeheap: sql: -o -: a database cannot be written "
                        "to standard output; give a file name\n");
        return false;
    }
    if (lstat(path, &info) != 0)
        return errno == ENOENT || (fprintf(stderr, "lifeheap: %s: %s\n", path,
                                           strerror(errno)),
                                   false);
    if (!S_ISREG(info.st_mode)) {
        fprintf(stderr, "lifeheap: %s: exists and is not a regular file; not "
                        "replaced\n", path);
        return false;
    }
    if ((in->profile_path && same_file(path, in->profile_path)) ||
        (in->blocks_path && same_file(path, in->blocks_path))) {
        fprintf(stderr, "lifeheap: %s: is one of the inputs; not replaced\n",
                path);
        return false;
    }
    if (info.st_size > 0 && sniff(path) != INPUT_DATABASE) {
        fprintf(stderr, "lifeheap: %s: exists and is not an SQLite database; "
                        "not replaced (remove it first)\n", path);
        return false;
    }
    return true;
}

static int finish(struct inputs *in, sqlite3 *db, int status)
{
    if (db)
        sqlite3_close(db);
    profile_free(in->profile);
    if (in->have_blocks)
        block_file_close(&in->blocks);
    return status;
}

int cmd_sql(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"execute", required_argument, NULL, 'e'},
        {"schema", no_argument, NULL, 'S'},
        {"quiet", no_argument, NULL, 'q'},
        ARGS_HELP_AND_END};
    const char *output = NULL;
    const char **queries = calloc((size_t)argc + 1, sizeof *queries);
    size_t query_count = 0;
    bool quiet = false;
    struct command_args args = {
        .command = "sql", .usage = sql_usage, .options = options,
        .short_options = "o:e:qh"};
    int option;
    if (!queries)
        return EXIT_USAGE;
    while ((option = args_next(&args, argc, argv)) != ARGS_END) {
        switch (option) {
        case 'o': output = optarg; break;
        case 'e': queries[query_count++] = optarg; break;
        case 'q': quiet = true; break;
        case 'S':
            fputs(sql_schema, stdout);
            fputs(sql_indexes, stdout);
            free(queries);
            return EXIT_OK;
        default:   /* ARGS_STOP */
            free(queries);
            return args.status;
        }
    }
    struct inputs in = {0};
    int status = EXIT_USAGE;
    sqlite3 *db = NULL;
    char *temporary = NULL;
    for (int i = optind; i < argc; i++)
        if (!place_input(&in, argv[i]))
            goto done;
    if (!in.profile_path && !in.blocks_path && !in.database_path) {
        fprintf(stderr, "lifeheap: sql: give a profile, a block file or a "
                        "database\n%s", sql_usage);
        goto done;
    }
    if (in.database_path && (in.profile_path || in.blocks_path || output ||
                             query_count == 0)) {
        fprintf(stderr, "lifeheap: sql: a database (%s) is only queried: "
                        "give it alone, with -e SQL\n", in.database_path);
        goto done;
    }
    if (!output && query_count == 0) {
        fprintf(stderr, "lifeheap: sql: nothing to do: give -o DB to write "
                        "the database, -e SQL to query it, or both\n");
        goto done;
    }
    if (in.database_path) {
        if (sqlite3_open_v2(in.database_path, &db, SQLITE_OPEN_READONLY,
                            NULL) != SQLITE_OK) {
            fprintf(stderr, "lifeheap: %s: %s\n", in.database_path,
                    sqlite3_errmsg(db));
            goto done;
        }
    } else {
        if (output && !output_allowed(output, &in))
            goto done;
        if (!load_inputs(&in))
            goto done;
        if (output) {
            /* Created empty and exclusively (never an existing file nor a
               planted symlink), then opened by SQLite as a new database. */
            int fd = output_exclusive_temporary(output, &temporary);
            if (fd < 0) {
                fprintf(stderr, "lifeheap: cannot create a temporary file "
                                "beside %s: %s\n", output, strerror(errno));
                goto done;
            }
            close(fd);
        }
        if (sqlite3_open_v2(temporary ? temporary : ":memory:", &db,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                SQLITE_OPEN_NOFOLLOW,
                            NULL) != SQLITE_OK) {
            fprintf(stderr, "lifeheap: %s: %s\n",
                    temporary ? temporary : "in-memory database",
                    sqlite3_errmsg(db));
            goto done;
        }
        struct sql_block_summary summary;
        char error[1024];
        if (!sql_build(db, in.profile, in.have_blocks ? &in.blocks : NULL,
                       &summary, error, sizeof error)) {
            print_error(error);
            goto done;
        }
        if (in.have_blocks && !quiet)
            report_blocks(&in, &summary);
        if (output) {
            if (sqlite3_close(db) != SQLITE_OK) {
                fprintf(stderr, "lifeheap: %s: could not be written\n",
                        temporary);
                db = NULL;
                goto done;
            }
            db = NULL;
            if (rename(temporary, output) != 0) {
                fprintf(stderr, "lifeheap: %s: %s\n", output,
                            strerror(errno));
                goto done;
            }
            free(temporary);
            temporary = NULL;
            if (query_count &&
                sqlite3_open_v2(output, &db, SQLITE_OPEN_READONLY, NULL) !=
                    SQLITE_OK) {
                fprintf(stderr, "lifeheap: %s: %s\n", output,
                        sqlite3_errmsg(db));
                goto done;
            }
        }
    }
    for (size_t i = 0; i < query_count; i++)
        if (!run_query(db, queries[i]))
            goto done;
    status = EXIT_OK;
done:
    if (temporary) {
        if (db)
            sqlite3_close(db);
        db = NULL;
        unlink(temporary);
        free(temporary);
    }
    free(queries);
    return finish(&in, db, status);
}
