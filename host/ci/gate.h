// SPDX-License-Identifier: MIT
/* The gate record of a run compared with a baseline: what decided its
 * verdicts (the baseline, the regression: settings, the case matching and
 * the confirmation), written as comparison.gate so that `bhost merge` can
 * check that the shards of one run were gated alike. */
#ifndef BH_GATE_H
#define BH_GATE_H

#include "bh_error.h"
#include "regress_config.h"
#include "result_view.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* What gated one run. */
typedef struct bh_gate_spec {
    const char *baseline_sha256;     /* digest of the baseline document as
                                        loaded (bh_gate_baseline_digest) */
    const bh_regress_config *rc;     /* the config's regression: settings */
    char *const *ignore_params;      /* --ignore-param keys */
    size_t n_ignore;
    const char *confirmation;        /* "paired", "unpaired" or "off" */
    int forced;                      /* --force */
    int fail_on_regression;
} bh_gate_spec;

/* The digest of a baseline document: sha256 of its unformatted JSON
 * (hex[65]). Two runs read the same baseline when their digests match. */
void bh_gate_baseline_digest(const cJSON *base_doc, char hex[65]);

/* comparison.gate for g: {baseline_sha256, regression: {noise_floor,
 * warning, critical, fdr, confidence, method, confirm, confirm_runs,
 * metrics, overrides}, ignore_params (sorted), confirmation, forced,
 * fail_on_regression} (new object). */
cJSON *bh_gate_json(const bh_gate_spec *g);

/* Checks that the comparisons a and b (of the views of two results, each
 * with its gate) were decided alike: the same baseline
 * digest, regression settings, ignored parameters, confirmation and
 * --force (fail_on_regression may differ). 0, or -1 with e = one line
 * naming the first difference (na and nb name the files of a and b). */
int bh_gate_check_same(const bh_rv_comparison *a, const bh_rv_comparison *b, const char *na,
                       const char *nb, bh_error *e);

#endif
