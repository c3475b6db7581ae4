// SPDX-License-Identifier: MIT
/*
 * ie_file.c -- weight files: read-only mapping, format detection, tensor
 * lookup and element conversion shared by the safetensors and GGUF
 * parsers.
 */
#include "ie_file.h"
#include "ie.h"
#include "ie_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void ie_tensor_dir_free(ie_tensor_dir *d)
{
    free(d->t);
    free(d->strings);
    d->t = NULL;
    d->strings = NULL;
    d->n = 0;
}

const ie_tensor *ie_tensor_find(const ie_tensor_dir *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->t[i].name, name) == 0)
            return &d->t[i];
    return NULL;
}

size_t ie_type_size(int type)
{
    switch (type) {
    case IE_T_F32: return 4;
    case IE_T_F16:
    case IE_T_BF16: return 2;
    case IE_T_F64: return 8;
    default: return 0;
    }
}

float ie_tensor_get(const ie_tensor *t, uint64_t i)
{
    const uint8_t *p = (const uint8_t *)t->data + i * ie_type_size(t->type);
    uint16_t h;
    float f;
    double d;

    switch (t->type) {
    case IE_T_F32:
        memcpy(&f, p, 4);
        return f;
    case IE_T_F16:
        memcpy(&h, p, 2);
        return ie_f16_to_f32(h);
    case IE_T_BF16:
        memcpy(&h, p, 2);
        return ie_bf16_to_f32(h);
    case IE_T_F64:
        memcpy(&d, p, 8);
        return (float)d;
    default:
        return 0.0f;
    }
}

/* Opens path for reading and checks it is a regular file of at least 8
 * bytes: the descriptor with *size, or -1 with "PATH: why" in err. */
static int open_weights(const char *path, size_t *size, char *err, size_t cap)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        snprintf(err, cap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, cap, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    if (st.st_size < 8) {
        snprintf(err, cap, "%s: %lld bytes, too short for a weight file", path,
                 (long long)st.st_size);
        close(fd);
        return -1;
    }
    *size = (size_t)st.st_size;
    return fd;
}

int ie_map_file(const char *path, ie_mapped *out, char *err, size_t cap)
{
    size_t len;
    int fd = open_weights(path, &len, err, cap);
    void *p;

    memset(out, 0, sizeof(*out));
    if (fd < 0)
        return IE_EFILE;
    p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        snprintf(err, cap, "%s: cannot map: %s", path, strerror(errno));
        return IE_EFILE;
    }
    out->data = p;
    out->len = len;
    return IE_OK;
}

int ie_read_file(const char *path, ie_mapped *out, char *err, size_t cap)
{
    size_t len, done = 0;
    int fd = open_weights(path, &len, err, cap);
    uint8_t *p;

    memset(out, 0, sizeof(*out));
    if (fd < 0)
        return IE_EFILE;
    if ((p = malloc(len)) == NULL) {
        snprintf(err, cap, "%s: no memory for its %zu bytes", path, len);
        close(fd);
        return IE_EFILE;
    }
    while (done < len) {
        size_t want = len - done < IE_READ_CHUNK ? len - done : IE_READ_CHUNK;
        ssize_t got = read(fd, p + done, want);

        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            snprintf(err, cap, "%s: cannot read byte %zu of %zu: %s", path, done, len,
                     got < 0 ? strerror(errno) : "the file ends early");
            free(p);
            close(fd);
            return IE_EFILE;
        }
        done += (size_t)got;
    }
    close(fd);
    out->data = p;
    out->len = len;
    out->heap = 1;
    return IE_OK;
}

void ie_unmap_file(ie_mapped *m)
{
    if (m->data != NULL && m->heap)
        free((void *)m->data);
    else if (m->data != NULL)
        munmap((void *)m->data, m->len);
    memset(m, 0, sizeof(*m));
}

int ie_parse_file(const char *path, const ie_mapped *m, ie_tensor_dir *out,
                  char *err, size_t cap)
{
    char why[IE_ERR_CAP - 64];
    int rc;

    why[0] = '\0';
    if (m->len >= 4 && memcmp(m->data, "GGUF", 4) == 0)
        rc = ie_gguf_parse(m->data, m->len, out, why, sizeof(why));
    else
        rc = ie_st_parse(m->data, m->len, out, why, sizeof(why));
    if (rc != IE_OK)
        snprintf(err, cap, "%s: %s", path, why);
    return rc;
}
