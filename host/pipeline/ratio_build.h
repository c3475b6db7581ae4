// SPDX-License-Identifier: MIT
/* The ratios: of a config computed over a run's result document: the
 * median time per iteration of one case over another's (bhost's
 * implementation over a reference), with a seeded bootstrap interval. */
#ifndef BH_RATIO_BUILD_H
#define BH_RATIO_BUILD_H

#include "config.h"
#include "plan.h"

#include <cjson/cJSON.h>
#include <stdint.h>

/* Adds doc.ratios (one object per cfg->ratios entry, in order; nothing
 * when the config has none). doc.cases[i] is plan->cases[i]; a side named
 * by a suite must resolve to exactly one case of that suite. Each object:
 * name, case, reference (the case ids), status "ok" with ratio, ci_lo,
 * ci_hi, level, resamples, case_median_ns, reference_median_ns; else
 * status "unavailable" and reason (the side's status and message, e.g.
 * a reference skipped because its program is missing). */
void bh_ratios_apply(cJSON *doc, const bh_config *cfg, const bh_plan *plan, uint64_t seed);

/* bhost merge: adds the merged doc's ratios, those of shards[0] in order,
 * each computed again over doc's cases (the two sides may have run in
 * different shards; each shard recorded the case id of a side it ran) with
 * seed, the run's (run.seed), plus the ratio's index, so the
 * merged ratios are what the whole run would report on those samples. A
 * ratio no shard could resolve keeps shards[0]'s object and reason. */
void bh_ratios_merge(cJSON *doc, cJSON *const *shards, size_t n, uint64_t seed);

#endif
