// SPDX-License-Identifier: MIT
/* bhost ab's decision: every case of two builds ran interleaved ABBA in
 * one invocation (pipeline/ab_exec.h), so every comparison is decided on
 * paired data: per pair of runs (run j of A and run j of B, adjacent in
 * the schedule) the ln ratio B/A, then the Wilcoxon signed-rank test with
 * the one-sample Hodges-Lehmann shift and its interval, Benjamini-Hochberg
 * over all the paired tests, and the verdict rules of compare
 * (docs/statistics.md section 11.9). */
#ifndef BH_REGRESS_AB_DECIDE_H
#define BH_REGRESS_AB_DECIDE_H

#include "regress_compare.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* Compares b (the candidate build's result document) against a (the
 * baseline build's, the same case ids and run indexes) under cfg: the
 * unpaired comparison of bh_regress_compare_docs first (kept as each
 * item's initial verdict), then every tested time and performance metric
 * decided paired as its confirmation (bh_regress_confirm_paired, _decide):
 * the paired verdict becomes the item's verdict. Memory and spread items
 * keep their unpaired verdicts. A comparison with fewer than 2 complete
 * pairs (a side crashed) keeps its unpaired verdict and says why in its
 * confirmation error. *out is freshly filled (bh_regress_report_free).
 * Pure. */
void bh_regress_ab_decide(const cJSON *a, const cJSON *b, const bh_regress_config *cfg,
                          bh_regress_report *out);

/* The fewest pairs with which the exact signed-rank test can reach
 * q <= fdr when m_tests paired tests share the Benjamini-Hochberg family
 * (the smallest two-sided p with n pairs is 2 / 2^n, section 10.7):
 * log2(2 m / fdr) rounded up, at least 2. Pure. */
uint32_t bh_regress_ab_least_pairs(double fdr, size_t m_tests);

#endif
