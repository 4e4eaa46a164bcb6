/* An ELF file's compressed debug sections, inflated once and fast
 * (symbolize_inflate.c). SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LIFEHEAP_SYMBOLIZE_INFLATE_H
#define LIFEHEAP_SYMBOLIZE_INFLATE_H

/* An in-memory file holding the ELF file open on fd with every
 * zlib-compressed section inflated (the caller closes it); -1 when the file
 * has no compressed section or cannot be copied (the caller then reads fd
 * as it is). fd itself is left open and unmoved. */
int inflated_elf_copy(int fd);

#endif
