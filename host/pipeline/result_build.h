// SPDX-License-Identifier: MIT
/* Building the result document of a run from its executed plan: the run
 * pipeline's half of the "bhost.result/1" document (host/results writes
 * and reads it). */
#ifndef BH_RESULT_BUILD_H
#define BH_RESULT_BUILD_H

#include "catalog.h"
#include "config.h"
#include "plan.h"
#include "result_doc.h"

#include <cjson/cJSON.h>
#include <stdint.h>

/* What the run knew about itself besides the cases. */
typedef struct bh_run_meta {
    const bh_config *cfg;
    int argc;
    char **argv;
    uint64_t seed;
    char started_at[32];
    char finished_at[32];
    double duration_s;
    int interrupted;
    cJSON *system;          /* fingerprint, borrowed */
    const bh_run_git *git;  /* borrowed; NULL: written as unknown */
} bh_run_meta;

/* Builds the whole document (caller deletes). The plugins section lists
 * every catalog entry the plan used, with its file hash; run.git always
 * holds commit, branch (strings or null) and dirty (bool or null). */
cJSON *bh_result_build(const bh_run_meta *m, const bh_plan *plan,
                       const bh_catalog *cat);

/* The JSON form of one case (used by the document and by exporters). */
cJSON *bh_result_case(const bh_case *c);

#endif
