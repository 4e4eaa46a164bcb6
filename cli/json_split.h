/* Finding the elements of a profile's "frames" and "sites" arrays without
 * building a tree (json_split.c explains why and how).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_JSON_SPLIT_H
#define LIFEHEAP_JSON_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

enum { JSON_SPLIT_ARRAYS = 2 };   /* "frames", "sites" */

struct json_split_array {
    const char *key;
    bool found;              /* the top-level object has this key, an array */
    size_t open, close;      /* offsets of its '[' and ']' */
    size_t count, capacity;
    size_t *starts, *ends;   /* element i is data[starts[i], ends[i]) */
};

struct json_split {
    bool usable;
    struct json_split_array arrays[JSON_SPLIT_ARRAYS];
};

/* Scans `data`; false (and nothing usable) when the text is not a regular
 * profile document, which must then be parsed whole. */
bool json_split(const char *data, size_t size, struct json_split *split);

void json_split_free(struct json_split *split);

#endif
