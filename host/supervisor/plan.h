// SPDX-License-Identifier: MIT
/* Expanding a config into cases: plugin x benchmark x params x
 * backend/device, checked against what each plugin declares. */
#ifndef BH_PLAN_H
#define BH_PLAN_H

#include "bh_status.h"
#include "catalog.h"
#include "config.h"
#include "env_check.h"
#include "summary.h"

#include <cjson/cJSON.h>
#include <stdint.h>

/* One run (one fresh worker) of a case. */
typedef struct bh_run {
    uint32_t index;
    bh_status status;
    char *message;
    char *warning;       /* what went wrong after the final report, or NULL */
    cJSON *samples;      /* array of [iters, ns] */
    cJSON *result;       /* the worker's "result" message, or NULL */
    char *log;           /* captured stdout/stderr */
    int log_truncated;
    uint64_t wall_ns;
    long maxrss_kb;
    int done;
    int interrupted;     /* was running when SIGINT/SIGTERM stopped it */
    uint64_t cpu_user_ns, cpu_sys_ns; /* the worker's CPU time (rusage) */
    bh_env_run env;      /* the machine around the run (env_check.h) */
} bh_run;

/* runs: auto of a case (runs_auto.h): its limits, set before its runs
 * (bh_runs_auto_limits), and why its runs stopped. */
typedef struct bh_case_auto {
    uint32_t min;        /* runs it gets at least (0: not resolved) */
    uint32_t max;        /* runs it gets at most */
    double floor;        /* stop once the 95% interval of its run medians
                            is narrower than this fraction of their median */
    const char *stopped; /* static: "ci_narrow", "max_runs", "time_budget",
                            "run_not_ok" or "interrupted"; NULL: not run */
    double ci_rel_width; /* that interval's width over the median when it
                            stopped; INFINITY when unbounded, NAN: none */
    double fdr;          /* the comparison's false discovery rate, from
                            which the executor raises min once the cases'
                            metrics are known; 0: min stays */
} bh_case_auto;

typedef struct bh_case {
    char *id;            /* plugin/bench[k=v,...]@backend:device */
    size_t suite;        /* index into config suites */
    char *plugin;        /* the plugin's short name */
    char *plugin_path;
    char *bench;
    cJSON *params;       /* key -> {type, value}, the job's typed form */
    cJSON *params_plain; /* key -> plain JSON value, for results */
    char *backend;       /* NULL for host-only benchmarks */
    char *backend_path;
    int device;
    bh_settings settings;
    uint32_t ranks;      /* a multi-rank benchmark's processes per run (its
                            "ranks" parameter); 0 for any other */
    int launcher_checked; /* bh_rank_preflight has seen it */
    bh_status pre_status; /* not OK: the case is not run */
    char *pre_reason;
    const char *skip_cause; /* static: why a skipped case cannot run here,
                             * "no-device" or "not-built"; NULL otherwise */
    bh_run *runs;
    uint32_t n_runs;
    bh_status status;    /* folded from pre_status and runs */
    char *message;
    bh_summary summary;
    int has_summary;
    bh_case_auto autorun; /* settings.runs_auto: how many runs and why */
} bh_case;

typedef struct bh_plan {
    bh_case *cases;
    size_t n;
    size_t cap;
} bh_plan;

/* Expands cfg using the plugin descriptions in cat. Problems that make the
 * config wrong (a suite plugin that does not exist, unknown params, bad
 * values, a pattern matching nothing, duplicate case ids) return -1 with
 * e = "file:line:col: ..." (a plugin name gets a "did you mean" over the
 * plugins on the search path). A suite plugin that fails to load, and
 * backends that are not built or have no device, become cases that are
 * failed or skipped with the reason (skip_cause says which). */
int bh_plan_build(const bh_config *cfg, bh_catalog *cat, bh_plan *plan,
                  bh_error *e);
void bh_plan_free(bh_plan *plan);

/* True when id matches pattern as --filter takes it: a glob when the
 * pattern has * ? or [, else when id contains it. */
int bh_plan_id_matches(const char *pattern, const char *id);

/* Keeps only the cases whose id matches one of the patterns (all cases
 * when n == 0): a glob when the pattern has * ? or [, else ids that
 * contain it ("spin" keeps selftest/spin[work=100]). */
void bh_plan_filter(bh_plan *plan, char *const *patterns, size_t n);

/* Keeps only the cases i with keep[i] != 0 (keep has plan->n entries),
 * in their order; the others are freed. */
void bh_plan_keep(bh_plan *plan, const unsigned char *keep);
#endif
