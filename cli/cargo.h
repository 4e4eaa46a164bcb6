/* cargo-lifeheap, the `cargo lifeheap` subcommand: what its files share.
 *
 *   cargo_main.c     the command line, running the target with `lifeheap
 *                    run` and writing the HTML report with `lifeheap view`
 *                    (docs/cli.md, "cargo lifeheap")
 *   cargo_target.c   choosing the target to run
 *   cargo_build.c    talking to cargo: `cargo metadata` for the workspace
 *                    and its targets, then the build, whose JSON messages
 *                    say which executables were built
 *   cargo_process.c  starting programs and waiting for them, and small
 *                    helpers
 *
 * It is linked on its own, apart from the lifeheap command's files: it
 * talks to lifeheap only by running it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_CARGO_H
#define LIFEHEAP_CARGO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The kinds of target that build an executable, with cargo's names for
 * them (target.kind in cargo's messages and metadata, and the option that
 * selects one: --bin, --example, --test, --bench; --lib for the library's
 * unit tests). */
enum target_kind {
    TARGET_BIN, TARGET_EXAMPLE, TARGET_TEST, TARGET_BENCH, TARGET_LIB
};
const char *target_kind_name(enum target_kind kind);
/* True when a target.kind entry of cargo's is of that kind: a library is
 * "lib", "rlib", "dylib", "cdylib", "staticlib" or "proc-macro". */
bool kind_matches(enum target_kind kind, const char *cargo_kind);

/* Exit statuses of cargo lifeheap's own (docs/cli.md); otherwise it
 * returns the program's or cargo's. */
enum { CARGO_EXIT_OK = 0, CARGO_EXIT_USAGE = 2 };

/* Writes `text` to stderr with control characters shown as '?', so a
 * hostile name cannot move the cursor or clear the screen. */
void print_safely(const char *text);

/* executable_directory(): the directory holding this program. */
#include "self_directory.h"

/* malloc and strdup that end the program (exit status 2, with a message)
 * when memory runs out. */
void *checked_malloc(size_t size);
char *checked_strdup(const char *text);

/* A growing array of strings (an argv under construction). */
struct string_list {
    char **items;
    size_t count, capacity;
};
void list_add(struct string_list *list, const char *text);
void list_free(struct string_list *list);

/* What the user asked cargo for. */
struct build_request {
    const char *cargo;            /* the cargo executable ($CARGO or cargo) */
    enum target_kind kind;
    const char *target_name;      /* NULL: the one binary of the package,
                                   * or for TARGET_LIB, the library */
    bool release;                 /* --release / -r */
    const char *profile;          /* --profile NAME, or NULL */
    const char *build_directory;  /* the --target-dir given to cargo */
    /* Options passed to every cargo command (--manifest-path, --offline,
     * --frozen, --locked, --config) and those passed to the build only
     * (--package, --features, --target, --jobs, ...), each as cargo's
     * argv words. */
    struct string_list common_options, build_options;
};

/* A workspace member, from `cargo metadata --no-deps`. */
struct target {
    char *kind, *name;
};
struct package {
    char *id, *name, *version, *manifest_path;
    char *default_run;            /* or NULL */
    struct target *targets;
    size_t target_count;
};
struct workspace {
    char *target_directory;
    struct package *packages;
    size_t package_count;
};

/* An executable the build produced (a "compiler-artifact" message with an
 * "executable"). */
struct artifact {
    char *kind, *name, *executable, *package_id;
};
struct artifact_list {
    struct artifact *items;
    size_t count, capacity;
};

/* Runs `cargo metadata --format-version 1 --no-deps`. Returns 0 and fills
 * `workspace`, or cargo's exit status (cargo has said why on stderr), or
 * -1 when its output cannot be read (a message is printed). */
int read_workspace(const struct build_request *request,
                   struct workspace *workspace);
void free_workspace(struct workspace *workspace);
const struct package *find_package(const struct workspace *workspace,
                                   const char *id);

/* Builds the request's target(s) with the settings lifeheap needs
 * (cargo_build.c explains them) and collects every executable of the
 * request's kind from cargo's messages. Returns cargo's exit status (0 on
 * success), or -1 when cargo cannot be started. */
int build_targets(const struct build_request *request,
                  struct artifact_list *artifacts);
void free_artifacts(struct artifact_list *artifacts);

/* The parsed command line (cargo_main.c). */
struct command_line {
    struct build_request request;
    const char *target_directory;   /* --target-dir, or NULL */
    const char *out;                /* --out, or NULL */
    bool no_html, open_report;      /* --no-html, --open */
    struct string_list tool_options;
    struct string_list package_names; /* from -p, for naming the targets */
    bool other_package_spec;        /* a -p that is not a plain name */
    char **program_arguments;
    int program_argument_count;
};

/* Choosing the target (cargo_target.c). Before the build: whether every
 * -p names a workspace member (else cargo is left to judge the -p and the
 * target), whether the named target (or for --lib, a library) exists in
 * the chosen packages, and the usage error when not (returns the exit
 * status). After it: the one executable to run, or NULL after printing
 * why there is none. */
bool packages_understood(const struct command_line *command_line,
                         const struct workspace *workspace);
bool target_exists(const struct command_line *command_line,
                   const struct workspace *workspace);
int no_such_target(const struct command_line *command_line,
                   const struct workspace *workspace);
const struct artifact *choose_artifact(const struct command_line *command_line,
                                       const struct workspace *workspace,
                                       const struct artifact_list *built);

/* Starts argv[0] (searched in PATH) in `directory` (NULL: the current
 * one), with `environment` (NAME=VALUE strings, may be NULL) added to ours;
 * with `output_pipe`, its stdout goes to a pipe whose read end is returned
 * there; with `error_descriptor` >= 0, its stderr goes there. Returns the
 * child's pid, or -1 with a message printed. */
pid_t start_program(char *const argv[], const char *directory,
                    const struct string_list *environment, int *output_pipe,
                    int error_descriptor);

/* Waits for a child; returns its exit status, 128+N when killed by signal
 * N. With `ignore_interrupts`, Ctrl-C and Ctrl-\ reach only the child
 * (it decides how the run ends, and we still report on it). */
int wait_program(pid_t child, bool ignore_interrupts);

#endif
