// SPDX-License-Identifier: MIT
/* The result document, schema "bhost.result/1": one JSON object per run
 * of a config (see docs/results-schema.md). */
#ifndef BH_RESULT_DOC_H
#define BH_RESULT_DOC_H

#include "catalog.h"
#include "config.h"
#include "plan.h"

#include <cjson/cJSON.h>
#include <stdint.h>

#define BH_RESULT_SCHEMA "bhost.result/1"

/* The source revision a run measured (run.git in the document). */
typedef struct bh_run_git {
    const char *commit; /* hex object id, NULL when unknown */
    const char *branch; /* NULL when detached or unknown */
    int dirty;          /* 1 modified tracked files, 0 clean, -1 unknown */
    const char *source; /* "GITHUB_SHA" (the CI variable), "git" or "none" */
} bh_run_git;

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

/* The run.git object of g (NULL: every field null); new object. */
cJSON *bh_result_git_json(const bh_run_git *g);

/* The JSON form of one case (used by the document and by exporters). */
cJSON *bh_result_case(const bh_case *c);

/* The default file path results/<config>/<timestamp>-<host>.json under
 * root (free() it). */
char *bh_result_default_path(const char *root, const char *config_name,
                             const char *stamp, const char *host);

/* Checks, before anything runs, that a result can be written at path: its
 * folder is created when missing and a probe file is created in it and
 * removed. 0, or -1 with e = "cannot write results into DIR: reason". */
int bh_result_check_writable(const char *path, bh_error *e);

/* Writes doc to path atomically (creating parent directories). An
 * existing file of the same name is never overwritten: a numeric suffix
 * is added instead, and the name used is returned in *used (free() it).
 * 0 or -1 with e set. */
int bh_result_write(const cJSON *doc, const char *path, int allow_replace,
                    char **used, bh_error *e);

#endif
