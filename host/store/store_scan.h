// SPDX-License-Identifier: MIT
/* The fast reader of result files for `bhost store ingest`: reads the
 * text in place into a cJSON tree allocated from the thread's arena
 * (store_arena.h) and keeps the compact text of each case's "runs" array
 * (the raw samples, most of a file) so that it need not be written again
 * from the tree.
 *
 * It reads only the plain JSON that it is sure to read exactly as cJSON
 * does (the same tree: members, order, strings, numbers, valueint); for
 * anything else (\u escapes, control characters, numbers of 64 or more
 * characters or that do not fit a finite double, a byte order mark,
 * nesting deeper than BH_RESULT_MAX_DEPTH, text after the document) it
 * gives up, and the caller reads the file with bh_result_parse, which
 * accepts or reports it. */
#ifndef BH_STORE_SCAN_H
#define BH_STORE_SCAN_H

#include "bh_strbuf.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* The compact text of one "runs" array: text[off .. off + len) of the
 * scan's text, NUL-terminated. */
typedef struct bh_store_scan_runs {
    const cJSON *node;
    size_t off, len;
} bh_store_scan_runs;

/* What a scan keeps besides the tree; reused from file to file (start it
 * zeroed, free with bh_store_scan_free). */
typedef struct bh_store_scan {
    bh_strbuf text;
    bh_store_scan_runs *runs; /* in document order */
    size_t n_runs, cap_runs;
} bh_store_scan;

/* Reads text[0 .. len) (text[len] must be writable; the text is changed
 * in place and the tree points into it) into a tree in this thread's
 * arena, which must be active (bh_store_arena_begin). NULL when the text
 * is not JSON this reader reads exactly as cJSON (see above); sc then
 * holds nothing of use. The tree and sc's entries are valid until the
 * arena span ends, the text changes, or the next scan. */
cJSON *bh_store_scan_doc(char *text, size_t len, bh_store_scan *sc);

/* The compact text of runs (a case's "runs" array of the last scan), or
 * NULL when the scan did not keep one; *len gets its length. *cursor (0
 * before the first case) makes lookups in document order constant time. */
const char *bh_store_scan_runs_text(const bh_store_scan *sc, const cJSON *runs, size_t *cursor,
                                    size_t *len);

void bh_store_scan_free(bh_store_scan *sc);

#endif
