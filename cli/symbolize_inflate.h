/* An ELF file's compressed debug sections, inflated once and fast
 * (symbolize_inflate.c). SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LIFEHEAP_SYMBOLIZE_INFLATE_H
#define LIFEHEAP_SYMBOLIZE_INFLATE_H

#include <stdbool.h>
#include <stddef.h>

struct inflated_image {
    unsigned char *data;   /* the ELF image, size bytes */
    size_t size;
    void *area;            /* the mapping that holds it, mapped bytes */
    size_t mapped;
};

/* Fills image with the ELF file open on fd, every zlib-compressed section
 * inflated and the location lists left out; false when the file has no
 * compressed section or cannot be copied (the caller then reads the file
 * as it is). fd is left open and unmoved. */
bool inflated_elf_image(int fd, struct inflated_image *image);

/* Frees what inflated_elf_image made (nothing when it made nothing). */
void inflated_image_release(struct inflated_image *image);

/* True when the ELF file open on fd holds DWARF itself (.debug_info with
 * contents), as a program built with -g does: dwfl then reads it, not a
 * separate debug file. */
bool elf_has_own_dwarf(int fd);

#endif
