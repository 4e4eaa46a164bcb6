/* Building the database of `lifeheap sql` (see sql_build.h, docs/sql.md).
 *
 * One transaction for everything, with prepared statements, no journal and
 * no fsync until the end (the file is a temporary one that cmd_sql.c
 * renames into place only when the build succeeded), and the block
 * indexes created after the rows are in: 10 million blocks load in one
 * pass of the block file, with memory independent of their number (the
 * site map is one entry per site serial).
 *
 * Site ids are the profile's; a block names its site by serial
 * (sites.serial), which the profile maps to an id. A block whose serial
 * the profile does not have (the profile was a dump written before the
 * site's first block, or belongs to another run) keeps its site_serial
 * and gets a NULL site_id.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sql_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char sql_schema[] =
    "CREATE TABLE runs (\n"
    "  id INTEGER PRIMARY KEY,        -- always 1: one run per database\n"
    "  profile TEXT,                  -- the profile's path, NULL without one\n"
    "  blocks_file TEXT,              -- the block file's path, NULL without one\n"
    "  executable TEXT, command TEXT, pid INTEGER, started_at_unix_ms INTEGER,\n"
    "  duration INTEGER,              -- instructions\n"
    "  threads INTEGER, exit_status TEXT, exit_code INTEGER,\n"
    "  complete INTEGER, dump_reason TEXT,\n"
    "  peak_bytes INTEGER, peak_blocks INTEGER, peak_time INTEGER,\n"
    "  exit_bytes INTEGER, exit_blocks INTEGER,\n"
    "  total_blocks INTEGER, total_bytes INTEGER,\n"
    "  blocks_complete INTEGER,       -- 1: the block file has its trailer\n"
    "  block_records INTEGER          -- rows in blocks\n"
    ");\n"
    "CREATE TABLE frames (\n"
    "  id INTEGER PRIMARY KEY, function TEXT, file TEXT, directory TEXT,\n"
    "  line INTEGER, object TEXT, address TEXT, inlined INTEGER\n"
    ");\n"
    "CREATE TABLE sites (\n"
    "  id INTEGER PRIMARY KEY,        -- the profile's site id\n"
    "  serial INTEGER UNIQUE,         -- the block file's name for the site\n"
    "  name TEXT,                     -- 'function (file:line)' of the name frame\n"
    "  name_frame_id INTEGER REFERENCES frames(id),\n"
    "  runtime_only INTEGER,\n"
    "  total_blocks INTEGER, total_bytes INTEGER,\n"
    "  bytes_at_peak INTEGER, blocks_at_peak INTEGER,\n"
    "  max_bytes INTEGER, max_blocks INTEGER, max_time INTEGER,\n"
    "  bytes_at_exit INTEGER, blocks_at_exit INTEGER, freed_blocks INTEGER,\n"
    "  lifetime_sum INTEGER, lifetime_min INTEGER, lifetime_max INTEGER,\n"
    "  reallocs INTEGER, realloc_bytes_copied INTEGER,\n"
    "  first_alloc_time INTEGER, last_alloc_time INTEGER,\n"
    "  allocating_threads INTEGER, cross_thread_frees INTEGER,\n"
    "  bytes_read INTEGER, bytes_written INTEGER  -- NULL without access data\n"
    ");\n"
    "CREATE TABLE stacks (\n"
    "  site_id INTEGER REFERENCES sites(id),\n"
    "  depth INTEGER,                 -- 0 = innermost frame\n"
    "  frame_id INTEGER REFERENCES frames(id),\n"
    "  PRIMARY KEY (site_id, depth)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE findings (\n"
    "  id INTEGER PRIMARY KEY,        -- the profile's order\n"
    "  site_id INTEGER REFERENCES sites(id),\n"
    "  kind TEXT, severity TEXT, summary TEXT\n"
    ");\n"
    "CREATE TABLE timeline (\n"
    "  time INTEGER PRIMARY KEY, live_bytes INTEGER, live_blocks INTEGER\n"
    ");\n"
    "CREATE TABLE site_timeline (     -- significant sites only\n"
    "  site_id INTEGER REFERENCES sites(id), time INTEGER, live_bytes INTEGER,\n"
    "  PRIMARY KEY (site_id, time)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE markers (time INTEGER, label TEXT);\n"
    "CREATE TABLE blocks (\n"
    "  id INTEGER PRIMARY KEY,        -- the record's number in the run\n"
    "  site_id INTEGER REFERENCES sites(id),  -- NULL: not in the profile\n"
    "  site_serial INTEGER,\n"
    "  size INTEGER,\n"
    "  birth INTEGER,                 -- allocation (or the realloc that began it)\n"
    "  death INTEGER,                 -- free or realloc; NULL when live at the end\n"
    "  lifetime INTEGER,              -- death - birth (live: up to the end)\n"
    "  alloc_thread INTEGER,          -- thread serial, 1 = main\n"
    "  free_thread INTEGER,           -- NULL when live at the end\n"
    "  previous INTEGER,              -- the record it continues after a realloc\n"
    "  live INTEGER,                  -- 1: still live when the run ended\n"
    "  ended_by_realloc INTEGER,      -- 1: a realloc ended it (next record continues)\n"
    "  moved INTEGER,                 -- 1: that realloc moved the block\n"
    "  custom INTEGER,                -- 1: a custom allocator's block\n"
    "  bytes_read INTEGER, bytes_written INTEGER,  -- distinct bytes, up to size\n"
    "  first_access INTEGER, last_access INTEGER  -- NULL when never accessed\n"
    ");\n";

const char sql_indexes[] =
    "CREATE INDEX blocks_site ON blocks(site_id);\n"
    "CREATE INDEX blocks_birth ON blocks(birth);\n"
    "CREATE INDEX blocks_death ON blocks(death);\n"
    "CREATE INDEX findings_site ON findings(site_id);\n";

struct builder {
    sqlite3 *db;
    char *error;
    size_t error_size;
};

static bool sql_failed(struct builder *b, const char *what)
{
    snprintf(b->error, b->error_size, "lifeheap: sql: %s: %s", what,
             sqlite3_errmsg(b->db));
    return false;
}

static bool exec(struct builder *b, const char *sql)
{
    char *message = NULL;
    if (sqlite3_exec(b->db, sql, NULL, NULL, &message) != SQLITE_OK) {
        snprintf(b->error, b->error_size, "lifeheap: sql: %s",
                 message ? message : sqlite3_errmsg(b->db));
        sqlite3_free(message);
        return false;
    }
    return true;
}

static sqlite3_stmt *prepare(struct builder *b, const char *sql)
{
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(b->db, sql, -1, &statement, NULL) != SQLITE_OK) {
        sql_failed(b, "prepare");
        return NULL;
    }
    return statement;
}

/* Runs a bound insert and resets it. */
static bool step(struct builder *b, sqlite3_stmt *statement)
{
    int status = sqlite3_step(statement);
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    return status == SQLITE_DONE || sql_failed(b, "insert");
}

static void bind_u64(sqlite3_stmt *s, int column, uint64_t value)
{
    sqlite3_bind_int64(s, column, (sqlite3_int64)value);
}

static void bind_text(sqlite3_stmt *s, int column, const char *text)
{
    if (text)
        sqlite3_bind_text(s, column, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, column);
}

/* Binds the values of row `row` of a table to the insert `s`. */
typedef void row_binder(sqlite3_stmt *s, const struct profile *p, size_t row);

/* Inserts `count` rows with the statement `sql`, each bound by `bind`. */
static bool insert_rows(struct builder *b, const char *sql, size_t count,
                        row_binder *bind, const struct profile *p)
{
    sqlite3_stmt *s = prepare(b, sql);
    bool ok = s != NULL;
    for (size_t row = 0; ok && row < count; row++) {
        bind(s, p, row);
        ok = step(b, s);
    }
    sqlite3_finalize(s);
    return ok;
}

/*--- The profile ----------------------------------------------------------*/

static const char *exit_status_name(enum exit_status status)
{
    switch (status) {
    case EXIT_STATUS_EXITED: return "exited";
    case EXIT_STATUS_SIGNAL: return "signal";
    case EXIT_STATUS_RUNNING: return "running";
    }
    return NULL;
}

/* The run's row; only its id without a profile (a block file alone). */
static void bind_run(sqlite3_stmt *s, const struct profile *p, size_t row)
{
    (void)row;
    if (!p)
        return;
    size_t length = 1;
    for (size_t i = 0; i < p->command_len; i++)
        length += strlen(p->command[i]) + 1;
    char *command = calloc(length, 1);
    for (size_t i = 0; command && i < p->command_len; i++) {
        if (i)
            strcat(command, " ");
        strcat(command, p->command[i]);
    }
    bind_text(s, 1, p->path);
    bind_text(s, 2, p->executable);
    bind_text(s, 3, command);
    free(command);
    sqlite3_bind_int64(s, 4, p->pid);
    if (p->started_at_unix_ms)
        bind_u64(s, 5, p->started_at_unix_ms);
    bind_u64(s, 6, p->duration);
    bind_u64(s, 7, p->threads);
    bind_text(s, 8, exit_status_name(p->exit_status));
    if (p->exit_status != EXIT_STATUS_RUNNING && p->exit_code >= 0)
        sqlite3_bind_int64(s, 9, p->exit_code);
    sqlite3_bind_int(s, 10, p->complete);
    bind_text(s, 11, p->dump_reason);
    bind_u64(s, 12, p->peak_bytes);
    bind_u64(s, 13, p->peak_blocks);
    bind_u64(s, 14, p->peak_time);
    bind_u64(s, 15, p->exit_bytes);
    bind_u64(s, 16, p->exit_blocks);
    bind_u64(s, 17, p->total_blocks);
    bind_u64(s, 18, p->total_bytes);
}

static bool load_run(struct builder *b, const struct profile *p)
{
    return insert_rows(b,
        "INSERT INTO runs (id, profile, executable, command, pid, "
        "started_at_unix_ms, duration, threads, exit_status, exit_code, "
        "complete, dump_reason, peak_bytes, peak_blocks, peak_time, "
        "exit_bytes, exit_blocks, total_blocks, total_bytes) VALUES "
        "(1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
        "?15, ?16, ?17, ?18)",
        1, bind_run, p);
}

static void bind_frame(sqlite3_stmt *s, const struct profile *p, size_t i)
{
    const struct frame *f = &p->frames[i];
    bind_u64(s, 1, i);
    bind_text(s, 2, f->function);
    bind_text(s, 3, f->file);
    bind_text(s, 4, f->directory);
    if (f->line >= 0)
        sqlite3_bind_int64(s, 5, f->line);
    bind_text(s, 6, f->object);
    bind_text(s, 7, f->address);
    sqlite3_bind_int(s, 8, f->inlined);
}

static bool load_frames(struct builder *b, const struct profile *p)
{
    return insert_rows(b,
        "INSERT INTO frames VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        p->frame_count, bind_frame, p);
}

static bool load_site_row(struct builder *b, sqlite3_stmt *s,
                          const struct profile *p, const struct site *site)
{
    char name[1024];
    format_site_name(p, site, name, sizeof name);
    bind_u64(s, 1, site->id);
    if (site->has_serial)
        bind_u64(s, 2, site->serial);
    bind_text(s, 3, name);
    if (site->stack_len)
        bind_u64(s, 4, site->stack[site->name_frame]);
    sqlite3_bind_int(s, 5, site->runtime_only);
    bind_u64(s, 6, site->total_blocks);
    bind_u64(s, 7, site->total_bytes);
    bind_u64(s, 8, site->bytes_at_peak);
    bind_u64(s, 9, site->blocks_at_peak);
    bind_u64(s, 10, site->max_bytes);
    bind_u64(s, 11, site->max_blocks);
    bind_u64(s, 12, site->max_time);
    bind_u64(s, 13, site->bytes_at_exit);
    bind_u64(s, 14, site->blocks_at_exit);
    bind_u64(s, 15, site->freed_blocks);
    bind_u64(s, 16, site->lifetime_sum);
    bind_u64(s, 17, site->lifetime_min);
    bind_u64(s, 18, site->lifetime_max);
    bind_u64(s, 19, site->reallocs);
    bind_u64(s, 20, site->realloc_bytes_copied);
    bind_u64(s, 21, site->first_alloc_time);
    bind_u64(s, 22, site->last_alloc_time);
    bind_u64(s, 23, site->allocating_threads);
    bind_u64(s, 24, site->cross_thread_frees);
    if (site->has_access) {
        bind_u64(s, 25, site->access.bytes_read);
        bind_u64(s, 26, site->access.bytes_written);
    }
    return step(b, s);
}

static bool load_sites(struct builder *b, const struct profile *p)
{
    sqlite3_stmt *s = prepare(b,
        "INSERT INTO sites VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
        "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, "
        "?24, ?25, ?26)");
    sqlite3_stmt *frames = prepare(b, "INSERT INTO stacks VALUES (?1, ?2, ?3)");
    sqlite3_stmt *series = prepare(b,
        "INSERT OR REPLACE INTO site_timeline VALUES (?1, ?2, ?3)");
    bool ok = s && frames && series;
    for (size_t i = 0; ok && i < p->site_count; i++) {
        const struct site *site = &p->sites[i];
        ok = load_site_row(b, s, p, site);
        for (size_t d = 0; ok && d < site->stack_len; d++) {
            bind_u64(frames, 1, site->id);
            bind_u64(frames, 2, d);
            bind_u64(frames, 3, site->stack[d]);
            ok = step(b, frames);
        }
        for (size_t t = 0; ok && site->timeline_live_bytes &&
                           t < p->timeline_count;
             t++) {
            bind_u64(series, 1, site->id);
            bind_u64(series, 2, p->timeline_times[t]);
            bind_u64(series, 3, site->timeline_live_bytes[t]);
            ok = step(b, series);
        }
    }
    sqlite3_finalize(s);
    sqlite3_finalize(frames);
    sqlite3_finalize(series);
    return ok;
}

static void bind_finding(sqlite3_stmt *s, const struct profile *p, size_t i)
{
    const struct finding *f = &p->findings[i];
    bind_u64(s, 1, i);
    bind_u64(s, 2, f->site);
    bind_text(s, 3, f->kind);
    bind_text(s, 4, f->severity);
    bind_text(s, 5, f->summary);
}

static bool load_findings(struct builder *b, const struct profile *p)
{
    return insert_rows(b, "INSERT INTO findings VALUES (?1, ?2, ?3, ?4, ?5)",
                       p->finding_count, bind_finding, p);
}

static void bind_timeline_point(sqlite3_stmt *s, const struct profile *p,
                                size_t i)
{
    bind_u64(s, 1, p->timeline_times[i]);
    bind_u64(s, 2, p->timeline_live_bytes[i]);
    bind_u64(s, 3, p->timeline_live_blocks[i]);
}

static void bind_marker(sqlite3_stmt *s, const struct profile *p, size_t i)
{
    bind_u64(s, 1, p->markers[i].time);
    bind_text(s, 2, p->markers[i].label);
}

static bool load_timeline(struct builder *b, const struct profile *p)
{
    /* OR REPLACE (here and for site_timeline): should the peak, its own
     * point, share its time with an interval's point, the later one holds
     * the state after every event up to that time. */
    return insert_rows(b, "INSERT OR REPLACE INTO timeline VALUES (?1, ?2, ?3)",
                       p->timeline_count, bind_timeline_point, p) &&
           insert_rows(b, "INSERT INTO markers VALUES (?1, ?2)",
                       p->marker_count, bind_marker, p);
}

/*--- The blocks -----------------------------------------------------------*/

/* The profile's sites sorted by serial (found by binary search: a
 * profile's serials are 1..n, but one from elsewhere may hold any), and
 * the serials already counted as unmapped, an open-addressing set (serials
 * are 32-bit values read from the file: a bitmap indexed by them could
 * need 512 MiB). */
struct serial_id {
    uint64_t serial, id;
};

struct site_map {
    struct serial_id *sites;
    size_t size;
    uint32_t *reported;        /* 0 = empty slot (serial 0 is refused) */
    size_t reported_size, reported_count;   /* size: a power of two */
};

static int by_serial(const void *a, const void *b)
{
    uint64_t x = ((const struct serial_id *)a)->serial;
    uint64_t y = ((const struct serial_id *)b)->serial;
    return x < y ? -1 : x > y;
}

static bool site_map_build(struct site_map *map, const struct profile *p)
{
    memset(map, 0, sizeof *map);
    if (!p)
        return true;
    map->sites = calloc(p->site_count ? p->site_count : 1, sizeof *map->sites);
    if (!map->sites)
        return false;
    for (size_t i = 0; i < p->site_count; i++)
        if (p->sites[i].has_serial)
            map->sites[map->size++] = (struct serial_id){p->sites[i].serial,
                                                         p->sites[i].id};
    qsort(map->sites, map->size, sizeof *map->sites, by_serial);
    return true;
}

/* The site id of a serial; false when the profile lacks it. */
static bool site_map_find(const struct site_map *map, uint32_t serial,
                          uint64_t *id)
{
    size_t low = 0, high = map->size;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (map->sites[middle].serial < serial)
            low = middle + 1;
        else
            high = middle;
    }
    if (low == map->size || map->sites[low].serial != serial)
        return false;
    *id = map->sites[low].id;
    return true;
}

/* Adds serial to the set; true when it was not there. */
static bool set_add(uint32_t *slots, size_t size, uint32_t serial)
{
    size_t i = (serial * 2654435761u) & (size - 1);
    while (slots[i] != 0) {
        if (slots[i] == serial)
            return false;
        i = (i + 1) & (size - 1);
    }
    slots[i] = serial;
    return true;
}

/* Counts a serial the profile lacks, once. */
static bool note_unmapped(struct site_map *map, uint32_t serial,
                          struct sql_block_summary *summary)
{
    summary->unmapped_records++;
    if (2 * (map->reported_count + 1) > map->reported_size) {
        size_t size = map->reported_size ? 2 * map->reported_size : 256;
        uint32_t *bigger = calloc(size, sizeof *bigger);
        if (!bigger)
            return false;
        for (size_t i = 0; i < map->reported_size; i++)
            if (map->reported[i])
                set_add(bigger, size, map->reported[i]);
        free(map->reported);
        map->reported = bigger;
        map->reported_size = size;
    }
    if (set_add(map->reported, map->reported_size, serial)) {
        map->reported_count++;
        summary->unmapped_sites++;
    }
    return true;
}

static bool load_blocks(struct builder *b, const struct profile *p,
                        struct block_file *file,
                        struct sql_block_summary *summary)
{
    struct site_map map;
    if (!site_map_build(&map, p)) {
        snprintf(b->error, b->error_size, "lifeheap: sql: out of memory");
        return false;
    }
    sqlite3_stmt *s = prepare(b,
        "INSERT INTO blocks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
        "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)");
    bool ok = s != NULL;
    struct block_record r;
    int status = 0;
    while (ok && (status = block_file_next(file, &r, b->error,
                                           b->error_size)) == 1) {
        bool live = r.flags & BLOCK_FLAG_LIVE;
        uint64_t site_id;
        bind_u64(s, 1, r.number);
        if (site_map_find(&map, r.site_serial, &site_id))
            bind_u64(s, 2, site_id);
        else if (!note_unmapped(&map, r.site_serial, summary)) {
            snprintf(b->error, b->error_size, "lifeheap: sql: out of memory");
            ok = false;
            break;
        }
        bind_u64(s, 3, r.site_serial);
        bind_u64(s, 4, r.size);
        bind_u64(s, 5, r.birth);
        if (!live)
            bind_u64(s, 6, r.death);
        bind_u64(s, 7, r.death - r.birth);
        bind_u64(s, 8, r.alloc_thread);
        if (!live)
            bind_u64(s, 9, r.free_thread);
        if (r.previous)
            bind_u64(s, 10, r.previous);
        sqlite3_bind_int(s, 11, live);
        sqlite3_bind_int(s, 12, (r.flags & BLOCK_FLAG_REALLOC) != 0);
        sqlite3_bind_int(s, 13, (r.flags & BLOCK_FLAG_MOVED) != 0);
        sqlite3_bind_int(s, 14, (r.flags & BLOCK_FLAG_CUSTOM) != 0);
        bind_u64(s, 15, r.bytes_read);
        bind_u64(s, 16, r.bytes_written);
        if (r.flags & BLOCK_FLAG_ACCESSED) {
            bind_u64(s, 17, r.first_access);
            bind_u64(s, 18, r.last_access);
        }
        ok = step(b, s);
        summary->records++;
        summary->live_records += live;
    }
    sqlite3_finalize(s);
    free(map.sites);
    free(map.reported);
    return ok && status == 0;
}

static bool record_blocks_file(struct builder *b, const struct block_file *f,
                               const struct sql_block_summary *summary)
{
    sqlite3_stmt *s = prepare(b,
        "UPDATE runs SET blocks_file = ?1, blocks_complete = ?2, "
        "block_records = ?3, pid = coalesce(pid, ?4), "
        "started_at_unix_ms = coalesce(started_at_unix_ms, ?5), "
        "duration = coalesce(duration, ?6) WHERE id = 1");
    if (!s)
        return false;
    bind_text(s, 1, f->path);
    sqlite3_bind_int(s, 2, f->trailer_seen);
    bind_u64(s, 3, summary->records);
    bind_u64(s, 4, f->pid);
    bind_u64(s, 5, f->started_at_unix_ms);
    if (f->trailer_seen)
        bind_u64(s, 6, f->trailer_end_time);
    bool ok = step(b, s);
    sqlite3_finalize(s);
    return ok;
}

bool sql_build(sqlite3 *db, const struct profile *profile,
               struct block_file *blocks, struct sql_block_summary *summary,
               char *error, size_t error_size)
{
    struct builder b = {.db = db, .error = error, .error_size = error_size};
    memset(summary, 0, sizeof *summary);
    if (!exec(&b, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
                  "PRAGMA cache_size = -65536; BEGIN;") ||
        !exec(&b, sql_schema) || !load_run(&b, profile))
        return false;
    if (profile && (!load_frames(&b, profile) || !load_sites(&b, profile) ||
                    !load_findings(&b, profile) ||
                    !load_timeline(&b, profile)))
        return false;
    if (blocks && (!load_blocks(&b, profile, blocks, summary) ||
                   !record_blocks_file(&b, blocks, summary)))
        return false;
    return exec(&b, sql_indexes) && exec(&b, "COMMIT;");
}
