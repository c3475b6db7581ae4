// SPDX-License-Identifier: MIT
/* The CI side of `bhost run`: --shard I/N and --backend NAME select a
 * share of the plan, and every result records the git metadata. */
#ifndef BH_RUN_CI_H
#define BH_RUN_CI_H

#include "bh_error.h"
#include "gitmeta.h"
#include "plan.h"
#include "regress_config.h"
#include "result_doc.h"
#include "shard.h"

#include <cjson/cJSON.h>

#define BH_RUN_CI_MAX_BACKENDS 32

typedef struct bh_run_ci {
    /* options (no allocation: safe to abandon before bh_run_ci_select) */
    int sharded;
    bh_shard_spec shard;
    const char *backends[BH_RUN_CI_MAX_BACKENDS]; /* borrowed from argv */
    size_t n_backends;
    /* state after bh_run_ci_select */
    bh_shard_info info;
    bh_git_meta git;
    bh_run_git run_git;
    size_t family_extra; /* a compared shard: the other shards' tests */
} bh_run_ci;

/* --shard TEXT; 0 or -1 after printing one line. */
int bh_run_ci_set_shard(bh_run_ci *c, const char *text);

/* --backend NAME (repeatable); 0 or -1 after printing one line. */
int bh_run_ci_add_backend(bh_run_ci *c, const char *name);

/* Keeps the plan's cases of the chosen backends, then this shard's share
 * (balanced by the durations recorded under results_dir for config);
 * trims base_doc (may be NULL): the cases of other backends and other
 * shards go, the baseline cases that no shard runs stay (reported
 * missing by every shard, as by a whole run); a shard sets family_extra
 * to the tests the other shards' cases have in the baseline under rc
 * (bh_shard_family_extra; 0 when rc is NULL), so that it gates with the
 * whole run's Benjamini-Hochberg family. Collects the git metadata of the
 * working directory. Call once, after the plan is built and filtered. */
void bh_run_ci_select(bh_run_ci *c, bh_plan *plan, const char *results_dir,
                      const char *config, cJSON *base_doc, const bh_regress_config *rc,
                      char *const *ignore, size_t n_ignore);

/* The git metadata for bh_run_meta.git (valid until bh_run_ci_free). */
const bh_run_git *bh_run_ci_git(const bh_run_ci *c);

/* Adds run.shard to the result document when the run is a shard. */
void bh_run_ci_record(const bh_run_ci *c, cJSON *doc);

void bh_run_ci_free(bh_run_ci *c);

#endif
