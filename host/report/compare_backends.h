// SPDX-License-Identifier: MIT
/* Backends side by side: the cases of a result document that differ only
 * in their "@backend:device" part, grouped per operation (the id without
 * that part), for the console and as JSON. Agreement is the case metric
 * verify.err_to_tol (largest |result - host reference| / tolerance; <= 1
 * passes) that device benchmarks verifying element-wise report. */
#ifndef BH_COMPARE_BACKENDS_H
#define BH_COMPARE_BACKENDS_H

#include <cjson/cJSON.h>
#include <stdio.h>

/* Prints, for every operation that ran on two or more backend:device
 * pairs, one line per pair: status, median time per iteration, headline
 * throughput, time relative to the fastest, and err/tol when the case
 * reports it; backends that did not run are folded into one line. Prints
 * nothing when no operation has two pairs. Returns the number of
 * operations printed. Writes to out only; never fails. */
int bh_report_console_backends(FILE *out, const cJSON *doc, int color);

/* The same grouping as JSON: an array of {"op", "cases": [{"at", "id",
 * "status", "median_ns", "rate", "rate_unit", "relative", "err_to_tol",
 * "max_abs_err"}]} (numbers absent when unknown), one element per
 * operation with two or more backend:device pairs. Caller owns the
 * result; an empty array when there is nothing to compare. */
cJSON *bh_report_backend_groups(const cJSON *doc);

#endif
