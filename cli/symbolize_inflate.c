/* An ELF file's compressed debug sections, inflated once and fast, for the
 * DWARF helper (lifeheap-symbolize).
 *
 * Debian's debug files (libc6-dbg's libc.so.6 among them) keep their DWARF
 * sections zlib-compressed (SHF_COMPRESSED). libdw (elfutils 0.188)
 * inflates every such section whole, with zlib, when it opens the file:
 * about 10 MB for libc's, 40 ms of CPU, the helper's whole cost on a C
 * program that calls printf, when the helper only looks at a few of the
 * file's compilation units.
 *
 * inflated_elf_image makes an uncompressed copy of such a file in
 * anonymous memory (in 2 MB pages where the kernel allows: a few page
 * faults instead of thousands), which the helper hands to dwfl instead
 * (dwfl_report_offline_memory): the same sections, in the same order,
 * with the same contents once inflated, inflated here by libdeflate
 * (whole-buffer, more than twice as fast as zlib's streaming inflate; the
 * compression header gives each section's size). libdw then reads plain
 * sections and answers exactly as it would from the compressed file.
 *
 * The copy's layout: the ELF header, the program headers, each section's
 * data aligned to its alignment, then the section headers, with offsets,
 * sizes and alignments updated and SHF_COMPRESSED cleared. The location
 * lists (.debug_loclists, .debug_loc: where a variable lives at each
 * address, 1.4 MB of libc's 10) are left out, as SHT_NOBITS sections:
 * libdw skips those, and the helper never reads a variable's location.
 * Only 64-bit little-endian files with ordinary section numbering and
 * zlib-compressed sections are copied; for anything else, and on any
 * error, the caller keeps the file as it is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "symbolize_inflate.h"

#include <elf.h>
#include <libdeflate.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* Larger than any debug file this helper will meet; keeps a corrupt
 * compression header from asking for an absurd copy. */
#define MAX_COPY_BYTES ((uint64_t)4 << 30)

static uint64_t align_up(uint64_t offset, uint64_t alignment)
{
    if (alignment <= 1)
        return offset;
    return (offset + alignment - 1) / alignment * alignment;
}

static bool inside(uint64_t offset, uint64_t size, uint64_t file_size)
{
    return offset <= file_size && size <= file_size - offset;
}

/* The section's compression header when it is a zlib-compressed section
 * whose bytes lie inside the file, else NULL. */
static const Elf64_Chdr *zlib_header(const unsigned char *file,
                                     uint64_t file_size,
                                     const Elf64_Shdr *section)
{
    if (!(section->sh_flags & SHF_COMPRESSED) || section->sh_type == SHT_NOBITS)
        return NULL;
    if (!inside(section->sh_offset, section->sh_size, file_size) ||
        section->sh_size < sizeof(Elf64_Chdr))
        return NULL;
    const Elf64_Chdr *header =
        (const Elf64_Chdr *)(file + section->sh_offset);
    return header->ch_type == ELFCOMPRESS_ZLIB ? header : NULL;
}

/* The section's name, NULL when the names cannot be read. */
static const char *section_name(const unsigned char *file, uint64_t file_size,
                                const Elf64_Ehdr *elf,
                                const Elf64_Shdr *sections,
                                const Elf64_Shdr *section)
{
    if (elf->e_shstrndx == SHN_UNDEF || elf->e_shstrndx >= elf->e_shnum)
        return NULL;
    const Elf64_Shdr *names = &sections[elf->e_shstrndx];
    if (names->sh_type != SHT_STRTAB || (names->sh_flags & SHF_COMPRESSED) ||
        !inside(names->sh_offset, names->sh_size, file_size) ||
        section->sh_name >= names->sh_size)
        return NULL;
    const char *name = (const char *)file + names->sh_offset + section->sh_name;
    size_t room = names->sh_size - section->sh_name;
    return strnlen(name, room) < room ? name : NULL;
}

/* The sections the helper never reads, left out of the copy. */
static bool unread_section(const unsigned char *file, uint64_t file_size,
                           const Elf64_Ehdr *elf, const Elf64_Shdr *sections,
                           const Elf64_Shdr *section)
{
    const char *name = section_name(file, file_size, elf, sections, section);
    return name && (strcmp(name, ".debug_loclists") == 0 ||
                    strcmp(name, ".debug_loc") == 0);
}

/* Lays the copy out: each section's new offset; the section headers'
 * offset and the copy's size. False when the file cannot be copied. */
static bool lay_out(const unsigned char *file, uint64_t file_size,
                    const Elf64_Ehdr *elf, const Elf64_Shdr *sections,
                    uint64_t *new_offsets, uint64_t *header_offset,
                    uint64_t *copy_size, bool *any_compressed)
{
    uint64_t offset = sizeof(Elf64_Ehdr);
    *any_compressed = false;
    if (elf->e_phnum > 0)
        offset = align_up(offset, 8) +
                 (uint64_t)elf->e_phnum * sizeof(Elf64_Phdr);
    new_offsets[0] = 0;
    for (unsigned i = 1; i < elf->e_shnum; i++) {
        const Elf64_Shdr *section = &sections[i];
        const Elf64_Chdr *header = zlib_header(file, file_size, section);
        uint64_t size = section->sh_size, alignment = section->sh_addralign;
        if (section->sh_type == SHT_NOBITS ||
            unread_section(file, file_size, elf, sections, section)) {
            new_offsets[i] = offset;
            continue;
        }
        if (header) {
            size = header->ch_size;
            alignment = header->ch_addralign;
            *any_compressed = true;
        } else if ((section->sh_flags & SHF_COMPRESSED) ||
                   !inside(section->sh_offset, size, file_size)) {
            return false;   /* another algorithm, or cut short */
        }
        if (alignment > 4096 || size > MAX_COPY_BYTES)
            return false;
        offset = align_up(offset, alignment);
        new_offsets[i] = offset;
        offset += size;
        if (offset > MAX_COPY_BYTES)
            return false;
    }
    *header_offset = align_up(offset, 8);
    *copy_size = *header_offset + (uint64_t)elf->e_shnum * sizeof(Elf64_Shdr);
    return true;
}

/* Writes the copy into copy (copy_size bytes, zero-filled). */
static bool write_copy(const unsigned char *file, uint64_t file_size,
                       const Elf64_Ehdr *elf, const Elf64_Shdr *sections,
                       const uint64_t *new_offsets, uint64_t header_offset,
                       unsigned char *copy)
{
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (!inflater)
        return false;
    Elf64_Ehdr *new_elf = (Elf64_Ehdr *)copy;
    *new_elf = *elf;
    new_elf->e_shoff = header_offset;
    if (elf->e_phnum > 0) {
        new_elf->e_phoff = align_up(sizeof(Elf64_Ehdr), 8);
        memcpy(copy + new_elf->e_phoff, file + elf->e_phoff,
               (size_t)elf->e_phnum * sizeof(Elf64_Phdr));
    }
    Elf64_Shdr *new_sections = (Elf64_Shdr *)(copy + header_offset);
    bool ok = true;
    new_sections[0] = sections[0];
    for (unsigned i = 1; i < elf->e_shnum && ok; i++) {
        const Elf64_Shdr *section = &sections[i];
        const Elf64_Chdr *header = zlib_header(file, file_size, section);
        Elf64_Shdr *new_section = &new_sections[i];
        *new_section = *section;
        new_section->sh_offset = new_offsets[i];
        if (section->sh_type == SHT_NOBITS)
            continue;
        if (unread_section(file, file_size, elf, sections, section)) {
            new_section->sh_type = SHT_NOBITS;
            new_section->sh_flags &= ~(uint64_t)SHF_COMPRESSED;
            new_section->sh_size = 0;
            continue;
        }
        if (header) {
            size_t inflated = 0;
            enum libdeflate_result result = libdeflate_zlib_decompress(
                inflater, header + 1, section->sh_size - sizeof(*header),
                copy + new_offsets[i], header->ch_size, &inflated);
            ok = result == LIBDEFLATE_SUCCESS && inflated == header->ch_size;
            new_section->sh_flags &= ~(uint64_t)SHF_COMPRESSED;
            new_section->sh_size = header->ch_size;
            new_section->sh_addralign = header->ch_addralign;
        } else {
            memcpy(copy + new_offsets[i], file + section->sh_offset,
                   section->sh_size);
        }
    }
    libdeflate_free_decompressor(inflater);
    return ok;
}

/* The file's headers, checked: 64-bit, little-endian (this helper runs on
 * amd64), ordinary section numbering, everything inside the file. */
static bool plain_elf64(const unsigned char *file, uint64_t file_size)
{
    if (file_size < sizeof(Elf64_Ehdr) || memcmp(file, ELFMAG, SELFMAG) != 0 ||
        file[EI_CLASS] != ELFCLASS64 || file[EI_DATA] != ELFDATA2LSB)
        return false;
    const Elf64_Ehdr *elf = (const Elf64_Ehdr *)file;
    if (elf->e_shentsize != sizeof(Elf64_Shdr) || elf->e_shnum == 0 ||
        elf->e_shstrndx == SHN_XINDEX || elf->e_shoff % 8 != 0 ||
        !inside(elf->e_shoff, (uint64_t)elf->e_shnum * sizeof(Elf64_Shdr),
                file_size))
        return false;
    if (elf->e_phnum > 0 &&
        (elf->e_phentsize != sizeof(Elf64_Phdr) || elf->e_phnum == PN_XNUM ||
         !inside(elf->e_phoff, (uint64_t)elf->e_phnum * sizeof(Elf64_Phdr),
                 file_size)))
        return false;
    return true;
}

/* The file open on fd, mapped; false when it cannot be. */
static bool map_file(int fd, const unsigned char **file, uint64_t *file_size)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        return false;
    *file_size = (uint64_t)st.st_size;
    void *mapped = mmap(NULL, *file_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED)
        return false;
    *file = mapped;
    return true;
}

#define HUGE_PAGE ((uint64_t)2 << 20)

bool inflated_elf_image(int fd, struct inflated_image *image)
{
    const unsigned char *file;
    uint64_t file_size;
    image->data = NULL;
    image->size = image->mapped = 0;
    if (!map_file(fd, &file, &file_size))
        return false;
    bool done = false;
    uint64_t *new_offsets = NULL;
    if (!plain_elf64(file, file_size))
        goto out;
    const Elf64_Ehdr *elf = (const Elf64_Ehdr *)file;
    const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + elf->e_shoff);
    new_offsets = calloc(elf->e_shnum, sizeof *new_offsets);
    uint64_t header_offset, copy_size;
    bool any_compressed;
    if (!new_offsets ||
        !lay_out(file, file_size, elf, sections, new_offsets, &header_offset,
                 &copy_size, &any_compressed) ||
        !any_compressed)
        goto out;

    /* Anonymous memory, zero-filled, aligned to a huge page and advised to
     * use them. */
    uint64_t rounded = (copy_size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    size_t mapped = rounded + HUGE_PAGE;
    unsigned char *area = mmap(NULL, mapped, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED)
        goto out;
    unsigned char *copy = (unsigned char *)(((uintptr_t)area + HUGE_PAGE - 1) &
                                            ~(uintptr_t)(HUGE_PAGE - 1));
    madvise(copy, rounded, MADV_HUGEPAGE);
    if (!write_copy(file, file_size, elf, sections, new_offsets, header_offset,
                    copy)) {
        munmap(area, mapped);
        goto out;
    }
    image->area = area;
    image->data = copy;
    image->size = copy_size;
    image->mapped = mapped;
    done = true;
out:
    free(new_offsets);
    munmap((void *)file, file_size);
    return done;
}

void inflated_image_release(struct inflated_image *image)
{
    if (image->mapped)
        munmap(image->area, image->mapped);
    image->area = image->data = NULL;
    image->size = image->mapped = 0;
}

bool elf_has_own_dwarf(int fd)
{
    const unsigned char *file;
    uint64_t file_size;
    if (!map_file(fd, &file, &file_size))
        return false;
    bool found = false;
    if (plain_elf64(file, file_size)) {
        const Elf64_Ehdr *elf = (const Elf64_Ehdr *)file;
        const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + elf->e_shoff);
        for (unsigned i = 1; i < elf->e_shnum && !found; i++) {
            const char *name =
                section_name(file, file_size, elf, sections, &sections[i]);
            found = sections[i].sh_type != SHT_NOBITS && name &&
                    strcmp(name, ".debug_info") == 0;
        }
    }
    munmap((void *)file, file_size);
    return found;
}
