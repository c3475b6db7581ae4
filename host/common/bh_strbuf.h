// SPDX-License-Identifier: MIT
/* A growable NUL-terminated byte string. */
#ifndef BH_STRBUF_H
#define BH_STRBUF_H

#include <stddef.h>

typedef struct bh_strbuf {
    char *data; /* always NUL-terminated once anything was appended */
    size_t len;
    size_t cap;
} bh_strbuf;

#define BH_STRBUF_INIT {NULL, 0, 0}

void bh_strbuf_append(bh_strbuf *b, const char *s, size_t n);
void bh_strbuf_puts(bh_strbuf *b, const char *s);
void bh_strbuf_printf(bh_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The contents ("" when empty); valid until the next append or free. */
const char *bh_strbuf_str(const bh_strbuf *b);
/* Hands the buffer to the caller (free() it); b is reset. */
char *bh_strbuf_detach(bh_strbuf *b);
void bh_strbuf_free(bh_strbuf *b);

#endif
