// SPDX-License-Identifier: MIT
/* Allocation helpers for host code: they never return NULL. On exhaustion
 * they print one line and exit with status 70 (the host cannot go on). */
#ifndef BH_MEM_H
#define BH_MEM_H

#include <stddef.h>

void *bh_xmalloc(size_t size);
/* n * size with overflow check; memory is zeroed. */
void *bh_xcalloc(size_t n, size_t size);
/* n * size with overflow check. */
void *bh_xreallocarray(void *p, size_t n, size_t size);
char *bh_xstrdup(const char *s);
char *bh_xstrndup(const char *s, size_t n);
/* Returns a freshly allocated formatted string. */
char *bh_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grows *items (with element size elem) so it can hold need elements;
 * *cap is updated. */
void bh_grow(void **items, size_t *cap, size_t need, size_t elem);
#define BH_PUSH(arr, n, cap, value)                                            \
    do {                                                                       \
        bh_grow((void **)&(arr), &(cap), (n) + 1, sizeof(*(arr)));             \
        (arr)[(n)++] = (value);                                                \
    } while (0)

#endif
