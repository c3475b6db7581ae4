// SPDX-License-Identifier: MIT
/* Error detail carried out of a failing call as one line of text. */
#ifndef BH_ERROR_H
#define BH_ERROR_H

#include <stddef.h>

typedef struct bh_error {
    char msg[1024]; /* one line, no trailing newline; "" when unset */
} bh_error;

/* Formats msg into *e (truncating) and returns -1, so a caller can write
 * `return bh_error_set(e, ...)`. e may be NULL. */
int bh_error_set(bh_error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prepends "prefix: " to the message already in *e; returns -1. */
int bh_error_prefix(bh_error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
