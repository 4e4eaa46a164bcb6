/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runstat: runs one command once and writes
 * "EXIT_STATUS WALL_SECONDS MAXRSS_KIB CPU_SECONDS" to REPORT_FILE (a file,
 * so it never mixes with the command's own output).
 *
 * Why C and not the Python helper: Linux keeps a process's RSS high-water
 * mark across exec(), and a forked child starts with its parent's memory
 * mapped. A child forked from a Python interpreter therefore reports
 * ru_maxrss of at least the interpreter's ~10 MB even when the program it
 * exec'd used 2 MB. Forking from this tiny process keeps that floor near
 * 1 MB, the same as /usr/bin/time.
 *
 * Wall time is taken with CLOCK_MONOTONIC around fork/exec/wait; ru_maxrss
 * and CPU_SECONDS (user + system) come from wait4() on the child. CPU time
 * is reported because the machine is shared: when other jobs compete for
 * the cores, wall time stretches but CPU time mostly does not. EXIT_STATUS
 * is the exit code, or 128+N when the child was killed by signal N.
 *
 * Usage: runstat REPORT_FILE COMMAND [ARGS...]
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: runstat REPORT_FILE COMMAND [ARGS...]\n");
        return 2;
    }
    FILE *report = fopen(argv[1], "w");
    if (report == NULL) {
        fprintf(stderr, "runstat: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "runstat: fork: %s\n", strerror(errno));
        return 2;
    }
    if (child == 0) {
        fclose(report);
        execvp(argv[2], argv + 2);
        fprintf(stderr, "runstat: %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "runstat: wait4: %s\n", strerror(errno));
            return 2;
        }
    }
    double wall = seconds_since(&start);
    int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6
               + (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
    fprintf(report, "%d %.3f %ld %.3f\n", exit_status, wall, usage.ru_maxrss, cpu);
    if (fclose(report) != 0) {
        fprintf(stderr, "runstat: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    return 0;
}
