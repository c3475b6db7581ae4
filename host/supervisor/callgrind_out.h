// SPDX-License-Identifier: MIT
/* Reading the totals of a callgrind output file (Valgrind's "callgrind
 * format", version 1): the "events:" line names the counted events, each
 * part's "summary:" line (or, where a part has none, its "totals:" line)
 * holds their totals, trailing zeros left out. Nothing else in the file
 * is read. */
#ifndef BH_CALLGRIND_OUT_H
#define BH_CALLGRIND_OUT_H

#include "bh_error.h"

#include <stddef.h>
#include <stdint.h>

typedef struct bh_callgrind_counts {
    uint64_t ir;        /* instructions executed (event Ir) */
    int has_cache;      /* the file has the cache simulation's events */
    uint64_t l1_misses; /* I1mr + D1mr + D1mw (has_cache) */
    uint64_t ll_misses; /* ILmr + DLmr + DLmw (has_cache) */
    unsigned parts;     /* parts summed */
} bh_callgrind_counts;

/* Parses n bytes of callgrind output (text need not be NUL-terminated)
 * into *out, summing the totals of every part. file names the file in
 * messages. Pure: no I/O. Returns 0, or -1 with e = "FILE:LINE: ..." (or
 * "FILE: ..." for what is missing) when: a "version:" other than 1; no
 * "events:" line, or one without Ir, or repeating an event; a "summary:"
 * or "totals:" line before "events:", with more values than events, or a
 * value that is not a decimal integer below 2^64; no "summary:" and no
 * "totals:" line at all (the run ended before callgrind wrote them); the
 * cache events only in part (some of I1mr D1mr D1mw ILmr DLmr DLmw). */
int bh_callgrind_parse(const char *text, size_t n, const char *file, bh_callgrind_counts *out,
                       bh_error *e);

#endif
