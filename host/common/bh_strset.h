// SPDX-License-Identifier: MIT
/* A set of strings with a number kept for each (an index, usually): the
 * hash lookup that duplicate checks over long lists (config keys and
 * values, case ids) use, so that they stay linear. */
#ifndef BH_STRSET_H
#define BH_STRSET_H

#include <stddef.h>

typedef struct bh_strset {
    const char **keys; /* borrowed; NULL marks a free slot */
    size_t *vals;
    size_t cap;        /* a power of two, or 0 before the first add */
    size_t n;
} bh_strset;

#define BH_STRSET_INIT {NULL, NULL, 0, 0}

/* Adds key (borrowed: it must outlive the set and not change) with val and
 * returns 1; when an equal key is already there, adds nothing, stores its
 * value in *old (may be NULL) and returns 0. */
int bh_strset_add(bh_strset *s, const char *key, size_t val, size_t *old);

/* True when an equal key is in s; its value goes to *val (may be NULL). */
int bh_strset_get(const bh_strset *s, const char *key, size_t *val);

/* Releases the table (not the keys); s is empty and usable again. */
void bh_strset_free(bh_strset *s);

#endif
