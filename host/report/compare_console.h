// SPDX-License-Identifier: MIT
/* The console form of a comparison: Criterion-style lines per case and
 * metric, then a summary of counts per verdict. */
#ifndef BH_COMPARE_CONSOLE_H
#define BH_COMPARE_CONSOLE_H

#include "regress_compare.h"

#include <stdio.h>

/* Prints, per case in report order:
 *   CASE_ID
 *     time: 1.64 us -> 1.70 us (10 vs 10 runs)
 *     change: [+2.1% +3.4% +4.8%] (p=0.0003, q=0.004) regressed (warning)
 *     confirmed: [...] (paired ABBA, 12 pairs, p=..., q=...) regressed (warning)
 * ("inconclusive (needs ~N runs per side)", "new", "missing" as they
 * come). quiet_ok leaves out cases whose every metric is "no change".
 * color adds ANSI colors. Writes to out only. */
void bh_compare_print(FILE *out, const bh_regress_report *r, int quiet_ok, int color);

/* Prints the one-line summary: "compared N cases, M tests (BH fdr 0.05):
 * 1 regressed (1 critical), ...". */
void bh_compare_print_summary(FILE *out, const bh_regress_report *r);

#endif
