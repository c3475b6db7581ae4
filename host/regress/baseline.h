// SPDX-License-Identifier: MIT
/* Named baselines: result documents stored as
 * <results-dir>/<config>/baselines/<NAME>.json, written atomically (a
 * complete file or the previous one, never a part; concurrent saves of one
 * name leave one whole document: the last rename wins). */
#ifndef BH_REGRESS_BASELINE_H
#define BH_REGRESS_BASELINE_H

#include "bh_error.h"

#include <cjson/cJSON.h>

/* True when name is a usable baseline name: 1 to 100 characters from
 * A-Z a-z 0-9 . _ - not starting with '.'. */
int bh_regress_baseline_name_ok(const char *name);

/* The file of baseline name for a config (new string). */
char *bh_regress_baseline_path(const char *results_dir, const char *config_name,
                               const char *name);

/* Stores doc as baseline name (creating directories); the file written
 * is returned in *used when used is not NULL (free() it). 0, or -1 with e
 * naming the file and what failed. */
int bh_regress_baseline_save(const cJSON *doc, const char *results_dir,
                             const char *config_name, const char *name,
                             char **used, bh_error *e);

/* The file that --baseline ref means: ref itself when it contains '/' or
 * ends in ".json", else the named baseline's file (new string). */
char *bh_regress_baseline_resolve(const char *ref, const char *results_dir,
                                  const char *config_name);

/* True when ref selects the baseline from the results store:
 * "store:latest-BRANCH" or "store:nearest-ancestor". */
int bh_regress_baseline_in_store(const char *ref);

/* Loads the baseline document --baseline ref means (caller deletes):
 *  - "store:latest-BRANCH" (e.g. store:latest-main): the newest complete
 *    run of config_name on BRANCH measured on a system with this system's
 *    fingerprint (fingerprint: its system.fingerprint_hash; NULL refuses
 *    a store selection), from the store at store;
 *  - "store:nearest-ancestor": the nearest commit of the first-parent
 *    history of HEAD (HEAD itself first; git rev-list, 200 commits) that
 *    has a complete, clean run of config_name with this fingerprint;
 *  - anything else: the file bh_regress_baseline_resolve names, read
 *    strictly (bh_result_read).
 * *label gets what was loaded (new string): the file, or "STORE run ID
 * (BRANCH@COMMIT, STARTED)". NULL with e = one line naming what is
 * missing. */
cJSON *bh_regress_baseline_load(const char *ref, const char *results_dir,
                                const char *config_name, const char *store,
                                const char *fingerprint, char **label, bh_error *e);

#endif
