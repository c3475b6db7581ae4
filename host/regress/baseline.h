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

#endif
