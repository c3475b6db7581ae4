// SPDX-License-Identifier: MIT
/* Confirm before failing: rerun only the suspect cases of a comparison,
 * interleaved, and decide again on the new data.
 *
 * With a baseline build (--baseline-plugins DIR), each suspect case runs as
 * two clones, A with the plugin file of the same name found in DIR and B
 * with the candidate's, in randomized ABBA order: blocks of two pairs
 * [A B B A] or [B A A B] (a seeded coin per block), the blocks of all
 * suspect cases shuffled together, so both runs of a pair share the
 * machine's state. Each pair gives one ln ratio; the decision is the
 * Wilcoxon signed-rank test with the one-sample Hodges-Lehmann shift of
 * the ratios, BH-adjusted over the confirmed set.
 *
 * Without a baseline build, only the candidate's cases are rerun, their
 * runs shuffled together, and compared unpaired against the stored
 * baseline again. That guards against a disturbance during the first
 * candidate run, but not against a machine that changed since the
 * baseline was recorded: the weaker guarantee.
 *
 * This module decides (schedules, tests, verdicts); running the clones is
 * the run pipeline's (host/pipeline/confirm_rerun.h). */
#ifndef BH_REGRESS_CONFIRM_H
#define BH_REGRESS_CONFIRM_H

#include "regress_compare.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* One run of a clone in a confirmation schedule. */
typedef struct bh_regress_slot {
    uint32_t clone; /* index of the clone (paired: 2k = A, 2k + 1 = B of
                       suspect case k) */
    uint32_t run;   /* run index within the clone (paired: the pair) */
} bh_regress_slot;

/* The paired ABBA schedule for n_cases cases with `pairs` pairs each (see
 * above; an odd last pair is a lone AB or BA). A new array of
 * 2 * pairs * n_cases slots in *n (free() it); NULL when empty. Pure,
 * deterministic in seed. */
bh_regress_slot *bh_regress_abba_schedule(size_t n_cases, uint32_t pairs, uint64_t seed, size_t *n);

/* The same schedule with pairs[k] pairs for case k (bhost ab: cases of
 * suites with different runs); a case with 0 pairs has no slot. Pure. */
bh_regress_slot *bh_regress_abba_schedule_each(size_t n_cases, const uint32_t *pairs, uint64_t seed,
                                               size_t *n);

/* The unpaired schedule: runs 0..runs-1 of clones 0..n_cases-1, shuffled.
 * New array of runs * n_cases slots in *n (free() it). Pure. */
bh_regress_slot *bh_regress_shuffled_schedule(size_t n_cases, uint32_t runs, uint64_t seed,
                                              size_t *n);

/* Fills it->conf from the confirmation data: paired (base[i], cand[i])
 * for i < n with both finite, or unpaired candidate values cand[0..nc)
 * against the stored baseline values base[0..nb). Keeps copies of the
 * values used. Sets conf.done; conf.error (a new string) when fewer than
 * 2 values (pairs) remain or the test fails. q and the verdict are set
 * later by bh_regress_confirm_decide. Pure. */
void bh_regress_confirm_paired(bh_regress_item *it, const double *base, const double *cand,
                               size_t n, double level);
void bh_regress_confirm_unpaired(bh_regress_item *it, const double *base, size_t nb,
                                 const double *cand, size_t nc, bh_regress_method method,
                                 double level);

/* Adjusts the p of every confirmed item of r by Benjamini-Hochberg over
 * the confirmed set, classifies each confirmation (its own thresholds,
 * m = that set's size), marks conf.confirmed, and re-finalizes r so the
 * confirmation verdicts become the items' verdicts. Pure. */
void bh_regress_confirm_decide(bh_regress_report *r, const bh_regress_config *cfg);

#endif
