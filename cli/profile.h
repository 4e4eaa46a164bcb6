/* The in-memory profile model every subcommand uses.
 *
 * profile_load() reads a lifeheap profile (docs/format.md) with json-c, one
 * frame or site at a time, validates it and copies what the CLI needs into
 * these plain structs: commands never touch JSON directly, and a profile
 * that loads is one the commands can trust (indices in range, counts
 * non-negative and at most 2^53 - 1, strings valid UTF-8, the relations of
 * docs/profile-rules.json).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_PROFILE_H
#define LIFEHEAP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The only format_version this reader knows. */
/* The version this lifeheap writes; it reads this one and
 * PROFILE_FORMAT_VERSION_OLDEST (version 1: every site member written). */
#define PROFILE_FORMAT_VERSION 2
#define PROFILE_FORMAT_VERSION_OLDEST 1

/* Largest integer a profile may hold: beyond 2^53 JSON readers in
 * JavaScript (the viewer) lose precision, and every sum the CLI makes over
 * 100k sites still fits in 64 bits. */
#define PROFILE_MAX_INTEGER 9007199254740991ULL

struct frame {
    char *function;   /* NULL when unknown */
    char *file;       /* NULL when unknown */
    char *directory;  /* NULL when unknown */
    char *object;     /* NULL when unknown */
    char *address;    /* never NULL */
    int64_t line;     /* -1 when unknown */
    bool inlined;
    bool library;     /* allocator, runtime or standard-library code
                         (absent: false) */
    char *text;       /* the frame as labels read it; NULL when absent */
    char *match_text; /* its line of a site's match_key without the
                         newline; NULL when absent (no name) */
};

struct site_access {
    uint64_t bytes_read, bytes_written;
    uint64_t measured_bytes;
    uint64_t never_read_bytes, never_written_bytes, never_accessed_bytes;
    uint64_t written_never_read_bytes;
    uint64_t unused_capacity_bytes;
    uint64_t idle_before_free, first_access_delay;
    /* Figures restricted to the blocks live at the global peak. */
    uint64_t at_peak_bytes, at_peak_never_read_bytes;
    uint64_t at_peak_never_written_bytes, at_peak_never_accessed_bytes;
    uint64_t at_peak_unused_capacity_bytes;
    /* Reads + writes of each byte offset over all the site's blocks,
     * capped at 65,535 (DHAT's "acc"): only for a per-offset map whose
     * blocks all have one size of at most PROFILE_OFFSET_ACCESS_MAX_BLOCK
     * bytes; NULL otherwise. */
    uint16_t *offset_accesses;
    size_t offset_access_count;
    /* The one size every block of the site had ("block_size"), accessed
     * or not; absent in older profiles, null when sizes differed. */
    bool has_block_size;
    uint64_t block_size;
};

/* A frame of lifeheap's preload (malloc, realloc, operator new...) that
 * the site's allocations went through ("allocator_frames"). */
struct allocator_frame {
    char *address;
    char *function;       /* NULL when unknown */
    char *object;         /* the preload's path; NULL when unknown */
};

/* DHAT keeps per-offset access counts for blocks of at most 1,024 bytes. */
#define PROFILE_OFFSET_ACCESS_MAX_BLOCK 1024

struct site_growth {
    double rising_fraction;
    double slope_bytes_per_million_instructions;
    double end_to_max_ratio;
};

/* A line under a site saying why it is big, judged by the tool
 * (docs/format.md, sites[].notes). */
struct site_note {
    char *kind;           /* "realloc-growth", "unused-capacity", ... */
    char *text;           /* the sentence, printed as it is */
};

struct site {
    size_t id;
    /* The site's serial in its run (1, 2, ... in order of first use): the
     * block file names sites by it (docs/format.md). Absent from profiles
     * of older lifeheap versions (has_serial false). */
    bool has_serial;
    uint64_t serial;
    size_t *stack;        /* indices into profile.frames, innermost first */
    size_t stack_len;
    size_t name_frame;    /* index into stack; 0 when the stack is empty */
    bool runtime_only;    /* only allocator/library frames (absent: false) */
    char *label;          /* the tool's unique label; NULL in older profiles */
    struct site_note *notes;   /* none in profiles older than the field */
    size_t note_count;
    /* The site's identity across runs, one "function path\tplace\n" line
     * per kept frame, and those frames' lines (docs/format.md); NULL in
     * older profiles. */
    char *match_key;
    uint64_t *match_lines;
    size_t match_lines_len;
    uint64_t total_blocks, total_bytes;
    uint64_t bytes_at_peak, blocks_at_peak;
    uint64_t max_bytes, max_blocks, max_time;
    uint64_t bytes_at_exit, blocks_at_exit;
    uint64_t freed_blocks;
    uint64_t lifetime_sum, lifetime_min, lifetime_max;
    uint64_t reallocs, realloc_requested_bytes, realloc_bytes_copied;
    /* Sum of the growth of the site's reallocs that made a block larger.
     * Not in format version 1 yet (see docs/cli.md); needed to export
     * DHAT's byte totals exactly for sites that realloc. */
    bool has_realloc_growth;
    uint64_t realloc_growth_bytes;
    uint64_t first_alloc_time, last_alloc_time;
    uint64_t allocating_threads, cross_thread_frees;
    /* Blocks of 0 bytes ("zero_size_blocks"; absent in older profiles). */
    bool has_zero_size;
    uint64_t zero_size_total, zero_size_at_peak, zero_size_at_exit;
    struct allocator_frame *allocator_frames;   /* innermost first */
    size_t allocator_frame_count;
    bool has_access;      /* false when the profile has no access data */
    struct site_access access;
    bool has_growth;      /* growth is null for non-significant sites */
    struct site_growth growth;
    /* Live bytes at each point of profile.timeline_times, for significant
     * sites only; NULL otherwise. */
    uint64_t *timeline_live_bytes;
};

struct marker {
    uint64_t time;
    char *label;
};

/* One named number of a finding's evidence (docs/findings.md), in the
 * profile's order. */
struct evidence {
    char *name;
    double value;
};

struct finding {
    char *kind;
    size_t site;
    char *severity;
    char *summary;
    /* Numeric members of "evidence"; an absent or non-object evidence
       reads as none, and other members are skipped (as the viewer does). */
    struct evidence *evidence;
    size_t evidence_count;
};

enum exit_status { EXIT_STATUS_EXITED, EXIT_STATUS_SIGNAL, EXIT_STATUS_RUNNING };

struct profile {
    char *path;                 /* as given to profile_load */
    int64_t format_version;
    char *tool_version;
    char *valgrind_version;
    char **command;             /* argv of the client */
    size_t command_len;
    char *executable;
    int64_t pid;
    uint64_t duration;
    uint64_t threads;
    uint64_t num_callers;       /* run.options.num_callers; 0 when absent */
    enum exit_status exit_status;
    int64_t exit_code;          /* code or signal number */
    char *exit_signal_name;     /* NULL unless EXIT_STATUS_SIGNAL */
    bool complete;
    char *dump_reason;    /* "exit", "interval", "monitor", "exec"; may be NULL */
    uint64_t started_at_unix_ms;   /* 0 when absent */

    uint64_t total_blocks, total_bytes, total_frees;
    uint64_t total_reallocs, total_realloc_requested_bytes;
    uint64_t total_realloc_bytes_copied;
    uint64_t total_bytes_read, total_bytes_written;
    bool has_total_realloc_growth;
    uint64_t total_realloc_growth_bytes;
    /* Frees and reallocs of pointers that were not live blocks (0 when
     * the profile predates the count). */
    uint64_t total_invalid_frees, total_invalid_reallocs;

    uint64_t peak_bytes, peak_blocks, peak_time;
    uint64_t exit_bytes, exit_blocks;

    struct frame *frames;
    size_t frame_count;
    struct site *sites;
    size_t site_count;
    struct finding *findings;
    size_t finding_count;

    /* The global timeline (docs/format.md, "timeline"): timeline_count
     * points, each array that long; all empty when the profile has none. */
    uint64_t *timeline_times;
    uint64_t *timeline_live_bytes;
    uint64_t *timeline_live_blocks;
    size_t timeline_count;
    struct marker *markers;
    size_t marker_count;
};

/* Loads and validates the profile at `path` ("-" reads standard input).
 * Returns NULL after writing one line "lifeheap: PATH: reason" to
 * `error` (a buffer of `error_size` bytes). */
struct profile *profile_load(const char *path, char *error, size_t error_size);

/* Same, from a buffer in memory (used by the fuzz target). `name` is used
 * in error messages. */
struct profile *profile_parse(const char *name, const char *data, size_t size,
                              char *error, size_t error_size);

/* profile_parse() choosing how: with `split_arrays` false the document is
 * always parsed whole (json-c's tree of all of it), as it was before the
 * reader parsed frames and sites one by one. The two must give the same
 * profile or the same error; the fuzz target compares them. */
struct profile *profile_parse_with(const char *name, const char *data,
                                   size_t size, bool split_arrays, char *error,
                                   size_t error_size);

void profile_free(struct profile *profile);

/* The frame that names a site (its name_frame), or NULL for an empty stack. */
const struct frame *site_name_frame(const struct profile *profile,
                                    const struct site *site);

#endif
