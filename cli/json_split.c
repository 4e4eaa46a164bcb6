/* Finding the elements of a profile's big arrays without building a tree.
 *
 * A profile is one object whose bulk is two arrays of objects, "frames" and
 * "sites". json-c builds about 13 bytes of tree per byte of JSON, so parsing
 * a 100 MB profile whole needs over a gigabyte. Instead, one pass over the
 * text tracks only nesting depth and strings, and records where each
 * element of the two top-level arrays starts and ends:
 *
 *   { "format": ..., "frames": [ {...}, {...} ], "sites": [ {...} ], ... }
 *   depth 1 ───────────────────┘  └─ depth 3: one element per object here
 *
 * profile.c then parses the rest of the document (the arrays left empty,
 * "frames": []) and each element on its own, one at a time, so the memory
 * held is the text, the model and one element's tree.
 *
 * Anything irregular (not an object at the top, a key seen twice, an element
 * that is not an object, a text that ends inside a string or a bracket,
 * anything but separators between elements) makes json_split() return
 * false: profile.c then parses the whole text as one document, whose error
 * message (or result) is the authority, as before.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "json_split.h"

#include <stdlib.h>
#include <string.h>

static bool is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Index of the quote closing the string opened at `open`, or `size`. */
static size_t closing_quote(const char *data, size_t size, size_t open)
{
    for (size_t i = open + 1; i < size; i++) {
        if (data[i] == '\\')
            i++;
        else if (data[i] == '"')
            return i;
    }
    return size;
}

static bool push(struct json_split_array *array, size_t start, size_t end)
{
    if (array->count == array->capacity) {
        size_t capacity = array->capacity ? array->capacity * 2 : 1024;
        size_t *starts = realloc(array->starts, capacity * sizeof *starts);
        if (!starts)
            return false;
        array->starts = starts;
        size_t *ends = realloc(array->ends, capacity * sizeof *ends);
        if (!ends)
            return false;
        array->ends = ends;
        array->capacity = capacity;
    }
    array->starts[array->count] = start;
    array->ends[array->count] = end;
    array->count++;
    return true;
}

/* The array named by the key that ends just before `bracket` ("key" : [),
 * or NULL. */
static struct json_split_array *array_for_key(struct json_split *split,
                                              const char *data, size_t key_start,
                                              size_t key_end, size_t bracket)
{
    if (key_end == 0)
        return NULL;
    bool colon = false;
    for (size_t i = key_end + 1; i < bracket; i++) {
        if (data[i] == ':' && !colon)
            colon = true;
        else if (!is_space(data[i]))
            return NULL;
    }
    if (!colon)
        return NULL;
    size_t length = key_end - key_start - 1;
    for (int a = 0; a < JSON_SPLIT_ARRAYS; a++) {
        if (strlen(split->arrays[a].key) == length &&
            memcmp(data + key_start + 1, split->arrays[a].key, length) == 0)
            return &split->arrays[a];
    }
    return NULL;
}

bool json_split(const char *data, size_t size, struct json_split *split)
{
    memset(split, 0, sizeof *split);
    split->arrays[0].key = "frames";
    split->arrays[1].key = "sites";
    size_t depth = 0;
    size_t key_start = 0, key_end = 0;     /* last string at depth 1 */
    struct json_split_array *inside = NULL; /* the array being split */
    size_t element_start = 0, gap_start = 0;
    bool seen_top = false;
    for (size_t i = 0; i < size; i++) {
        char c = data[i];
        if (is_space(c))
            continue;
        if (depth == 0) {
            if (seen_top || c != '{')
                return false;
            seen_top = true;
            depth = 1;
            continue;
        }
        if (inside && depth == 2 && c != '{' && c != ']' && c != ',')
            return false;              /* an element that is not an object */
        if (c == '"') {
            size_t close = closing_quote(data, size, i);
            if (close == size)
                return false;
            if (depth == 1) {
                key_start = i;
                key_end = close;
            }
            i = close;
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
            if (depth == 2 && c == '[') {
                struct json_split_array *array =
                    array_for_key(split, data, key_start, key_end, i);
                if (array) {
                    if (array->found)
                        return false;  /* the key twice */
                    array->found = true;
                    array->open = i;
                    inside = array;
                    gap_start = i + 1;
                }
            } else if (depth == 3 && inside) {
                /* Exactly one comma between elements, none before the first. */
                size_t commas = 0;
                for (size_t k = gap_start; k < i; k++)
                    commas += data[k] == ',';
                if (commas != (inside->count ? 1u : 0u))
                    return false;
                element_start = i;
            }
            continue;
        }
        if (c == '}' || c == ']') {
            if (depth == 3 && inside) {
                if (c != '}' || !push(inside, element_start, i + 1))
                    return false;
                gap_start = i + 1;
            } else if (depth == 2 && inside) {
                if (c != ']')
                    return false;
                for (size_t k = gap_start; k < i; k++)
                    if (data[k] == ',')
                        return false;  /* a trailing comma */
                inside->close = i;
                inside = NULL;
            }
            depth--;
            if (depth == 0) {
                for (size_t k = i + 1; k < size; k++)
                    if (!is_space(data[k]))
                        return false;
                split->usable = true;
                return true;
            }
        }
    }
    return false;                      /* ends inside the document */
}

void json_split_free(struct json_split *split)
{
    for (int a = 0; a < JSON_SPLIT_ARRAYS; a++) {
        free(split->arrays[a].starts);
        free(split->arrays[a].ends);
    }
    memset(split, 0, sizeof *split);
}
