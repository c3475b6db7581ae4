// SPDX-License-Identifier: MIT
/* How a runs: auto case's runs ended, in words (docs/statistics.md section
 * 8.3, the result's runs_auto member). */
#ifndef BH_REPORT_RUNS_AUTO_H
#define BH_REPORT_RUNS_AUTO_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

/* Why the runs of a case with runs_auto (its member ra) stopped, into buf:
 * "6 runs (auto, 6 to 30): stopped at the 95% CI of the run medians 0.40%
 * wide, under the noise floor 1.00%" and the like for max_runs,
 * time_budget, run_not_ok and interrupted; "" when ra is not an object.
 * runs is the number of runs the case made. */
void bh_report_runs_auto_text(const cJSON *ra, double runs, char *buf, size_t cap);

/* "  runs: <bh_report_runs_auto_text>\n" on out for the case object
 * case_json when it has runs_auto; nothing otherwise. */
void bh_report_runs_auto_line(FILE *out, const cJSON *case_json);

#endif
