// SPDX-License-Identifier: MIT
#include "bh_strbuf.h"

#include "bh_mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for n more bytes plus the NUL. */
static void reserve(bh_strbuf *b, size_t n)
{
    size_t need = b->len + n + 1;

    if (need <= b->cap)
        return;
    bh_grow((void **)&b->data, &b->cap, need, 1);
}

void bh_strbuf_append(bh_strbuf *b, const char *s, size_t n)
{
    reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void bh_strbuf_puts(bh_strbuf *b, const char *s)
{
    bh_strbuf_append(b, s, strlen(s));
}

void bh_strbuf_printf(bh_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_list ap2;
    int n;

    char probe[256];

    va_start(ap, fmt);
    va_copy(ap2, ap);
    n = vsnprintf(probe, sizeof(probe), fmt, ap);
    va_end(ap);
    if (n > 0) {
        reserve(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

const char *bh_strbuf_str(const bh_strbuf *b)
{
    return b->data ? b->data : "";
}

char *bh_strbuf_detach(bh_strbuf *b)
{
    char *p = b->data ? b->data : bh_xstrdup("");

    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

void bh_strbuf_free(bh_strbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
