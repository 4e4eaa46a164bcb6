/* profile_defaults.c: the members a version 2 profile leaves out of a site,
 * put back before the site is read (docs/format.md, "Omitted members").
 *
 * The tool leaves out a site member that equals its documented default: 0,
 * false, null or empty for most, another member of the same site for a few
 * (max_bytes is total_bytes unless written, lifetime.min is lifetime.sum,
 * access.never_read_bytes is access.measured_bytes, ...). It writes the
 * label and the key across runs as stack positions into the frame table,
 * and the allocator frames as an index into the profile's
 * "allocator_stacks". This file adds each absent member to the site's
 * json-c object with its value, so profile.c reads a version 2 site exactly
 * as a version 1 site, with the same checks and the same messages.
 *
 * A default is only added when what it is made from is usable (a count
 * from a count, a label from in-range stack positions); otherwise the
 * member stays absent and profile.c reports the member at fault.
 *
 * expandSite in viewer/src/model/profile.js is this file's twin in
 * JavaScript, rule for rule and message for message: a change here is made
 * there too. Both are checked against a version 1 copy of real profiles
 * (tests/cli/match_keys.sh, tests/viewer/real_profile.test.js) and against
 * the same broken references (tests/hostile/make_hostile.py).
 *
 * Copyright (C) lifeheap contributors. SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile_defaults.h"
#include "text_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_object *member(json_object *object, const char *key)
{
    json_object *value = NULL;
    return json_object_object_get_ex(object, key, &value) ? value : NULL;
}

static bool has(json_object *object, const char *key)
{
    return json_object_object_get_ex(object, key, NULL);
}

static bool count_of(json_object *object, const char *key, uint64_t *out)
{
    json_object *value = member(object, key);
    if (!value || !json_object_is_type(value, json_type_int) ||
        json_object_get_int64(value) < 0)
        return false;
    *out = (uint64_t)json_object_get_int64(value);
    return true;
}

static void add(json_object *object, const char *key, json_object *value)
{
    json_object_object_add(object, key, value);
}

static void default_count(json_object *object, const char *key, uint64_t value)
{
    if (!has(object, key))
        add(object, key, json_object_new_int64((int64_t)value));
}

/* key defaults to the count at from_key (when that is a count). */
static void default_count_from(json_object *object, const char *key,
                               json_object *from, const char *from_key)
{
    uint64_t value;
    if (!has(object, key) && count_of(from, from_key, &value))
        add(object, key, json_object_new_int64((int64_t)value));
}

/* object[key] when it is an object; a new empty one when absent; NULL
 * when it is something else (profile.c says what). */
static json_object *default_object(json_object *object, const char *key)
{
    json_object *value = member(object, key);
    if (!has(object, key)) {
        value = json_object_new_object();
        add(object, key, value);
    }
    return json_object_is_type(value, json_type_object) ? value : NULL;
}

/* A histogram written from its first non-zero bucket: key_start zeros put
 * back in front (an absent histogram is empty). */
static void expand_histogram(json_object *object, const char *start_key,
                             const char *key)
{
    uint64_t start = 0;
    json_object *counts = member(object, key);
    if (has(object, start_key) && !count_of(object, start_key, &start))
        return;
    if (counts && !json_object_is_type(counts, json_type_array))
        return;
    if (start > 64)   /* a log2 histogram has 64 buckets */
        return;
    json_object *full = json_object_new_array();
    for (uint64_t i = 0; i < start; i++)
        json_object_array_add(full, json_object_new_int64(0));
    size_t n = counts ? json_object_array_length(counts) : 0;
    for (size_t i = 0; i < n; i++)
        json_object_array_add(full,
                              json_object_get(json_object_array_get_idx(counts, i)));
    json_object_object_del(object, start_key);
    add(object, key, full);
}

/* The site's stack as frame indices when every entry is one in range;
 * NULL otherwise (profile.c reports the stack). */
static size_t *stack_of(json_object *site, size_t frame_count, size_t *length)
{
    json_object *stack = member(site, "stack");
    *length = 0;
    if (!stack)
        return calloc(1, sizeof(size_t));
    if (!json_object_is_type(stack, json_type_array))
        return NULL;
    size_t n = json_object_array_length(stack);
    size_t *frames = calloc(n + 1, sizeof *frames);
    if (!frames)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        json_object *entry = json_object_array_get_idx(stack, i);
        if (!json_object_is_type(entry, json_type_int) ||
            json_object_get_int64(entry) < 0 ||
            (uint64_t)json_object_get_int64(entry) >= frame_count) {
            free(frames);
            return NULL;
        }
        frames[i] = (size_t)json_object_get_int64(entry);
    }
    *length = n;
    return frames;
}

/* Element i of a list of stack positions, when it is one (< stack_length). */
static bool position_at(json_object *list, size_t i, size_t stack_length,
                        uint64_t *position)
{
    json_object *entry = json_object_array_get_idx(list, i);
    if (!json_object_is_type(entry, json_type_int) ||
        json_object_get_int64(entry) < 0 ||
        (uint64_t)json_object_get_int64(entry) >= stack_length)
        return false;
    *position = (uint64_t)json_object_get_int64(entry);
    return true;
}

static const char *frame_text(const struct frame *frame)
{
    return frame->text ? frame->text : "???";
}

/* The label joined from the frame table: the name frame's text, " via "
 * before a caller's, ", allocated by " before the first callee's and " > "
 * before the next, then " #n". NULL (label left absent) when a position
 * is not in the stack. */
static char *join_label(json_object *site, const struct frame *frames,
                        const size_t *stack, size_t stack_length,
                        uint64_t name_frame, const char **error)
{
    json_object *parts = member(site, "label_frames");
    uint64_t number = 0;
    struct text_builder text = {0};
    bool callee_seen = false;
    if (parts && !json_object_is_type(parts, json_type_array)) {
        *error = "label_frames: expected an array";
        return NULL;
    }
    if (has(site, "label_number") && !count_of(site, "label_number", &number)) {
        *error = "label_number: expected a count";
        return NULL;
    }
    text_append_string(&text, stack_length
                                  ? frame_text(&frames[stack[name_frame]])
                                  : "???");
    size_t n = parts ? json_object_array_length(parts) : 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t position;
        if (!position_at(parts, i, stack_length, &position)) {
            *error = "label_frames: a position outside the stack";
            text_free(&text);
            return NULL;
        }
        const char *separator = position > name_frame ? " via "
                                : callee_seen         ? " > "
                                                      : ", allocated by ";
        if (position < name_frame)
            callee_seen = true;
        text_append_string(&text, separator);
        text_append_string(&text, frame_text(&frames[stack[position]]));
    }
    if (number > 0) {
        char suffix[32];
        snprintf(suffix, sizeof suffix, " #%llu", (unsigned long long)number);
        text_append_string(&text, suffix);
    }
    char *label = text_take(&text);
    if (!label)
        *error = "out of memory";
    return label;
}

/* match_key and match_lines joined from the kept stack positions
 * ("match_frames", every position when absent) and the frames'
 * "match_text" and "line". */
static const char *join_match_key(json_object *site, const struct frame *frames,
                                  const size_t *stack, size_t stack_length)
{
    json_object *kept = member(site, "match_frames");
    if (kept && !json_object_is_type(kept, json_type_array))
        return "match_frames: expected an array";
    size_t n = kept ? json_object_array_length(kept) : stack_length;
    struct text_builder key = {0};
    json_object *lines = json_object_new_array();
    text_append(&key, "", 0);
    for (size_t i = 0; i < n; i++) {
        uint64_t position = i;
        if (kept && !position_at(kept, i, stack_length, &position)) {
            text_free(&key);
            json_object_put(lines);
            return "match_frames: a position outside the stack";
        }
        const struct frame *frame = &frames[stack[position]];
        if (!frame->match_text) {
            text_free(&key);
            json_object_put(lines);
            return "match_frames: a frame without match_text";
        }
        text_append_string(&key, frame->match_text);
        text_append_string(&key, "\n");
        json_object_array_add(lines,
                              json_object_new_int64(frame->line > 0 ? frame->line : 0));
    }
    if (key.failed) {
        text_free(&key);
        json_object_put(lines);
        return "out of memory";
    }
    json_object_object_del(site, "match_frames");
    add(site, "match_key", json_object_new_string(key.data));
    add(site, "match_lines", lines);
    text_free(&key);
    return NULL;
}

static void expand_access(json_object *site)
{
    json_object *access = default_object(site, "access");
    if (!access)
        return;
    if (!has(access, "block_size"))
        add(access, "block_size", NULL);
    static const char *const zero[] = {"bytes_read", "bytes_written",
                                       "written_never_read_bytes",
                                       "idle_before_free",
                                       "first_access_delay"};
    static const char *const of_measured[] = {"never_read_bytes",
                                              "never_written_bytes",
                                              "never_accessed_bytes",
                                              "unused_capacity_bytes"};
    for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
        default_count(access, zero[i], 0);
    default_count_from(access, "measured_bytes", site, "total_bytes");
    for (size_t i = 0; i < sizeof of_measured / sizeof *of_measured; i++)
        default_count_from(access, of_measured[i], access, "measured_bytes");
    json_object *at_peak = default_object(access, "at_peak");
    if (at_peak) {
        default_count_from(at_peak, "bytes", site, "bytes_at_peak");
        for (size_t i = 0; i < sizeof of_measured / sizeof *of_measured; i++)
            default_count_from(at_peak, of_measured[i], at_peak, "bytes");
    }
    if (!has(access, "map"))
        add(access, "map", NULL);
}

const char *profile_expand_site(json_object *site, size_t index,
                                const struct frame *frames, size_t frame_count,
                                json_object *allocator_stacks)
{
    static const char *const zero[] = {
        "total_blocks", "total_bytes", "bytes_at_peak", "blocks_at_peak",
        "bytes_at_exit", "blocks_at_exit", "freed_blocks", "reallocs",
        "realloc_requested_bytes", "realloc_bytes_copied",
        "realloc_growth_bytes", "first_alloc_time", "cross_thread_frees"};
    const char *error = NULL;

    default_count(site, "id", index);
    if (!has(site, "stack"))
        add(site, "stack", json_object_new_array());
    default_count(site, "name_frame", 0);
    size_t stack_length;
    size_t *stack = stack_of(site, frame_count, &stack_length);
    uint64_t name_frame = 0;
    bool name_ok = count_of(site, "name_frame", &name_frame) &&
                   (stack_length ? name_frame < stack_length : name_frame == 0);
    if (stack && name_ok && !has(site, "label")) {
        char *label = join_label(site, frames, stack, stack_length, name_frame,
                                 &error);
        if (label) {
            add(site, "label", json_object_new_string(label));
            free(label);
        }
    }
    json_object_object_del(site, "label_frames");
    json_object_object_del(site, "label_number");
    if (!error && stack && !has(site, "match_key"))
        error = join_match_key(site, frames, stack, stack_length);
    free(stack);
    if (error)
        return error;

    if (!has(site, "runtime_only"))
        add(site, "runtime_only", json_object_new_boolean(0));
    if (!has(site, "notes"))
        add(site, "notes", json_object_new_array());
    for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
        default_count(site, zero[i], 0);
    default_count_from(site, "max_bytes", site, "total_bytes");
    default_count_from(site, "max_blocks", site, "total_blocks");
    default_count_from(site, "max_time", site, "first_alloc_time");
    default_count_from(site, "last_alloc_time", site, "first_alloc_time");
    default_count(site, "allocating_threads", 1);

    json_object *lifetime = default_object(site, "lifetime");
    if (lifetime) {
        default_count(lifetime, "sum", 0);
        default_count_from(lifetime, "min", lifetime, "sum");
        default_count_from(lifetime, "max", lifetime, "sum");
        expand_histogram(lifetime, "histogram_start", "histogram");
    }
    expand_histogram(site, "size_histogram_start", "size_histogram");
    json_object *zero_size = default_object(site, "zero_size_blocks");
    if (zero_size) {
        default_count(zero_size, "total", 0);
        default_count(zero_size, "at_peak", 0);
        default_count(zero_size, "at_exit", 0);
    }
    if (!has(site, "allocator_frames")) {
        uint64_t which;
        json_object *frames_list = NULL;
        if (has(site, "allocator_stack")) {
            if (!count_of(site, "allocator_stack", &which) || !allocator_stacks ||
                !json_object_is_type(allocator_stacks, json_type_array) ||
                which >= json_object_array_length(allocator_stacks))
                return "allocator_stack: not an index into allocator_stacks";
            frames_list = json_object_get(
                json_object_array_get_idx(allocator_stacks, (size_t)which));
        } else {
            frames_list = json_object_new_array();
        }
        json_object_object_del(site, "allocator_stack");
        add(site, "allocator_frames", frames_list);
    }
    expand_access(site);
    if (!has(site, "growth"))
        add(site, "growth", NULL);
    return NULL;
}
