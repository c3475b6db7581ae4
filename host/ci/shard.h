// SPDX-License-Identifier: MIT
/* Sharding a run: `bhost run CONFIG --shard i/N` keeps a deterministic,
 * balanced share of the cases. The cases are split by greedy
 * longest-processing-time over their recorded durations (earlier whole
 * results of the config), or by case count when nothing is recorded; every
 * shard computes the same partition from the same plan and history, and
 * records it (run.shard) so that `bhost merge` can check the shards fit. */
#ifndef BH_SHARD_H
#define BH_SHARD_H

#include "bh_error.h"
#include "plan.h"
#include "regress_config.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#define BH_SHARD_MAX 1000
#define BH_SHARD_HISTORY_FILES 16 /* newest result files read for durations */

typedef struct bh_shard_spec {
    uint32_t index; /* 1-based */
    uint32_t count;
} bh_shard_spec;

/* Recorded durations per case id (sorted by id for lookup). */
typedef struct bh_shard_history {
    char **ids;
    uint64_t *ns;
    size_t n;
    size_t files; /* result files the durations came from */
} bh_shard_history;

/* What a shard ran, as recorded in run.shard. */
typedef struct bh_shard_info {
    bh_shard_spec spec;
    size_t cases_total;
    size_t *positions;       /* plan index of each kept case, ascending */
    size_t n_positions;
    uint64_t load_ns;        /* estimated time of this shard */
    uint64_t total_ns;       /* estimated time of all shards */
    char partition[65];      /* sha256 of the whole assignment */
    const char *balanced_by; /* "durations" or "case count" */
    size_t history_files;
    size_t cases_with_history;
} bh_shard_info;

/* Parses "i/N" (1 <= i <= N <= BH_SHARD_MAX); 0 or -1 with e naming what
 * was expected. */
int bh_shard_parse(const char *text, bh_shard_spec *s, bh_error *e);

/* Greedy LPT: cases sorted by weight (descending, then id ascending) each
 * go to the shard with the smallest load so far (lowest index on ties).
 * assign[i] gets the 0-based shard of case i; loads (count entries, may be
 * NULL) the sum of weights per shard. Pure and deterministic. */
void bh_shard_partition(const char *const *ids, const uint64_t *weights, size_t n,
                        uint32_t count, uint32_t *assign, uint64_t *loads);

/* Reads the durations of the cases (sum of their runs' wall_ns) from the
 * newest BH_SHARD_HISTORY_FILES result files of config_name under
 * results_dir/<config_name>/ and its baselines/ folder: whole runs only
 * (shard results are skipped, so shards of one run see the same history),
 * newest (run.started_at) first for each case. Unreadable or foreign
 * files are skipped. Never fails; h is empty when nothing is recorded. */
void bh_shard_history_load(const char *results_dir, const char *config_name,
                           bh_shard_history *h);

/* The recorded duration of id, or -1 when none. */
int64_t bh_shard_history_find(const bh_shard_history *h, const char *id);

void bh_shard_history_free(bh_shard_history *h);

/* Partitions the plan's cases into spec->count shards (weights from h,
 * cases without a record weighted by the median of the recorded ones) and
 * keeps only shard spec->index's cases in plan order. Fills *out (free with
 * bh_shard_info_free). */
void bh_shard_apply(bh_plan *plan, const bh_shard_spec *spec, const bh_shard_history *h,
                    bh_shard_info *out);

/* run.shard: {index, count, cases, cases_total, positions, partition,
 * balanced_by, estimated_s, estimated_total_s, history_files,
 * cases_with_history} (new object). */
cJSON *bh_shard_json(const bh_shard_info *info);

void bh_shard_info_free(bh_shard_info *info);

/* Keeps only the cases whose backend is one of names ("none" names the
 * cases that run on no backend); no-op when n == 0. */
void bh_shard_select_backends(bh_plan *plan, char *const *names, size_t n);

/* The matching keys of the plan's cases (ids with the ignored parameters
 * left out, as the regression engine matches them), sorted: a new array
 * of plan->n strings (free with bh_shard_keys_free). */
char **bh_shard_plan_keys(const bh_plan *plan, char *const *ignore, size_t n_ignore);

void bh_shard_keys_free(char **keys, size_t n);

/* Drops from a baseline document the cases that match no case of the
 * plan, so that a shard or backend subset is compared with its own share
 * instead of reporting the rest missing. With scope (sorted keys, e.g. of
 * the whole run before sharding; NULL: everything), only the cases whose
 * key is in scope are dropped: the baseline cases that the whole run
 * lacks stay, and the shard reports them missing as a whole run would.
 * Returns the dropped cases (a new array; caller deletes). */
cJSON *bh_shard_trim_baseline(cJSON *base_doc, const bh_plan *plan, char *const *ignore,
                              size_t n_ignore, char *const *scope, size_t n_scope);

/* The tests the baseline cases `others` (an array of result cases: the
 * other shards' share) give a comparison under rc when compared with
 * themselves: the tests the other shards add to a whole run's
 * Benjamini-Hochberg family when they run like the baseline. Borrows
 * others. */
size_t bh_shard_family_extra(cJSON *others, const bh_regress_config *rc);

#endif
