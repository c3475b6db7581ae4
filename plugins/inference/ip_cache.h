// SPDX-License-Identifier: MIT
/*
 * ip_cache.h -- a file and the kernel's page cache, for the model-loading
 * benchmark: drop a file's pages (a cold load), measure how much of it is
 * cached, and time a plain sequential read of it (the storage ceiling).
 */
#ifndef IP_CACHE_H
#define IP_CACHE_H

#include <stddef.h>

/* Asks the kernel to drop path's cached pages (fdatasync, then
 * POSIX_FADV_DONTNEED: no privilege needed; pages another process maps
 * stay). 0, or -1 with "PATH: why" in err. */
int ip_cache_drop(const char *path, char *err, size_t cap);

/* The fraction of path's pages in the page cache (mincore over a mapping
 * that touches nothing), or -1 when it cannot be told. */
double ip_cache_resident(const char *path);

/* Bytes per second of one sequential read() of the whole file through a
 * buffer of chunk bytes, or -1 (err set). */
double ip_cache_read_rate(const char *path, size_t chunk, char *err, size_t cap);

#endif /* IP_CACHE_H */
