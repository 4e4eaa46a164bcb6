/* The DWARF helper's inflated copy of an ELF file (cli/symbolize_inflate.c)
 * against objcopy's: for a file with zlib-compressed debug sections
 * (COMPRESSED, built with gcc -gz) and the same file decompressed by
 * `objcopy --decompress-debug-sections` (REFERENCE), every section of the
 * copy has the reference's name, type, flags and bytes, except the
 * location lists, which the copy leaves out (SHT_NOBITS, no bytes). A file
 * with nothing compressed (REFERENCE itself) gets no copy; both hold their
 * own DWARF (elf_has_own_dwarf).
 *
 *   inflate_test COMPRESSED REFERENCE
 *
 * Prints one PASS or FAIL line per check.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbolize_inflate.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void report(bool ok, const char *what)
{
    printf("%s inflated copy: %s\n", ok ? "PASS" : "FAIL", what);
    if (!ok)
        failures++;
}

static bool is_location_list(const char *name)
{
    return strcmp(name, ".debug_loclists") == 0 || strcmp(name, ".debug_loc") == 0;
}

/* Compares every section; the number of DWARF sections compared by bytes
 * and of location lists left out. */
static bool same_sections(Elf *copy, Elf *reference, int *debug_sections,
                          int *left_out)
{
    size_t copy_names, reference_names, copy_count, reference_count;
    if (elf_getshdrstrndx(copy, &copy_names) || elf_getshdrstrndx(reference, &reference_names) ||
        elf_getshdrnum(copy, &copy_count) || elf_getshdrnum(reference, &reference_count) ||
        copy_count != reference_count) {
        printf("  section counts differ\n");
        return false;
    }
    for (size_t i = 1; i < copy_count; i++) {
        Elf_Scn *a = elf_getscn(copy, i), *b = elf_getscn(reference, i);
        GElf_Shdr sa, sb;
        if (!gelf_getshdr(a, &sa) || !gelf_getshdr(b, &sb))
            return false;
        const char *name = elf_strptr(reference, reference_names, sb.sh_name);
        const char *copy_name = elf_strptr(copy, copy_names, sa.sh_name);
        if (!name || !copy_name || strcmp(name, copy_name) != 0) {
            printf("  section %zu: name %s, copy's %s\n", i, name, copy_name);
            return false;
        }
        if (is_location_list(name)) {
            if (sa.sh_type != SHT_NOBITS || sa.sh_size != 0) {
                printf("  %s is in the copy\n", name);
                return false;
            }
            (*left_out)++;
            continue;
        }
        if (sa.sh_type != sb.sh_type || sa.sh_flags != sb.sh_flags ||
            sa.sh_size != sb.sh_size || sa.sh_addr != sb.sh_addr ||
            sa.sh_addralign != sb.sh_addralign) {
            printf("  %s: header differs\n", name);
            return false;
        }
        if (sb.sh_type == SHT_NOBITS)
            continue;
        Elf_Data *da = elf_rawdata(a, NULL), *db = elf_rawdata(b, NULL);
        if (!da || !db || da->d_size != db->d_size ||
            (db->d_size && memcmp(da->d_buf, db->d_buf, db->d_size) != 0)) {
            printf("  %s: bytes differ\n", name);
            return false;
        }
        if (strncmp(name, ".debug_", 7) == 0)
            (*debug_sections)++;
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: inflate_test COMPRESSED REFERENCE\n");
        return 2;
    }
    elf_version(EV_CURRENT);
    int compressed = open(argv[1], O_RDONLY), reference_fd = open(argv[2], O_RDONLY);
    if (compressed < 0 || reference_fd < 0) {
        perror("inflate_test");
        return 2;
    }
    struct inflated_image image, none;
    bool copied = inflated_elf_image(compressed, &image);
    report(copied, "a file with compressed debug sections is copied");
    report(!inflated_elf_image(reference_fd, &none) && none.data == NULL,
           "a file with nothing compressed is not copied");
    report(elf_has_own_dwarf(compressed) && elf_has_own_dwarf(reference_fd),
           "both files hold their own DWARF");
    if (copied) {
        Elf *copy = elf_memory((char *)image.data, image.size);
        Elf *reference = elf_begin(reference_fd, ELF_C_READ_MMAP, NULL);
        int debug_sections = 0, left_out = 0;
        bool same = copy && reference &&
                    same_sections(copy, reference, &debug_sections, &left_out);
        report(same, "every section has objcopy's name, type, flags, size and bytes");
        printf("  (%d DWARF sections compared, %d location lists left out)\n",
               debug_sections, left_out);
        report(debug_sections >= 5, "the DWARF sections are among them");
        report(left_out >= 1, "the location lists are left out");
        elf_end(copy);
        elf_end(reference);
        inflated_image_release(&image);
    }
    return failures ? 1 : 0;
}
