/* A growing, NUL-terminated text (text_builder.h). The allocation at
 * least doubles when it grows, so appending n bytes costs O(n) in all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "text_builder.h"

#include <stdlib.h>
#include <string.h>

/* Room for `extra` more bytes and the NUL; false (and `failed`) when there
 * is none to be had. */
static bool reserve(struct text_builder *text, size_t extra)
{
    if (text->failed)
        return false;
    if (extra >= (size_t)-1 / 4 - text->length) {
        text->failed = true;
        return false;
    }
    size_t needed = text->length + extra + 1;
    if (needed <= text->capacity)
        return true;
    size_t capacity = needed > text->capacity * 2 ? needed
                                                  : text->capacity * 2;
    char *bigger = realloc(text->data, capacity);
    if (!bigger) {
        text->failed = true;
        return false;
    }
    text->data = bigger;
    text->capacity = capacity;
    return true;
}

void text_append(struct text_builder *text, const char *bytes, size_t length)
{
    if (!reserve(text, length))
        return;
    if (length)
        memcpy(text->data + text->length, bytes, length);
    text->length += length;
    text->data[text->length] = '\0';
}

void text_append_string(struct text_builder *text, const char *string)
{
    text_append(text, string, strlen(string));
}

bool text_append_stream(struct text_builder *text, FILE *stream,
                        size_t expected)
{
    enum { CHUNK = 1 << 16 };
    text_append(text, "", 0);
    /* One byte more than expected, so the end of the file is seen by a
       read that gets nothing, not by growing the buffer. */
    if (!reserve(text, expected ? expected + 1 : CHUNK))
        return false;
    for (;;) {
        if (text->capacity - text->length - 1 == 0 && !reserve(text, CHUNK))
            return false;
        size_t room = text->capacity - text->length - 1;
        size_t got = fread(text->data + text->length, 1, room, stream);
        text->length += got;
        text->data[text->length] = '\0';
        if (got < room)
            break;
    }
    return !ferror(stream);
}

char *text_take(struct text_builder *text)
{
    char *data = text->failed ? NULL : text->data;
    if (text->failed)
        free(text->data);
    *text = (struct text_builder){0};
    return data;
}

void text_free(struct text_builder *text)
{
    free(text->data);
    *text = (struct text_builder){0};
}
