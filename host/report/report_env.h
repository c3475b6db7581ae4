// SPDX-License-Identifier: MIT
/* The environment of the runs (governor, turbo, throttling, load, the
 * calibration loop; host/supervisor/env_check.h) and the CPU utilisation
 * in the console, read from the result document. */
#ifndef BH_REPORT_ENV_H
#define BH_REPORT_ENV_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

/* The machine's state as one phrase into buf, from the first case with an
 * environment: "governor performance, turbo off, no throttling seen" or
 * "governor unknown (no cpufreq in this VM), turbo unknown, no thermal
 * throttle counters"; "" when no run was checked. */
void bh_report_env_state(const cJSON *doc, char *buf, size_t cap);

/* Prints the environment after the console table: "environment: STATE;
 * N of M runs flagged (flagged runs are kept in the statistics)" and, per
 * case and flag, one line naming the flagged runs ("  ! CASE: loaded at
 * the start of runs 1, 2 of 6 (load average up to 3.74, 2 CPUs)", "clock
 * fell in run 4 of 10 (calibration up to 8% slower than at the start of
 * the first run)"), at most 20 lines, then how many more. Nothing when no
 * run was checked. */
void bh_report_console_env(FILE *out, const cJSON *doc, int color);

/* The run's CPU utilisation and environment flags for its detail line
 * into buf: ", cpu 1.98, env: loaded, clock_fell" ("" when the run has
 * neither). run is a runs[] object. */
void bh_report_run_env_text(const cJSON *run, char *buf, size_t cap);

/* The case's CPU utilisation and flagged runs for its detail lines into
 * buf: "  cpu utilisation: median 0.98 (0.45 to 0.99, 6 runs)" and, when
 * runs were flagged, "; environment: 2 of 6 runs flagged (clock_fell 2)";
 * "" when the case has neither. c is a cases[] object. */
void bh_report_case_env_text(const cJSON *c, char *buf, size_t cap);

#endif
