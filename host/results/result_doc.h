// SPDX-License-Identifier: MIT
/* The result document, schema "bhost.result/1": one JSON object per run
 * of a config (see docs/results-schema.md): its run.git object, and writing
 * it to disk. Building it from a plan is the run pipeline's
 * (host/pipeline/result_build.h); host/results depends on host/common
 * only. */
#ifndef BH_RESULT_DOC_H
#define BH_RESULT_DOC_H

#include "bh_error.h"

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

/* The run.git object of g (NULL: every field null); new object. */
cJSON *bh_result_git_json(const bh_run_git *g);

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
