// SPDX-License-Identifier: MIT
/* The noise floor the machine's recorded drift calls for.
 *
 * A baseline and a candidate measured minutes or days apart differ by
 * more than their samples show: the machine drifts (memory placement,
 * frequency, neighbours on a shared host), and every run of one
 * invocation shares that state. The rank test sees only the spread within
 * each invocation, so on a drifting machine it calls a 2% level shift
 * significant. The results store knows better: the same case, on the same
 * machine fingerprint, measured by earlier invocations. From the newest of
 * those values (ln scale) the between-invocation spread is estimated
 * robustly from successive differences,
 *
 *     sd = 1.4826 * median(|ln x[i+1] - ln x[i]|) / sqrt(2),
 *
 * which a step change (a real regression in the history) moves by one
 * difference only. The difference of two invocations then has sd
 * sqrt(2) * sd, and the floor is the change that difference reaches with
 * probability alpha (two-sided), alpha = fdr / m as for the minimum
 * detectable effect (m: the BH family):
 *
 *     drift floor = exp(z(1 - alpha/2) * sqrt(2) * sd) - 1.
 *
 * A comparison's noise floor becomes the larger of the configured one and
 * the drift floor. Only the unpaired verdicts use it: an ABBA confirmation
 * against the baseline build (--baseline-plugins) shares the machine's
 * state pair by pair and keeps the configured floor.
 *
 * Pure: no I/O, deterministic. */
#ifndef BH_REGRESS_DRIFT_H
#define BH_REGRESS_DRIFT_H

#include "regress_compare.h"
#include "store_query.h"

#include <stddef.h>

/* The robust between-invocation sd of ln v[0..n) in series order (see
 * above): NAN when fewer than 3 values or a value is not finite and > 0. */
double bh_regress_drift_sd(const double *v, size_t n);

/* The drift floor for that sd at per-comparison level alpha (see above);
 * 0 when sd is not finite and > 0 or alpha is not in (0, 1). */
double bh_regress_drift_floor(double sd, double alpha);

/* Widens the noise floor of every tested item of r that has a history in
 * h[0..n) (bh_store_recent_values: the values of earlier invocations,
 * newest first; matched on the baseline case's id and the metric) of at
 * least cfg->drift_min_runs
 * values (the newest cfg->drift_window used) to the drift floor, where that
 * is larger, and records the estimate in the item (it->drift). Then
 * re-finalizes r. Does nothing when cfg->drift_window is 0. */
void bh_regress_apply_drift(bh_regress_report *r, const bh_regress_config *cfg,
                            const bh_store_recent *h, size_t n);

/* Loads the history from the results store at target (not created when
 * it is an SQLite file that does not exist: no history then) for the
 * comparison of cand_doc against base_doc: runs of cand_doc's config on
 * cand_doc's fingerprint that started at or before base_doc's run (so
 * every shard of a run, gated against one baseline, sees the same
 * history), and applies it to r (bh_regress_apply_drift). Returns 0
 * (also when there is no store, no history or drift is off), -1 with e
 * set when the store cannot be read (r unchanged). */
int bh_regress_drift_from_store(bh_regress_report *r, const bh_regress_config *cfg,
                                const char *target, const cJSON *base_doc,
                                const cJSON *cand_doc, bh_error *e);

#endif
