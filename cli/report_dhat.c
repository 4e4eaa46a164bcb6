/* `lifeheap report --format dhat`: the profile in DHAT's JSON format
 * (dhatFileVersion 2), so DHAT's viewer (dh_view.html) and the Firefox
 * Profiler can open it.
 *
 * DHAT counts differently from lifeheap (docs/format.md, `totals`): every
 * realloc is a new block of its new size. Per site, therefore:
 *
 *     tbk = total_blocks + reallocs
 *     tb  = total_bytes - realloc_growth_bytes + realloc_requested_bytes
 *
 * (lifeheap's total_bytes counts a realloc's growth, DHAT's counts its new
 * size). Bytes and blocks at t-gmax and at t-end, and the lifetime sum, are
 * the same in both tools; mb/mbk is lifeheap's own per-site maximum, which
 * is correct where DHAT's is not. Access counts per offset ("acc") are
 * written for the sites whose blocks all have one size of at most 1,024
 * bytes, as DHAT does: reads + writes of each offset over all the blocks,
 * capped at 65,535, with DHAT's run-length encoding.
 *
 * Blocks of 0 bytes are blocks of 1 byte to DHAT: each adds 1 to tb, and
 * those live at t-gmax and t-end to gb and eb (the profile's
 * zero_size_blocks); mb is the site's maximum of blocks when all its blocks
 * have 0 bytes. A site never accessed whose blocks all have one size of at
 * most 1,024 bytes gets "acc" of zeros, as DHAT writes it.
 *
 * Stacks are DHAT's: the allocator's frames in the preload (malloc, or
 * realloc and malloc) first, then the program's, at most --num-callers
 * code addresses in all (lifeheap's own stacks hold --num-callers addresses
 * of the program, without the preload's). The frame table holds
 * DHAT-style strings ("0x4011A6: main (a.c:12)"), each once; dh_view
 * rejects two program points with the same frames, so sites whose frame
 * strings coincide (once cut to DHAT's depth) are merged (counts summed).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report_output.h"
#include "util.h"

/*--- The frame table: strings, each once --------------------------------*/

struct frame_table {
    char **strings;          /* by DHAT frame number; [0] is "[root]" */
    size_t count, capacity;
    size_t *slots;           /* open addressing: frame number + 1, 0 empty */
    size_t slot_count;
};

static uint64_t hash_string(const char *text)
{
    uint64_t hash = 1469598103934665603ULL;   /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        hash = (hash ^ *p) * 1099511628211ULL;
    return hash;
}

static bool table_grow(struct frame_table *table)
{
    size_t slot_count = table->slot_count ? table->slot_count * 2 : 1024;
    size_t *slots = calloc(slot_count, sizeof *slots);
    if (!slots)
        return false;
    for (size_t n = 0; n < table->count; n++) {
        size_t slot = hash_string(table->strings[n]) & (slot_count - 1);
        while (slots[slot])
            slot = (slot + 1) & (slot_count - 1);
        slots[slot] = n + 1;
    }
    free(table->slots);
    table->slots = slots;
    table->slot_count = slot_count;
    return true;
}

/* The frame number of `text` (copied in when new), or SIZE_MAX when out of
 * memory. */
static size_t table_intern(struct frame_table *table, const char *text)
{
    if ((table->count + 1) * 2 > table->slot_count && !table_grow(table))
        return SIZE_MAX;
    size_t slot = hash_string(text) & (table->slot_count - 1);
    while (table->slots[slot]) {
        size_t n = table->slots[slot] - 1;
        if (strcmp(table->strings[n], text) == 0)
            return n;
        slot = (slot + 1) & (table->slot_count - 1);
    }
    if (table->count == table->capacity) {
        size_t capacity = table->capacity ? table->capacity * 2 : 1024;
        char **strings = realloc(table->strings, capacity * sizeof *strings);
        if (!strings)
            return SIZE_MAX;
        table->strings = strings;
        table->capacity = capacity;
    }
    char *copy = strdup(text);
    if (!copy)
        return SIZE_MAX;
    table->strings[table->count] = copy;
    table->slots[slot] = ++table->count;
    return table->count - 1;
}

static void table_free(struct frame_table *table)
{
    for (size_t n = 0; n < table->count; n++)
        free(table->strings[n]);
    free(table->strings);
    free(table->slots);
}

/* DHAT's frame description: "0x4011A6: main (a.c:12)",
 * "0x4011A6: main (in /usr/bin/app)" or "0x4011A6: ???". */
static void describe_frame(const struct frame *frame, char *buffer,
                           size_t size)
{
    char address[64];
    snprintf(address, sizeof address, "%s", frame->address);
    for (char *p = address + (strncmp(address, "0x", 2) == 0 ? 2 : 0); *p; p++)
        *p = (char)toupper((unsigned char)*p);
    const char *function = frame->function ? frame->function : "???";
    if (frame->file && frame->line >= 0)
        snprintf(buffer, size, "%s: %s (%s:%lld)", address, function,
                 frame->file, (long long)frame->line);
    else if (frame->file)
        snprintf(buffer, size, "%s: %s (%s)", address, function, frame->file);
    else if (frame->object)
        snprintf(buffer, size, "%s: %s (in %s)", address, function,
                 frame->object);
    else
        snprintf(buffer, size, "%s: %s", address, function);
}

/* An allocator frame as DHAT writes its own preload's:
 * "0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)". */
static void describe_allocator_frame(const struct allocator_frame *frame,
                                     char *buffer, size_t size)
{
    struct frame as_frame = {
        .function = frame->function, .object = frame->object,
        .address = frame->address, .line = -1,
    };
    describe_frame(&as_frame, buffer, size);
}

/* How many of the site's frames DHAT keeps: its stacks hold at most
 * --num-callers code addresses, the allocator's frames in its preload
 * included, and each address may stand for several (inlined) frames. */
static size_t program_frames_kept(const struct profile *profile,
                                  const struct site *site)
{
    if (profile->num_callers == 0)
        return site->stack_len;
    uint64_t addresses = profile->num_callers > site->allocator_frame_count
                             ? profile->num_callers - site->allocator_frame_count
                             : 0;
    /* an address's frames: its inlined ones, then the function they were
       inlined into (not "inlined"), which ends the address */
    size_t kept = 0;
    while (kept < site->stack_len && addresses > 0) {
        if (!profile->frames[site->stack[kept]].inlined)
            addresses--;
        kept++;
    }
    return kept;
}

/*--- Program points -----------------------------------------------------*/

struct program_point {
    size_t *frames;          /* DHAT frame numbers, innermost first */
    size_t frame_count;
    size_t first_site;       /* output order: the first site merged here */
    uint64_t tb, tbk, tl, mb, mbk, gb, gbk, eb, ebk, rb, wb;
    /* "acc": accesses per offset, or NULL. Borrowed from the site, or owned
     * (acc_owned) once merged program points summed theirs. */
    uint16_t *acc;
    size_t acc_len;
    bool acc_owned;
    bool merged;             /* absorbed into an earlier program point */
};

/* Adds `from`'s accesses per offset into `into`'s (a sum capped like
 * DHAT's); program points whose blocks differ in size have none. Returns
 * false when out of memory. */
static bool merge_accesses(struct program_point *into,
                           const struct program_point *from)
{
    if (!into->acc)
        return true;
    if (!from->acc || from->acc_len != into->acc_len) {
        if (into->acc_owned)
            free(into->acc);
        into->acc = NULL;
        into->acc_len = 0;
        into->acc_owned = false;
        return true;
    }
    if (!into->acc_owned) {
        uint16_t *copy = malloc(into->acc_len * sizeof *copy);
        if (!copy)
            return false;
        memcpy(copy, into->acc, into->acc_len * sizeof *copy);
        into->acc = copy;
        into->acc_owned = true;
    }
    for (size_t i = 0; i < into->acc_len; i++) {
        uint32_t sum = (uint32_t)into->acc[i] + from->acc[i];
        into->acc[i] = sum > UINT16_MAX ? UINT16_MAX : (uint16_t)sum;
    }
    return true;
}

/* DHAT's "acc" line: a run of three or more equal counts is written as
 * -N,V (N times V), as DHAT writes it and dh_view reads it. */
static void print_accesses(FILE *out, const uint16_t *acc, size_t len)
{
    fprintf(out, "  ,\"acc\":[");
    for (size_t i = 0; i < len;) {
        size_t run = 1;
        while (i + run < len && acc[i + run] == acc[i])
            run++;
        if (run >= 3) {
            fprintf(out, "%s-%zu,%u", i ? "," : "", run, (unsigned)acc[i]);
        } else {
            for (size_t k = 0; k < run; k++)
                fprintf(out, "%s%u", i + k ? "," : "", (unsigned)acc[i]);
        }
        i += run;
    }
    fprintf(out, "]\n");
}

static int compare_points(const void *left, const void *right)
{
    const struct program_point *a = *(const struct program_point *const *)left;
    const struct program_point *b = *(const struct program_point *const *)right;
    size_t common = a->frame_count < b->frame_count ? a->frame_count
                                                    : b->frame_count;
    for (size_t i = 0; i < common; i++)
        if (a->frames[i] != b->frames[i])
            return a->frames[i] < b->frames[i] ? -1 : 1;
    if (a->frame_count != b->frame_count)
        return a->frame_count < b->frame_count ? -1 : 1;
    return a->first_site < b->first_site ? -1 : a->first_site > b->first_site;
}

/* DHAT's total bytes for a site; warns once when the profile lacks the
 * realloc growth needed to compute it exactly. */
static uint64_t dhat_total_bytes(const struct site *site, bool *warned)
{
    if (site->reallocs == 0)
        return site->total_bytes;
    uint64_t growth = site->has_realloc_growth ? site->realloc_growth_bytes : 0;
    if (!site->has_realloc_growth && !*warned) {
        fprintf(stderr, "lifeheap report: warning: the profile has no "
                        "realloc_growth_bytes; DHAT byte totals of sites that "
                        "realloc are over-estimated by their realloc growth\n");
        *warned = true;
    }
    if (growth > site->total_bytes)
        growth = site->total_bytes;
    return site->total_bytes - growth + site->realloc_requested_bytes;
}

static void print_point(FILE *out, const struct program_point *point,
                        bool first)
{
    fprintf(out, " %c{\"tb\":%llu,\"tbk\":%llu,\"tl\":%llu\n", first ? '[' : ',',
            (unsigned long long)point->tb, (unsigned long long)point->tbk,
            (unsigned long long)point->tl);
    fprintf(out, "  ,\"mb\":%llu,\"mbk\":%llu\n",
            (unsigned long long)point->mb, (unsigned long long)point->mbk);
    fprintf(out, "  ,\"gb\":%llu,\"gbk\":%llu\n",
            (unsigned long long)point->gb, (unsigned long long)point->gbk);
    fprintf(out, "  ,\"eb\":%llu,\"ebk\":%llu\n",
            (unsigned long long)point->eb, (unsigned long long)point->ebk);
    fprintf(out, "  ,\"rb\":%llu,\"wb\":%llu\n",
            (unsigned long long)point->rb, (unsigned long long)point->wb);
    if (point->acc)
        print_accesses(out, point->acc, point->acc_len);
    fprintf(out, "  ,\"fs\":[");
    for (size_t i = 0; i < point->frame_count; i++)
        fprintf(out, "%s%zu", i ? "," : "", point->frames[i]);
    fprintf(out, "]\n  }\n");
}

static void print_document(FILE *out, const struct profile *profile,
                           const struct program_point *points,
                           const struct frame_table *table)
{
    fprintf(out, "{\"dhatFileVersion\":2\n"
                 ",\"mode\":\"heap\",\"verb\":\"Allocated\"\n"
                 ",\"bklt\":true,\"bkacc\":true\n"
                 ",\"tu\":\"instrs\",\"Mtu\":\"Minstr\"\n"
                 ",\"tuth\":500\n,\"cmd\":");
    /* DHAT's cmd is the command line as one string. */
    size_t length = 1;
    for (size_t i = 0; i < profile->command_len; i++)
        length += strlen(profile->command[i]) + 1;
    char *command = calloc(length, 1);
    if (command) {
        for (size_t i = 0; i < profile->command_len; i++) {
            if (i)
                strcat(command, " ");
            strcat(command, profile->command[i]);
        }
        print_json_string(out, command);
        free(command);
    } else {
        print_json_string(out, "");
    }
    fprintf(out, "\n,\"pid\":%lld\n,\"te\":%llu\n,\"tg\":%llu\n,\"pps\":\n",
            (long long)profile->pid, (unsigned long long)profile->duration,
            (unsigned long long)profile->peak_time);
    bool first = true;
    for (size_t s = 0; s < profile->site_count; s++) {
        if (points[s].merged)
            continue;
        print_point(out, &points[s], first);
        first = false;
    }
    if (first)
        fprintf(out, " [\n");
    fprintf(out, " ]\n,\"ftbl\":\n");
    for (size_t n = 0; n < table->count; n++) {
        fprintf(out, " %c", n == 0 ? '[' : ',');
        print_json_string(out, table->strings[n]);
        fputc('\n', out);
    }
    fprintf(out, " ]\n}\n");
}

bool report_dhat(FILE *out, const struct profile *profile)
{
    struct frame_table table = {0};
    size_t site_count = profile->site_count;
    struct program_point *points = calloc(site_count + 1, sizeof *points);
    struct program_point **sorted = calloc(site_count + 1, sizeof *sorted);
    bool ok = points && sorted && table_intern(&table, "[root]") == 0;
    bool warned = false;

    for (size_t s = 0; ok && s < site_count; s++) {
        const struct site *site = &profile->sites[s];
        struct program_point *point = &points[s];
        size_t allocator = site->allocator_frame_count;
        size_t kept = program_frames_kept(profile, site);
        size_t frame_count = allocator + kept ? allocator + kept : 1;
        point->frames = calloc(frame_count, sizeof *point->frames);
        if (!point->frames) {
            ok = false;
            break;
        }
        point->frame_count = frame_count;
        for (size_t i = 0; ok && i < frame_count; i++) {
            char text[2048];
            if (i < allocator)
                describe_allocator_frame(&site->allocator_frames[i], text,
                                         sizeof text);
            else if (kept)
                describe_frame(&profile->frames[site->stack[i - allocator]],
                               text, sizeof text);
            else
                snprintf(text, sizeof text, "0x0: [no stack]");
            point->frames[i] = table_intern(&table, text);
            ok = point->frames[i] != SIZE_MAX;
        }
        point->first_site = s;
        /* DHAT makes a block of 0 bytes a block of 1 byte. */
        point->tb = dhat_total_bytes(site, &warned) + site->zero_size_total;
        point->tbk = site->total_blocks + site->reallocs;
        point->tl = site->lifetime_sum;
        bool all_zero_size = site->has_access && site->access.has_block_size
                             && site->access.block_size == 0;
        point->mb = all_zero_size ? site->max_blocks : site->max_bytes;
        point->mbk = site->max_blocks;
        point->gb = site->bytes_at_peak + site->zero_size_at_peak;
        point->gbk = site->blocks_at_peak;
        point->eb = site->bytes_at_exit + site->zero_size_at_exit;
        point->ebk = site->blocks_at_exit;
        /* DHAT counts the copy a realloc implies (whether or not the block
         * moved) as reads and writes: min(old, new) bytes each, which
         * summed over the site's reallocs is requested - growth. */
        uint64_t realloc_copy = site->has_realloc_growth &&
                                site->realloc_requested_bytes >=
                                    site->realloc_growth_bytes
                                    ? site->realloc_requested_bytes -
                                          site->realloc_growth_bytes
                                    : 0;
        point->rb = (site->has_access ? site->access.bytes_read : 0) + realloc_copy;
        point->wb = (site->has_access ? site->access.bytes_written : 0) + realloc_copy;
        if (site->has_access && site->access.offset_accesses) {
            point->acc = site->access.offset_accesses;
            point->acc_len = site->access.offset_access_count;
        } else if (site->has_access && site->access.has_block_size &&
                   site->access.block_size <= PROFILE_OFFSET_ACCESS_MAX_BLOCK) {
            /* Never accessed: DHAT still writes its counts, all zero (a
             * 0-byte block being 1 byte to it). */
            point->acc_len = site->access.block_size ? site->access.block_size : 1;
            point->acc = calloc(point->acc_len, sizeof *point->acc);
            point->acc_owned = true;
            if (!point->acc) {
                ok = false;
                break;
            }
        }
        sorted[s] = point;
    }

    if (ok) {
        /* Merge program points with identical frames into the first, as
         * DHAT has one program point for them: sites that differ only
         * below DHAT's depth. The merged maximum is the sum of maxima: an
         * upper bound, since the sites need not peak together. */
        qsort(sorted, site_count, sizeof *sorted, compare_points);
        struct program_point *group_head = site_count ? sorted[0] : NULL;
        for (size_t i = 1; i < site_count; i++) {
            struct program_point *point = sorted[i];
            if (point->frame_count != group_head->frame_count ||
                memcmp(point->frames, group_head->frames,
                       point->frame_count * sizeof *point->frames) != 0) {
                group_head = point;
                continue;
            }
            group_head->tb += point->tb, group_head->tbk += point->tbk;
            group_head->tl += point->tl, group_head->mb += point->mb;
            group_head->mbk += point->mbk, group_head->gb += point->gb;
            group_head->gbk += point->gbk, group_head->eb += point->eb;
            group_head->ebk += point->ebk, group_head->rb += point->rb;
            group_head->wb += point->wb;
            point->merged = true;
            if (!(ok = merge_accesses(group_head, point)))
                break;
        }
        if (ok)
            print_document(out, profile, points, &table);
    }

    for (size_t s = 0; points && s < site_count; s++) {
        free(points[s].frames);
        if (points[s].acc_owned)
            free(points[s].acc);
    }
    free(points);
    free(sorted);
    table_free(&table);
    if (!ok)
        fprintf(stderr, "lifeheap report: out of memory\n");
    return ok;
}
