// SPDX-License-Identifier: MIT
/* bhost-tokenize's check that a tiktoken rank file is the whole file of
 * the encoding asked for: the published files have ranks 0..N-1 with a
 * fixed N per encoding, so a file of another encoding, or one cut at a
 * line boundary, has another count. */
#ifndef BH_TOK_RANK_CHECK_H
#define BH_TOK_RANK_CHECK_H

#include <stddef.h>

/* For a tiktoken format (r50k p50k cl100k o200k), checks that path has
 * exactly that encoding's number of ranks, 0..N-1; other formats pass.
 * 0, or -1 with a one-line message in err naming the file, the count
 * found and the count expected. */
int bh_tok_check_ranks(const char *format, const char *path, char *err, size_t cap);

#endif
