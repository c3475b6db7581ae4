// SPDX-License-Identifier: MIT
/* The regression engine evaluating itself on synthetic data (seeded Monte
 * Carlo; docs/statistics.md section 12): null calibration
 * of each test and of Benjamini-Hochberg, a synthetic A/A suite, and power
 * against injected slowdowns. The real end-to-end half (bhost run + bhost
 * compare on the spin benchmark) is tools/eval-regress.sh.
 *
 * Data model of one run's value: the median of `samples` samples
 * scale * exp(o_run + o_side) * exp(N(0, cv)) (x 1.3 with probability
 * `contamination`), o_run ~ N(0, tau) per run, o_side ~ N(0, drift) once
 * per side (machine state shared by every run of one invocation).
 *
 * Pure computations into result structs (printing is the CLI's job);
 * deterministic in the seed; no globals. */
#ifndef BH_REGRESS_EVAL_SIM_H
#define BH_REGRESS_EVAL_SIM_H

#include "verdict.h"

#include <stddef.h>
#include <stdint.h>

/* The noise model of one side. */
typedef struct bh_regress_noise {
    double cv;            /* within-run, per sample (lognormal sigma) */
    double tau;           /* run-level offset sd */
    double drift;         /* side-level offset sd */
    double contamination; /* fraction of samples x 1.3 */
    uint32_t samples;     /* samples per run */
} bh_regress_noise;

/* One cell of the null calibration. */
typedef struct bh_regress_null_row {
    const char *test;     /* "mwu-exact", "mwu-normal", "welch", "wilcoxon" */
    const char *model;    /* noise model name */
    size_t n;             /* runs per side (pairs) */
    uint32_t trials;
    double rate05, rate01; /* rejection rates at alpha 0.05 and 0.01 */
    double hi05, hi01;     /* upper end of the binomial 99% interval around
                              the nominal alpha */
    double lo05, lo01;     /* its lower end */
} bh_regress_null_row;

/* Runs the null calibration: every test x n in {5, 8, 10, 30} x models
 * {iid cv 1%, cv 3% + run offsets tau 1%, cv 1% + 5% contamination}, with
 * `trials` trials per cell. *rows is a new array of *n_rows (free() it). */
void bh_regress_eval_null(uint64_t seed, uint32_t trials, bh_regress_null_row **rows,
                          size_t *n_rows);

/* Benjamini-Hochberg calibration on m tests per trial. */
typedef struct bh_regress_bh_row {
    size_t m;
    double pi0;          /* fraction of true nulls */
    double q;            /* FDR level */
    uint32_t trials;
    double fdr;          /* mean false discovery proportion */
    double fwer;         /* P(at least one false rejection) */
    double power;        /* mean fraction of true effects rejected */
} bh_regress_bh_row;

/* m = 300 MWU tests of n = runs per side (cv 2%, tau 1%), true effects
 * +5%, pi0 in {1, 0.9}, q = 0.05. */
void bh_regress_eval_bh(uint64_t seed, uint32_t trials, uint32_t runs,
                        bh_regress_bh_row rows[2]);

/* A synthetic A/A suite through the whole verdict pipeline. */
typedef struct bh_regress_aa_result {
    uint32_t trials;
    size_t cases;
    uint32_t runs;
    double drift;               /* side-level drift sd of the model */
    double p_any_critical;      /* suites with >= 1 critical regression */
    double p_any_regressed;
    double per_case_warning;    /* regressed with severity >= warning */
    double per_case_regressed;  /* any severity */
    double per_case_improved;
    double per_case_inconclusive;
    double mean_runs_needed;    /* over inconclusive cases */
} bh_regress_aa_result;

/* `cases` cases per suite (cv cycling over 0.5%, 1%, 2%, 3%, tau 0.5%, 10
 * samples per run, the given side drift), `runs` runs per side, default
 * thresholds (the config's in cfg). */
struct bh_regress_config;
void bh_regress_eval_aa(uint64_t seed, uint32_t trials, size_t cases, uint32_t runs,
                        double drift, const struct bh_regress_config *cfg,
                        bh_regress_aa_result *out);

/* Power against an injected slowdown. */
typedef struct bh_regress_power_row {
    double slowdown;       /* 0.02, 0.05, 0.10 */
    double cv;             /* between-run spread (tau) of the model */
    uint32_t runs;
    uint32_t trials;
    double detected;       /* verdict regressed, any severity */
    double critical;       /* regressed critical */
    double mean_change;    /* mean estimated change */
    double coverage;       /* interval covered the true change */
} bh_regress_power_row;

/* slowdowns {2, 5, 10}% x between-run cv {0.5, 1, 2, 3}% at `runs` runs
 * per side, one case among `cases` - 1 unchanged ones (so BH sees a
 * realistic family). *rows new array (free() it). */
void bh_regress_eval_power(uint64_t seed, uint32_t trials, uint32_t runs, size_t cases,
                           const struct bh_regress_config *cfg,
                           bh_regress_power_row **rows, size_t *n_rows);

#endif
