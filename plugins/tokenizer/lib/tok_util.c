// SPDX-License-Identifier: MIT
/*
 * tok_util.c -- errors, growable vectors and file reading for libbhtok.
 */
#include "tok_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* See tok_internal.h: newlines in the message become spaces. */
int bh_tok_err(char *err, size_t cap, const char *fmt, ...)
{
    if (err != NULL && cap > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
        /* one line: fold any newline that came from the data */
        for (char *p = err; *p != '\0'; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
    }
    return -1;
}

/* See tok_internal.h. */
void *bh_tok_calloc(size_t n, size_t size)
{
    if (n == 0)
        n = 1;
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    return calloc(n, size);
}

/* See tok_internal.h: geometric growth, overflow-checked. */
int bh_tok_grow(void **p, size_t *cap, size_t need, size_t es)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap < 16 ? 16 : *cap;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return -1;
        c *= 2;
    }
    if (c > SIZE_MAX / es)
        return -1;
    void *q = realloc(*p, c * es);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* See bhtok.h. */
int bh_tok_ids_push(bh_tok_ids *ids, int32_t id)
{
    if (ids->n == ids->cap &&
        bh_tok_grow((void **)&ids->v, &ids->cap, ids->n + 1, sizeof(int32_t)) != 0)
        return -1;
    ids->v[ids->n++] = id;
    return 0;
}

/* See bhtok.h. */
void bh_tok_ids_free(bh_tok_ids *ids)
{
    free(ids->v);
    memset(ids, 0, sizeof(*ids));
}

/* See bhtok.h: keeps the buffer NUL-terminated. */
int bh_tok_bytes_append(bh_tok_bytes *b, const void *p, size_t n)
{
    if (n > SIZE_MAX - b->n - 1)
        return -1;
    if (bh_tok_grow((void **)&b->p, &b->cap, b->n + n + 1, 1) != 0)
        return -1;
    if (n > 0)
        memcpy(b->p + b->n, p, n);
    b->n += n;
    b->p[b->n] = '\0';
    return 0;
}

/* See bhtok.h. */
void bh_tok_bytes_free(bh_tok_bytes *b)
{
    free(b->p);
    memset(b, 0, sizeof(*b));
}

char *bh_tok_read_file(const char *path, size_t max_bytes, size_t *len,
                       char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    char *buf = NULL;

    if (f == NULL) {
        bh_tok_err(err, errcap, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        bh_tok_err(err, errcap, "%s: not a regular file", path);
        goto fail;
    }
    if ((uint64_t)st.st_size > max_bytes) {
        bh_tok_err(err, errcap, "%s: file too large (%lld bytes, limit %zu)",
                   path, (long long)st.st_size, max_bytes);
        goto fail;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (buf == NULL) {
        bh_tok_err(err, errcap, "%s: out of memory", path);
        goto fail;
    }
    size_t got = fread(buf, 1, (size_t)st.st_size, f);
    if (got != (size_t)st.st_size) {
        bh_tok_err(err, errcap, "%s: short read", path);
        goto fail;
    }
    buf[got] = '\0';
    *len = got;
    fclose(f);
    return buf;
fail:
    free(buf);
    fclose(f);
    return NULL;
}
