// SPDX-License-Identifier: MIT
/* The strict checks of one case of a result document read back: its
 * status, and the figures the statistics consume (run samples and metric
 * values), each refused with the field's path and what it holds. */
#ifndef BH_RESULT_CHECK_H
#define BH_RESULT_CHECK_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* Checks case c, number i of the document named name: "status" a known
 * status; "runs", when present, an array of objects whose "status" (when
 * present) is known and whose "samples" (when present) are [iterations,
 * ns] pairs with an integer iterations >= 1 and a finite ns >= 0; each
 * run's "metrics" values and each case metric's "values" numbers or null.
 * 0, or -1 with e = "NAME: cases[I].runs[R].samples[S][1]: expected ...,
 * got ...". */
int bh_result_check_case(const cJSON *c, size_t i, const char *name, bh_error *e);

/* Sets e to "NAME: PATH: expected WHAT, got ..." (what v holds, briefly)
 * and returns -1. */
int bh_result_check_fail(bh_error *e, const char *name, const char *path, const char *what,
                         const cJSON *v);

/* Checks the document's "scaling" list when present (scaling_check.c,
 * docs/results-schema.md): objects with string axis and name, a known
 * mode, min_efficiency in (0, 1], points whose value is a positive number,
 * whose figures are numbers or null and whose below_threshold agrees with
 * efficiency < min_efficiency. 0, or -1 with e naming the field. */
int bh_result_check_scaling(const cJSON *doc, const char *name, bh_error *e);

#endif
