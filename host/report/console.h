// SPDX-License-Identifier: MIT
/* The console summary of a run: a table grouped by plugin and benchmark,
 * read from the result document. */
#ifndef BH_CONSOLE_H
#define BH_CONSOLE_H

#include "result_view.h"

#include <cjson/cJSON.h>
#include <stdio.h>

typedef struct bh_report_console_opts {
    int color;   /* ANSI colors (see bh_report_use_color) */
    int verbose; /* per-case run details, flags and the log tail of
                    failures after the table */
} bh_report_console_opts;

/* Prints the table of doc (a result document) to out: a header row, then
 * per plugin/benchmark group either one row (a group of one case) or a
 * group line and one indented row per case: status, median time per
 * iteration with its CI, CV across runs, throughput, and the roofline
 * fraction and verdict columns when any case has them; under a row, a
 * line with the case's plugin metrics (bh_report_console_metrics). Skipped and
 * unsupported cases without a verdict are not rows (unless verbose): one
 * line per reason counts them (bh_report_console_skips). Then one line per
 * other non-ok case with its message and a count by status. With verbose, each
 * case's runs, flags and settings, and the last lines of the plugin log of
 * every run that did not end ok. Writes to out only. */
void bh_report_console(FILE *out, const cJSON *doc, const bh_report_console_opts *o);

/* True when case c is left out of the table and counted in a grouped skip
 * line instead: skipped or unsupported, no verdict, and not verbose. */
int bh_report_case_grouped(const bh_rv_case *c, int verbose);

/* Prints one line per (status, reason) of the grouped rows: the status, how
 * many cases, a glob matching their ids, and the reason, in the order the
 * first case of each group appears. */
void bh_report_console_skips(FILE *out, const bh_result_view *v, int verbose, int color);

/* Prints the line under a table row that lists its case's plugin metrics
 * (report_metric), each as the median over runs with its unit, unless
 * the only one is already the row's throughput; nothing without any. */
void bh_report_console_metrics(FILE *out, const bh_rv_case *c);

/* Prints once, for the whole run, what the counters and energy meters
 * gave when they did not all work ("  counters: unsupported: ..."), from
 * the first case that carries the records (console_meters.c). */
void bh_report_console_meters(FILE *out, const cJSON *doc);

/* Prints the ratios: section of doc (console_ratios.c): one line per
 * pair, the ratio of medians with its interval and the two case ids, or
 * "unavailable:" and why; nothing when the run has none. */
void bh_report_console_ratios(FILE *out, const cJSON *doc);

/* Prints the per-case details that verbose adds (see above). */
void bh_report_console_details(FILE *out, const bh_result_view *v, int color);

/* True when output to fd should be colored: fd is a terminal, NO_COLOR is
 * unset or empty, and TERM is not "dumb". */
int bh_report_use_color(int fd);

#endif
