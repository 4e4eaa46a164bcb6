/* json_writer_doubling.c - json_writer.c with a geometric buffer.
 *
 * The same exporter; out_append doubles the capacity when the token does
 * not fit (starting at 4 KiB): 6 reallocs instead of ~21,000.
 *
 * Verdict: no realloc-growth worth reporting (fewer than 8 reallocs, about
 * 128 KB copied in all). Twin of json_writer.c, described below.
 *
 * A JSON exporter appends each token to its output with out_append, which
 * reallocs the buffer to exactly len + n bytes each time ("no wasted
 * memory"). Exporting 3,000 records (~130 KB of JSON) takes ~21,000
 * reallocs, and each one that moves the block copies everything written so
 * far: the copies add up to more than a thousand times the output's size.
 *
 * Verdict: realloc-growth on out_append.
 * Twin: json_writer_doubling.c (capacity doubles when full).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct out { char *data; size_t length, capacity; };

static void out_append(struct out *o, const char *text)
{
    size_t n = strlen(text);
    if (o->length + n + 1 > o->capacity) {
        size_t capacity = o->capacity ? o->capacity : 4096;
        while (capacity < o->length + n + 1) capacity *= 2;
        char *grown = realloc(o->data, capacity);
        if (!grown) { perror("realloc"); exit(1); }
        o->data = grown;
        o->capacity = capacity;
    }
    memcpy(o->data + o->length, text, n + 1);
    o->length += n;
}

int main(void)
{
    struct out o = {NULL, 0, 0};
    char token[96];
    out_append(&o, "[");
    for (int i = 0; i < 3000; i++) {
        out_append(&o, i ? ",{" : "{");
        snprintf(token, sizeof token, "\"id\":%d,", i);
        out_append(&o, token);
        snprintf(token, sizeof token, "\"name\":\"item-%d\",", i);
        out_append(&o, token);
        snprintf(token, sizeof token, "\"price\":%d.%02d,", i % 500, i % 100);
        out_append(&o, token);
        out_append(&o, "\"tags\":[\"a\",\"b\"],");
        snprintf(token, sizeof token, "\"stock\":%d", (i * 37) % 1000);
        out_append(&o, token);
        out_append(&o, "}");
    }
    out_append(&o, "]");
    uint32_t sum = 0;
    for (size_t i = 0; i < o.length; i++) sum = sum * 31 + (unsigned char)o.data[i];
    printf("json_writer_doubling: %zu bytes, hash %08x\n", o.length, sum);
    free(o.data);
    return 0;
}
