// SPDX-License-Identifier: MIT
/* File-system helpers: whole-file reads, directory creation and the atomic
 * write every result and baseline goes through. */
#ifndef BH_FS_H
#define BH_FS_H

#include "bh_error.h"

#include <stddef.h>

/* Opens path for reading and refuses at once anything that is not a
 * regular file (a FIFO, a directory, a device, a socket) with "PATH: not a
 * regular file", so that no caller ever blocks in open() or read() on it.
 * Returns a blocking, close-on-exec descriptor, or -1 with e set. */
int bh_open_regular(const char *path, bh_error *e);

/* Reads a whole regular file of at most max_bytes into a NUL-terminated
 * buffer (*out, free() it; *len without the NUL). 0 or -1 with e set. */
int bh_read_file(const char *path, size_t max_bytes, char **out, size_t *len,
                 bh_error *e);

/* Creates dir and its missing parents with mode 0755; 0 or -1. */
int bh_mkdir_p(const char *dir, bh_error *e);

/* Writes data to path atomically: a temporary file in the same directory,
 * fsync, rename over path, fsync of the directory. Readers see either the
 * old file or the whole new one, never a part. A symbolic link's target is
 * replaced (the link stays); an existing path that is not a regular file
 * (/dev/null, a FIFO) is written directly, never replaced; a directory is
 * an error. 0 or -1 with e set. */
int bh_write_file_atomic(const char *path, const void *data, size_t n,
                         bh_error *e);

/* Creates path exclusively (O_EXCL) with data, written atomically through a
 * temporary file and link(); -1 with errno EEXIST left in e when taken. */
int bh_create_file_exclusive(const char *path, const void *data, size_t n,
                             bh_error *e);

/* True when path names an existing regular file. */
int bh_is_regular_file(const char *path);
/* True when path names an existing directory. */
int bh_is_directory(const char *path);
/* True when path names something that exists (of any kind, following
 * symbolic links: a dangling link does not exist). */
int bh_path_exists(const char *path);

#endif
