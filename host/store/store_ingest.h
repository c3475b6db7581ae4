// SPDX-License-Identifier: MIT
/* Filling the results store from result files (`bhost store ingest`). */
#ifndef BH_STORE_INGEST_H
#define BH_STORE_INGEST_H

#include "store.h"

#include <stddef.h>

typedef struct bh_store_ingest_stats {
    size_t files;     /* result files read */
    size_t stored;    /* new runs stored */
    size_t present;   /* runs that were already in the store */
    size_t malformed; /* files skipped: not a valid result document */
    size_t failed;    /* files the database refused */
} bh_store_ingest_stats;

/* Called with one line ("FILE: message", no newline) per file skipped. */
typedef void (*bh_store_report_fn)(const char *line, void *ctx);

/* Ingests paths[0..n): a file is read whatever its name; a directory is
 * walked recursively for *.json files, skipping names that start with
 * '.' and the Google Benchmark and Bencher exports bhost writes next to
 * results (*.gbench.json, *.bmf.json). workers threads (-1: one per
 * CPU, at most 8; 0: none) read files (with store_scan.h's fast reader,
 * or the strict reader bh_result_parse where it gives up: what is
 * accepted and the messages are the strict reader's) and turn them into
 * rows; the calling thread stores them in path order, many per
 * transaction (bh_store_put). A file that is not a valid result, or that
 * the database refuses, is reported through report (after the others, for
 * invalid files) and skipped; the others are stored. Returns 0 when every file was stored or already there, -1
 * when any was skipped or a path could not be read. *st is filled. */
int bh_store_ingest(bh_store *s, char *const *paths, size_t n, int workers,
                    bh_store_report_fn report, void *ctx, bh_store_ingest_stats *st);

#endif
