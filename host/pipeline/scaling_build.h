// SPDX-License-Identifier: MIT
/* The scaling: axes of a config computed over a run's result document
 * (docs/scaling.md): for each suite axis, the cases that differ only in
 * that parameter form one curve; each point gets its speedup and
 * parallel efficiency against the smallest axis value that has a time,
 * with the bootstrap interval of median_ratio.h, and a flag when the
 * efficiency is under the axis's min_efficiency. */
#ifndef BH_SCALING_BUILD_H
#define BH_SCALING_BUILD_H

#include "config.h"
#include "plan.h"

#include <cjson/cJSON.h>
#include <stdint.h>

/* The figures of one point from r = T(p0) / T(p), the ratio of the base
 * case's median time over the point's, with its interval [lo, hi], and
 * work = w(p) / w(p0), the ratio of work per iteration (throughput mode;
 * 1 otherwise):
 *   strong:     speedup = r,        efficiency = r p0 / p
 *   weak:       efficiency = r,     speedup = r p / p0 (scaled speedup)
 *   throughput: speedup = work r = R(p) / R(p0), efficiency = speedup p0 / p
 * The intervals scale with r's; ideal is p / p0 in every mode. */
typedef struct bh_scaling_figures {
    double speedup, speedup_lo, speedup_hi;
    double efficiency, efficiency_lo, efficiency_hi;
    double ideal;
} bh_scaling_figures;

void bh_scaling_figures_of(int mode, double p0, double p, double r, double lo, double hi,
                           double work, bh_scaling_figures *out);

/* Adds doc.scaling (nothing when cfg has no scaling: axis): one curve
 * per group of cases of a suite with an axis whose other parameters,
 * benchmark and backend:device are equal, in plan order of their first
 * case; doc.cases[i] is plan->cases[i]. The layout is in
 * docs/results-schema.md. */
void bh_scaling_apply(cJSON *doc, const bh_config *cfg, const bh_plan *plan, uint64_t seed);

/* bhost merge: adds the merged doc's scaling (nothing when no shard has
 * one): the curves of every shard joined by suite, axis and name, their
 * points the union of the shards' (each shard's curve holds the cases it
 * ran), each curve computed again over doc's cases against its smallest
 * point with a time. A curve's bootstrap seed depends on seed (the run's
 * run.seed), its name and axis only, so a merged curve is the whole run's figure on
 * those samples. Curves come in the order they first appear in shards[0],
 * then shards[1], ... */
void bh_scaling_merge(cJSON *doc, cJSON *const *shards, size_t n, uint64_t seed);

#endif
