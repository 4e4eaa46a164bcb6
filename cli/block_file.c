/* Reading a block file: see block_file.h. The header and the records are
 * decoded byte by byte (little-endian, whatever the host), and a reader
 * accepts a larger header or record than it knows (a later version may
 * append fields), reading the fields it knows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "block_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint32_t get_u32(const unsigned char *at)
{
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 |
           (uint32_t)at[3] << 24;
}

static uint64_t get_u64(const unsigned char *at)
{
    return (uint64_t)get_u32(at) | (uint64_t)get_u32(at + 4) << 32;
}

bool block_file_sniff(const char *path)
{
    char magic[8];
    FILE *stream = fopen(path, "rb");
    if (!stream)
        return false;
    bool is_blocks = fread(magic, 1, sizeof magic, stream) == sizeof magic &&
                     memcmp(magic, BLOCK_FILE_MAGIC, 8) == 0;
    fclose(stream);
    return is_blocks;
}

bool block_file_open(struct block_file *file, const char *path, char *error,
                     size_t error_size)
{
    unsigned char header[BLOCK_FILE_MIN_HEADER];
    memset(file, 0, sizeof *file);
    file->stream = fopen(path, "rb");
    if (!file->stream) {
        snprintf(error, error_size, "lifeheap: %s: %s", path,
                 strerror(errno));
        return false;
    }
    /* Records are small: read in large chunks. */
    setvbuf(file->stream, NULL, _IOFBF, 1 << 20);
    size_t got = fread(header, 1, sizeof header, file->stream);
    if (got < 8 || memcmp(header, BLOCK_FILE_MAGIC, 8) != 0) {
        snprintf(error, error_size,
                 "lifeheap: %s: not a lifeheap block file (no LHBLOCKS "
                 "header)", path);
        goto fail;
    }
    if (got < sizeof header) {
        snprintf(error, error_size,
                 "lifeheap: %s: the header is cut short (%zu of %d bytes)",
                 path, got, BLOCK_FILE_MIN_HEADER);
        goto fail;
    }
    file->version = get_u32(header + 8);
    file->header_size = get_u32(header + 12);
    file->record_size = get_u32(header + 16);
    file->flush_records = get_u32(header + 20);
    file->pid = get_u32(header + 24);
    file->ppid = get_u32(header + 28);
    file->started_at_unix_ms = get_u64(header + 32);
    file->first_record = get_u64(header + 40);
    if (file->version != BLOCK_FILE_VERSION) {
        snprintf(error, error_size,
                 "lifeheap: %s: block file version %u is not supported (this "
                 "lifeheap reads version %d)",
                 path, file->version, BLOCK_FILE_VERSION);
        goto fail;
    }
    if (file->header_size < BLOCK_FILE_MIN_HEADER ||
        file->header_size > (1u << 20) ||
        file->record_size < BLOCK_FILE_MIN_RECORD ||
        file->record_size > (1u << 16) || file->first_record == 0) {
        snprintf(error, error_size,
                 "lifeheap: %s: corrupt header (header %u bytes, records %u "
                 "bytes, first record %llu)",
                 path, file->header_size, file->record_size,
                 (unsigned long long)file->first_record);
        goto fail;
    }
    for (uint32_t skip = file->header_size - BLOCK_FILE_MIN_HEADER; skip > 0;
         skip--) {
        if (getc(file->stream) == EOF) {
            snprintf(error, error_size,
                     "lifeheap: %s: the header is cut short", path);
            goto fail;
        }
    }
    file->record_buffer = malloc(file->record_size);
    file->path = strdup(path);
    if (!file->record_buffer || !file->path) {
        snprintf(error, error_size, "lifeheap: %s: out of memory", path);
        goto fail;
    }
    return true;
fail:
    block_file_close(file);
    return false;
}

int block_file_next(struct block_file *file, struct block_record *record,
                    char *error, size_t error_size)
{
    if (file->trailer_seen)
        return 0;
    const unsigned char *r = file->record_buffer;
    size_t got = fread(file->record_buffer, 1, file->record_size,
                       file->stream);
    if (got < file->record_size) {
        if (ferror(file->stream)) {
            snprintf(error, error_size, "lifeheap: %s: %s", file->path,
                     strerror(errno));
            return -1;
        }
        file->torn_bytes = got;
        return 0;
    }
    uint32_t flags = get_u32(r + 76);
    if (flags & BLOCK_FLAG_TRAILER) {
        file->trailer_seen = true;
        file->trailer_records = get_u64(r + 0);
        file->trailer_end_time = get_u64(r + 8);
        file->trailer_live_records = get_u64(r + 16);
        return 0;
    }
    record->number = file->first_record + file->records_read;
    record->previous = get_u64(r + 0);
    record->birth = get_u64(r + 8);
    record->death = get_u64(r + 16);
    record->size = get_u64(r + 24);
    record->first_access = get_u64(r + 32);
    record->last_access = get_u64(r + 40);
    record->bytes_read = get_u64(r + 48);
    record->bytes_written = get_u64(r + 56);
    record->site_serial = get_u32(r + 64);
    record->alloc_thread = get_u32(r + 68);
    record->free_thread = get_u32(r + 72);
    record->flags = flags;
    const char *bad = NULL;
    if (flags & ~BLOCK_FLAGS_KNOWN)
        bad = "unknown flags";
    else if (record->death < record->birth)
        bad = "it dies before it is born";
    else if (record->previous >= record->number)
        bad = "its previous record is not an earlier one";
    else if (record->bytes_read > record->size ||
             record->bytes_written > record->size)
        bad = "more bytes read or written than it has";
    else if (record->site_serial == 0)
        bad = "no site";
    if (bad) {
        snprintf(error, error_size,
                 "lifeheap: %s: record %llu (at byte %llu) is corrupt: %s",
                 file->path, (unsigned long long)record->number,
                 (unsigned long long)file->header_size +
                     (unsigned long long)file->records_read *
                         file->record_size,
                 bad);
        return -1;
    }
    file->records_read++;
    return 1;
}

void block_file_close(struct block_file *file)
{
    if (file->stream)
        fclose(file->stream);
    free(file->record_buffer);
    free(file->path);
    memset(file, 0, sizeof *file);
}
