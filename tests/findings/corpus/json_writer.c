/* json_writer.c - an output buffer grown by realloc for every token.
 *
 * A JSON exporter appends each token to its output with out_append, which
 * reallocs the buffer to exactly len + n + 1 bytes each time ("no wasted
 * memory"). Exporting 3,000 records (~220 KB of JSON) takes 21,000
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

struct out { char *data; size_t length; };

static void out_append(struct out *o, const char *text)
{
    size_t n = strlen(text);
    char *grown = realloc(o->data, o->length + n + 1);
    if (!grown) { perror("realloc"); exit(1); }
    o->data = grown;
    memcpy(o->data + o->length, text, n + 1);
    o->length += n;
}

int main(void)
{
    struct out o = {NULL, 0};
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
    printf("json_writer: %zu bytes, hash %08x\n", o.length, sum);
    free(o.data);
    return 0;
}
