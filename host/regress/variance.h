// SPDX-License-Identifier: MIT
/* The noisier verdict: has the spread between runs grown beyond a ratio?
 * (docs/statistics.md section 11.8.)
 *
 * The test is Brown-Forsythe's (Levene's test on absolute deviations from
 * the median) turned into a test of a ratio: on ln run medians, the
 * baseline's absolute deviations from its median are multiplied by the
 * ratio r, and a one-sided pooled t test asks whether the candidate's
 * deviations are larger on average. H0: spread(candidate) <= r x
 * spread(baseline); a small p says the candidate is noisier than r times
 * the baseline, so r is the effect-size floor built into the test (as the
 * noise floor is for a change). Deviations from the median, not squared
 * deviations (Bartlett's or the F test), because one slow run among ten is
 * common and the F test calls it a variance change far more often than its
 * level says.
 *
 * Pure: no I/O, no globals; temporary memory only. */
#ifndef BH_REGRESS_VARIANCE_H
#define BH_REGRESS_VARIANCE_H

#include "regress_compare.h"

#include <stddef.h>

/* The name of a spread item (bh_regress_item.spread): the between-run
 * spread of the time per iteration. */
#define BH_REGRESS_SPREAD "time_spread"

/* Fewest runs per side a spread test needs: with two, both deviations from
 * the median are the same number. */
#define BH_REGRESS_SPREAD_MIN_RUNS 3

/* The figures of one spread test. */
typedef struct bh_regress_spread_stat {
    double sd_base, sd_cand;   /* sd of the ln values per side (~ the CV) */
    double mad_base, mad_cand; /* mean absolute deviation from the median
                                  of the ln values per side */
    double ratio;              /* the ratio tested against (r) */
    double t;                  /* pooled t of cand deviations against r x
                                  base deviations */
    double df;                 /* nb + nc - 2 */
    double p;                  /* one-sided P(T >= t) */
} bh_regress_spread_stat;

/* Tests whether cand[0..nc) is noisier than ratio times base[0..nb) (run
 * values, every one > 0 and finite; each side at least
 * BH_REGRESS_SPREAD_MIN_RUNS; ratio >= 1). With zero pooled variance of
 * the deviations (both sides constant, say) p is 0 when the candidate's
 * mean deviation is larger than r times the baseline's, else 1. Returns
 * 0, or -1 for invalid input or no memory (*out: NAN figures). */
int bh_regress_spread_test(const double *base, size_t nb, const double *cand, size_t nc,
                           double ratio, bh_regress_spread_stat *out);

/* Appends the spread item of a case to r when both sides have enough
 * runs with positive values (time run medians): metric
 * BH_REGRESS_SPREAD, tested with the config's noisier_ratio; nothing when
 * cfg->noisier is off or a side is short. */
void bh_regress_spread_add(bh_regress_report *r, const bh_regress_config *cfg,
                           const char *case_id, const char *base_id, const double *base,
                           size_t nb, const double *cand, size_t nc);

/* Benjamini-Hochberg over the tested spread items of r (their own
 * family), then their verdicts: NOISIER when q <= fdr, else NO_CHANGE;
 * sets r->n_spread_tests and r->noisier_fail. Called by
 * bh_regress_finalize before the counts. */
void bh_regress_spread_finalize(bh_regress_report *r, const bh_regress_config *cfg);

#endif
