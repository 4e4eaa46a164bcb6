/* The text of a profile as json-c trees (profile_loader.h), for the
 * reader in profile.c.
 *
 * The text must be strict UTF-8 (json-c's own check lets overlong forms
 * through). When json_split() finds the elements of the top-level "frames"
 * and "sites" arrays, json-c parses the document without them (the
 * outline, those arrays left empty) and then each element on its own when
 * the reader asks for it, so memory is the text, the model and one
 * element's tree (a whole tree is about 12 times the text). A document
 * json_split() finds irregular, or that does not parse that way, is parsed
 * whole: its error message is the authority, and a syntax error in an
 * element is reported as the whole parse reports it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "profile_loader.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static json_object *parse_whole(struct loader *loader, const char *data,
                                size_t size);

/* The split array of the top-level array `name`, or NULL when the document
 * was parsed whole. */
static const struct json_split_array *split_array(struct loader *loader,
                                                  const char *name)
{
    if (!loader->split.usable)
        return NULL;
    for (int a = 0; a < JSON_SPLIT_ARRAYS; a++)
        if (strcmp(loader->split.arrays[a].key, name) == 0 &&
            loader->split.arrays[a].found)
            return &loader->split.arrays[a];
    return NULL;
}

/* How many elements the top-level array `name` (read as `array`) has. */
size_t document_element_count(struct loader *loader, json_object *array,
                              const char *name)
{
    const struct json_split_array *split = split_array(loader, name);
    return split ? split->count : json_object_array_length(array);
}

/* Element `index` of the split array, parsed from its own text. A syntax
 * error there is reported as the whole document's parse reports it. */
static json_object *parse_element(struct loader *loader,
                                  const struct json_split_array *split,
                                  size_t index)
{
    const char *text = loader->data + split->starts[index];
    size_t length = split->ends[index] - split->starts[index];
    json_tokener *tokener = loader->element_tokener;
    json_tokener_reset(tokener);
    json_object *value = NULL;
    enum json_tokener_error status = json_tokener_continue;
    size_t done = 0;
    while (done < length && status == json_tokener_continue) {
        size_t chunk = length - done > (1u << 30) ? (1u << 30) : length - done;
        value = json_tokener_parse_ex(tokener, text + done, (int)chunk);
        status = json_tokener_get_error(tokener);
        done += status == json_tokener_continue
                    ? chunk
                    : json_tokener_get_parse_end(tokener);
    }
    if (status == json_tokener_success && done == length)
        return value;
    if (value)
        json_object_put(value);
    /* The authority on a broken document is the parse of all of it. */
    json_object *whole = parse_whole(loader, loader->data, loader->size);
    json_object_put(whole);
    loader_fail(loader, "invalid JSON near byte %zu: %s", split->starts[index] + done,
         json_tokener_error_desc(status));
}

/* The first byte offset that is not well-formed UTF-8 (an overlong form, a
 * surrogate, a code point past U+10FFFF, a cut sequence), or SIZE_MAX. json-c's
 * own check lets overlong forms through, and the report would write them
 * back out as invalid JSON; the viewer makes the same check
 * (utf8ErrorOffset in viewer/src/model/profile.js). */
static size_t utf8_error_offset(const unsigned char *bytes, size_t size)
{
    size_t i = 0;
    while (i < size) {
        unsigned char c = bytes[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned char low = 0x80, high = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0)
                low = 0xA0;         /* overlong */
            else if (c == 0xED)
                high = 0x9F;        /* surrogates */
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0)
                low = 0x90;         /* overlong */
            else if (c == 0xF4)
                high = 0x8F;        /* past U+10FFFF */
        } else {
            return i;               /* C0, C1, F5-FF, a stray continuation */
        }
        if (i + need >= size || bytes[i + 1] < low || bytes[i + 1] > high)
            return i;
        for (size_t k = 2; k <= need; k++)
            if ((bytes[i + k] & 0xC0) != 0x80)
                return i;
        i += need + 1;
    }
    return SIZE_MAX;
}

/* A strict json-c parser that checks UTF-8, nesting at most `depth` deep. */
static json_tokener *new_tokener(struct loader *loader, int depth)
{
    json_tokener *tokener = json_tokener_new_ex(depth);
    if (!tokener)
        loader_fail(loader, "out of memory");
    json_tokener_set_flags(tokener, JSON_TOKENER_STRICT |
                                        JSON_TOKENER_VALIDATE_UTF8);
    return tokener;
}

/* Parses `data` as one document with json-c: the whole tree at once. */
static json_object *parse_whole(struct loader *loader, const char *data,
                                size_t size)
{
    json_tokener *tokener = new_tokener(loader, 64);
    json_object *root = NULL;
    size_t offset = 0;
    enum json_tokener_error status = json_tokener_continue;
    /* json-c takes an int length: feed large files in chunks. */
    while (offset < size) {
        size_t chunk = size - offset;
        if (chunk > (1u << 30))
            chunk = 1u << 30;
        root = json_tokener_parse_ex(tokener, data + offset, (int)chunk);
        status = json_tokener_get_error(tokener);
        if (status != json_tokener_continue) {
            offset += json_tokener_get_parse_end(tokener);
            break;
        }
        offset += chunk;
    }
    if (status == json_tokener_continue) {
        /* A number or a literal at the top level ("null", "12") ends only
           where something follows it: a space says it is complete. */
        root = json_tokener_parse_ex(tokener, " ", 1);
        status = json_tokener_get_error(tokener);
    }
    if (status == json_tokener_continue) {
        json_tokener_free(tokener);
        loader_fail(loader, "truncated JSON (the document ends after %zu bytes)",
             size);
    }
    if (status != json_tokener_success) {
        size_t where = offset;
        json_tokener_free(tokener);
        loader_fail(loader, "invalid JSON near byte %zu: %s", where,
             json_tokener_error_desc(status));
    }
    json_tokener_free(tokener);
    for (; offset < size; offset++) {
        char c = data[offset];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            json_object_put(root);
            loader_fail(loader, "invalid JSON: unexpected data after the document "
                         "at byte %zu",
                 offset);
        }
    }
    return root;
}

/* Feeds json-c the document without the elements of its split arrays
 * ("frames": [], "sites": []), in the pieces between them. NULL when that
 * does not parse (the caller then parses the whole text). */
static json_object *parse_outline(struct loader *loader)
{
    const struct json_split_array *first = &loader->split.arrays[0];
    const struct json_split_array *second = &loader->split.arrays[1];
    if (second->found && (!first->found || second->open < first->open)) {
        const struct json_split_array *swap = first;
        first = second;
        second = swap;
    }
    size_t cuts[5] = {0}, pieces = 0;   /* [start, end) pairs */
    size_t from = 0;
    const struct json_split_array *order[2] = {first, second};
    for (int a = 0; a < 2; a++) {
        if (!order[a]->found)
            continue;
        cuts[pieces++] = from;
        cuts[pieces++] = order[a]->open + 1;
        from = order[a]->close;
    }
    json_tokener *tokener = new_tokener(loader, 64);
    json_object *root = NULL;
    enum json_tokener_error status = json_tokener_continue;
    for (size_t p = 0; p <= pieces && status == json_tokener_continue; p += 2) {
        size_t start = p < pieces ? cuts[p] : from;
        size_t end = p < pieces ? cuts[p + 1] : loader->size;
        while (start < end && status == json_tokener_continue) {
            size_t chunk = end - start > (1u << 30) ? (1u << 30) : end - start;
            root = json_tokener_parse_ex(tokener, loader->data + start,
                                         (int)chunk);
            status = json_tokener_get_error(tokener);
            start += chunk;
        }
    }
    json_tokener_free(tokener);
    if (status != json_tokener_success) {
        if (root)
            json_object_put(root);
        return NULL;
    }
    return root;
}

/* The document's tree: the outline only when the big arrays could be split
 * (their elements are parsed one by one as they are read), else all of it. */
json_object *document_parse(struct loader *loader, const char *data,
                           size_t size)
{
    if (size == 0)
        loader_fail(loader, "empty file");
    size_t bad = utf8_error_offset((const unsigned char *)data, size);
    if (bad != SIZE_MAX)
        loader_fail(loader, "invalid UTF-8 at byte %zu (a profile is UTF-8 text)", bad);
    /* A byte order mark is allowed (and skipped), as browsers skip it. */
    if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        data += 3;
        size -= 3;
    }
    loader->data = data;
    loader->size = size;
    if (loader->split_arrays && json_split(data, size, &loader->split)) {
        loader->element_tokener = new_tokener(loader, 62);
        json_object *outline = parse_outline(loader);
        if (outline)
            return outline;
    }
    json_split_free(&loader->split);
    return parse_whole(loader, data, size);
}

json_object *document_element(struct loader *loader, json_object *array,
                              const char *name, size_t index)
{
    const struct json_split_array *split = split_array(loader, name);
    return split ? parse_element(loader, split, index)
                 : json_object_get(json_object_array_get_idx(array, index));
}

void document_release(struct loader *loader)
{
    json_split_free(&loader->split);
    if (loader->element_tokener)
        json_tokener_free(loader->element_tokener);
    loader->element_tokener = NULL;
}
