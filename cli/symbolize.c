/* lifeheap-symbolize: inline chains and function names from DWARF (libdw).
 *
 * The Valgrind tool runs this helper once when it writes a profile, for the
 * code addresses whose frames Valgrind 3.19 could not name well: inlined
 * frames whose abstract origin lies in another compilation unit (Valgrind
 * calls them "UnknownInlinedFun", common in Rust built with many codegen
 * units) and inlined frames named by their short DWARF name ("new",
 * "with_capacity_in<u8>") instead of their linkage name
 * ("<prealloc::ConnState>::new"). The tool has no C library, so it cannot
 * link libdw itself; this program can.
 *
 *   lifeheap-symbolize REQUEST RESPONSE
 *
 * REQUEST, one item per line:
 *   O <path of an ELF object>        the object the following addresses are in
 *   A <hex address>                  a link-time address (runtime address
 *                                    minus the object's load bias)
 * RESPONSE, written to a temporary file and renamed: for each A line, in
 * order,
 *   A <hex address>
 * followed by one line per inline level, innermost first (none when the
 * address has no DWARF description):
 *   L <line>\t<name>\t<source path>
 * where name is the linkage name when the DWARF has one (mangled: the tool
 * demangles it with Valgrind's own demangler, as it does every other name)
 * and the unit is not C, else the DW_AT_name, and "-" when neither exists; line 0 and an empty path
 * mean unknown. A relative path is joined to the unit's compilation
 * directory, as Valgrind joins it (put_path). Tabs and newlines in names and
 * paths become spaces.
 *
 * For an address, the compilation unit's functions (indexed by address on
 * the unit's first query, through namespaces and types) give the
 * DW_TAG_subprogram that contains it, and a walk down its entries the
 * DW_TAG_inlined_subroutine entries nested in it (through lexical blocks).
 * Level 0's source position is the line table's row for the address; level
 * k's (k > 0) is the call site recorded on level k-1's inlined entry
 * (DW_AT_call_file, DW_AT_call_line). Names follow DW_AT_abstract_origin and
 * DW_AT_specification (dwarf_attr_integrate), also across compilation
 * units: exactly what Valgrind 3.19 cannot do.
 *
 * An object's DWARF is read through dwfl as usual, except where it is
 * zlib-compressed (Debian's debug files, gcc -gz): libdw would inflate
 * every section with zlib, so the helper hands dwfl an image of the file
 * inflated by libdeflate instead (open_object, symbolize_inflate.c).
 *
 * Exit status: 0 when the response was written (even if no address could
 * be resolved), 1 on a usage error or when the request or response could
 * not be read or written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize_inflate.h"

static const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

/* The debug file named by the object's build ID in /usr/lib/debug, where
 * dwfl's standard search looks first (its default path), open; -1 when
 * there is none. */
static int debug_file_by_build_id(Dwfl_Module *module)
{
    const unsigned char *bits;
    GElf_Addr vaddr;
    int length = dwfl_module_build_id(module, &bits, &vaddr);
    if (length < 2)
        return -1;
    char path[64 + 2 * 256];
    int used = snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/",
                        bits[0]);
    for (int i = 1; i < length && used < (int)sizeof path - 16; i++)
        used += snprintf(path + used, sizeof path - used, "%02x", bits[i]);
    snprintf(path + used, sizeof path - used, ".debug");
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* One dwfl session for the object at path, its module in *module (NULL
 * when it cannot be read). Where the DWARF dwfl would read is compressed
 * (the object's own, gcc -gz, or the debug file found by build ID,
 * Debian's debug packages), the session gets an inflated image of that
 * file instead (symbolize_inflate.c), reported as the module itself: a
 * debug file has the object's program headers, so dwfl lays it out at the
 * same addresses. Otherwise dwfl opens the object and finds its debug file
 * as usual. */
static Dwfl *open_object(const char *path, struct inflated_image *image,
                         Dwfl_Module **module)
{
    *module = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    bool own_dwarf = fd >= 0 && elf_has_own_dwarf(fd);
    if (own_dwarf && inflated_elf_image(fd, image)) {
        close(fd);
        Dwfl *dwfl = dwfl_begin(&offline_callbacks);
        if (dwfl)
            *module = dwfl_report_offline_memory(dwfl, path, path,
                                                 (char *)image->data,
                                                 image->size);
        return dwfl;
    }
    if (fd >= 0)
        close(fd);
    Dwfl *dwfl = dwfl_begin(&offline_callbacks);
    if (!dwfl)
        return NULL;
    *module = dwfl_report_offline(dwfl, path, path, -1);
    if (!*module || own_dwarf)
        return dwfl;
    int debug_fd = debug_file_by_build_id(*module);
    if (debug_fd < 0)
        return dwfl;
    bool inflated = inflated_elf_image(debug_fd, image);
    close(debug_fd);
    if (!inflated)
        return dwfl;
    dwfl_end(dwfl);
    dwfl = dwfl_begin(&offline_callbacks);
    *module = dwfl ? dwfl_report_offline_memory(dwfl, path, path,
                                                (char *)image->data,
                                                image->size)
                   : NULL;
    return dwfl;
}

/* Writes text with tabs and newlines turned into spaces. */
static void put_clean(FILE *out, const char *text)
{
    for (const char *c = text; *c; c++)
        fputc(*c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c, out);
}

/* C has no namespaces: a C function's linkage name is at most an alias
 * (glibc's "__GI__IO_doallocbuf" for _IO_doallocbuf), so C units keep the
 * plain name, as Valgrind shows it. */
static bool is_c_language(int language)
{
    return language == DW_LANG_C89 || language == DW_LANG_C ||
           language == DW_LANG_C99 || language == DW_LANG_C11;
}

/* The name that identifies a function DIE: its linkage name (following
 * abstract origins and specifications), else its plain name. */
static const char *die_function_name(Dwarf_Die *die, bool plain_names)
{
    Dwarf_Attribute attribute;
    const char *name = NULL;
    if (!plain_names &&
        (dwarf_attr_integrate(die, DW_AT_linkage_name, &attribute) ||
         dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attribute)))
        name = dwarf_formstring(&attribute);
    if (!name && dwarf_attr_integrate(die, DW_AT_name, &attribute))
        name = dwarf_formstring(&attribute);
    return name;
}

/* A line table's directory entries other than the first are relative to
 * the compilation directory when they are not absolute (DWARF 5, 6.2.4;
 * earlier versions alike), but libdw gives a file under such an entry as
 * the bare relative path ("../posix/bits/types.h" in a unit compiled in
 * "./libio"). The path joined to the compilation directory, as Valgrind
 * reads the same table: "./libio/../posix/bits/types.h". A path that
 * already lies in the compilation directory (the unit's own files, entry 0)
 * is left as it is. */
static void put_path(FILE *out, const char *path, const char *compilation_dir)
{
    size_t dir_length = compilation_dir ? strlen(compilation_dir) : 0;
    if (path[0] != '/' && dir_length > 0 &&
        !(strncmp(path, compilation_dir, dir_length) == 0 &&
          path[dir_length] == '/')) {
        put_clean(out, compilation_dir);
        fputc('/', out);
    }
    put_clean(out, path);
}

static void put_level(FILE *out, int line, const char *name, const char *path,
                      const char *compilation_dir)
{
    fprintf(out, "L %d\t", line < 0 ? 0 : line);
    put_clean(out, name && *name ? name : "-");
    fputc('\t', out);
    if (path && *path)
        put_path(out, path, compilation_dir);
    fputc('\n', out);
}

/* The call site recorded on an inlined entry, in its unit's file table. */
static void call_site(Dwarf_Die *inlined, Dwarf_Files *files, size_t file_count,
                      int *line, const char **path)
{
    Dwarf_Attribute attribute;
    Dwarf_Word value;
    *line = 0;
    *path = NULL;
    if (dwarf_attr(inlined, DW_AT_call_line, &attribute) &&
        dwarf_formudata(&attribute, &value) == 0)
        *line = (int)value;
    if (files && dwarf_attr(inlined, DW_AT_call_file, &attribute) &&
        dwarf_formudata(&attribute, &value) == 0 && value < file_count)
        *path = dwarf_filesrc(files, value, NULL, NULL);
}

#define MAX_LEVELS 256

/* True for the entries that may hold functions: dwarf_getscopes (libdw
 * 0.188) does not look into namespaces, where Rust and C++ put theirs. */
static bool holds_functions(int tag)
{
    return tag == DW_TAG_namespace || tag == DW_TAG_structure_type ||
           tag == DW_TAG_class_type || tag == DW_TAG_union_type ||
           tag == DW_TAG_enumeration_type || tag == DW_TAG_module;
}

/* Finds the chain of function entries that contain pc under parent,
 * outermost first: chain[0] the DW_TAG_subprogram, then the inlined
 * entries. Returns the number of entries (0: none contains pc). */
static int containing_functions(Dwarf_Die *parent, Dwarf_Addr pc,
                                Dwarf_Die *chain, int depth)
{
    Dwarf_Die child;
    if (depth >= MAX_LEVELS || dwarf_child(parent, &child) != 0)
        return depth;
    do {
        int tag = dwarf_tag(&child);
        bool function = tag == DW_TAG_subprogram ||
                        tag == DW_TAG_inlined_subroutine;
        if (function || tag == DW_TAG_lexical_block) {
            if (dwarf_haspc(&child, pc) <= 0)
                continue;
            if (function)
                chain[depth++] = child;
            return containing_functions(&child, pc, chain, depth);
        }
        if (depth == 0 && holds_functions(tag)) {
            int found = containing_functions(&child, pc, chain, 0);
            if (found > 0)
                return found;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return depth;
}

/* The functions of one compilation unit by address, built on the unit's
 * first query: finding an address's function is then a binary search
 * instead of a walk over the unit's entries (std's units hold tens of
 * thousands), and only that function's entries are walked. */
struct function_range {
    Dwarf_Addr low, high;
    Dwarf_Die function;
};

struct unit_index {
    Dwarf_Off unit_offset;
    struct function_range *ranges;
    size_t count, capacity;
};

static struct unit_index *indexes;     /* of the current object */
static size_t index_count, index_capacity;

static void forget_indexes(void)
{
    for (size_t i = 0; i < index_count; i++)
        free(indexes[i].ranges);
    free(indexes);
    indexes = NULL;
    index_count = index_capacity = 0;
}

static void add_ranges(struct unit_index *index, Dwarf_Die *function)
{
    Dwarf_Addr base, start, end;
    ptrdiff_t offset = 0;
    while ((offset = dwarf_ranges(function, offset, &base, &start, &end)) > 0) {
        if (start >= end)
            continue;
        if (index->count == index->capacity) {
            size_t wanted = index->capacity ? index->capacity * 2 : 256;
            struct function_range *bigger =
                realloc(index->ranges, wanted * sizeof *bigger);
            if (!bigger)
                return;
            index->ranges = bigger;
            index->capacity = wanted;
        }
        index->ranges[index->count++] =
            (struct function_range){start, end, *function};
    }
}

/* Every DW_TAG_subprogram with code under parent, through namespaces and
 * types. */
static void collect_functions(struct unit_index *index, Dwarf_Die *parent)
{
    Dwarf_Die child;
    if (dwarf_child(parent, &child) != 0)
        return;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_subprogram)
            add_ranges(index, &child);
        else if (holds_functions(tag))
            collect_functions(index, &child);
    } while (dwarf_siblingof(&child, &child) == 0);
}

static int compare_ranges(const void *left, const void *right)
{
    const struct function_range *a = left, *b = right;
    return a->low < b->low ? -1 : a->low > b->low;
}

static struct unit_index *unit_index_of(Dwarf_Die *unit)
{
    Dwarf_Off offset = dwarf_dieoffset(unit);
    for (size_t i = 0; i < index_count; i++)
        if (indexes[i].unit_offset == offset)
            return &indexes[i];
    if (index_count == index_capacity) {
        size_t wanted = index_capacity ? index_capacity * 2 : 16;
        struct unit_index *bigger = realloc(indexes, wanted * sizeof *bigger);
        if (!bigger)
            return NULL;
        indexes = bigger;
        index_capacity = wanted;
    }
    struct unit_index *index = &indexes[index_count++];
    *index = (struct unit_index){offset, NULL, 0, 0};
    collect_functions(index, unit);
    qsort(index->ranges, index->count, sizeof *index->ranges, compare_ranges);
    return index;
}

/* The chain of function entries containing pc in the unit, outermost
 * first; its length (0: none). */
static int function_chain(Dwarf_Die *unit, Dwarf_Addr pc, Dwarf_Die *chain)
{
    struct unit_index *index = unit_index_of(unit);
    if (index && index->count > 0) {
        /* The last range starting at or before pc, and a few before it
           (ranges of two functions rarely overlap). */
        size_t low = 0, high = index->count;
        while (low < high) {
            size_t mid = (low + high) / 2;
            if (index->ranges[mid].low <= pc)
                low = mid + 1;
            else
                high = mid;
        }
        for (size_t k = low, tries = 0; k > 0 && tries < 16; k--, tries++) {
            struct function_range *range = &index->ranges[k - 1];
            if (pc >= range->low && pc < range->high) {
                chain[0] = range->function;
                return containing_functions(&chain[0], pc, chain, 1);
            }
        }
    }
    /* A function the index does not hold (nested in another): walk. */
    return containing_functions(unit, pc, chain, 0);
}

/* link_address is a link-time address of the module's object;
 * module_bias is where dwfl placed the object (dwfl_module_getelf). */
static void resolve(FILE *out, Dwfl_Module *module, Dwarf_Addr module_bias,
                    Dwarf_Addr link_address)
{
    Dwarf_Addr bias = 0;
    Dwarf_Addr address = link_address + module_bias;
    Dwarf_Die *unit = module ? dwfl_module_addrdie(module, address, &bias) : NULL;
    static Dwarf_Die chain[MAX_LEVELS];
    fprintf(out, "A %" PRIx64 "\n", (uint64_t)link_address);
    if (!unit)
        return;
    int levels = function_chain(unit, address - bias, chain);
    if (levels == 0)
        return;
    Dwarf_Files *files = NULL;
    size_t file_count = 0;
    if (dwarf_getsrcfiles(unit, &files, &file_count) != 0)
        files = NULL;

    /* Level 0 (innermost): the line table's row for the address. */
    int line = 0;
    const char *path = NULL;
    Dwfl_Line *row = dwfl_module_getsrc(module, address);
    if (row)
        path = dwfl_lineinfo(row, NULL, &line, NULL, NULL, NULL);
    bool plain_names = is_c_language(dwarf_srclang(unit));
    Dwarf_Attribute attribute;
    const char *compilation_dir =
        dwarf_formstring(dwarf_attr(unit, DW_AT_comp_dir, &attribute));
    for (int i = levels - 1; i >= 0; i--) {
        put_level(out, line, die_function_name(&chain[i], plain_names), path,
                  compilation_dir);
        if (i > 0)
            call_site(&chain[i], files, file_count, &line, &path);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: lifeheap-symbolize REQUEST RESPONSE\n"
                        "(run by the lifeheap Valgrind tool; see the comment "
                        "at the top of cli/symbolize.c)\n");
        return 1;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        fprintf(stderr, "lifeheap-symbolize: cannot read %s: %s\n", argv[1],
                strerror(errno));
        return 1;
    }
    char *tmp = NULL;
    if (asprintf(&tmp, "%s.tmp", argv[2]) < 0) {
        fclose(in);
        return 1;
    }
    FILE *out = fopen(tmp, "w");
    if (!out) {
        fprintf(stderr, "lifeheap-symbolize: cannot write %s: %s\n", tmp,
                strerror(errno));
        fclose(in);
        free(tmp);
        return 1;
    }

    Dwfl *dwfl = NULL;
    Dwfl_Module *module = NULL;
    struct inflated_image image = {0};
    Dwarf_Addr module_bias = 0;
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, in)) > 0) {
        if (line[length - 1] == '\n')
            line[--length] = '\0';
        if (length < 2 || line[1] != ' ')
            continue;
        if (line[0] == 'O') {
            /* One session per object: addresses are link-time ones. */
            forget_indexes();
            if (dwfl)
                dwfl_end(dwfl);
            inflated_image_release(&image);
            dwfl = open_object(line + 2, &image, &module);
            if (dwfl) {
                dwfl_report_end(dwfl, NULL, NULL);
                /* dwfl lays a shared object or PIE out at an address of
                   its choosing: its bias turns link-time addresses into
                   dwfl's. */
                if (module && !dwfl_module_getelf(module, &module_bias))
                    module = NULL;
            }
        } else if (line[0] == 'A') {
            Dwarf_Addr address = strtoull(line + 2, NULL, 16);
            resolve(out, module, module_bias, address);
        }
    }
    free(line);
    forget_indexes();
    if (dwfl)
        dwfl_end(dwfl);
    inflated_image_release(&image);
    fclose(in);
    int failed = ferror(out);
    if (fclose(out) != 0 || failed || rename(tmp, argv[2]) != 0) {
        fprintf(stderr, "lifeheap-symbolize: cannot write %s\n", argv[2]);
        unlink(tmp);
        free(tmp);
        return 1;
    }
    free(tmp);
    return 0;
}
