// SPDX-License-Identifier: MIT
/* The verdict step of bhost run: --baseline, --save-baseline,
 * --baseline-plugins, --fail-on-regression (compare the new result
 * against a baseline, confirm suspects by rerunning them, write the
 * verdicts into the result, store it as a named baseline). */
#ifndef BH_RUN_VERDICT_H
#define BH_RUN_VERDICT_H

#include "config.h"
#include "executor.h"
#include "plan.h"
#include "regress_compare.h"
#include "regress_config.h"

#include <cjson/cJSON.h>
#include <stdio.h>

typedef struct bh_run_verdict {
    /* options */
    const char *baseline;         /* NAME or FILE, or NULL */
    const char *save_baseline;    /* NAME, or NULL */
    const char *baseline_plugins; /* DIR, or NULL */
    const char *results_dir;
    const char *store;            /* the results store, for store: baselines */
    int fail_on_regression;
    int force;
    int no_confirm;
    size_t family_extra;          /* a shard: the other shards' tests in
                                     the BH family (bh_run_ci_select) */
    char **ignore_params;         /* --ignore-param KEY (borrowed) */
    size_t n_ignore, cap_ignore;
    /* state */
    bh_regress_config rc;
    char *base_path;              /* the baseline file */
    cJSON *base_doc;
    char base_sha256[65];         /* digest of base_doc as loaded (untrimmed) */
    char *system_diff, *config_diff;
    bh_regress_report rep;
    int compared;
} bh_run_verdict;

/* Checks the options and the config's regression: section and loads the
 * baseline, checking it is comparable with this run (the config's name and
 * the fingerprint system of this machine). Prints one line on failure and
 * returns the exit code (BH_EXIT_USAGE, BH_EXIT_CONFIG, BH_EXIT_IO), else
 * 0. v's options must be set; its state is initialised here. */
int bh_run_verdict_prepare(bh_run_verdict *v, const bh_config *cfg, const cJSON *system);

/* Compares doc (the new result, built from plan) against the baseline,
 * reruns suspect cases (unless no_confirm or interrupted), writes the
 * verdicts and the summary with its gate record (gate.h) into doc. No-op
 * without --baseline. Progress lines go to err
 * when progress is set. */
void bh_run_verdict_apply(bh_run_verdict *v, cJSON *doc, const bh_plan *plan,
                          const bh_exec_opts *xo, int progress, FILE *err);

/* Prints the comparison lines and summary (when compared). */
void bh_run_verdict_print(const bh_run_verdict *v, FILE *out, int color);

/* Saves doc as the named baseline of config (when asked); prints the file
 * or the error. Returns 0 or BH_EXIT_IO. */
int bh_run_verdict_save(const bh_run_verdict *v, const cJSON *doc, const char *config_name,
                        FILE *out);

/* The exit code the comparison asks for: BH_EXIT_REGRESSION when
 * --fail-on-regression and a critical regression remains, else 0. */
int bh_run_verdict_exit(const bh_run_verdict *v);

void bh_run_verdict_free(bh_run_verdict *v);

#endif
