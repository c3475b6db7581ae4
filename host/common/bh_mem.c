// SPDX-License-Identifier: MIT
#include "bh_mem.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t size)
{
    fprintf(stderr, "bhost: out of memory (%zu bytes)\n", size);
    exit(70);
}

void *bh_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);

    if (!p)
        out_of_memory(size);
    return p;
}

void *bh_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);

    if (!p)
        out_of_memory(n * size);
    return p;
}

void *bh_xreallocarray(void *p, size_t n, size_t size)
{
    void *q;

    if (size && n > SIZE_MAX / size)
        out_of_memory(SIZE_MAX);
    q = realloc(p, (n * size) != 0 ? n * size : 1);
    if (!q)
        out_of_memory(n * size);
    return q;
}

char *bh_xstrdup(const char *s)
{
    return bh_xstrndup(s, strlen(s));
}

char *bh_xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = bh_xmalloc(len + 1);

    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *bh_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_list ap2;
    int len;
    char *p;

    char probe[256];

    va_start(ap, fmt);
    va_copy(ap2, ap);
    len = vsnprintf(probe, sizeof(probe), fmt, ap);
    va_end(ap);
    if (len < 0)
        len = 0;
    p = bh_xmalloc((size_t)len + 1);
    if ((size_t)len < sizeof(probe))
        memcpy(p, probe, (size_t)len + 1);
    else
        vsnprintf(p, (size_t)len + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

void bh_grow(void **items, size_t *cap, size_t need, size_t elem)
{
    size_t ncap;

    if (need <= *cap)
        return;
    ncap = *cap ? *cap * 2 : 8;
    while (ncap < need)
        ncap *= 2;
    *items = bh_xreallocarray(*items, ncap, elem);
    *cap = ncap;
}
