/* cargo-lifeheap: asking cargo about the workspace and building the target.
 *
 * `cargo metadata --format-version 1 --no-deps` gives the target directory
 * (wherever cargo's configuration puts it: CARGO_TARGET_DIR,
 * build.target-dir, the workspace root) and each workspace member's
 * targets, so a misspelt --bin can be answered with the names that exist.
 *
 * The build is the command cargo itself uses for that kind of target:
 * `cargo build` for a bin or an example (as `cargo run` builds it),
 * `cargo test --no-run` for a test or a library's unit tests (--lib) and
 * `cargo bench --no-run` for a bench (the test and bench profiles, as
 * `cargo test` and `cargo bench` build them). With
 * --message-format=json-render-diagnostics cargo still prints its warnings
 * and errors for people on stderr, and writes one JSON message per line on
 * stdout; each "compiler-artifact" message names its target
 * (target.kind, target.name) and, for a program, the "executable" it
 * linked. That path is the one run: nothing is guessed from the layout of
 * target/ (a test's binary is deps/<name>-<hash>).
 *
 * The settings lifeheap needs go through cargo's environment, never into
 * the user's Cargo.toml, for the dev, release, test and bench profiles and
 * the one named by --profile (a variable the user already set wins):
 *
 *   CARGO_PROFILE_<P>_DEBUG=1                line tables and function
 *       names, inlined functions included: every frame gets file:line
 *   CARGO_PROFILE_<P>_STRIP=none             keep the symbols, even when
 *       the profile strips them for shipping
 *   CARGO_PROFILE_<P>_SPLIT_DEBUGINFO=off    debug info inside the
 *       executable, where Valgrind reads it
 *
 * RUSTFLAGS is left alone: setting it would replace the user's own flags
 * (from the environment or .cargo/config.toml) and rebuild everything. The
 * build goes to its own target directory (request->build_directory, by
 * default <target>/lifeheap), so these settings never replace the user's
 * own build in target/debug or target/release, nor make the next plain
 * `cargo build` start over.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cargo.h"

/*--- JSON helpers -------------------------------------------------------*/

static json_object *member(json_object *object, const char *key)
{
    json_object *value = NULL;
    if (!object || !json_object_is_type(object, json_type_object) ||
        !json_object_object_get_ex(object, key, &value))
        return NULL;
    return value;
}

/* A copy of a string member, or NULL when absent or not a string. */
static char *string_member(json_object *object, const char *key)
{
    json_object *value = member(object, key);
    if (!value || !json_object_is_type(value, json_type_string))
        return NULL;
    return checked_strdup(json_object_get_string(value));
}

/* The first element of target.kind (["bin"], ["test"], ["lib", "rlib"]). */
static char *first_kind(json_object *target)
{
    json_object *kinds = member(target, "kind");
    if (!kinds || !json_object_is_type(kinds, json_type_array) ||
        json_object_array_length(kinds) == 0)
        return NULL;
    json_object *kind = json_object_array_get_idx(kinds, 0);
    if (!json_object_is_type(kind, json_type_string))
        return NULL;
    return checked_strdup(json_object_get_string(kind));
}

/*--- cargo metadata -----------------------------------------------------*/

static void add_cargo_command(struct string_list *argv,
                              const struct build_request *request,
                              const char *command)
{
    list_add(argv, request->cargo);
    list_add(argv, command);
}

static void add_all(struct string_list *argv, const struct string_list *more)
{
    for (size_t i = 0; i < more->count; i++)
        list_add(argv, more->items[i]);
}

/* Reads all of a file descriptor into a NUL-terminated buffer. */
static char *read_all(int descriptor)
{
    size_t length = 0, capacity = 65536;
    char *buffer = checked_malloc(capacity);
    for (;;) {
        if (length + 1 >= capacity) {
            char *bigger = realloc(buffer, capacity * 2);
            if (!bigger) {
                free(buffer);
                return NULL;
            }
            buffer = bigger;
            capacity *= 2;
        }
        ssize_t got = read(descriptor, buffer + length, capacity - length - 1);
        if (got < 0) {
            free(buffer);
            return NULL;
        }
        if (got == 0)
            break;
        length += (size_t)got;
    }
    buffer[length] = '\0';
    return buffer;
}

static void free_package(struct package *package)
{
    for (size_t t = 0; t < package->target_count; t++) {
        free(package->targets[t].kind);
        free(package->targets[t].name);
    }
    free(package->targets);
    free(package->id);
    free(package->name);
    free(package->version);
    free(package->manifest_path);
    free(package->default_run);
}

/* One package of cargo metadata; false (what was read is left for
 * free_package) when it lacks an id, a name or a manifest. */
static bool read_package(json_object *entry, struct package *package)
{
    memset(package, 0, sizeof *package);
    package->id = string_member(entry, "id");
    package->name = string_member(entry, "name");
    package->version = string_member(entry, "version");
    package->manifest_path = string_member(entry, "manifest_path");
    package->default_run = string_member(entry, "default_run");
    if (!package->id || !package->name || !package->manifest_path)
        return false;
    json_object *targets = member(entry, "targets");
    size_t count = targets && json_object_is_type(targets, json_type_array)
                       ? json_object_array_length(targets)
                       : 0;
    package->targets = calloc(count ? count : 1, sizeof *package->targets);
    if (!package->targets)
        return false;
    for (size_t i = 0; i < count; i++) {
        json_object *target = json_object_array_get_idx(targets, i);
        char *kind = first_kind(target), *name = string_member(target, "name");
        if (kind && name) {
            package->targets[package->target_count].kind = kind;
            package->targets[package->target_count++].name = name;
        } else {
            free(kind);
            free(name);
        }
    }
    return true;
}

int read_workspace(const struct build_request *request,
                   struct workspace *workspace)
{
    memset(workspace, 0, sizeof *workspace);
    struct string_list argv = {0};
    add_cargo_command(&argv, request, "metadata");
    list_add(&argv, "--format-version");
    list_add(&argv, "1");
    list_add(&argv, "--no-deps");
    add_all(&argv, &request->common_options);
    int output = -1;
    pid_t child = start_program(argv.items, NULL, NULL, &output, -1);
    list_free(&argv);
    if (child < 0)
        return -1;
    char *text = read_all(output);
    close(output);
    int status = wait_program(child, false);
    if (status != 0) {
        free(text);
        return status;
    }
    json_object *root = text ? json_tokener_parse(text) : NULL;
    free(text);
    json_object *packages = member(root, "packages");
    workspace->target_directory = string_member(root, "target_directory");
    if (!workspace->target_directory || !packages ||
        !json_object_is_type(packages, json_type_array)) {
        fprintf(stderr, "cargo lifeheap: cannot read the output of "
                        "cargo metadata\n");
        json_object_put(root);
        free_workspace(workspace);
        return -1;
    }
    size_t count = json_object_array_length(packages);
    workspace->packages = calloc(count ? count : 1,
                                 sizeof *workspace->packages);
    for (size_t i = 0; workspace->packages && i < count; i++) {
        struct package *package =
            &workspace->packages[workspace->package_count];
        if (read_package(json_object_array_get_idx(packages, i), package))
            workspace->package_count++;
        else
            free_package(package);
    }
    json_object_put(root);
    return 0;
}

void free_workspace(struct workspace *workspace)
{
    for (size_t i = 0; i < workspace->package_count; i++)
        free_package(&workspace->packages[i]);
    free(workspace->packages);
    free(workspace->target_directory);
    memset(workspace, 0, sizeof *workspace);
}

const struct package *find_package(const struct workspace *workspace,
                                   const char *id)
{
    for (size_t i = 0; id && i < workspace->package_count; i++)
        if (strcmp(workspace->packages[i].id, id) == 0)
            return &workspace->packages[i];
    return NULL;
}

/*--- The build ----------------------------------------------------------*/

/* Adds NAME=VALUE unless NAME is already in the environment. */
static void set_default(struct string_list *environment, const char *name,
                        const char *value)
{
    if (getenv(name))
        return;
    char setting[512];
    snprintf(setting, sizeof setting, "%s=%s", name, value);
    list_add(environment, setting);
}

/* The settings of cargo_build.c's header for one profile. A profile's
 * variables use its name in upper case with '-' as '_'. */
static void add_profile_settings(struct string_list *environment,
                                 const char *profile)
{
    char upper[200], name[300];
    size_t length = 0;
    for (const char *p = profile; *p && length + 1 < sizeof upper; p++)
        upper[length++] = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
    upper[length] = '\0';
    snprintf(name, sizeof name, "CARGO_PROFILE_%s_DEBUG", upper);
    set_default(environment, name, "1");
    snprintf(name, sizeof name, "CARGO_PROFILE_%s_STRIP", upper);
    set_default(environment, name, "none");
    snprintf(name, sizeof name, "CARGO_PROFILE_%s_SPLIT_DEBUGINFO", upper);
    set_default(environment, name, "off");
}

static void add_artifact(struct artifact_list *artifacts, char *kind,
                         char *name, char *executable, char *package_id)
{
    if (artifacts->count == artifacts->capacity) {
        size_t capacity = artifacts->capacity ? artifacts->capacity * 2 : 8;
        struct artifact *bigger =
            realloc(artifacts->items, capacity * sizeof *bigger);
        if (!bigger) {
            fprintf(stderr, "cargo lifeheap: out of memory\n");
            exit(2);
        }
        artifacts->items = bigger;
        artifacts->capacity = capacity;
    }
    artifacts->items[artifacts->count++] =
        (struct artifact){kind, name, executable, package_id};
}

/* True when one of target.kind's entries is of the wanted kind. */
static bool has_kind(json_object *target, enum target_kind wanted)
{
    json_object *kinds = member(target, "kind");
    size_t count = kinds && json_object_is_type(kinds, json_type_array)
                       ? json_object_array_length(kinds)
                       : 0;
    for (size_t i = 0; i < count; i++) {
        json_object *kind = json_object_array_get_idx(kinds, i);
        if (json_object_is_type(kind, json_type_string) &&
            kind_matches(wanted, json_object_get_string(kind)))
            return true;
    }
    return false;
}

/* One line of cargo's output: keeps a compiler-artifact with an executable
 * of the wanted kind (a library's is its unit-test harness). Other
 * messages (and any line that is not JSON) are not ours to read. */
static void read_message(const char *line, enum target_kind wanted,
                         struct artifact_list *artifacts)
{
    if (line[0] != '{')
        return;
    json_object *message = json_tokener_parse(line);
    json_object *reason = member(message, "reason");
    if (reason && json_object_is_type(reason, json_type_string) &&
        strcmp(json_object_get_string(reason), "compiler-artifact") == 0) {
        json_object *target = member(message, "target");
        char *executable = string_member(message, "executable");
        char *name = string_member(target, "name");
        if (executable && name && has_kind(target, wanted))
            add_artifact(artifacts, checked_strdup(target_kind_name(wanted)),
                         name, executable,
                         string_member(message, "package_id"));
        else {
            free(executable);
            free(name);
        }
    }
    json_object_put(message);
}

int build_targets(const struct build_request *request,
                  struct artifact_list *artifacts)
{
    struct string_list argv = {0}, environment = {0};
    const char *kind = target_kind_name(request->kind);
    switch (request->kind) {
    case TARGET_BIN:
    case TARGET_EXAMPLE:
        add_cargo_command(&argv, request, "build");
        break;
    case TARGET_TEST:
    case TARGET_LIB:
        add_cargo_command(&argv, request, "test");
        list_add(&argv, "--no-run");
        break;
    case TARGET_BENCH:
        add_cargo_command(&argv, request, "bench");
        list_add(&argv, "--no-run");
        break;
    }
    list_add(&argv, "--message-format=json-render-diagnostics");
    list_add(&argv, "--target-dir");
    list_add(&argv, request->build_directory);
    if (request->kind == TARGET_LIB) {
        list_add(&argv, "--lib");
    } else if (request->target_name) {
        char option[32];
        snprintf(option, sizeof option, "--%s", kind);
        list_add(&argv, option);
        list_add(&argv, request->target_name);
    } else {
        list_add(&argv, "--bins");
    }
    /* cargo bench has no --release: its bench profile is already the
     * release profile's settings. */
    if (request->release && request->kind != TARGET_BENCH)
        list_add(&argv, "--release");
    if (request->profile) {
        list_add(&argv, "--profile");
        list_add(&argv, request->profile);
    }
    add_all(&argv, &request->common_options);
    add_all(&argv, &request->build_options);

    static const char *const builtin_profiles[] = {"dev", "release", "test",
                                                   "bench"};
    for (size_t i = 0; i < 4; i++)
        add_profile_settings(&environment, builtin_profiles[i]);
    if (request->profile)
        add_profile_settings(&environment, request->profile);

    int output = -1;
    pid_t child = start_program(argv.items, NULL, &environment, &output, -1);
    list_free(&argv);
    if (child < 0) {
        list_free(&environment);
        return -1;
    }
    FILE *messages = fdopen(output, "r");
    char *line = NULL;
    size_t line_capacity = 0;
    while (messages && getline(&line, &line_capacity, messages) >= 0)
        read_message(line, request->kind, artifacts);
    free(line);
    if (messages)
        fclose(messages);
    else
        close(output);
    int status = wait_program(child, false);
    list_free(&environment);
    return status;
}

void free_artifacts(struct artifact_list *artifacts)
{
    for (size_t i = 0; i < artifacts->count; i++) {
        free(artifacts->items[i].kind);
        free(artifacts->items[i].name);
        free(artifacts->items[i].executable);
        free(artifacts->items[i].package_id);
    }
    free(artifacts->items);
    memset(artifacts, 0, sizeof *artifacts);
}
