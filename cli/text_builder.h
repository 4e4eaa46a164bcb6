/* A growing text: bytes appended at its end, always NUL-terminated once
 * anything (even "") was appended, so the data can be used as a C string
 * or as bytes with a length. Running out of memory is remembered
 * (`failed`) and every later append is ignored, so a writer appends
 * freely and looks once at the end:
 *
 *     struct text_builder text = {0};
 *     text_append_string(&text, "name");
 *     text_append(&text, bytes, count);
 *     char *result = text_take(&text);   (NULL when memory ran out)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_TEXT_BUILDER_H
#define LIFEHEAP_TEXT_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct text_builder {
    char *data;         /* NULL until the first append */
    size_t length;      /* bytes before the terminating NUL */
    size_t capacity;    /* bytes allocated at data */
    bool failed;        /* out of memory: later appends do nothing */
};

void text_append(struct text_builder *text, const char *bytes, size_t length);
void text_append_string(struct text_builder *text, const char *string);

/* Appends everything `stream` still holds. `expected` (the size when known,
 * else 0) is allocated at once, so a file of known size is read without
 * copies. False on a read error or when memory ran out. */
bool text_append_stream(struct text_builder *text, FILE *stream,
                        size_t expected);

/* The text as a string the caller frees, and the builder emptied; NULL
 * (everything freed) when memory ran out. */
char *text_take(struct text_builder *text);

void text_free(struct text_builder *text);

#endif
