/* cargo-lifeheap: starting programs (cargo, lifeheap) and waiting for
 * them, the small lists the command builds its argvs in, and the helpers
 * for printing names and finding the program's own directory.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cargo.h"

const char *target_kind_name(enum target_kind kind)
{
    switch (kind) {
    case TARGET_BIN: return "bin";
    case TARGET_EXAMPLE: return "example";
    case TARGET_TEST: return "test";
    case TARGET_BENCH: return "bench";
    case TARGET_LIB: return "lib";
    }
    return "bin";
}

bool kind_matches(enum target_kind kind, const char *cargo_kind)
{
    static const char *const library_kinds[] = {"lib", "rlib", "dylib",
                                                "cdylib", "staticlib",
                                                "proc-macro"};
    if (kind != TARGET_LIB)
        return strcmp(cargo_kind, target_kind_name(kind)) == 0;
    for (size_t i = 0; i < sizeof library_kinds / sizeof library_kinds[0]; i++)
        if (strcmp(cargo_kind, library_kinds[i]) == 0)
            return true;
    return false;
}

void print_safely(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, stderr);
}

static void out_of_memory(void)
{
    fprintf(stderr, "cargo lifeheap: out of memory\n");
    exit(2);
}

void *checked_malloc(size_t size)
{
    void *memory = malloc(size);
    if (!memory)
        out_of_memory();
    return memory;
}

char *checked_strdup(const char *text)
{
    char *copy = strdup(text);
    if (!copy)
        out_of_memory();
    return copy;
}

void list_add(struct string_list *list, const char *text)
{
    if (list->count + 2 > list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 16;
        char **bigger = realloc(list->items, capacity * sizeof *bigger);
        if (!bigger)
            out_of_memory();
        list->items = bigger;
        list->capacity = capacity;
    }
    list->items[list->count++] = checked_strdup(text);
    list->items[list->count] = NULL;
}

void list_free(struct string_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->items[i]);
    free(list->items);
    list->items = NULL;
    list->count = list->capacity = 0;
}

pid_t start_program(char *const argv[], const char *directory,
                    const struct string_list *environment, int *output_pipe,
                    int error_descriptor)
{
    int ends[2] = {-1, -1};
    if (output_pipe && pipe(ends) != 0) {
        fprintf(stderr, "cargo lifeheap: cannot create a pipe: %s\n",
                strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "cargo lifeheap: cannot fork: %s\n", strerror(errno));
        if (output_pipe) {
            close(ends[0]);
            close(ends[1]);
        }
        return -1;
    }
    if (child == 0) {
        if (output_pipe) {
            dup2(ends[1], STDOUT_FILENO);
            close(ends[0]);
            close(ends[1]);
        }
        if (error_descriptor >= 0) {
            dup2(error_descriptor, STDERR_FILENO);
            close(error_descriptor);
        }
        for (size_t i = 0; environment && i < environment->count; i++)
            putenv(environment->items[i]);
        if (directory && chdir(directory) != 0) {
            fprintf(stderr, "cargo lifeheap: cannot enter %s: %s\n", directory,
                    strerror(errno));
            _exit(127);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "cargo lifeheap: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    if (output_pipe) {
        close(ends[1]);
        *output_pipe = ends[0];
    }
    return child;
}

int wait_program(pid_t child, bool ignore_interrupts)
{
    void (*old_interrupt)(int) = SIG_DFL, (*old_quit)(int) = SIG_DFL;
    if (ignore_interrupts) {
        old_interrupt = signal(SIGINT, SIG_IGN);
        old_quit = signal(SIGQUIT, SIG_IGN);
    }
    int wait_status = 0;
    pid_t got;
    while ((got = waitpid(child, &wait_status, 0)) < 0 && errno == EINTR)
        ;
    if (ignore_interrupts) {
        signal(SIGINT, old_interrupt);
        signal(SIGQUIT, old_quit);
    }
    if (got < 0)
        return 127;
    if (WIFEXITED(wait_status))
        return WEXITSTATUS(wait_status);
    if (WIFSIGNALED(wait_status))
        return 128 + WTERMSIG(wait_status);
    return 127;
}
