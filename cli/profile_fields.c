/* Reading one field of a profile: each function checks the JSON type and
 * range of a member, copies what it keeps out of the json-c tree, and on
 * anything unexpected ends the parse with a message naming the field's
 * path ("sites[12].stack[3]: expected an integer, found a string").
 * loader->path holds that path's prefix; the functions that enter an
 * object extend it. profile.c reads the sections with these.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "profile_fields.h"

#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void loader_fail(struct loader *loader, const char *format, ...)
{
    char reason[512];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    snprintf(loader->error, loader->error_size, "lifeheap: %s: %s",
             loader->name, reason);
    longjmp(loader->on_error, 1);
}

void *checked_calloc(struct loader *loader, size_t count, size_t size)
{
    void *memory = calloc(count ? count : 1, size);
    if (!memory)
        loader_fail(loader, "out of memory");
    return memory;
}

char *checked_strdup(struct loader *loader, const char *text)
{
    char *copy = strdup(text);
    if (!copy)
        loader_fail(loader, "out of memory");
    return copy;
}

/*--- Typed field access -------------------------------------------------*/

const char *type_name(json_object *value)
{
    switch (json_object_get_type(value)) {
    case json_type_null: return "null";
    case json_type_boolean: return "a boolean";
    case json_type_double: return "a number with a fraction";
    case json_type_int: return "an integer";
    case json_type_object: return "an object";
    case json_type_array: return "an array";
    case json_type_string: return "a string";
    }
    return "an unknown type";
}

/* The member `key` of `object`, or NULL when absent or null (json-c
 * represents JSON null as a NULL object). */
json_object *member(json_object *object, const char *key)
{
    json_object *value = NULL;
    if (!json_object_object_get_ex(object, key, &value))
        return NULL;
    return value;
}

/* Whether `object` has the member `key`, null included. */
bool present(json_object *object, const char *key)
{
    return json_object_object_get_ex(object, key, NULL);
}

/* The member `key` of `object`, which must be there (NULL when null). */
json_object *required_member(struct loader *loader, json_object *object,
                             const char *key)
{
    if (!present(object, key))
        loader_fail(loader, "%s%s: missing", loader->path, key);
    return member(object, key);
}

json_object *require(struct loader *loader, json_object *object,
                     const char *key, enum json_type type,
                     const char *type_wanted)
{
    json_object *value = required_member(loader, object, key);
    if (!json_object_is_type(value, type))
        loader_fail(loader, "%s%s: expected %s, found %s", loader->path, key,
             type_wanted, type_name(value));
    return value;
}

json_object *require_object(struct loader *loader, json_object *object,
                            const char *key)
{
    return require(loader, object, key, json_type_object, "an object");
}

json_object *require_array(struct loader *loader, json_object *object,
                           const char *key)
{
    return require(loader, object, key, json_type_array, "an array");
}

uint64_t integer_value(struct loader *loader, json_object *value,
                       const char *key)
{
    if (!json_object_is_type(value, json_type_int))
        loader_fail(loader, "%s%s: expected an integer, found %s", loader->path, key,
             type_name(value));
    if (json_object_get_int64(value) < 0)
        loader_fail(loader, "%s%s: negative value %lld", loader->path, key,
             (long long)json_object_get_int64(value));
    uint64_t number = json_object_get_uint64(value);
    if (number > PROFILE_MAX_INTEGER)
        loader_fail(loader, "%s%s: value out of range (more than 2^53 - 1)",
             loader->path, key);
    return number;
}

uint64_t require_count(struct loader *loader, json_object *object,
                       const char *key)
{
    return integer_value(loader, required_member(loader, object, key), key);
}

double require_number(struct loader *loader, json_object *object,
                      const char *key)
{
    json_object *value = required_member(loader, object, key);
    if (!json_object_is_type(value, json_type_int) &&
        !json_object_is_type(value, json_type_double))
        loader_fail(loader, "%s%s: expected a number, found %s", loader->path, key,
             type_name(value));
    return json_object_get_double(value);
}

char *require_string(struct loader *loader, json_object *object,
                     const char *key)
{
    json_object *value = require(loader, object, key, json_type_string,
                                 "a string");
    return checked_strdup(loader, json_object_get_string(value));
}

/* A string field that may be null (unknown). */
char *optional_string(struct loader *loader, json_object *object,
                      const char *key)
{
    json_object *value = required_member(loader, object, key);
    if (json_object_is_type(value, json_type_null))
        return NULL;
    if (!json_object_is_type(value, json_type_string))
        loader_fail(loader, "%s%s: expected a string or null, found %s", loader->path,
             key, type_name(value));
    return checked_strdup(loader, json_object_get_string(value));
}

bool require_bool(struct loader *loader, json_object *object,
                  const char *key)
{
    json_object *value = require(loader, object, key, json_type_boolean,
                                 "a boolean");
    return json_object_get_boolean(value);
}

/* The counts of a table (profile_counts.h), members of `object`, into the
 * model's struct at `model`. */
void read_count_members(struct loader *loader, json_object *object,
                        void *model, const struct count_members *counts)
{
    for (size_t m = 0; m < counts->count; m++) {
        uint64_t value = require_count(loader, object, counts->members[m].key);
        memcpy((char *)model + counts->members[m].offset, &value,
               sizeof value);
    }
}

/* Sets loader->path to a printf-formatted prefix such as "sites[3].". */
void set_path(struct loader *loader, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(loader->path, sizeof loader->path, format, args);
    va_end(args);
}

/* Adds "key." to the error path: the members of the object at `key`. */
void extend_path(struct loader *loader, const char *key)
{
    size_t used = strlen(loader->path);
    snprintf(loader->path + used, sizeof loader->path - used, "%s.", key);
}

/* The member `key` of `object`, which must be an object; leaves the error
 * path at its members. */
json_object *enter_member(struct loader *loader, json_object *object,
                          const char *key)
{
    json_object *value = require_object(loader, object, key);
    extend_path(loader, key);
    return value;
}

/* The top-level member `key`, which must be an object; leaves the error
 * path at its members ("totals."). */
json_object *section(struct loader *loader, json_object *root,
                     const char *key)
{
    set_path(loader, "%s", "");
    return enter_member(loader, root, key);
}

/* `value`, named by the printf-formatted `format` ("sites[3].notes[1]"),
 * which must be an object (`wanted` words what else the message says was
 * expected); leaves the error path at its members. */
json_object *object_at(struct loader *loader, json_object *value,
                       const char *wanted, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(loader->path, sizeof loader->path, format, args);
    va_end(args);
    if (!json_object_is_type(value, json_type_object))
        loader_fail(loader, "%s: expected %s, found %s", loader->path, wanted,
             type_name(value));
    extend_path(loader, "");
    return value;
}

/* Element `index` of the array `key` (a member of the object the error
 * path names), which must be a count. */
uint64_t integer_element(struct loader *loader, json_object *array,
                         const char *key, size_t index)
{
    char element[96];
    snprintf(element, sizeof element, "%s[%zu]", key, index);
    return integer_value(loader, json_object_array_get_idx(array, index),
                         element);
}
