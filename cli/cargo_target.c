/* cargo-lifeheap: which target to run. A named target must exist in the
 * workspace (or the packages chosen with -p) before anything is built, so a
 * typo is answered at once with the names that exist. After the build,
 * the executables cargo reported are narrowed to one: the named target, or
 * for no name, the only binary, else the default-run of the one package
 * that built them all (as cargo run chooses); anything else is a usage
 * error that lists the candidates with their packages.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "cargo.h"

bool packages_understood(const struct command_line *options,
                         const struct workspace *workspace)
{
    if (options->other_package_spec)
        return false;
    for (size_t i = 0; i < options->package_names.count; i++) {
        bool member = false;
        for (size_t p = 0; p < workspace->package_count; p++)
            member |= strcmp(options->package_names.items[i],
                             workspace->packages[p].name) == 0;
        if (!member)
            return false;
    }
    return true;
}

static bool package_chosen(const struct command_line *options,
                           const struct package *package)
{
    if (options->package_names.count == 0)
        return true;
    for (size_t i = 0; i < options->package_names.count; i++)
        if (strcmp(options->package_names.items[i], package->name) == 0)
            return true;
    return false;
}

/* Prints the workspace's targets of one kind: "  NAME (package P)". */
static size_t list_targets(const struct command_line *options,
                           const struct workspace *workspace,
                           enum target_kind kind)
{
    size_t listed = 0;
    for (size_t p = 0; p < workspace->package_count; p++) {
        const struct package *package = &workspace->packages[p];
        if (!package_chosen(options, package))
            continue;
        for (size_t t = 0; t < package->target_count; t++)
            if (kind_matches(kind, package->targets[t].kind)) {
                fprintf(stderr, "  %s (package %s)\n", package->targets[t].name,
                        package->name);
                listed++;
            }
    }
    return listed;
}

/* Before building: a named target (or for --lib, a library) must exist in
 * the chosen packages. */
bool target_exists(const struct command_line *options,
                          const struct workspace *workspace)
{
    const char *name = options->request.target_name;
    for (size_t p = 0; p < workspace->package_count; p++) {
        const struct package *package = &workspace->packages[p];
        if (!package_chosen(options, package))
            continue;
        for (size_t t = 0; t < package->target_count; t++)
            if (kind_matches(options->request.kind, package->targets[t].kind) &&
                (!name || strcmp(package->targets[t].name, name) == 0))
                return true;
    }
    return false;
}

int no_such_target(const struct command_line *options,
                          const struct workspace *workspace)
{
    const char *kind = target_kind_name(options->request.kind);
    const char *where = options->package_names.count
                            ? " in the chosen packages"
                            : "";
    if (options->request.kind == TARGET_LIB) {
        fprintf(stderr, "cargo lifeheap: no library%s\n", where);
        return CARGO_EXIT_USAGE;
    }
    fprintf(stderr, "cargo lifeheap: no %s target named '", kind);
    print_safely(options->request.target_name);
    fprintf(stderr, "'%s; the %s targets are:\n", where, kind);
    if (list_targets(options, workspace, options->request.kind) == 0)
        fprintf(stderr, "  (none)\n");
    return CARGO_EXIT_USAGE;
}

static void print_artifact(const struct workspace *workspace,
                           const struct artifact *artifact)
{
    const struct package *package = find_package(workspace,
                                                 artifact->package_id);
    fprintf(stderr, "  %s (package %s)\n", artifact->name,
            package ? package->name : "?");
}

/* Picks the one executable to run among those built; NULL after printing
 * why there is none. */
const struct artifact *choose_artifact(const struct command_line *options,
                                              const struct workspace *workspace,
                                              const struct artifact_list *built)
{
    const struct artifact *chosen[64];
    size_t count = 0;
    for (size_t i = 0; i < built->count && count < 64; i++) {
        const struct artifact *artifact = &built->items[i];
        bool seen = false;
        for (size_t j = 0; j < count; j++)
            seen |= strcmp(chosen[j]->executable, artifact->executable) == 0;
        if (!seen && (!options->request.target_name ||
                      strcmp(artifact->name, options->request.target_name) == 0))
            chosen[count++] = artifact;
    }
    if (count > 1 && options->request.kind == TARGET_BIN &&
        !options->request.target_name) {
        /* Several binaries of one package: its default-run chooses, as for
         * cargo run (binaries of several packages need -p or --bin). */
        const struct artifact *default_run = NULL;
        bool one_package = true;
        for (size_t i = 0; i < count; i++) {
            const struct package *package =
                find_package(workspace, chosen[i]->package_id);
            one_package &= package && package == find_package(
                                          workspace, chosen[0]->package_id);
            if (package && package->default_run &&
                strcmp(package->default_run, chosen[i]->name) == 0)
                default_run = chosen[i];
        }
        if (one_package && default_run)
            return default_run;
    }
    if (count == 1)
        return chosen[0];
    const char *kind = target_kind_name(options->request.kind);
    if (count == 0 && options->request.kind == TARGET_LIB) {
        fprintf(stderr, "cargo lifeheap: cargo built no unit-test executable "
                        "for the library\n");
    } else if (count == 0 && options->request.target_name) {
        fprintf(stderr, "cargo lifeheap: cargo built no executable for %s '",
                kind);
        print_safely(options->request.target_name);
        fprintf(stderr, "'\n");
    } else if (count == 0) {
        fprintf(stderr, "cargo lifeheap: no binary to run; choose a target "
                        "with --example, --test or --bench:\n");
        size_t listed = list_targets(options, workspace, TARGET_EXAMPLE) +
                        list_targets(options, workspace, TARGET_TEST) +
                        list_targets(options, workspace, TARGET_BENCH);
        if (listed == 0)
            fprintf(stderr, "  (the workspace has no executable target)\n");
    } else if (options->request.kind == TARGET_LIB) {
        fprintf(stderr, "cargo lifeheap: several packages have a library; "
                        "choose one with -p:\n");
        for (size_t i = 0; i < count; i++)
            print_artifact(workspace, chosen[i]);
    } else if (options->request.target_name) {
        fprintf(stderr, "cargo lifeheap: several packages have %s '", kind);
        print_safely(options->request.target_name);
        fprintf(stderr, "'; choose one with -p:\n");
        for (size_t i = 0; i < count; i++)
            print_artifact(workspace, chosen[i]);
    } else {
        fprintf(stderr, "cargo lifeheap: several binaries were built; choose "
                        "one with --bin (or -p, or default-run in "
                        "Cargo.toml):\n");
        for (size_t i = 0; i < count; i++)
            print_artifact(workspace, chosen[i]);
    }
    return NULL;
}
