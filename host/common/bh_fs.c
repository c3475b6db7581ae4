// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "bh_fs.h"

#include "bh_mem.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int bh_open_regular(const char *path, bh_error *e)
{
    struct stat st;
    int flags;
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

    if (fd < 0)
        return bh_error_set(e, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return bh_error_set(e, "%s: not a regular file", path);
    }
    flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int rc = bh_error_set(e, "%s: cannot open: %s", path, strerror(errno));

        close(fd);
        return rc;
    }
    return fd;
}

int bh_read_file(const char *path, size_t max_bytes, char **out, size_t *len,
                 bh_error *e)
{
    struct stat st;
    char *buf = NULL;
    size_t got = 0;
    int fd = bh_open_regular(path, e);

    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0) {
        int rc = bh_error_set(e, "%s: cannot read: %s", path, strerror(errno));

        close(fd);
        return rc;
    }
    if ((unsigned long long)st.st_size > max_bytes) {
        close(fd);
        return bh_error_set(e, "%s: file is %lld bytes, the limit is %zu",
                            path, (long long)st.st_size, max_bytes);
    }
    buf = bh_xmalloc((size_t)st.st_size + 1);
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    *out = buf;
    if (len)
        *len = got;
    return 0;
}

int bh_mkdir_p(const char *dir, bh_error *e)
{
    char *p;

    if (!dir || !*dir)
        return bh_error_set(e, "cannot create a directory with an empty name");
    p = bh_xstrdup(dir);

    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            int rc = bh_error_set(e, "%s: cannot create: %s", p,
                                  strerror(errno));
            free(p);
            return rc;
        }
        *s = '/';
    }
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
        int rc = bh_error_set(e, "%s: cannot create: %s", p, strerror(errno));
        free(p);
        return rc;
    }
    free(p);
    if (!bh_is_directory(dir))
        return bh_error_set(e, "%s: exists and is not a directory", dir);
    return 0;
}

/* Writes all of data to fd; 0 or -1 with errno set. */
static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;

    while (n > 0) {
        ssize_t w = write(fd, p, n);

        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Fsyncs the directory holding path, so a rename or link is durable. */
static void sync_parent(const char *path)
{
    char *copy = bh_xstrdup(path);
    int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(copy);
}

/* Writes data into a fresh temporary file beside path; returns its name
 * (free() it) or NULL with e set. */
static char *write_temp(const char *path, const void *data, size_t n,
                        bh_error *e)
{
    char *tmp = bh_xasprintf("%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);

    if (fd < 0) {
        bh_error_set(e, "%s: cannot create temporary file: %s", path,
                     strerror(errno));
        free(tmp);
        return NULL;
    }
    fchmod(fd, 0644);
    if (write_all(fd, data, n) != 0 || fsync(fd) != 0) {
        bh_error_set(e, "%s: write failed: %s", path, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    if (close(fd) != 0) {
        bh_error_set(e, "%s: close failed: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    return tmp;
}

/* Writes data straight into an existing file that is not a regular file
 * (/dev/null, a FIFO, a terminal): renaming over it would replace the
 * device node itself. 0 or -1 with e set. */
static int write_special(const char *path, const void *data, size_t n,
                         bh_error *e)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);

    if (fd < 0)
        return bh_error_set(e, "%s: cannot open for writing: %s", path,
                            strerror(errno));
    if (write_all(fd, data, n) != 0) {
        int rc = bh_error_set(e, "%s: write failed: %s", path, strerror(errno));

        close(fd);
        return rc;
    }
    close(fd);
    return 0;
}

int bh_write_file_atomic(const char *path, const void *data, size_t n,
                         bh_error *e)
{
    struct stat st;
    char *real = NULL;
    char *tmp;
    int rc = 0;

    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return bh_error_set(e, "%s: is a directory, expected a file path",
                            path);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return write_special(path, data, n, e);
    /* a symbolic link keeps pointing where it did: replace its target */
    real = realpath(path, NULL);
    if (real != NULL) {
        struct stat lst;

        if (lstat(path, &lst) != 0 || !S_ISLNK(lst.st_mode)) {
            free(real);
            real = NULL;
        } else {
            path = real;
        }
    }
    tmp = write_temp(path, data, n, e);
    if (!tmp) {
        free(real);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        rc = bh_error_set(e, "%s: rename failed: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        free(real);
        return rc;
    }
    free(tmp);
    sync_parent(path);
    free(real);
    return rc;
}

int bh_create_file_exclusive(const char *path, const void *data, size_t n,
                             bh_error *e)
{
    char *tmp = write_temp(path, data, n, e);
    int rc = 0;

    if (!tmp)
        return -1;
    if (link(tmp, path) != 0) {
        int err = errno;
        rc = bh_error_set(e, "%s: %s", path, strerror(err));
        errno = err;
    }
    unlink(tmp);
    free(tmp);
    if (rc == 0)
        sync_parent(path);
    return rc;
}

int bh_is_regular_file(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int bh_is_directory(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int bh_path_exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}
