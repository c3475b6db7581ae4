// SPDX-License-Identifier: MIT
/* Reading result documents back, strictly: size and depth limits, schema
 * check, and the per-case figures the regression engine consumes. */
#ifndef BH_RESULT_READ_H
#define BH_RESULT_READ_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>

#define BH_RESULT_MAX_BYTES (512u << 20) /* a result file larger is refused */
#define BH_RESULT_MAX_DEPTH 64

/* Reads and validates a result file: JSON within the limits, an object
 * with schema "bhost.result/1", a "run" object, a "cases" array whose
 * elements are objects with a string "id" and a known "status", unique
 * ids, runs and samples as bh_result_check_case() requires, and when
 * present a run.git object of commit/branch (string or null) and dirty
 * (bool or null).
 * Returns the document (caller deletes) or NULL with e =
 * "FILE: message" naming what was expected. */
cJSON *bh_result_read(const char *path, bh_error *e);

/* The same limits and checks on len bytes of text already in memory
 * (need not be NUL-terminated; name is used in messages). Returns the
 * document (caller deletes) or NULL with e set. */
cJSON *bh_result_parse(const char *text, size_t len, const char *name,
                       bh_error *e);

/* The schema checks on a document already parsed (name is used in
 * messages). */
int bh_result_validate(const cJSON *doc, const char *name, bh_error *e);

/* run.git of a document: *commit and *branch (borrowed, NULL when
 * unknown) and *dirty (1, 0, or -1 unknown). Results written before git
 * metadata was recorded have no run.git: everything unknown. */
void bh_result_git(const cJSON *doc, const char **commit, const char **branch, int *dirty);

/* The case with the given id in a document, or NULL. */
const cJSON *bh_result_find_case(const cJSON *doc, const char *id);

/* Scans len bytes of JSON text, strings ignored: the deepest nesting of
 * objects and arrays, and in *open (may be NULL) the nesting still open at
 * the end, plus one when the text ends inside a string: a text cut short
 * has *open > 0. */
size_t bh_result_json_depth(const char *text, size_t len, size_t *open);

/* The median ns per iteration of one run's [iterations, ns] samples (those
 * with iterations >= 1 and a finite ns >= 0), with how many samples
 * counted and the iterations they timed (n and iters may be NULL); NAN
 * when none counts. */
double bh_result_run_median(const cJSON *samples, size_t *n, double *iters);

/* The median of the numbers in a metric's "values" array; NAN when it has
 * none. */
double bh_result_metric_median(const cJSON *metric);

/* The median time per iteration (ns) of each ok run of a case, in run
 * order: *out is a new array of *n values (free() it; NULL when none).
 * Samples that are malformed are skipped. */
void bh_result_run_medians(const cJSON *c, double **out, size_t *n);


#endif
