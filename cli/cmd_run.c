/* `lifeheap run [--out FILE] [valgrind options] -- PROG ARGS...`: runs the
 * program under `valgrind --tool=lifeheap` and says where the profile is.
 *
 * The tool may be installed (Valgrind finds it in its own tool directory)
 * or only built: when this binary runs from the build tree, the directory
 * `../tool/vglib/` next to it mirrors a tool directory and Valgrind is
 * pointed at it with VALGRIND_LIB (unless the user set VALGRIND_LIB).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command_args.h"
#include "commands.h"
#include "util.h"

const char run_usage[] =
    "usage: lifeheap run [--out FILE] [valgrind options] -- PROG [ARGS...]\n"
    "\n"
    "Runs PROG under valgrind --tool=lifeheap: Valgrind prints the summary\n"
    "on stderr and the profile is written to FILE (default\n"
    "lifeheap.out.<pid>.json in the current directory).\n"
    "\n"
    "  --out FILE       where to write the profile (%p is the pid, %n a\n"
"                   sequence number, %q{VAR} an environment variable)\n"
    "  valgrind options any other option before -- goes to valgrind, e.g.\n"
    "                   --num-callers=30 or --lifeheap-dump-interval=...\n"
    "  -h, --help       this text\n"
    "\n"
    "Threads take strict turns (--fair-sched=yes) unless a --fair-sched\n"
    "option is given, so a multi-threaded program interleaves the same way\n"
    "from run to run.\n"
    "\n"
    "Uses the lifeheap tool from the build tree when this lifeheap runs from\n"
    "it, else the installed one. Environment: LIFEHEAP_VALGRIND names the\n"
    "valgrind executable (default: valgrind from PATH); VALGRIND_LIB, when\n"
    "set, is left alone.\n"
    "\n"
    "Exit status: the program's exit status (128+N when killed by signal\n"
    "N), 127 when valgrind cannot be started, 2 on a usage error.\n";

/* run passes options it does not know to Valgrind, so it reads its
 * arguments itself; its usage errors read as the other commands'. */
static int usage_error(const char *message)
{
    struct command_args args = {.command = "run"};
    return args_usage_error(&args, message);
}

/* Points Valgrind at the build tree's tool directory when there is one. */
static void use_build_tree_tool(void)
{
    char directory[4096], tool_directory[4200];
    if (getenv("VALGRIND_LIB") || !executable_directory(directory,
                                                        sizeof directory))
        return;
    snprintf(tool_directory, sizeof tool_directory, "%s/../tool/vglib",
             directory);
    DIR *listing = opendir(tool_directory);
    if (!listing)
        return;
    bool has_tool = false;
    struct dirent *entry;
    while ((entry = readdir(listing)))
        if (strncmp(entry->d_name, "lifeheap-", 9) == 0)
            has_tool = true;
    closedir(listing);
    if (has_tool)
        setenv("VALGRIND_LIB", tool_directory, 1);
}

/* The run record: `--lifeheap-run-record=FILE` makes each lifeheap process
 * append the path it expanded its profile name to (%p, %n, %q{VAR}, made
 * absolute) and a NUL byte to FILE, so the CLI reports the file the tool
 * wrote rather than expanding the name a second time its own way. */
static char *create_run_record(void)
{
    const char *directory = getenv("TMPDIR");
    if (!directory || !*directory)
        directory = "/tmp";
    size_t size = strlen(directory) + 32;
    char *path = malloc(size);
    if (!path)
        return NULL;
    snprintf(path, size, "%s/lifeheap-run.XXXXXX", directory);
    int descriptor = mkstemp(path);
    if (descriptor < 0) {
        free(path);
        return NULL;
    }
    close(descriptor);
    return path;
}

/* Reads the run record: the recorded paths, NUL-separated, ending in an
 * empty string; NULL when nothing was recorded. */
static char *read_run_record(const char *record_path, size_t *length)
{
    FILE *record = fopen(record_path, "rb");
    if (!record)
        return NULL;
    size_t size = 0, capacity = 4096;
    char *text = malloc(capacity + 1);
    size_t got;
    while (text && (got = fread(text + size, 1, capacity - size, record)) > 0) {
        size += got;
        if (size == capacity) {
            char *bigger = realloc(text, capacity * 2 + 1);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            capacity *= 2;
        }
    }
    fclose(record);
    if (!text || size == 0) {
        free(text);
        return NULL;
    }
    if (text[size - 1] != '\0')        /* a process killed mid-write */
        text[size++] = '\0';
    *length = size;
    return text;
}

/* The path as the user would write it: relative to the current directory
 * when the name given was relative and the file is under it. */
static const char *shown_path(const char *path, const char *name_given)
{
    static char directory[4096];
    if (name_given[0] == '/' || !getcwd(directory, sizeof directory))
        return path;
    size_t length = strlen(directory);
    if (strncmp(path, directory, length) == 0 && path[length] == '/')
        return path + length + 1;
    return path;
}

/* Says which profiles the run wrote (a forked child writes its own), or
 * that there is none. */
static void report_profiles(const char *record_path, const char *name_given)
{
    size_t length = 0;
    char *record = read_run_record(record_path, &length);
    const char *first_written = NULL;
    bool went_elsewhere = false;
    for (size_t at = 0; record && at < length; at += strlen(record + at) + 1) {
        const char *path = record + at;
        bool seen = false;
        for (size_t before = 0; before < at; before += strlen(record + before) + 1)
            if (strcmp(record + before, path) == 0)
                seen = true;
        struct stat info;
        if (seen || !*path)
            continue;
        if (!is_regular_file(path)) {
            if (stat(path, &info) == 0 && !S_ISDIR(info.st_mode)) {
                /* A device or a FIFO: written through, not kept as a file. */
                fprintf(stderr, "lifeheap: the profile went to ");
                print_text(stderr, shown_path(path, name_given));
                fprintf(stderr, ", which is not a regular file: nothing to "
                                "report on later\n");
                went_elsewhere = true;
            }
            continue;
        }
        fprintf(stderr, "lifeheap: profile written to ");
        print_text(stderr, shown_path(path, name_given));
        fprintf(stderr, "\n");
        if (!first_written)
            first_written = path;
    }
    if (first_written) {
        const char *shown = shown_path(first_written, name_given);
        fprintf(stderr, "lifeheap: see it with: lifeheap report ");
        print_text(stderr, shown);
        fprintf(stderr, "   (or: lifeheap view ");
        print_text(stderr, shown);
        fprintf(stderr, ")\n");
    } else if (went_elsewhere) {
        /* said above */
    } else if (record) {
        fprintf(stderr, "lifeheap: no profile at ");
        print_text(stderr, shown_path(record, name_given));
        fprintf(stderr, " (see valgrind's messages above)\n");
    } else {
        fprintf(stderr, "lifeheap: no profile was written (see valgrind's "
                        "messages above)\n");
    }
    free(record);
}

int cmd_run(int argc, char **argv)
{
    const char *out = NULL, *out_option = NULL;
    /* valgrind, --tool, options..., --fair-sched, --lifeheap-out-file,
     * --lifeheap-run-record, program args, NULL */
    char **child_argv = calloc((size_t)argc + 6, sizeof *child_argv);
    int chose_scheduler = 0;
    char *out_argument = NULL;
    if (!child_argv) {
        fprintf(stderr, "lifeheap run: out of memory\n");
        return EXIT_USAGE;
    }
    const char *valgrind = getenv("LIFEHEAP_VALGRIND");
    size_t count = 0;
    child_argv[count++] = (char *)(valgrind && *valgrind ? valgrind
                                                         : "valgrind");
    child_argv[count++] = "--tool=lifeheap";

    int i = 1;
    for (; i < argc; i++) {
        const char *argument = argv[i];
        if (strcmp(argument, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argument, "-h") == 0 || strcmp(argument, "--help") == 0) {
            fputs(run_usage, stdout);
            free(child_argv);
            return EXIT_OK;
        }
        if (strcmp(argument, "--out") == 0 || strcmp(argument, "-o") == 0) {
            if (i + 1 == argc) {
                free(child_argv);
                return usage_error("--out needs a file name");
            }
            out = argv[++i];
        } else if (strncmp(argument, "--out=", 6) == 0) {
            out = argument + 6;
        } else if (argument[0] != '-') {
            /* No "--": the program starts here. */
            break;
        } else {
            if (strncmp(argument, "--lifeheap-out-file=", 20) == 0)
                out_option = argument + 20;
            if (strncmp(argument, "--fair-sched=", 13) == 0)
                chose_scheduler = 1;
            child_argv[count++] = argv[i];
        }
    }
    if (i >= argc) {
        free(child_argv);
        return usage_error("missing the program to run (after --)");
    }
    /* Valgrind runs one thread at a time; by default the kernel decides which
     * waiting thread runs next, and it may starve one side of a producer and
     * consumer for the whole run, so the same program piles up a queue in one
     * run and not in the next. Strict turns make thread interleaving (and so
     * findings such as missing backpressure) repeatable. */
    if (!chose_scheduler)
        child_argv[count++] = "--fair-sched=yes";
    if (out) {
        size_t size = strlen(out) + 32;
        out_argument = malloc(size);
        if (!out_argument) {
            free(child_argv);
            return EXIT_USAGE;
        }
        snprintf(out_argument, size, "--lifeheap-out-file=%s", out);
        child_argv[count++] = out_argument;
        out_option = out;
    }
    char *record_path = create_run_record();
    char *record_argument = NULL;
    if (!record_path) {
        fprintf(stderr, "lifeheap run: cannot create a temporary file in "
                        "$TMPDIR or /tmp: %s\n", strerror(errno));
        free(out_argument);
        free(child_argv);
        return 127;
    }
    size_t record_size = strlen(record_path) + 32;
    record_argument = malloc(record_size);
    if (!record_argument) {
        unlink(record_path);
        free(record_path);
        free(out_argument);
        free(child_argv);
        return 127;
    }
    snprintf(record_argument, record_size, "--lifeheap-run-record=%s",
             record_path);
    child_argv[count++] = record_argument;
    for (; i < argc; i++)
        child_argv[count++] = argv[i];
    child_argv[count] = NULL;

    use_build_tree_tool();
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "lifeheap run: cannot fork: %s\n", strerror(errno));
        unlink(record_path);
        free(record_path);
        free(record_argument);
        free(out_argument);
        free(child_argv);
        return 127;
    }
    if (child == 0) {
        execvp(child_argv[0], child_argv);
        fprintf(stderr, "lifeheap run: cannot run %s: %s\n", child_argv[0],
                strerror(errno));
        _exit(127);
    }
    /* Ctrl-C reaches the whole foreground group: let the program handle it
     * and report how it ended. */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    int wait_status = 0;
    while (waitpid(child, &wait_status, 0) < 0 && errno == EINTR)
        ;
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);

    int status;
    if (WIFEXITED(wait_status))
        status = WEXITSTATUS(wait_status);
    else if (WIFSIGNALED(wait_status))
        status = 128 + WTERMSIG(wait_status);
    else
        status = 127;

    if (status != 127)
        report_profiles(record_path, out_option ? out_option
                                                : "lifeheap.out.%p.json");
    unlink(record_path);
    free(record_path);
    free(record_argument);
    free(out_argument);
    free(child_argv);
    return status;
}
