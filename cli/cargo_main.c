/* cargo-lifeheap: `cargo lifeheap [--bin N | --example N | --test N |
 * --bench N | --lib] [cargo options] [lifeheap options] -- ARGS` builds a Rust
 * target with the debug info lifeheap needs, runs it under the tool and
 * writes the profile and an HTML report (docs/cli.md, "cargo lifeheap").
 *
 * Cargo runs `cargo-lifeheap lifeheap ARGS...` for `cargo lifeheap
 * ARGS...` (any `cargo-NAME` on PATH is the subcommand NAME); run by hand
 * as `cargo-lifeheap ARGS...` it does the same.
 *
 * It does not repeat what the `lifeheap` command does: the run is
 * `lifeheap run --out PROFILE [tool options] -- EXECUTABLE ARGS` (the
 * scheduler, the build tree's tool, the exit status) and the report
 * `lifeheap view PROFILE -o REPORT`, with the `lifeheap` next to this
 * program (the build tree's, or the installed one), else the one on PATH.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cargo.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "usage: cargo lifeheap [--bin NAME | --example NAME | --test NAME |\n"
    "                       --bench NAME | --lib] [cargo options]\n"
    "                      [lifeheap options]\n"
    "                      [-- ARGS...]\n"
    "\n"
    "Builds a target of the cargo workspace with the debug info lifeheap\n"
    "needs, runs it with ARGS under the lifeheap tool (Valgrind prints the\n"
    "summary on stderr), and writes the profile and an HTML report.\n"
    "\n"
    "Target (at most one; none: the package's binary, as with cargo run):\n"
    "  --bin NAME        a binary (built as cargo run builds it)\n"
    "  --example NAME    an example\n"
    "  --test NAME       an integration test (built as cargo test builds it)\n"
    "  --bench NAME      a bench target (built as cargo bench builds it;\n"
    "                    it gets only ARGS: add -- --bench for cargo bench's\n"
    "                    own argument)\n"
    "  --lib             the library's unit tests (as cargo test --lib)\n"
    "\n"
    "Cargo options, passed to cargo:\n"
    "  -p, --package SPEC  -F, --features LIST  --all-features\n"
    "  --no-default-features  -r, --release  --profile NAME  --target TRIPLE\n"
    "  --manifest-path PATH  --offline  --frozen  --locked  --config KEY=VALUE\n"
    "  -j, --jobs N  -v, --verbose  -q, --quiet  --color WHEN\n"
    "  --target-dir DIR    cargo's target directory (default: cargo's own)\n"
    "\n"
    "lifeheap options:\n"
    "  --out FILE          the profile (default: TARGET-DIR/lifeheap/NAME.json,\n"
    "                      KIND-NAME.json for an example, test, bench or lib);\n"
    "                      the HTML report goes next to it, .json replaced by\n"
    "                      .html\n"
    "  --no-html           write no HTML report\n"
    "  --open              open the HTML report in $BROWSER (else xdg-open)\n"
    "  --lifeheap-*=...    the tool's options (valgrind --tool=lifeheap --help)\n"
    "  --num-callers=N  --fair-sched=...  --trace-children=...\n"
    "  --read-inline-info=...  Valgrind options, passed to the tool's run\n"
    "  -h, --help          this text\n"
    "  -V, --version       the version\n"
    "\n"
    "The build goes to TARGET-DIR/lifeheap, apart from your own builds, with\n"
    "CARGO_PROFILE_<P>_DEBUG=1, _STRIP=none and _SPLIT_DEBUGINFO=off set in\n"
    "cargo's environment for the dev, release, test and bench profiles and\n"
    "the --profile one (variables you set yourself win). Cargo.toml and\n"
    "RUSTFLAGS are left alone. A test, bench or lib runs in its package's\n"
    "directory, as cargo test runs it; a bin or example in the current one.\n"
    "\n"
    "Exit status: the program's (128+N when killed by signal N), 2 on a\n"
    "usage error (bad option, no such target, several binaries and none\n"
    "chosen), cargo's own status when cargo fails (101 for a failed build),\n"
    "127 when cargo or lifeheap cannot be started.\n";

static int usage_error(const char *format, const char *detail)
{
    fprintf(stderr, "cargo lifeheap: ");
    fprintf(stderr, format, detail);
    fprintf(stderr, "\n(see cargo lifeheap --help)\n");
    return CARGO_EXIT_USAGE;
}

/*--- The command line ---------------------------------------------------*/

/* The cargo options passed through, with their short forms. `common` ones
 * go to cargo metadata too. */
struct passed_option {
    const char *name;
    char short_name;
    bool has_value, common;
};
static const struct passed_option passed_options[] = {
    {"--package", 'p', true, false},     {"--features", 'F', true, false},
    {"--all-features", 0, false, false}, {"--no-default-features", 0, false, false},
    {"--target", 0, true, false},        {"--jobs", 'j', true, false},
    {"--verbose", 'v', false, false},    {"--quiet", 'q', false, false},
    {"--manifest-path", 0, true, true},  {"--offline", 0, false, true},
    {"--frozen", 0, false, true},        {"--locked", 0, false, true},
    {"--config", 0, true, true},         {"--color", 0, true, true},
};

/* Options of Valgrind's core that a user of lifeheap may want. */
static const char *const tool_option_prefixes[] = {
    "--lifeheap-", "--num-callers=", "--fair-sched=", "--trace-children=",
    "--read-inline-info=",
};

/* Matches argv[*index] against an option NAME (and short form -C, 0 for
 * none). Returns 1 and sets *value (NULL for a flag) on a match, 0 when it
 * is another option, -1 when the value is missing. Accepts "--name VALUE",
 * "--name=VALUE", "-C VALUE" and "-CVALUE". */
static int match_option(int argc, char **argv, int *index, const char *name,
                        char short_name, bool has_value, const char **value)
{
    const char *argument = argv[*index];
    size_t length = strlen(name);
    *value = NULL;
    bool long_form = strncmp(argument, name, length) == 0;
    bool short_form = short_name && argument[0] == '-' &&
                      argument[1] == short_name;
    if (long_form && argument[length] == '\0')
        ;
    else if (long_form && argument[length] == '=' && has_value) {
        *value = argument + length + 1;
        return 1;
    } else if (short_form && argument[2] == '\0')
        ;
    else if (short_form && has_value) {
        *value = argument + 2;
        return 1;
    } else
        return 0;
    if (!has_value)
        return 1;
    if (*index + 1 >= argc)
        return -1;
    *value = argv[++*index];
    return 1;
}

static void remember_package(struct command_line *options, const char *spec)
{
    /* "name", "name@1.2.3" or "name:1.2.3"; a URL spec names no package
     * simply and is left to cargo. */
    char name[256];
    size_t length = strcspn(spec, "@:");
    if (strchr(spec, '/') || strchr(spec, '*') || length >= sizeof name) {
        options->other_package_spec = true;
        return;
    }
    memcpy(name, spec, length);
    name[length] = '\0';
    list_add(&options->package_names, name);
}

/* Returns -1 to go on, else the exit status. */
static int parse_arguments(int argc, char **argv, struct command_line *options)
{
    static const char *const selectors[] = {"--bin", "--example", "--test",
                                            "--bench"};
    /* The options of lifeheap's own whose value goes into a field. */
    const struct {
        const char *name;
        char short_name;
        const char *needs;   /* the usage error without a value */
        const char **field;
    } value_options[] = {
        {"--profile", 0, "%s needs a profile name", &options->request.profile},
        {"--target-dir", 0, "%s needs a directory", &options->target_directory},
        {"--out", 'o', "%s needs a file name", &options->out},
    };
    bool chose_target = false;
    int i = 1;
    if (argc > 1 && strcmp(argv[1], "lifeheap") == 0)
        i = 2; /* run by cargo as `cargo-lifeheap lifeheap ...` */
    for (; i < argc; i++) {
        const char *argument = argv[i], *value = NULL;
        int matched = 0;
        if (strcmp(argument, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argument, "-h") == 0 || strcmp(argument, "--help") == 0) {
            fputs(usage_text, stdout);
            return CARGO_EXIT_OK;
        }
        if (strcmp(argument, "-V") == 0 || strcmp(argument, "--version") == 0) {
            printf("cargo-lifeheap %s\n", PACKAGE_VERSION);
            return CARGO_EXIT_OK;
        }
        for (int s = 0; s < 4 && !matched; s++) {
            matched = match_option(argc, argv, &i, selectors[s], 0, true, &value);
            if (matched < 0 || (matched && !*value))
                return usage_error("%s needs a target name", selectors[s]);
            if (matched && chose_target)
                return usage_error("%s: choose one target only", selectors[s]);
            if (matched) {
                chose_target = true;
                options->request.kind = (enum target_kind)s;
                options->request.target_name = value;
            }
        }
        if (matched)
            continue;
        if (strcmp(argument, "--lib") == 0) {
            if (chose_target)
                return usage_error("%s: choose one target only", "--lib");
            chose_target = true;
            options->request.kind = TARGET_LIB;
            continue;
        }
        if (strcmp(argument, "--release") == 0 || strcmp(argument, "-r") == 0) {
            options->request.release = true;
            continue;
        }
        for (size_t v = 0; v < sizeof value_options / sizeof value_options[0];
             v++) {
            matched = match_option(argc, argv, &i, value_options[v].name,
                                   value_options[v].short_name, true, &value);
            if (matched < 0 || (matched && !*value))
                return usage_error(value_options[v].needs,
                                   value_options[v].name);
            if (matched) {
                *value_options[v].field = value;
                break;
            }
        }
        if (matched) {
            if (options->out && strchr(options->out, '%'))
                return usage_error("--out %s: give a plain file name (no %%p)",
                                   options->out);
            continue;
        }
        if (strcmp(argument, "--no-html") == 0) {
            options->no_html = true;
            continue;
        }
        if (strcmp(argument, "--open") == 0) {
            options->open_report = true;
            continue;
        }
        if (strncmp(argument, "--lifeheap-out-file", 19) == 0)
            return usage_error("%s: use --out FILE", argument);
        for (size_t p = 0; p < sizeof tool_option_prefixes /
                                   sizeof tool_option_prefixes[0]; p++)
            if (strncmp(argument, tool_option_prefixes[p],
                        strlen(tool_option_prefixes[p])) == 0)
                matched = 1;
        if (matched) {
            list_add(&options->tool_options, argument);
            continue;
        }
        for (size_t p = 0; p < sizeof passed_options / sizeof passed_options[0];
             p++) {
            const struct passed_option *option = &passed_options[p];
            matched = match_option(argc, argv, &i, option->name,
                                   option->short_name, option->has_value,
                                   &value);
            if (matched < 0)
                return usage_error("%s needs a value", option->name);
            if (!matched)
                continue;
            struct string_list *list = option->common
                                           ? &options->request.common_options
                                           : &options->request.build_options;
            list_add(list, option->name);
            if (value)
                list_add(list, value);
            if (option->short_name == 'p')
                remember_package(options, value);
            break;
        }
        if (matched)
            continue;
        if (argument[0] == '-')
            return usage_error("unknown option '%s'", argument);
        return usage_error("unexpected argument '%s' (the program's arguments "
                           "go after --)", argument);
    }
    if (options->no_html && options->open_report)
        return usage_error("%s: there is no report to open", "--open --no-html");
    options->program_arguments = argv + i;
    options->program_argument_count = argc > i ? argc - i : 0;
    return -1;
}

/*--- Running it ---------------------------------------------------------*/

/* The lifeheap command beside this program, else the one on PATH. */
static bool find_lifeheap(char *path, size_t size)
{
    char directory[4096];
    if (executable_directory(directory, sizeof directory)) {
        snprintf(path, size, "%s/lifeheap", directory);
        if (access(path, X_OK) == 0)
            return true;
    }
    const char *search = getenv("PATH");
    while (search && *search) {
        size_t length = strcspn(search, ":");
        snprintf(path, size, "%.*s/lifeheap", (int)length, search);
        if (length > 0 && access(path, X_OK) == 0)
            return true;
        search += length + (search[length] == ':');
    }
    return false;
}

/* `relative` made absolute against the current directory. */
static char *absolute_path(const char *relative)
{
    if (relative[0] == '/')
        return checked_strdup(relative);
    char directory[4096];
    if (!getcwd(directory, sizeof directory))
        return checked_strdup(relative);
    size_t size = strlen(directory) + strlen(relative) + 2;
    char *path = checked_malloc(size);
    snprintf(path, size, "%s/%s", directory, relative);
    return path;
}

/* The profile: --out, else BUILD_DIRECTORY/NAME.json for a bin and
 * BUILD_DIRECTORY/KIND-NAME.json for the others. The report: the same with
 * .json replaced by .html (or .html added). */
static void output_paths(const struct command_line *options,
                         const struct artifact *artifact, char **profile,
                         char **report)
{
    if (options->out) {
        *profile = absolute_path(options->out);
    } else {
        size_t size = strlen(options->request.build_directory) +
                      strlen(artifact->name) + 32;
        *profile = checked_malloc(size);
        if (options->request.kind == TARGET_BIN)
            snprintf(*profile, size, "%s/%s.json",
                     options->request.build_directory, artifact->name);
        else
            snprintf(*profile, size, "%s/%s-%s.json",
                     options->request.build_directory,
                     target_kind_name(options->request.kind), artifact->name);
    }
    size_t length = strlen(*profile);
    *report = checked_malloc(length + 8);
    memcpy(*report, *profile, length + 1);
    if (length > 5 && strcmp(*profile + length - 5, ".json") == 0)
        (*report)[length - 5] = '\0';
    strcat(*report, ".html");
}

/* Creates the directories leading to `path` (for --out in a new
 * directory); failures show when the tool cannot write the profile. */
static void make_parent_directories(const char *path)
{
    char *copy = checked_strdup(path);
    for (char *slash = strchr(copy + 1, '/'); slash;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(copy, 0777) != 0 && errno != EEXIST)
            break;
        *slash = '/';
    }
    free(copy);
}

struct file_version {
    bool exists;
    struct stat info;
};

static struct file_version file_version(const char *path)
{
    struct file_version version = {0};
    version.exists = stat(path, &version.info) == 0;
    return version;
}

/* True when the tool wrote `path` during the run: the file exists and is
 * another file than before (the tool renames a new file into place). */
static bool written_since(const char *path, struct file_version before)
{
    struct file_version after = file_version(path);
    if (!after.exists || !S_ISREG(after.info.st_mode))
        return false;
    return !before.exists || after.info.st_ino != before.info.st_ino ||
           after.info.st_mtim.tv_sec != before.info.st_mtim.tv_sec ||
           after.info.st_mtim.tv_nsec != before.info.st_mtim.tv_nsec;
}

/* `lifeheap view PROFILE -o REPORT`; its messages are shown only when it
 * fails (on success the report's path is printed with the profile's). */
static bool write_report(const char *lifeheap, const char *profile,
                         const char *report)
{
    char *view[] = {(char *)lifeheap, "view", (char *)profile, "-o",
                    (char *)report, NULL};
    FILE *messages = tmpfile();
    pid_t viewer = start_program(view, NULL, NULL, NULL,
                                 messages ? fileno(messages) : -1);
    bool written = viewer >= 0 && wait_program(viewer, false) == 0;
    if (!written && messages) {
        char line[4096];
        rewind(messages);
        while (fgets(line, sizeof line, messages)) {
            line[strcspn(line, "\n")] = '\0';
            print_safely(line);
            fputc('\n', stderr);
        }
    }
    if (messages)
        fclose(messages);
    return written;
}

/* --open: the report in $BROWSER, else with xdg-open. Not waited for: a
 * browser may stay open long after the run. */
static void open_report(const char *report)
{
    const char *browser = getenv("BROWSER");
    char *open[] = {(char *)(browser && *browser ? browser : "xdg-open"),
                    (char *)report, NULL};
    start_program(open, NULL, NULL, NULL, -1);
}

/* cargo run and cargo test give the program its package's identity. */
static void add_package_environment(struct string_list *environment,
                                    const struct package *package)
{
    char setting[4200];
    if (!package)
        return;
    char *directory = checked_strdup(package->manifest_path);
    char *slash = strrchr(directory, '/');
    if (slash)
        *slash = '\0';
    snprintf(setting, sizeof setting, "CARGO_MANIFEST_DIR=%s", directory);
    list_add(environment, setting);
    snprintf(setting, sizeof setting, "CARGO_PKG_NAME=%s", package->name);
    list_add(environment, setting);
    if (package->version) {
        snprintf(setting, sizeof setting, "CARGO_PKG_VERSION=%s",
                 package->version);
        list_add(environment, setting);
    }
    free(directory);
}

static int profile_artifact(const struct command_line *options,
                            const struct workspace *workspace,
                            const struct artifact *artifact,
                            const char *lifeheap)
{
    char *profile, *report;
    output_paths(options, artifact, &profile, &report);
    const struct package *package = find_package(workspace,
                                                 artifact->package_id);

    struct string_list argv = {0}, environment = {0};
    list_add(&argv, lifeheap);
    list_add(&argv, "run");
    list_add(&argv, "--out");
    list_add(&argv, profile);
    for (size_t i = 0; i < options->tool_options.count; i++)
        list_add(&argv, options->tool_options.items[i]);
    list_add(&argv, "--");
    list_add(&argv, artifact->executable);
    for (int i = 0; i < options->program_argument_count; i++)
        list_add(&argv, options->program_arguments[i]);
    add_package_environment(&environment, package);

    /* A test, bench or library's unit tests run in the package's directory
     * (their fixtures are found from there), as under cargo test; a bin or
     * example where cargo lifeheap was started, as under cargo run. */
    char *directory = NULL;
    if (package && (options->request.kind == TARGET_TEST ||
                    options->request.kind == TARGET_BENCH ||
                    options->request.kind == TARGET_LIB)) {
        directory = checked_strdup(package->manifest_path);
        char *slash = strrchr(directory, '/');
        if (slash)
            *slash = '\0';
    }

    fprintf(stderr, "cargo lifeheap: profiling ");
    print_safely(artifact->executable);
    for (int i = 0; i < options->program_argument_count; i++) {
        fputc(' ', stderr);
        print_safely(options->program_arguments[i]);
    }
    fputc('\n', stderr);

    make_parent_directories(profile);
    struct file_version before = file_version(profile);
    pid_t child = start_program(argv.items, directory, &environment, NULL, -1);
    int status = child < 0 ? 127 : wait_program(child, true);
    list_free(&argv);
    list_free(&environment);
    free(directory);

    if (written_since(profile, before)) {
        bool have_report = false;
        if (!options->no_html)
            have_report = write_report(lifeheap, profile, report);
        fprintf(stderr, "cargo lifeheap: profile:     ");
        print_safely(profile);
        fprintf(stderr, "\n");
        if (have_report) {
            fprintf(stderr, "cargo lifeheap: HTML report: ");
            print_safely(report);
            fprintf(stderr, "\n");
            if (options->open_report)
                open_report(report);
        } else if (!options->no_html) {
            fprintf(stderr, "cargo lifeheap: no HTML report (lifeheap view "
                            "failed, see above)\n");
        }
    } else if (status != 127) {
        fprintf(stderr, "cargo lifeheap: the run wrote no profile to ");
        print_safely(profile);
        fprintf(stderr, "\n");
    }
    free(profile);
    free(report);
    return status;
}

int main(int argc, char **argv)
{
    struct command_line options = {0};
    int status = parse_arguments(argc, argv, &options);
    if (status >= 0)
        goto done;

    char lifeheap[4200];
    if (!find_lifeheap(lifeheap, sizeof lifeheap)) {
        fprintf(stderr, "cargo lifeheap: cannot find the lifeheap command "
                        "(neither next to cargo-lifeheap nor on PATH)\n");
        status = 127;
        goto done;
    }
    const char *cargo = getenv("CARGO");
    options.request.cargo = cargo && *cargo ? cargo : "cargo";

    struct workspace workspace;
    status = read_workspace(&options.request, &workspace);
    if (status != 0) {
        if (status > 0)
            fprintf(stderr, "cargo lifeheap: cargo metadata failed (exit "
                            "status %d)\n", status);
        status = status < 0 ? 1 : status;
        goto done;
    }
    if ((options.request.target_name || options.request.kind == TARGET_LIB) &&
        packages_understood(&options, &workspace) &&
        !target_exists(&options, &workspace)) {
        status = no_such_target(&options, &workspace);
        free_workspace(&workspace);
        goto done;
    }

    /* The build directory: TARGET/lifeheap, TARGET being --target-dir or
     * where cargo's configuration puts the target directory. */
    char *target = absolute_path(options.target_directory
                                     ? options.target_directory
                                     : workspace.target_directory);
    size_t size = strlen(target) + 16;
    char *build_directory = checked_malloc(size);
    snprintf(build_directory, size, "%s/lifeheap", target);
    free(target);
    options.request.build_directory = build_directory;

    struct artifact_list built = {0};
    status = build_targets(&options.request, &built);
    if (status != 0) {
        if (status > 0 && status != 127)
            fprintf(stderr, "cargo lifeheap: the build failed (cargo exited "
                            "with status %d)\n", status);
        status = status < 0 ? 127 : status;
    } else {
        const struct artifact *artifact =
            choose_artifact(&options, &workspace, &built);
        status = artifact ? profile_artifact(&options, &workspace, artifact,
                                             lifeheap)
                          : CARGO_EXIT_USAGE;
    }
    free_artifacts(&built);
    free_workspace(&workspace);
    free(build_directory);
done:
    list_free(&options.request.common_options);
    list_free(&options.request.build_options);
    list_free(&options.tool_options);
    list_free(&options.package_names);
    return status;
}
