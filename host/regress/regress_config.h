// SPDX-License-Identifier: MIT
/* The regression: section of a config, parsed and validated.
 *
 *   regression:
 *     noise_floor: 1%        # a verdict beyond noise needs the whole CI
 *                            # beyond this (default 1%)
 *     warning: 3%            # regressed severity warning from here (3%)
 *     critical: 10%          # ... critical from here (10%); fails
 *                            # --fail-on-regression
 *     fdr: 0.05              # Benjamini-Hochberg false discovery rate
 *     confidence: 95%        # level of the change's interval
 *     method: mwu            # or welch
 *     confirm: true          # rerun suspect cases before failing
 *     confirm_runs: 12       # pairs (or runs) per confirmed case
 *     drift_window: 20       # earlier invocations of a case (same machine
 *                            # fingerprint, results store) whose drift
 *                            # widens its noise floor (drift.h); 0 = off
 *     drift_min_runs: 5      # fewer recorded than this: no drift floor
 *     metrics:               # per extra metric ("time" is the timing)
 *       tokens_per_s: {direction: higher}   # or lower; ignore: true
 *       instructions: {noise_floor: 0.1%}   # this metric's own floor
 *     memory:                # peak RSS and host-API allocations, per run
 *       rss_floor: 10%       # peak RSS: its noise floor (and lowest warning
 *                            # and critical): 10%
 *       alloc_floor: 0.1%    # alloc_bytes and alloc_count: 0.1%
 *       compare: true        # false: memory is not compared
 *     noisier_ratio: 2.0     # spread between runs grown beyond this ratio:
 *                            # the verdict noisier (variance.h), > 1
 *     noisier: warn          # warn (reported), fail (fails the gate like a
 *                            # critical regression) or off (not tested)
 *     overrides:             # by glob on the case id; later entries win
 *       - match: "tensor/gemm*"
 *         noise_floor: 2%
 *         critical: 5%
 *
 * Percentages are "2%" or a fraction below 1 ("0.02"). After overrides,
 * every case must have noise_floor <= warning <= critical. */
#ifndef BH_REGRESS_CONFIG_H
#define BH_REGRESS_CONFIG_H

#include "bh_error.h"
#include "verdict.h"

#include <stddef.h>
#include <stdint.h>

/* Which thresholds an override sets. */
#define BH_REGRESS_SET_FLOOR    (1u << 0)
#define BH_REGRESS_SET_WARNING  (1u << 1)
#define BH_REGRESS_SET_CRITICAL (1u << 2)

typedef struct bh_regress_override {
    char *match;                 /* glob on the case id */
    unsigned set;                /* BH_REGRESS_SET_* */
    bh_regress_thresholds th;    /* the values of the keys set */
} bh_regress_override;

typedef struct bh_regress_metric_cfg {
    char *name;
    int direction; /* +1 lower is better, -1 higher, 0 = as the result says */
    int ignore;    /* 1: not compared */
    double noise_floor; /* the metric's floor, replacing the case's; NAN:
                           not set */
} bh_regress_metric_cfg;

/* The noise floor of the counts of a counting run (measure: instructions,
 * host/supervisor/callgrind_run.h): instructions and simulated misses are
 * the same from run to run, so a change of 0.1% is a real one
 * (docs/statistics.md section 11.7). */
#define BH_REGRESS_COUNT_FLOOR 0.001

/* What a noisier verdict does (regression.noisier). */
typedef enum bh_regress_noisier_mode {
    BH_REGRESS_NOISIER_WARN = 0, /* reported, the gate passes */
    BH_REGRESS_NOISIER_FAIL,     /* fails the gate (bh_regress_n_critical) */
    BH_REGRESS_NOISIER_OFF,      /* spread not tested */
} bh_regress_noisier_mode;

/* Defaults of the memory comparison (memory_compare.h, docs/statistics.md
 * section 11.8): peak RSS moves with the allocator and the kernel by a few
 * percent between runs; host-API allocations repeat exactly. */
#define BH_REGRESS_RSS_FLOOR 0.10
#define BH_REGRESS_ALLOC_FLOOR 0.001
#define BH_REGRESS_NOISIER_RATIO 2.0

typedef struct bh_regress_config {
    bh_regress_thresholds th; /* global thresholds */
    double fdr;
    double confidence;
    bh_regress_method method;
    int confirm;
    uint32_t confirm_runs;
    size_t drift_window;      /* 0: the configured floor alone */
    size_t drift_min_runs;
    bh_regress_metric_cfg *metrics;
    size_t n_metrics;
    bh_regress_override *overrides;
    size_t n_overrides;
    int memory;               /* compare peak RSS and host-API allocations */
    double rss_floor;         /* noise floor of peak_rss_kb */
    double alloc_floor;       /* noise floor of alloc_bytes, alloc_count */
    double noisier_ratio;     /* spread ratio of the noisier verdict, > 1 */
    int noisier;              /* bh_regress_noisier_mode */
} bh_regress_config;

/* The defaults: noise_floor 1%, warning 3%, critical 10%, fdr 0.05,
 * confidence 95%, method mwu, confirm on, confirm_runs 12, drift_window
 * 20, drift_min_runs 5, no metrics, no overrides, memory compared with
 * rss_floor 10% and alloc_floor 0.1%, noisier_ratio 2, noisier warn. */
void bh_regress_config_default(bh_regress_config *c);

/* Parses the regression: section given as JSON text (bh_config's
 * regression_json; NULL = defaults) over the defaults. pos_json (may be
 * NULL) maps key paths to "file:line:col" (bh_config's
 * regression_pos_json); file (may be NULL) names the config in messages
 * when a position is unknown. Unknown keys are errors with a did-you-mean.
 * Returns 0, or -1 with e = "file:line:col: regression.KEY: expected ...,
 * got ..." and *out holding the defaults (always freeable). */
int bh_regress_config_parse(const char *json, const char *pos_json,
                            const char *file, bh_regress_config *out,
                            bh_error *e);

void bh_regress_config_free(bh_regress_config *c);

/* The thresholds for a case id: the global ones with every matching
 * override applied in order, then warning lowered to critical and
 * noise_floor to warning where several overrides combined out of order. */
void bh_regress_thresholds_for(const bh_regress_config *c, const char *case_id,
                               bh_regress_thresholds *out);

/* The noise floor of metric in a case whose thresholds are th (from
 * bh_regress_thresholds_for): the metric's configured noise_floor, else
 * BH_REGRESS_COUNT_FLOOR for the counts of a counting run (counted != 0
 * and metric one of instructions, l1_misses, ll_misses), else
 * th->noise_floor; never above th->warning. Pure. */
double bh_regress_metric_floor(const bh_regress_config *c, const char *metric, int counted,
                               const bh_regress_thresholds *th);

/* The configured entry for a metric name, or NULL. */
const bh_regress_metric_cfg *bh_regress_metric_find(const bh_regress_config *c,
                                                    const char *name);

#endif
