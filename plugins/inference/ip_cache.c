// SPDX-License-Identifier: MIT
/*
 * ip_cache.c -- the page-cache helpers of the model-loading benchmark (see
 * ip_cache.h).
 */
#define _GNU_SOURCE
#include "ip_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int ip_cache_drop(const char *path, char *err, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

    if (fd < 0) {
        snprintf(err, cap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    (void)fdatasync(fd); /* dirty pages would stay; EINVAL on some fs is fine */
    rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
    if (rc != 0) {
        snprintf(err, cap, "%s: posix_fadvise(DONTNEED): %s", path, strerror(rc));
        return -1;
    }
    return 0;
}

double ip_cache_resident(const char *path)
{
    long page = sysconf(_SC_PAGESIZE);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    unsigned char *vec = NULL;
    void *p = MAP_FAILED;
    double frac = -1.0;
    size_t pages, in = 0;

    if (fd < 0 || page <= 0 || fstat(fd, &st) != 0 || st.st_size <= 0)
        goto out;
    pages = ((size_t)st.st_size + (size_t)page - 1) / (size_t)page;
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    vec = malloc(pages);
    if (p == MAP_FAILED || vec == NULL || mincore(p, (size_t)st.st_size, vec) != 0)
        goto out;
    for (size_t i = 0; i < pages; i++)
        in += vec[i] & 1;
    frac = (double)in / (double)pages;
out:
    if (p != MAP_FAILED)
        munmap(p, (size_t)st.st_size);
    free(vec);
    if (fd >= 0)
        close(fd);
    return frac;
}

/* Seconds on the monotonic clock. */
static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double ip_cache_read_rate(const char *path, size_t chunk, char *err, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    char *buf = malloc(chunk);
    double t0 = now_s(), bytes = 0.0;
    ssize_t got;

    if (fd < 0 || buf == NULL) {
        snprintf(err, cap, "%s: cannot open: %s", path, fd < 0 ? strerror(errno) : "no memory");
        free(buf);
        if (fd >= 0)
            close(fd);
        return -1.0;
    }
    while ((got = read(fd, buf, chunk)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err, cap, "%s: cannot read: %s", path, strerror(errno));
            bytes = -1.0;
            break;
        }
        bytes += (double)got;
    }
    t0 = now_s() - t0;
    close(fd);
    free(buf);
    return bytes < 0.0 ? -1.0 : bytes / (t0 > 0.0 ? t0 : 1e-9);
}
