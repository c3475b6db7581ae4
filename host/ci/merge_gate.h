// SPDX-License-Identifier: MIT
/* The gate of a merged run: the shards' baseline comparisons joined into
 * the one a whole run reports (bhost merge). */
#ifndef BH_MERGE_GATE_H
#define BH_MERGE_GATE_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* Joins the "comparison" summaries of the n shard documents docs (names[i]
 * names docs[i]) into *out: NULL when no shard was compared with a
 * baseline, else a new summary with the shards' counts, severities,
 * tests, suspects and confirmation tests summed, the missing cases
 * joined (every shard reports the baseline cases that no shard runs), the
 * first shard's baseline, settings and gate (fail_on_regression set when
 * any shard's is), "family" the summed tests (a whole run's
 * Benjamini-Hochberg family) and "families": per shard {file, tests,
 * family}, the family it gated with (its tests and the other shards'
 * tests in the baseline, bh_shard_family_extra). Each case keeps the verdict its shard
 * decided (with its confirmation). Refuses (-1, e one line) shards of
 * which some were compared and some not, comparisons gated against
 * different baselines or with different settings (bh_gate_check_same),
 * and summaries without the expected counts; *why gets BH_MERGE_MISMATCH
 * or BH_MERGE_MALFORMED. Borrows docs. */
int bh_merge_comparison(cJSON *const *docs, const char *const *names, size_t n, cJSON **out,
                        int *why, bh_error *e);

/* The number of critical regressions of a result's comparison summary
 * (0 without one). */
long bh_merge_n_critical(const cJSON *doc);

#endif
