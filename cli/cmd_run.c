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

#include "commands.h"
#include "util.h"

const char run_usage[] =
    "usage: lifeheap run [--out FILE] [valgrind options] -- PROG [ARGS...]\n"
    "\n"
    "Runs PROG under valgrind --tool=lifeheap: Valgrind prints the summary\n"
    "on stderr and the profile is written to FILE (default\n"
    "lifeheap.out.<pid>.json in the current directory).\n"
    "\n"
    "  --out FILE       where to write the profile (%p is the pid)\n"
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

static int usage_error(const char *message)
{
    fprintf(stderr, "lifeheap run: %s\n(see lifeheap run --help)\n", message);
    return EXIT_USAGE;
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

/* Expands %p (pid), %q{VAR} (environment) and %% in an output file name,
 * as Valgrind does. */
static void expand_file_name(const char *pattern, pid_t pid, char *buffer,
                             size_t size)
{
    size_t length = 0;
    for (const char *p = pattern; *p && length + 1 < size; p++) {
        char piece[4096];
        piece[0] = '\0';
        if (p[0] == '%' && p[1] == 'p') {
            snprintf(piece, sizeof piece, "%d", (int)pid);
            p++;
        } else if (p[0] == '%' && p[1] == '%') {
            snprintf(piece, sizeof piece, "%%");
            p++;
        } else if (p[0] == '%' && p[1] == 'q' && p[2] == '{' &&
                   strchr(p + 3, '}')) {
            const char *end = strchr(p + 3, '}');
            char name[256];
            size_t name_length = (size_t)(end - (p + 3));
            if (name_length >= sizeof name)
                name_length = sizeof name - 1;
            memcpy(name, p + 3, name_length);
            name[name_length] = '\0';
            const char *value = getenv(name);
            snprintf(piece, sizeof piece, "%s", value ? value : "");
            p = end;
        } else {
            piece[0] = *p;
            piece[1] = '\0';
        }
        length += (size_t)snprintf(buffer + length, size - length, "%s",
                                   piece);
        if (length >= size)
            length = size - 1;
    }
    buffer[length] = '\0';
}

int cmd_run(int argc, char **argv)
{
    const char *out = NULL, *out_option = NULL;
    /* valgrind, --tool, options..., --fair-sched, --lifeheap-out-file,
     * program args, NULL */
    char **child_argv = calloc((size_t)argc + 5, sizeof *child_argv);
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
    for (; i < argc; i++)
        child_argv[count++] = argv[i];
    child_argv[count] = NULL;

    use_build_tree_tool();
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "lifeheap run: cannot fork: %s\n", strerror(errno));
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

    if (status != 127) {
        char path[4096];
        struct stat info;
        /* Valgrind keeps the pid of the process it was started as. */
        expand_file_name(out_option ? out_option : "lifeheap.out.%p.json",
                         child, path, sizeof path);
        if (is_regular_file(path)) {
            fprintf(stderr, "lifeheap: profile written to ");
            print_text(stderr, path);
            fprintf(stderr, "\nlifeheap: see it with: lifeheap report ");
            print_text(stderr, path);
            fprintf(stderr, "   (or: lifeheap view ");
            print_text(stderr, path);
            fprintf(stderr, ")\n");
        } else if (stat(path, &info) == 0 && !S_ISDIR(info.st_mode)) {
            /* A device or a FIFO: written through, not kept as a file. */
            fprintf(stderr, "lifeheap: the profile went to ");
            print_text(stderr, path);
            fprintf(stderr, ", which is not a regular file: nothing to "
                            "report on later\n");
        } else {
            fprintf(stderr, "lifeheap: no profile at ");
            print_text(stderr, path);
            fprintf(stderr, " (see valgrind's messages above)\n");
        }
    }
    free(out_argument);
    free(child_argv);
    return status;
}
