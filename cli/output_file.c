/* Writing an output file without damaging what its name points at.
 *
 * The same rules as the tool's profile (tool/lh_outfile.c):
 *
 *   name                               how it is written
 *   ---------------------------------  ---------------------------------
 *   does not exist, a regular file     atomically: an exclusive temporary
 *                                      beside it, renamed over it when
 *                                      complete (mode and, as root, owner
 *                                      of an existing file kept)
 *   a symlink to a regular file, or    atomically, to the final target;
 *     a dangling symlink                the link stays
 *   a device, a FIFO, a symlink to     written through, never replaced
 *     one (/dev/null, /dev/stdout)      (a FIFO without a reader fails at
 *                                      once instead of blocking)
 *   reached through /proc or /dev/fd   written through, appended: the
 *     (/dev/stdout to a regular file)   redirected file is not truncated
 *   a directory, a socket, a loop      refused with a clear error
 *
 * The temporary name is "<target>.tmp-<pid>-<n>", created with
 * O_CREAT|O_EXCL|O_NOFOLLOW (never an existing file nor a planted
 * symlink; n counts up on a clash), so two commands writing one output
 * at once each write their own temporary file and each rename is atomic:
 * the output is one of the two complete files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_SYMLINKS = 40 };

static void set_error(struct output_file *out, const char *format,
                      const char *path, const char *reason)
{
    snprintf(out->error, sizeof out->error, format, path, reason);
}

static bool is_proc_path(const char *path)
{
    return strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/dev/fd/", 8) == 0 ||
           strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/stderr") == 0;
}

/* "dir/link" + "target" -> "dir/target"; an absolute target as it is. */
static char *join_link(const char *link_path, const char *target)
{
    if (target[0] == '/')
        return strdup(target);
    const char *slash = strrchr(link_path, '/');
    size_t directory = slash ? (size_t)(slash - link_path) + 1 : 0;
    char *joined = malloc(directory + strlen(target) + 1);
    if (!joined)
        return NULL;
    memcpy(joined, link_path, directory);
    strcpy(joined + directory, target);
    return joined;
}

/* Sets out->kind and out->target (see the table above). */
static bool classify(struct output_file *out, const char *path)
{
    struct stat info;
    bool exists = stat(path, &info) == 0;
    bool through_proc = is_proc_path(path);
    if (exists && S_ISDIR(info.st_mode)) {
        set_error(out, "cannot write %s: %s", path, "is a directory");
        return false;
    }
    if (exists && S_ISSOCK(info.st_mode)) {
        set_error(out, "cannot write %s: %s", path, "is a socket, not a file");
        return false;
    }
    if (!exists && errno == ELOOP) {
        set_error(out, "cannot write %s: %s", path, strerror(ELOOP));
        return false;
    }
    char *current = strdup(path);
    if (!current) {
        set_error(out, "cannot write %s: %s", path, "out of memory");
        return false;
    }
    if (exists && !S_ISREG(info.st_mode)) {
        out->kind = OUTPUT_WRITE_THROUGH;
        out->target = current;
        return true;
    }
    char link[PATH_MAX];
    for (int depth = 0;; depth++) {
        ssize_t length = readlink(current, link, sizeof link - 1);
        if (length <= 0)
            break;
        if (depth == MAX_SYMLINKS) {
            free(current);
            set_error(out, "cannot write %s: %s", path, strerror(ELOOP));
            return false;
        }
        link[length] = '\0';
        char *next = join_link(current, link);
        free(current);
        if (!next) {
            set_error(out, "cannot write %s: %s", path, "out of memory");
            return false;
        }
        current = next;
        through_proc |= is_proc_path(current);
    }
    out->target = current;
    out->kind = through_proc && exists ? OUTPUT_APPEND : OUTPUT_REPLACE;
    return true;
}

int output_exclusive_temporary(const char *target, char **temporary)
{
    static unsigned counter;
    size_t size = strlen(target) + 48;
    *temporary = malloc(size);
    if (!*temporary) {
        errno = ENOMEM;
        return -1;
    }
    int fd = -1;
    for (int attempt = 0; attempt < 1000 && fd < 0; attempt++) {
        snprintf(*temporary, size, "%s.tmp-%ld-%u", target, (long)getpid(),
                 counter++);
        fd = open(*temporary,
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int error = errno;
        free(*temporary);
        *temporary = NULL;
        errno = error;
    }
    return fd;
}

static bool open_temporary(struct output_file *out)
{
    int fd = output_exclusive_temporary(out->target, &out->temporary);
    if (fd < 0) {
        set_error(out, "cannot create a temporary file beside %s: %s",
                  out->target, strerror(errno));
        return false;
    }
    /* An existing file keeps its permissions and (as root) its owner. */
    struct stat info;
    if (stat(out->target, &info) == 0 && S_ISREG(info.st_mode)) {
        (void)fchmod(fd, info.st_mode & 07777);
        if (geteuid() == 0)
            (void)!fchown(fd, info.st_uid, info.st_gid);
    }
    out->stream = fdopen(fd, "wb");
    if (!out->stream) {
        set_error(out, "cannot write %s: %s", out->path, strerror(errno));
        close(fd);
        unlink(out->temporary);
        return false;
    }
    return true;
}

static bool open_through(struct output_file *out)
{
    int flags = O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC |
                (out->kind == OUTPUT_APPEND ? O_APPEND : 0);
    int fd = open(out->path, flags);
    if (fd < 0) {
        set_error(out, "cannot write %s: %s", out->path,
                  errno == ENXIO ? "no process is reading it (a FIFO needs a "
                                   "reader when the output is written)"
                                 : strerror(errno));
        return false;
    }
    int now = fcntl(fd, F_GETFL);
    if (now >= 0)
        fcntl(fd, F_SETFL, now & ~O_NONBLOCK);
    out->stream = fdopen(fd, "wb");
    if (!out->stream) {
        set_error(out, "cannot write %s: %s", out->path, strerror(errno));
        close(fd);
        return false;
    }
    return true;
}

bool output_open(struct output_file *out, const char *path)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    if (strcmp(path, "-") == 0) {
        out->kind = OUTPUT_STDOUT;
        out->stream = stdout;
        return true;
    }
    if (!*path) {
        set_error(out, "cannot write '%s': %s", path, "empty file name");
        return false;
    }
    if (!classify(out, path))
        return false;
    bool ok = out->kind == OUTPUT_REPLACE ? open_temporary(out)
                                          : open_through(out);
    if (!ok) {
        free(out->target);
        free(out->temporary);
        out->target = out->temporary = NULL;
    }
    return ok;
}

static void release(struct output_file *out)
{
    free(out->target);
    free(out->temporary);
    out->target = out->temporary = NULL;
    out->stream = NULL;
}

bool output_commit(struct output_file *out)
{
    if (out->kind == OUTPUT_STDOUT) {
        bool ok = fflush(stdout) == 0 && !ferror(stdout);
        if (!ok)
            set_error(out, "cannot write %s: %s", "standard output",
                      strerror(errno));
        out->stream = NULL;
        return ok;
    }
    bool ok = !ferror(out->stream);
    int error = ok ? 0 : EIO;
    if (fflush(out->stream) != 0) {
        ok = false;
        error = errno;
    }
    if (ok && out->kind == OUTPUT_REPLACE && fsync(fileno(out->stream)) != 0 &&
        errno != EINVAL) {
        ok = false;
        error = errno;
    }
    if (fclose(out->stream) != 0 && ok) {
        ok = false;
        error = errno;
    }
    out->stream = NULL;
    if (ok && out->kind == OUTPUT_REPLACE &&
        rename(out->temporary, out->target) != 0) {
        ok = false;
        error = errno;
    }
    if (!ok) {
        set_error(out, "cannot write %s: %s", out->path, strerror(error));
        if (out->temporary)
            unlink(out->temporary);
    }
    release(out);
    return ok;
}

void output_abort(struct output_file *out)
{
    if (out->stream && out->kind != OUTPUT_STDOUT)
        fclose(out->stream);
    if (out->temporary)
        unlink(out->temporary);
    release(out);
}
