/* Reading one field of a profile, checked (profile_fields.c): each ends
 * the parse through loader_fail() with the field's path on anything
 * unexpected. Private to the profile reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_PROFILE_FIELDS_H
#define LIFEHEAP_PROFILE_FIELDS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile_counts.h"
#include "profile_loader.h"

void *checked_calloc(struct loader *loader, size_t count, size_t size);
char *checked_strdup(struct loader *loader, const char *text);

/* "an integer", "a string", ...: for messages. */
const char *type_name(json_object *value);

/* The member `key`: NULL when absent or null. */
json_object *member(json_object *object, const char *key);
/* Whether `object` has the member `key`, null included. */
bool present(json_object *object, const char *key);

/* Required members of `object` (the error path names it). */
json_object *required_member(struct loader *loader, json_object *object,
                             const char *key);
json_object *require(struct loader *loader, json_object *object,
                     const char *key, enum json_type type,
                     const char *type_wanted);
json_object *require_object(struct loader *loader, json_object *object,
                            const char *key);
json_object *require_array(struct loader *loader, json_object *object,
                           const char *key);
uint64_t require_count(struct loader *loader, json_object *object,
                       const char *key);
double require_number(struct loader *loader, json_object *object,
                      const char *key);
char *require_string(struct loader *loader, json_object *object,
                     const char *key);
/* A string member that may be null (NULL then). */
char *optional_string(struct loader *loader, json_object *object,
                      const char *key);
bool require_bool(struct loader *loader, json_object *object,
                  const char *key);

/* A count (a non-negative integer up to 2^53 - 1) named `key`. */
uint64_t integer_value(struct loader *loader, json_object *value,
                       const char *key);
/* Element `index` of the array `key`, which must be a count. */
uint64_t integer_element(struct loader *loader, json_object *array,
                         const char *key, size_t index);

/* The counts of a table (profile_counts.h) into the model's struct. */
void read_count_members(struct loader *loader, json_object *object,
                        void *model, const struct count_members *counts);

/* The error path: set to a formatted prefix ("sites[3]."), extended by
 * "key." when entering a member object. */
void set_path(struct loader *loader, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
void extend_path(struct loader *loader, const char *key);

/* The member object `key`, the error path then at its members. */
json_object *enter_member(struct loader *loader, json_object *object,
                          const char *key);
/* The top-level member object `key` ("totals."). */
json_object *section(struct loader *loader, json_object *root,
                     const char *key);
/* `value`, named by `format` ("sites[3].notes[1]"), which must be an
 * object (`wanted` words the alternative the message names). */
json_object *object_at(struct loader *loader, json_object *value,
                       const char *wanted, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

#endif
