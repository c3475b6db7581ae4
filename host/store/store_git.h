// SPDX-License-Identifier: MIT
/* The first-parent history of the checked-out commit, for the
 * "nearest ancestor commit with data" baseline (store:nearest-ancestor). */
#ifndef BH_STORE_GIT_H
#define BH_STORE_GIT_H

#include "bh_error.h"

#include <stddef.h>

/* The commits of `git rev-list --first-parent -n MAX HEAD` run in dir
 * (NULL: the current directory), nearest first (HEAD itself first),
 * spawned without a shell and bounded by timeout_ms. *out is a new array
 * of *n new strings (free with bh_store_git_free). 0, or -1 with e saying
 * why (no git, not a work tree, no commit, timeout). */
int bh_store_git_first_parents(const char *dir, size_t max, int timeout_ms, char ***out,
                               size_t *n, bh_error *e);

void bh_store_git_free(char **v, size_t n);

#endif
