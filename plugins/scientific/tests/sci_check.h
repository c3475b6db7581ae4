// SPDX-License-Identifier: MIT
/*
 * sci_check.h -- the scientific plugin's unit tests' one assertion: CHECK
 * prints the file, line and message of a failed condition and counts it in
 * the test's `failures`, which main() turns into the exit status.
 */
#ifndef SCI_CHECK_H
#define SCI_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* 0 when nothing failed, else 1 after "N failures" on stderr; "ok: what"
 * on stdout otherwise. */
static inline int check_summary(const char *what)
{
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("ok: %s\n", what);
    return failures != 0;
}

#endif /* SCI_CHECK_H */
