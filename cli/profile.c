/* Loading a lifeheap profile (docs/format.md) into the model of profile.h.
 *
 * Validation failures longjmp back to profile_parse(), so each field read is
 * one line and the error message names the exact field
 * ("sites[12].stack[3]: frame index 99 out of range (12 frames)"); the
 * checked reads of single fields are in profile_fields.c.
 * Everything the model holds is copied out of json-c trees, never of the
 * whole document at once: profile_document.c parses the document without
 * the elements of its "frames" and "sites" arrays, and then each element on
 * its own, which is read and released.
 * The consistency rules of docs/profile-rules.json are checked last
 * (profile_rules.c).
 *
 * Fields added after the first profiles (access, growth, findings, timeline)
 * may be absent or null; every field of the foundation (header, run, totals,
 * peak, at_exit, frames, sites) is required.
 * Unknown fields are ignored, as the format requires.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "profile.h"
#include "profile_fields.h"
#include "profile_loader.h"
#include "profile_rules.h"
#include "profile_counts.h"
#include "profile_defaults.h"
#include "text_builder.h"

#include <errno.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*--- Sections -------------------------------------------------------------*/

static void read_header(struct loader *loader, json_object *root)
{
    struct profile *profile = loader->profile;
    if (present(root, "dhatFileVersion"))
        loader_fail(loader, "not a lifeheap profile (it is a DHAT profile: open it "
                     "in DHAT's dh_view.html)");
    json_object *format = member(root, "format");
    if (!format || !json_object_is_type(format, json_type_string) ||
        strcmp(json_object_get_string(format), "lifeheap-profile") != 0)
        loader_fail(loader, "not a lifeheap profile (\"format\" is not "
                     "\"lifeheap-profile\")");
    json_object *version = member(root, "format_version");
    if (!present(root, "format_version"))
        loader_fail(loader, "format_version: missing");
    if (!json_object_is_type(version, json_type_int))
        loader_fail(loader, "format_version: expected an integer, found %s",
             type_name(version));
    profile->format_version = json_object_get_int64(version);
    if (profile->format_version < PROFILE_FORMAT_VERSION_OLDEST ||
        profile->format_version > PROFILE_FORMAT_VERSION)
        loader_fail(loader, "format_version %lld is not supported (this lifeheap "
                     "reads versions %d to %d)",
             (long long)profile->format_version, PROFILE_FORMAT_VERSION_OLDEST,
             PROFILE_FORMAT_VERSION);

    json_object *tool = section(loader, root, "tool");
    profile->tool_version = require_string(loader, tool, "version");
    profile->valgrind_version = require_string(loader, tool,
                                               "valgrind_version");
}

static void read_run(struct loader *loader, json_object *root)
{
    struct profile *profile = loader->profile;
    json_object *run = section(loader, root, "run");
    json_object *command = require_array(loader, run, "command");
    size_t command_len = json_object_array_length(command);
    /* Counts are set after their array exists, so profile_free() can run
     * at any point of a failed load. */
    profile->command = checked_calloc(loader, command_len,
                                      sizeof *profile->command);
    profile->command_len = command_len;
    for (size_t i = 0; i < profile->command_len; i++) {
        json_object *argument = json_object_array_get_idx(command, i);
        if (!json_object_is_type(argument, json_type_string))
            loader_fail(loader, "run.command[%zu]: expected a string, found %s", i,
                 type_name(argument));
        profile->command[i] = checked_strdup(loader,
                                             json_object_get_string(argument));
    }
    profile->executable = optional_string(loader, run, "executable");
    if (present(run, "started_at_unix_ms"))
        profile->started_at_unix_ms = require_count(loader, run,
                                                    "started_at_unix_ms");
    profile->pid = (int64_t)require_count(loader, run, "pid");
    read_count_members(loader, run, profile, &run_counts);
    /* Only the DHAT export needs it: tolerated when absent. */
    json_object *options = member(run, "options");
    json_object *num_callers = options && json_object_is_type(options,
                                                              json_type_object)
                                   ? member(options, "num_callers") : NULL;
    if (num_callers && json_object_is_type(num_callers, json_type_int) &&
        json_object_get_int64(num_callers) > 0)
        profile->num_callers = (uint64_t)json_object_get_int64(num_callers);
    profile->complete = require_bool(loader, run, "complete");
    /* Only worded in the text report: tolerated when absent or odd. */
    json_object *dump_reason = member(run, "dump_reason");
    if (dump_reason && json_object_is_type(dump_reason, json_type_string))
        profile->dump_reason = checked_strdup(loader,
                                              json_object_get_string(dump_reason));

    json_object *exit = enter_member(loader, run, "exit");
    /* Borrowed from the json-c tree: nothing to free when a later field
     * fails. */
    const char *status = json_object_get_string(
        require(loader, exit, "status", json_type_string, "a string"));
    if (strcmp(status, "exited") == 0) {
        profile->exit_status = EXIT_STATUS_EXITED;
        profile->exit_code = (int64_t)require_count(loader, exit, "code");
    } else if (strcmp(status, "signal") == 0) {
        profile->exit_status = EXIT_STATUS_SIGNAL;
        /* Both null when the signal is not known. */
        if (!present(exit, "signal"))
            loader_fail(loader, "run.exit.signal: missing");
        profile->exit_code = member(exit, "signal")
                                 ? (int64_t)require_count(loader, exit,
                                                          "signal")
                                 : -1;
        profile->exit_signal_name = optional_string(loader, exit,
                                                    "signal_name");
    } else if (strcmp(status, "running") == 0) {
        profile->exit_status = EXIT_STATUS_RUNNING;
    } else {
        loader_fail(loader, "run.exit.status: unknown value (expected exited, "
                     "signal or running)");
    }
}

static void read_totals(struct loader *loader, json_object *root)
{
    struct profile *profile = loader->profile;
    json_object *totals = section(loader, root, "totals");
    read_count_members(loader, totals, profile, &totals_counts);
    if (member(totals, "realloc_growth_bytes")) {
        profile->has_total_realloc_growth = true;
        profile->total_realloc_growth_bytes =
            require_count(loader, totals, "realloc_growth_bytes");
    }
    if (present(totals, "invalid_frees"))
        profile->total_invalid_frees =
            require_count(loader, totals, "invalid_frees");
    if (present(totals, "invalid_reallocs"))
        profile->total_invalid_reallocs =
            require_count(loader, totals, "invalid_reallocs");

    read_count_members(loader, section(loader, root, "peak"), profile,
                       &peak_counts);

    read_count_members(loader, section(loader, root, "at_exit"), profile,
                       &at_exit_counts);
}

/* Element `index` of the top-level array `name` (`array` in the tree), which
 * must be an object; leaves the error path at "name[index]." for the
 * element's members. Give it back with release_element(). */
static json_object *array_element_object(struct loader *loader,
                                         json_object *array, const char *name,
                                         size_t index)
{
    json_object *value = document_element(loader, array, name, index);
    loader->element = value;
    return object_at(loader, value, "an object", "%s[%zu]", name, index);
}

static void release_element(struct loader *loader)
{
    if (loader->element)
        json_object_put(loader->element);
    loader->element = NULL;
}

/* The top-level array `name` (in *array) and how many elements it has. */
static size_t top_array(struct loader *loader, json_object *root,
                        const char *name, json_object **array)
{
    set_path(loader, "%s", "");
    *array = require_array(loader, root, name);
    return document_element_count(loader, *array, name);
}

static void read_frames(struct loader *loader, json_object *root)
{
    json_object *frames;
    size_t count = top_array(loader, root, "frames", &frames);
    struct profile *profile = loader->profile;
    profile->frames = checked_calloc(loader, count, sizeof *profile->frames);
    profile->frame_count = count;
    for (size_t i = 0; i < count; i++) {
        json_object *value = array_element_object(loader, frames, "frames", i);
        struct frame *frame = &profile->frames[i];
        frame->function = optional_string(loader, value, "function");
        frame->file = optional_string(loader, value, "file");
        frame->directory = member(value, "directory")
                               ? optional_string(loader, value, "directory")
                               : NULL;
        frame->object = optional_string(loader, value, "object");
        frame->address = require_string(loader, value, "address");
        json_object *line = required_member(loader, value, "line");
        frame->line = json_object_is_type(line, json_type_null)
                          ? -1
                          : (int64_t)integer_value(loader, line, "line");
        frame->inlined = require_bool(loader, value, "inlined");
        /* Both written since the tool names sites from the DWARF; older
           profiles lack them. */
        frame->library = present(value, "library") &&
                         require_bool(loader, value, "library");
        /* Version 2: what the sites' labels and keys are joined from. */
        frame->text = member(value, "text")
                          ? optional_string(loader, value, "text") : NULL;
        frame->match_text = member(value, "match_text")
                                ? optional_string(loader, value, "match_text")
                                : NULL;
        release_element(loader);
    }
}

/* The per-offset counts of a site's access map, as DHAT's "acc" wants them
 * (struct site_access). The map is not needed by anything else, so a map
 * that is absent, of parts, too big or malformed is skipped, not an error. */
static void read_offset_accesses(json_object *access, struct site_access *a)
{
    json_object *map = member(access, "map");
    json_object *kind, *reads, *writes;
    if (!map || !json_object_is_type(map, json_type_object) ||
        !(kind = member(map, "kind")) ||
        !json_object_is_type(kind, json_type_string) ||
        strcmp(json_object_get_string(kind), "bytes") != 0 ||
        !(reads = member(map, "reads")) || !(writes = member(map, "writes")) ||
        !json_object_is_type(reads, json_type_array) ||
        !json_object_is_type(writes, json_type_array))
        return;
    size_t count = json_object_array_length(reads);
    if (count == 0 || count > PROFILE_OFFSET_ACCESS_MAX_BLOCK ||
        json_object_array_length(writes) != count)
        return;
    uint16_t *accesses = calloc(count, sizeof *accesses);
    if (!accesses)
        return;
    for (size_t i = 0; i < count; i++) {
        json_object *r = json_object_array_get_idx(reads, i);
        json_object *w = json_object_array_get_idx(writes, i);
        if (!json_object_is_type(r, json_type_int) ||
            !json_object_is_type(w, json_type_int) ||
            json_object_get_int64(r) < 0 || json_object_get_int64(w) < 0) {
            free(accesses);
            return;
        }
        uint64_t sum = json_object_get_uint64(r) + json_object_get_uint64(w);
        accesses[i] = sum > UINT16_MAX ? UINT16_MAX : (uint16_t)sum;
    }
    a->offset_accesses = accesses;
    a->offset_access_count = count;
}

/* sites[index].name when it is an object, NULL when absent or null (older
 * profiles); anything else fails. Leaves the error path at its members. */
static json_object *optional_site_object(struct loader *loader,
                                         json_object *site_object,
                                         const char *name, size_t index)
{
    json_object *value = member(site_object, name);
    if (!value || json_object_is_type(value, json_type_null))
        return NULL;
    return object_at(loader, value, "an object or null", "sites[%zu].%s",
                     index, name);
}

/* sites[i].access (`access`, NULL when absent or null). */
static void read_access(struct loader *loader, json_object *access,
                        struct site *site)
{
    if (!access)
        return;
    struct site_access *a = &site->access;
    site->has_access = true;
    read_count_members(loader, access, a, &access_counts);
    read_count_members(loader, enter_member(loader, access, "at_peak"), a,
                       &access_at_peak_counts);
    read_offset_accesses(access, a);
    json_object *block_size = member(access, "block_size");
    if (block_size) {
        a->has_block_size = true;
        a->block_size = require_count(loader, access, "block_size");
    }
}

/* zero_size_blocks and allocator_frames: written since they exist, so
 * optional (older profiles, hand-written ones). */
static void read_zero_size_and_allocator(struct loader *loader,
                                         json_object *value,
                                         struct site *site, size_t index)
{
    json_object *zero = member(value, "zero_size_blocks");
    if (zero) {
        object_at(loader, zero, "an object", "sites[%zu].zero_size_blocks",
                  index);
        site->has_zero_size = true;
        read_count_members(loader, zero, site, &zero_size_counts);
    }
    json_object *frames = member(value, "allocator_frames");
    if (!frames)
        return;
    set_path(loader, "sites[%zu].", index);
    frames = require_array(loader, value, "allocator_frames");
    size_t count = json_object_array_length(frames);
    site->allocator_frames = checked_calloc(loader, count ? count : 1,
                                            sizeof *site->allocator_frames);
    for (size_t i = 0; i < count; i++) {
        json_object *frame = object_at(
            loader, json_object_array_get_idx(frames, i), "an object",
            "sites[%zu].allocator_frames[%zu]", index, i);
        site->allocator_frames[i].address = require_string(loader, frame,
                                                           "address");
        site->allocator_frame_count = i + 1;
        site->allocator_frames[i].function = optional_string(loader, frame,
                                                             "function");
        site->allocator_frames[i].object = optional_string(loader, frame,
                                                           "object");
    }
}

/* sites[i].growth (`growth`, NULL when absent or null). */
static void read_growth(struct loader *loader, json_object *growth,
                        struct site *site)
{
    if (!growth)
        return;
    site->has_growth = true;
    site->growth.rising_fraction = require_number(loader, growth,
                                                  "rising_fraction");
    site->growth.slope_bytes_per_million_instructions =
        require_number(loader, growth, "slope_bytes_per_million_instructions");
    site->growth.end_to_max_ratio = require_number(loader, growth,
                                                   "end_to_max_ratio");
}

/* sites[index].notes: absent from profiles written before the tool
 * judged notes (the site then shows none). */
static void read_notes(struct loader *loader, json_object *site_object,
                       struct site *site, size_t index)
{
    if (!present(site_object, "notes"))
        return;
    set_path(loader, "sites[%zu].", index);
    json_object *notes = require_array(loader, site_object, "notes");
    size_t count = json_object_array_length(notes);
    site->notes = checked_calloc(loader, count, sizeof *site->notes);
    site->note_count = count;
    for (size_t i = 0; i < count; i++) {
        /* A member of the site's object (borrowed, not a top-level
         * element: array_element_object is for those). */
        json_object *value = object_at(
            loader, json_object_array_get_idx(notes, i), "an object",
            "sites[%zu].notes[%zu]", index, i);
        site->notes[i].kind = require_string(loader, value, "kind");
        site->notes[i].text = require_string(loader, value, "text");
    }
    set_path(loader, "sites[%zu].", index);
}

static void read_site_timeline(struct loader *loader, json_object *site_object,
                               struct site *site, size_t index);

static void read_site(struct loader *loader, json_object *value,
                      struct site *site, size_t index)
{
    struct profile *profile = loader->profile;
    site->id = require_count(loader, value, "id");
    if (site->id != index)
        loader_fail(loader, "sites[%zu].id: is %zu, must equal the site's position",
             index, site->id);
    if (present(value, "serial")) {
        site->has_serial = true;
        site->serial = require_count(loader, value, "serial");
    }

    json_object *stack = require_array(loader, value, "stack");
    size_t stack_len = json_object_array_length(stack);
    site->stack = checked_calloc(loader, stack_len, sizeof *site->stack);
    site->stack_len = stack_len;
    for (size_t i = 0; i < site->stack_len; i++) {
        uint64_t frame = integer_element(loader, stack, "stack", i);
        if (frame >= profile->frame_count)
            loader_fail(loader, "sites[%zu].stack[%zu]: frame index %llu out of "
                         "range (%zu frames)",
                 index, i, (unsigned long long)frame, profile->frame_count);
        site->stack[i] = frame;
    }
    site->name_frame = require_count(loader, value, "name_frame");
    /* Written since lifeheap 0.1.0's runtime-only rule; older profiles
       lack it (no site is runtime-only then). */
    site->runtime_only = present(value, "runtime_only")
                         && require_bool(loader, value, "runtime_only");
    site->label = present(value, "label")
                      ? optional_string(loader, value, "label") : NULL;
    read_notes(loader, value, site, index);
    /* The identity across runs (docs/format.md, "Site identity across
       runs"); absent from profiles of older lifeheap versions. */
    if (present(value, "match_key") || present(value, "match_lines")) {
        site->match_key = require_string(loader, value, "match_key");
        json_object *lines = require_array(loader, value, "match_lines");
        site->match_lines_len = json_object_array_length(lines);
        site->match_lines = checked_calloc(loader, site->match_lines_len + 1,
                                           sizeof *site->match_lines);
        for (size_t i = 0; i < site->match_lines_len; i++)
            site->match_lines[i] = integer_element(loader, lines,
                                                   "match_lines", i);
        size_t key_lines = 0;
        for (const char *c = site->match_key; *c; c++)
            key_lines += *c == '\n';
        if (key_lines != site->match_lines_len)
            loader_fail(loader, "sites[%zu].match_lines: %zu lines for a match_key "
                         "of %zu frames", index, site->match_lines_len,
                 key_lines);
    }
    if (site->stack_len ? site->name_frame >= site->stack_len
                        : site->name_frame != 0)
        loader_fail(loader, "sites[%zu].name_frame: %zu is outside the stack "
                     "(%zu frames)",
             index, site->name_frame, site->stack_len);

    read_count_members(loader, value, site, &site_counts);
    if (member(value, "realloc_growth_bytes")) {
        site->has_realloc_growth = true;
        site->realloc_growth_bytes = require_count(loader, value,
                                                   "realloc_growth_bytes");
    }
    read_count_members(loader, value, site, &site_late_counts);

    json_object *lifetime = enter_member(loader, value, "lifetime");
    read_count_members(loader, lifetime, site, &lifetime_counts);
    /* Not kept (the viewer draws it), but part of the format: checked as
       the viewer checks it, so both readers refuse the same profiles. */
    require_array(loader, lifetime, "histogram");

    read_zero_size_and_allocator(loader, value, site, index);
    read_access(loader, optional_site_object(loader, value, "access", index),
                site);
    read_growth(loader, optional_site_object(loader, value, "growth", index),
                site);
    read_site_timeline(loader, value, site, index);
}

static void read_sites(struct loader *loader, json_object *root)
{
    struct profile *profile = loader->profile;
    json_object *allocator_stacks = member(root, "allocator_stacks");
    json_object *sites;
    size_t count = top_array(loader, root, "sites", &sites);
    profile->sites = checked_calloc(loader, count, sizeof *profile->sites);
    profile->site_count = count;
    for (size_t i = 0; i < count; i++) {
        json_object *site = array_element_object(loader, sites, "sites", i);
        if (profile->format_version >= 2) {
            const char *error = profile_expand_site(
                site, i, profile->frames, profile->frame_count,
                allocator_stacks);
            if (error)
                loader_fail(loader, "sites[%zu].%s", i, error);
        }
        read_site(loader, site, &profile->sites[i], i);
        release_element(loader);
    }
}

/* An array of `count` integers at object.key into a new array, stored in
 * *values before it is filled, so profile_free() frees it after a failed
 * element. */
static void read_counts(struct loader *loader, json_object *object,
                        const char *key, size_t count, uint64_t **values)
{
    json_object *array = require_array(loader, object, key);
    if (json_object_array_length(array) != count)
        loader_fail(loader, "%s%s: %zu values, expected %zu (one per timeline "
                     "point)",
             loader->path, key, json_object_array_length(array), count);
    *values = checked_calloc(loader, count, sizeof **values);
    for (size_t i = 0; i < count; i++)
        (*values)[i] = integer_element(loader, array, key, i);
}

/* The global timeline and its markers. Optional: a profile without a
 * timeline loads with none. Read before the sites, whose series have one
 * value per timeline point (read_site_timeline). */
static void read_timeline(struct loader *loader, json_object *root)
{
    struct profile *profile = loader->profile;
    json_object *timeline = member(root, "timeline");
    if (!timeline || json_object_is_type(timeline, json_type_null))
        return;
    timeline = section(loader, root, "timeline");
    size_t count = json_object_array_length(
        require_array(loader, timeline, "times"));
    read_counts(loader, timeline, "times", count, &profile->timeline_times);
    profile->timeline_count = count;
    read_counts(loader, timeline, "live_bytes", count,
                &profile->timeline_live_bytes);
    read_counts(loader, timeline, "live_blocks", count,
                &profile->timeline_live_blocks);
    json_object *markers = member(timeline, "markers");
    if (markers && !json_object_is_type(markers, json_type_null)) {
        markers = require_array(loader, timeline, "markers");
        size_t marker_count = json_object_array_length(markers);
        profile->markers = checked_calloc(loader, marker_count,
                                          sizeof *profile->markers);
        profile->marker_count = marker_count;
        for (size_t i = 0; i < marker_count; i++) {
            json_object *marker = array_element_object(
                loader, markers, "timeline.markers", i);
            profile->markers[i].time = require_count(loader, marker, "time");
            profile->markers[i].label = require_string(loader, marker,
                                                       "label");
            release_element(loader);
        }
    }
}

/* A significant site's series of live bytes (one value per timeline
 * point); absent or null for the other sites. */
static void read_site_timeline(struct loader *loader, json_object *site_object,
                               struct site *site, size_t index)
{
    json_object *series = member(site_object, "timeline");
    if (!loader->profile->timeline_times || !series ||
        json_object_is_type(series, json_type_null))
        return;   /* no global timeline: the series are not read */
    set_path(loader, "sites[%zu].", index);
    series = enter_member(loader, site_object, "timeline");
    read_counts(loader, series, "live_bytes", loader->profile->timeline_count,
                &site->timeline_live_bytes);
}

/* A finding's evidence: its numeric members, in order (for the report's
 * labelled figures, docs/evidence-labels.json). */
static void read_evidence(struct loader *loader, json_object *finding_object,
                          struct finding *finding)
{
    json_object *evidence = member(finding_object, "evidence");
    if (!evidence || !json_object_is_type(evidence, json_type_object))
        return;
    finding->evidence = checked_calloc(
        loader, (size_t)json_object_object_length(evidence) + 1,
        sizeof *finding->evidence);
    json_object_object_foreach(evidence, key, member_value)
    {
        if (!json_object_is_type(member_value, json_type_int) &&
            !json_object_is_type(member_value, json_type_double))
            continue;
        struct evidence *item = &finding->evidence[finding->evidence_count++];
        item->name = checked_strdup(loader, key);
        item->value = json_object_get_double(member_value);
    }
}

static void read_findings(struct loader *loader, json_object *root)
{
    struct profile *profile = loader->profile;
    json_object *findings = member(root, "findings");
    if (!findings || json_object_is_type(findings, json_type_null))
        return;
    set_path(loader, "%s", "");
    findings = require_array(loader, root, "findings");
    size_t finding_count = json_object_array_length(findings);
    profile->findings = checked_calloc(loader, finding_count,
                                       sizeof *profile->findings);
    profile->finding_count = finding_count;
    for (size_t i = 0; i < profile->finding_count; i++) {
        json_object *value = array_element_object(loader, findings,
                                                  "findings", i);
        struct finding *finding = &profile->findings[i];
        finding->kind = require_string(loader, value, "kind");
        finding->severity = require_string(loader, value, "severity");
        finding->summary = require_string(loader, value, "summary");
        uint64_t site = require_count(loader, value, "site");
        if (site >= profile->site_count)
            loader_fail(loader, "findings[%zu].site: site %llu does not exist (%zu "
                         "sites)",
                 i, (unsigned long long)site, profile->site_count);
        finding->site = site;
        read_evidence(loader, value, finding);
        release_element(loader);
    }
}

struct profile *profile_parse(const char *name, const char *data, size_t size,
                              char *error, size_t error_size)
{
    return profile_parse_with(name, data, size, true, error, error_size);
}

struct profile *profile_parse_with(const char *name, const char *data,
                                   size_t size, bool split_arrays, char *error,
                                   size_t error_size)
{
    /* volatile: these change between setjmp and a possible longjmp. */
    struct loader loader = {.error = error, .error_size = error_size,
                            .name = name, .split_arrays = split_arrays};
    json_object *volatile root = NULL;
    struct profile *volatile profile = calloc(1, sizeof *profile);
    if (!profile) {
        snprintf(error, error_size, "lifeheap: %s: out of memory", name);
        return NULL;
    }
    loader.profile = profile;
    if (setjmp(loader.on_error)) {
        bool was_split = loader.split.usable;
        if (root)
            json_object_put(root);
        release_element(&loader);
        document_release(&loader);
        profile_free(profile);
        /* Parsed whole, a document's syntax error is found before any
           field is checked, wherever it is; read element by element, a bad
           field may be met first. The whole parse says which comes first,
           so a broken profile gets the message it always got. */
        if (was_split)
            profile_free(profile_parse_with(name, data, size, false, error,
                                            error_size));
        return NULL;
    }
    profile->path = checked_strdup(&loader, name);
    root = document_parse(&loader, data, size);
    if (!json_object_is_type(root, json_type_object))
        loader_fail(&loader, "not a lifeheap profile (the document is %s, not an "
                      "object)",
             type_name(root));
    read_header(&loader, root);
    read_run(&loader, root);
    read_totals(&loader, root);
    read_frames(&loader, root);
    read_timeline(&loader, root);
    read_sites(&loader, root);
    read_findings(&loader, root);
    json_object_put(root);
    root = NULL;
    document_release(&loader);
    char broken[512];
    if (!profile_check_rules(profile, broken, sizeof broken))
        loader_fail(&loader, "%s", broken);
    return profile;
}

struct profile *profile_load(const char *path, char *error, size_t error_size)
{
    FILE *stream = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!stream) {
        snprintf(error, error_size, "lifeheap: %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat info;
    size_t expected = 0;
    if (fstat(fileno(stream), &info) == 0) {
        if (S_ISDIR(info.st_mode)) {
            if (stream != stdin)
                fclose(stream);
            snprintf(error, error_size, "lifeheap: %s: is a directory", path);
            return NULL;
        }
        if (S_ISREG(info.st_mode) && info.st_size > 0)
            expected = (size_t)info.st_size;
    }
    struct text_builder text = {0};
    bool read = text_append_stream(&text, stream, expected);
    if (stream != stdin)
        fclose(stream);
    if (!read) {
        snprintf(error, error_size, "lifeheap: %s: %s", path,
                 text.failed ? "out of memory" : "read error");
        text_free(&text);
        return NULL;
    }
    struct profile *profile = profile_parse(path, text.data, text.length,
                                            error, error_size);
    text_free(&text);
    return profile;
}

void profile_free(struct profile *profile)
{
    if (!profile)
        return;
    free(profile->path);
    free(profile->tool_version);
    free(profile->valgrind_version);
    for (size_t i = 0; i < profile->command_len; i++)
        free(profile->command[i]);
    free(profile->command);
    free(profile->executable);
    free(profile->dump_reason);
    free(profile->exit_signal_name);
    for (size_t i = 0; i < profile->frame_count; i++) {
        struct frame *frame = &profile->frames[i];
        free(frame->function);
        free(frame->file);
        free(frame->directory);
        free(frame->object);
        free(frame->address);
        free(frame->text);
        free(frame->match_text);
    }
    free(profile->frames);
    for (size_t i = 0; i < profile->site_count; i++) {
        free(profile->sites[i].stack);
        free(profile->sites[i].label);
        for (size_t k = 0; k < profile->sites[i].note_count; k++) {
            free(profile->sites[i].notes[k].kind);
            free(profile->sites[i].notes[k].text);
        }
        free(profile->sites[i].notes);
        free(profile->sites[i].match_key);
        free(profile->sites[i].match_lines);
        free(profile->sites[i].access.offset_accesses);
        for (size_t k = 0; k < profile->sites[i].allocator_frame_count; k++) {
            free(profile->sites[i].allocator_frames[k].address);
            free(profile->sites[i].allocator_frames[k].function);
            free(profile->sites[i].allocator_frames[k].object);
        }
        free(profile->sites[i].allocator_frames);
        free(profile->sites[i].timeline_live_bytes);
    }
    free(profile->sites);
    for (size_t i = 0; i < profile->finding_count; i++) {
        free(profile->findings[i].kind);
        free(profile->findings[i].severity);
        free(profile->findings[i].summary);
        for (size_t e = 0; e < profile->findings[i].evidence_count; e++)
            free(profile->findings[i].evidence[e].name);
        free(profile->findings[i].evidence);
    }
    free(profile->findings);
    free(profile->timeline_times);
    free(profile->timeline_live_bytes);
    free(profile->timeline_live_blocks);
    for (size_t i = 0; i < profile->marker_count; i++)
        free(profile->markers[i].label);
    free(profile->markers);
    free(profile);
}

const struct frame *site_name_frame(const struct profile *profile,
                                    const struct site *site)
{
    if (site->stack_len == 0)
        return NULL;
    return &profile->frames[site->stack[site->name_frame]];
}
