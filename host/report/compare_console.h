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
 *     change: [+2.1% +3.4% +4.8%] (95% CI, p=0.0003, q=0.004) regressed (warning)
 *       why: significant, and the whole interval is beyond the noise floor
 *     confirmed: [...] (95% CI, ABBA, 12 pairs, p=..., q=...) regressed (warning)
 *       why: ...
 * The medians are those of the run medians; each verdict is followed by
 * its reason, and an inconclusive one is worded by its reading
 * (docs/statistics.md section 11.6): "too few runs to judge (3 a side, 7
 * needed)" with the estimate and no interval, "no change detected
 * (smallest detectable change 12.0%)", else "inconclusive (needs ~N runs
 * per side)"; "new", "missing" as they come. quiet_ok leaves out cases
 * whose every metric is "no change". color adds ANSI colors. Writes to out
 * only. */
void bh_compare_print(FILE *out, const bh_regress_report *r, int quiet_ok, int color);

/* Prints a spread item (noisier verdict, variance.h):
 *     spread: 1.20% -> 3.90% (sd of ln run medians, 10 vs 10 runs)
 *     ratio: x3.25 against x2 (Brown-Forsythe, p=..., q=...) noisier (a
 *       warning; regression.noisier: fail fails the gate)
 *       why: ...
 * fails: noisier fails the gate. color adds ANSI colors
 * (compare_spread.c). */
void bh_compare_print_spread(FILE *out, const bh_regress_item *it, int fails, int color);

/* Prints the change line of an item decided without a test (a memory
 * metric equal in every run): "change: none no change" and its reason. */
void bh_compare_print_decided(FILE *out, const bh_regress_item *it);

/* Prints the one-line summary: "compared N cases, M tests (BH fdr 0.05):
 * 1 regressed (1 critical), ..., 9 inconclusive (5 too few runs to judge,
 * 3 no change detected, 1 undecided), ...". */
void bh_compare_print_summary(FILE *out, const bh_regress_report *r);

#endif
