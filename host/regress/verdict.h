// SPDX-License-Identifier: MIT
/* The decision core of the regression engine: the statistics of one
 * (case, metric) comparison and the verdict drawn from them.
 *
 * Pure: no I/O, no globals; temporary memory only (malloc, freed before
 * return); reentrant; deterministic. The rules are spelled out at the top
 * of verdict.c. */
#ifndef BH_REGRESS_VERDICT_H
#define BH_REGRESS_VERDICT_H

#include <stddef.h>
#include <stdint.h>

/* How the two sides are tested. */
typedef enum bh_regress_method {
    BH_REGRESS_MWU = 0, /* Mann-Whitney U + Hodges-Lehmann on log values */
    BH_REGRESS_WELCH,   /* Welch t on log values (ratio of geometric means) */
} bh_regress_method;

/* Which test produced p. */
typedef enum bh_regress_test {
    BH_REGRESS_TEST_NONE = 0,
    BH_REGRESS_TEST_MWU_EXACT,
    BH_REGRESS_TEST_MWU_NORMAL,      /* tie- and continuity-corrected */
    BH_REGRESS_TEST_WELCH,
    BH_REGRESS_TEST_WILCOXON_EXACT,  /* paired */
    BH_REGRESS_TEST_WILCOXON_NORMAL, /* paired, tie- and continuity-corrected */
    BH_REGRESS_TEST_BROWN_FORSYTHE,  /* spread: deviations from the median
                                        against ratio x the baseline's
                                        (variance.h) */
} bh_regress_test;

/* The statistics of one comparison of candidate values against baseline
 * values of a metric. Changes are relative changes of the metric itself,
 * candidate over baseline minus 1 (+0.034 = the candidate's value is 3.4%
 * higher), whatever the metric's direction. */
typedef struct bh_regress_stat {
    size_t n_base, n_cand;  /* values used (pairs: both equal the pairs) */
    int paired;             /* 1: from pairs (Wilcoxon + one-sample HL) */
    int log_scale;          /* 1: every value > 0, shifts are on ln values;
                               0: some value <= 0, shifts are additive and
                               divided by |baseline median| */
    double base_center;     /* median of the baseline values */
    double cand_center;     /* median of the candidate values */
    double change;          /* point estimate of the relative change */
    double change_lo;       /* confidence interval of the change; may be */
    double change_hi;       /* -+INFINITY when n is too small for it */
    double level;           /* the interval's confidence level */
    double p;               /* two-sided p of the test */
    double q;               /* Benjamini-Hochberg adjusted p (set later;
                               NAN until then) */
    double spread;          /* spread of the compared scale (ln values, or
                               values / |baseline median|), pooled over the
                               two sides (for pairs: of the differences):
                               1.4826 MAD for the rank tests (robust like
                               them; the sd when the MAD is 0), the sd for
                               Welch; 0 when every value is equal */
    bh_regress_test test;
} bh_regress_stat;

/* Thresholds of one comparison, as fractions of the baseline value
 * (0.01 = 1%). noise_floor <= warning <= critical. */
typedef struct bh_regress_thresholds {
    double noise_floor;
    double warning;
    double critical;
} bh_regress_thresholds;

typedef enum bh_regress_kind {
    BH_VERDICT_NO_CHANGE = 0,
    BH_VERDICT_WITHIN_NOISE,
    BH_VERDICT_IMPROVED,
    BH_VERDICT_REGRESSED,
    BH_VERDICT_INCONCLUSIVE,
    BH_VERDICT_NEW,     /* only in the candidate */
    BH_VERDICT_MISSING, /* only in the baseline */
    BH_VERDICT_NOISIER, /* the spread between runs grew beyond the
                           configured ratio (variance.h) */
} bh_regress_kind;
#define BH_VERDICT_KINDS 8

typedef enum bh_regress_severity {
    BH_SEVERITY_NONE = 0,
    BH_SEVERITY_MINOR,
    BH_SEVERITY_WARNING,
    BH_SEVERITY_CRITICAL,
} bh_regress_severity;

/* Largest run count runs_needed reports; more is reported as this. */
#define BH_REGRESS_MAX_RUNS 10000u

/* The reasons of an INCONCLUSIVE verdict of bh_regress_classify, one per
 * reading (docs/statistics.md section 11.6); readers compare a verdict's
 * reason with them (strcmp) to word it. TOO_FEW: the exact rank test
 * cannot reach the level fdr / m at this number of runs, whatever the data.
 * UNDETECTED: not significant, and the whole interval lies within +-mde.
 * UNDECIDED: neither. */
#define BH_REGRESS_REASON_TOO_FEW                                                                  \
    "too few runs: at this number of runs the test cannot reach its significance level"
#define BH_REGRESS_REASON_UNDETECTED                                                               \
    "not significant, and the interval rules out a change as large as the minimum detectable "    \
    "effect"
#define BH_REGRESS_REASON_UNDECIDED                                                                \
    "not significant, and too few runs to rule out a change beyond the noise floor"

/* The reasons of a spread item's verdict (variance.h). */
#define BH_REGRESS_REASON_NOISIER                                                                  \
    "the spread between runs grew beyond noisier_ratio times the baseline's (Brown-Forsythe, "     \
    "BH-adjusted)"
#define BH_REGRESS_REASON_NOT_NOISIER                                                              \
    "not shown to be noisier than noisier_ratio times the baseline's spread"

typedef struct bh_regress_verdict {
    bh_regress_kind kind;
    bh_regress_severity severity; /* REGRESSED only */
    double worse;                 /* the change in the worse direction:
                                     change for lower-is-better metrics,
                                     -change for higher-is-better */
    double worse_lo, worse_hi;    /* its interval */
    double mde;                   /* relative change detectable with power
                                     0.8 at the current n (NAN without a
                                     spread) */
    uint32_t runs_needed;         /* INCONCLUSIVE: runs (or pairs) per side
                                     that would settle it; 0 otherwise */
    const char *reason;           /* static text: why this verdict */
} bh_regress_verdict;

/* Compares candidate values cand[0..nc) against baseline values
 * base[0..nb) of one metric with the given method at confidence `level`.
 * MWU: the shift is the Hodges-Lehmann median of the pairwise differences
 * with its CI by Mann-Whitney inversion, p from the exact null when there
 * are no ties and both n < 50, else from the normal approximation with tie
 * and continuity correction. WELCH: the shift is the difference of the
 * means with the Welch t interval; zero variance on both sides gives p = 1
 * for equal means and p = 0 otherwise.
 * Every value > 0: the log scale; otherwise values are divided by
 * |baseline median| and compared additively (log_scale 0).
 * Requires nb >= 2, nc >= 2, finite values, level in (0, 1), and on the
 * additive scale a non-zero baseline median. Returns 0; -1 when a
 * requirement fails or memory runs out (*out: NAN fields, test NONE, the
 * counts set). */
int bh_regress_test_unpaired(const double *base, size_t nb, const double *cand,
                             size_t nc, bh_regress_method method, double level,
                             bh_regress_stat *out);

/* Paired comparison of n pairs (base[i], cand[i]) run side by side
 * (interleaved): Wilcoxon signed-rank on the per-pair differences (ln
 * ratios on the log scale) and the one-sample Hodges-Lehmann location of
 * those differences with its signed-rank CI. Requires n >= 2, finite
 * values, level in (0, 1). Returns 0 or -1 as above. */
int bh_regress_test_paired(const double *base, const double *cand, size_t n,
                           double level, bh_regress_stat *out);

/* Classifies st (with st->q set) for a metric whose direction is +1
 * (lower is better) or -1 (higher is better), under thresholds th, the
 * false discovery rate fdr and m_tests tests in the whole comparison (for
 * the power estimate). Rules: verdict.c. Pure. */
void bh_regress_classify(const bh_regress_stat *st, int direction,
                         const bh_regress_thresholds *th, double fdr,
                         size_t m_tests, bh_regress_verdict *out);

/* The verdict for a comparison that cannot be tested (fewer than 2 values
 * on a side): INCONCLUSIVE with runs_needed the smallest n per side whose
 * best exact p can pass fdr / m_tests, and the given reason. */
void bh_regress_untestable(size_t n_base, size_t n_cand, double fdr,
                           size_t m_tests, const char *reason,
                           bh_regress_verdict *out);

/* The shift detectable with power 0.8 by a two-sided test at level alpha,
 * on the compared scale (ln values, or values / |baseline median|), for a
 * spread s with nb, nc values per side: (z(1-alpha/2) + z(0.8)) * k * s *
 * sqrt(1/nb + 1/nc); paired (nb = nc = pairs): ... * s * sqrt(1/n).
 * k = sqrt(pi/3) for the rank tests (their efficiency relative to t tests
 * under normality is 3/pi) when rank is set, else 1. NAN for invalid
 * input. Pure. */
double bh_regress_mde(double s, size_t nb, size_t nc, int paired, int rank,
                      double alpha);

/* The smallest n per side (pairs when paired), at least 2, for which
 * bh_regress_mde(s, n, n, paired, rank, alpha) <= target (a shift on the
 * compared scale, > 0) and, for rank tests, the exact test can reach
 * alpha (2 / C(2n, n) unpaired, 2 / 2^n paired); capped at
 * BH_REGRESS_MAX_RUNS (also when target <= 0 and s > 0). Pure. */
uint32_t bh_regress_runs_needed(double s, double target, int paired, int rank,
                                double alpha);

/* The smallest n per side (pairs when paired), at least 2, at which the
 * exact rank test can reach the two-sided level alpha: below it a rank
 * comparison can never be significant (BH_REGRESS_REASON_TOO_FEW); capped
 * at BH_REGRESS_MAX_RUNS. Pure. */
uint32_t bh_regress_runs_to_reach(double alpha, int paired);

/* Smallest two-sided p the exact rank test can reach with n per side
 * (unpaired: 2 / C(2n, n)) or n pairs (2 / 2^n), at most 1. */
double bh_regress_min_p(size_t n, int paired);

/* Names used in output: "no change", "within noise", "improved",
 * "regressed", "inconclusive", "new", "missing", "noisier"; "minor",
 * "warning", "critical" ("" for NONE); "mwu-exact", "mwu-normal", "welch",
 * "wilcoxon-exact", "wilcoxon-normal", "brown-forsythe-ratio" ("none"). */
const char *bh_regress_kind_name(bh_regress_kind k);
const char *bh_regress_severity_name(bh_regress_severity s);
const char *bh_regress_test_name(bh_regress_test t);

#endif
