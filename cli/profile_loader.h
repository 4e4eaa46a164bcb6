/* What the profile reader's files share: profile.c reads the fields
 * of a document into the model (profile_fields.c checks each one),
 * profile_document.c turns its text into
 * json-c trees (the outline, then each element of the split arrays when
 * asked). Private to them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_PROFILE_LOADER_H
#define LIFEHEAP_PROFILE_LOADER_H

#include <json-c/json.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "json_split.h"
#include "profile.h"

/* The state of one profile_parse(). */
struct loader {
    jmp_buf on_error;
    char *error;
    size_t error_size;
    const char *name;
    struct profile *profile;
    char path[256];   /* JSON path of the object being read, for messages */
    /* The document's text (after a byte order mark) and, when json_split()
     * found its "frames" and "sites" elements, where they are: each is then
     * parsed on its own (element_tokener) and released once read. */
    const char *data;
    size_t size;
    struct json_split split;
    json_tokener *element_tokener;
    json_object *element;   /* the element being read (freed on error) */
    bool split_arrays;      /* false: always parse the whole document */
};

/* Ends the parse: "lifeheap: NAME: REASON" into loader->error, and back to
 * profile_parse_with()'s setjmp. */
void loader_fail(struct loader *loader, const char *format, ...)
    __attribute__((noreturn, format(printf, 2, 3)));

/* The document's tree: the outline when the big arrays could be split
 * (their elements are parsed one by one by document_element), else all of
 * it. Fails on text that is not UTF-8 or not one JSON document. */
json_object *document_parse(struct loader *loader, const char *data,
                            size_t size);

/* How many elements the top-level array `name` (read as `array`) has. */
size_t document_element_count(struct loader *loader, json_object *array,
                              const char *name);

/* Element `index` of the top-level array `name` (`array` in the tree): a
 * reference of its own, to be given back with json_object_put(). */
json_object *document_element(struct loader *loader, json_object *array,
                              const char *name, size_t index);

/* Frees what the split parse holds (again: nothing). */
void document_release(struct loader *loader);

#endif
