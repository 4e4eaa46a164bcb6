/* Reading a block file (the tool's --lifeheap-blocks output; docs/format.md,
 * "The block file"): a 64-byte header, then fixed-size little-endian
 * records, one per stretch of a block's life, and a trailer record when
 * the run ended normally.
 *
 * A file cut short (a killed run, a full disk) is read up to its last whole
 * record: block_file_next() returns the records, then end of file, and
 * the reader says how it ended (trailer_seen, torn_bytes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_BLOCK_FILE_H
#define LIFEHEAP_BLOCK_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BLOCK_FILE_MAGIC "LHBLOCKS"
#define BLOCK_FILE_VERSION 1
#define BLOCK_FILE_MIN_HEADER 64
#define BLOCK_FILE_MIN_RECORD 80

/* Record flags (docs/format.md). */
#define BLOCK_FLAG_LIVE 0x1u       /* still live at the end of the run */
#define BLOCK_FLAG_ACCESSED 0x2u   /* first_access, last_access are valid */
#define BLOCK_FLAG_REALLOC 0x4u    /* ended by a realloc */
#define BLOCK_FLAG_MOVED 0x8u      /* ... that moved the block */
#define BLOCK_FLAG_CUSTOM 0x10u    /* a custom allocator's block */
#define BLOCK_FLAG_TRAILER 0x80000000u
#define BLOCK_FLAGS_KNOWN 0x1fu

struct block_record {
    uint64_t number;      /* 1-based record number in the run */
    uint64_t previous;    /* record this one continues; 0: none */
    uint64_t birth, death;
    uint64_t size;
    uint64_t first_access, last_access;
    uint64_t bytes_read, bytes_written;
    uint32_t site_serial;
    uint32_t alloc_thread, free_thread;
    uint32_t flags;
};

struct block_file {
    FILE *stream;
    char *path;
    uint32_t version, header_size, record_size, flush_records;
    uint32_t pid, ppid;
    uint64_t started_at_unix_ms;
    uint64_t first_record;
    uint64_t records_read;
    unsigned char *record_buffer;   /* record_size bytes */
    /* How the file ended (valid once block_file_next returned 0). */
    bool trailer_seen;
    uint64_t trailer_records, trailer_end_time, trailer_live_records;
    size_t torn_bytes;     /* bytes of a partly written last record */
};

/* True when the file at `path` starts with the block file's magic. */
bool block_file_sniff(const char *path);

/* Opens and checks the header; false with "lifeheap: PATH: reason" in
 * `error`. */
bool block_file_open(struct block_file *file, const char *path, char *error,
                     size_t error_size);

/* 1: a record in *record; 0: the end (see trailer_seen, torn_bytes);
 * -1: a corrupt record or a read error, with the reason in `error`. */
int block_file_next(struct block_file *file, struct block_record *record,
                    char *error, size_t error_size);

void block_file_close(struct block_file *file);

#endif
