// SPDX-License-Identifier: MIT
/* The typed reader of result documents ("bhost.result/1"): one C view of a
 * document (its run, system, cases with their summaries, runs, metrics,
 * roofline and verdicts, the roofs and the comparison) read once, so that
 * report, regress, ci, store and cli use fields instead of string keys.
 *
 * The view borrows every string from the document, which must outlive it.
 * Loading never fails: a member that is absent, null or of another type
 * reads as its "absent" value (NAN for numbers, NULL or "" as each field
 * says, -1 for tri-state flags), so every reader degrades the same way.
 * Documents should have passed bh_result_validate() first; the view does
 * not repeat its checks. */
#ifndef BH_RESULT_VIEW_H
#define BH_RESULT_VIEW_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* One metric value a run reported (runs[].metrics[]). */
typedef struct bh_rv_run_metric {
    const char *name;  /* never NULL ("" when absent) */
    const char *unit;  /* "" when absent */
    int higher_better; /* direction "higher" */
    double value;      /* NAN when null or absent */
} bh_rv_run_metric;

/* One finished run of a case (one worker process). */
typedef struct bh_rv_run {
    const cJSON *json;   /* the run object */
    long index;          /* runs[].index, -1 when absent or out of range */
    const char *status;  /* "unknown" when absent */
    const char *message; /* "" when none */
    int ok;              /* status is "ok" */
    const cJSON *samples; /* the [iterations, ns] pairs, or NULL */
    double median_ns;    /* median ns/iter of its valid samples, NAN when none */
    size_t n_samples;    /* samples that counted for median_ns */
    double iters;        /* iterations those samples timed */
    const char *timing;  /* "host", "device", "manual" or "" */
    double wall_ns;      /* NAN when absent */
    double peak_rss_kb;  /* NAN when absent */
    double worker_maxrss_kb; /* peak RSS the supervisor saw, NAN when absent */
    double iters_per_sample; /* the calibrated iteration count, NAN when absent */
    double flops_per_iter, bytes_per_iter, items_per_iter; /* declared work, NAN absent */
    const char *warning; /* what went wrong after its final report, NULL when none */
    const char *log;     /* NULL when none */
    int log_truncated;
    bh_rv_run_metric *metrics; /* owned */
    size_t n_metrics;
} bh_rv_run;

/* An extra metric of a case over its ok runs (cases[].metrics.NAME). */
typedef struct bh_rv_metric {
    const char *name;  /* the member name */
    const char *unit;  /* "" when absent */
    int higher_better; /* direction "higher" */
    const cJSON *json; /* the metric object */
    double *values;    /* its finite values, ascending (owned; NULL when none) */
    size_t n_values;
    double median;     /* of values, NAN when none */
    int compared;      /* kind "performance" (or none): compared with a baseline */
    const char *kind;  /* "performance", "informational", "correctness" */
    double limit;      /* correctness: the error's limit, else NAN */
} bh_rv_metric;

/* The summary statistics of a case (cases[].summary); NAN when absent. */
typedef struct bh_rv_summary {
    int present;           /* an object with a finite median */
    const cJSON *json;     /* the summary object or NULL */
    double n, runs;        /* samples and runs */
    double min, max, mean, sd, cv, median, mad;
    double q1, q3, p5, p95, p99;
    double median_ci_lo, median_ci_hi, median_ci_level;
    double within_run_cv, between_run_cv, mde;
    double spread_cv;      /* between_run_cv with two or more runs, else cv */
    double low_severe, low_mild, high_mild, high_severe; /* tukey outlier counts */
    const cJSON *flags;    /* array of flag names ("high_cv", ...), or NULL */
} bh_rv_summary;

/* The settings a case ran with (cases[].settings); NAN when absent. */
typedef struct bh_rv_settings {
    const cJSON *json;     /* the settings object or NULL */
    double warmup_ns, sample_time_ns, timeout_ns, max_time_ns;
    double samples, runs;
    const char *pin;       /* NULL when absent */
} bh_rv_settings;

/* The figures of one (case, metric) comparison (verdict.metrics[]; the
 * confirmation's figures when one ran). */
typedef struct bh_rv_change {
    const cJSON *json;    /* the metric's verdict object */
    const char *metric;   /* "time" or an extra metric */
    const char *unit;     /* "" when absent */
    int higher_better;    /* direction "higher" */
    const char *verdict;  /* "regressed", "improved", ...; "" when absent */
    const char *severity; /* "critical", "warning", "minor" or NULL */
    double change;        /* candidate / baseline - 1 */
    double lo, hi;        /* its interval; -+INFINITY where it is unbounded */
    double level;         /* the interval's confidence level */
    double p, q;
    double base, cand;    /* the two medians */
    double noise_floor;   /* NAN when the document has none */
    const char *reason;   /* why this verdict, in words; "" when absent */
    double mde;           /* the minimum detectable change, NAN absent */
    double runs_needed;   /* runs per side that would settle it, NAN absent */
    double n_base, n_cand; /* values compared per side (pairs: both), NAN absent */
    int paired;           /* a paired (ABBA) confirmation's figures */
} bh_rv_change;

/* The roofline placement of a case (cases[].roofline). */
typedef struct bh_rv_roof {
    double fraction;   /* NAN when the case has none */
    double attainable;
    double intensity;  /* FLOP per byte, NAN when not both rates */
    const char *bound; /* "memory", "compute", "latency" or "" */
    const char *unit;  /* "" when absent */
    const char *level; /* "L1", "L2", "L3", "DRAM"; NULL without a profile */
    const char *memory_ceiling;  /* the ceiling's name, NULL when none */
    const char *compute_ceiling; /* the ceiling's name, NULL when none */
    int above;         /* above 1.05 of its ceiling: flagged */
} bh_rv_roof;

/* One case of a document. */
typedef struct bh_rv_case {
    const cJSON *json;    /* the case object */
    const char *id;       /* every string below is borrowed, never NULL */
    const char *plugin;
    const char *bench;    /* "" when absent */
    const char *backend;  /* "" for host benchmarks */
    long device;          /* -1 for host benchmarks */
    const char *status;   /* "unknown" when absent */
    const char *message;  /* "" when none */
    int ok;               /* status is "ok" */
    const cJSON *params;  /* the params object or NULL */
    char *group;          /* "plugin/benchmark" (owned) */
    const char *rest;     /* id after the group: "[n=1]@cpu:0", or "" */
    char *op;             /* id without its "@backend:device" (owned) */
    const char *at;       /* "@backend:device" part of the id, or "" */
    bh_rv_settings settings;
    bh_rv_summary summary;
    double memory_peak_rss_kb; /* memory.peak_rss_kb over its runs, NAN absent */
    double flop_per_s, bytes_per_s, items_per_s; /* throughput, NAN absent */
    double rate;          /* the headline throughput, NAN when none */
    const char *rate_unit; /* "FLOP/s", "B/s", "items/s", a metric's unit, "" */
    bh_rv_roof roof;
    double wall_s;        /* total wall time of its runs */
    bh_rv_run *runs;      /* owned */
    size_t n_runs;
    bh_rv_metric *metrics; /* owned */
    size_t n_metrics;
    const cJSON *verdict_json; /* the verdict object or NULL */
    const char *verdict;  /* headline verdict, NULL without a comparison */
    const char *severity; /* NULL when none */
    const char *baseline_id; /* NULL when new or without a comparison */
    bh_rv_change *changes; /* one per compared metric (owned) */
    size_t n_changes;
    const bh_rv_change *head; /* the change behind the headline, or NULL */
} bh_rv_case;

/* run.git: the source revision a run measured. */
typedef struct bh_rv_git {
    const char *commit; /* NULL when unknown */
    const char *branch; /* NULL when detached or unknown */
    int dirty;          /* 1, 0, or -1 unknown */
    const char *source; /* NULL when absent */
} bh_rv_git;

/* One plugin the plan used (run.plugins[]); NULL strings when absent. */
typedef struct bh_rv_plugin {
    const cJSON *json;     /* the element */
    const char *requested; /* the name or path the config gave */
    const char *name, *version, *status, *sha256;
    const char *warning;   /* what its describe worker warned of */
} bh_rv_plugin;

/* The run object: what was run, when and how. */
typedef struct bh_rv_run_info {
    const cJSON *json;         /* the run object or NULL */
    const char *config_path;   /* NULL when absent (all strings here) */
    const char *config_name;
    const char *config_hash;
    const char *host_version;
    const char *seed;
    const char *started_at;
    const char *finished_at;
    double duration_s;         /* NAN when absent */
    int complete;              /* 1, 0, or -1 when absent */
    bh_rv_git git;
    const cJSON *command_line; /* array or NULL */
    const cJSON *plugins;      /* array or NULL */
    size_t n_plugins;          /* its elements (bh_rv_run_plugin) */
    const cJSON *shard;        /* object or NULL (shard results) */
    double shard_index, shard_count, shard_cases_total; /* its numbers, NAN absent */
    const char *shard_partition;  /* "" when absent */
    const cJSON *shard_positions; /* array or NULL */
    const cJSON *merged;       /* object or NULL (merged results) */
} bh_rv_run_info;

/* One cache level of the system (system.caches[]); NAN/NULL absent. */
typedef struct bh_rv_cache {
    const char *type; /* "data", "instruction", "unified" */
    double level, size_bytes, count;
} bh_rv_cache;

/* The system fingerprint (the object itself keeps the full layout). */
typedef struct bh_rv_system {
    const cJSON *json;            /* the system object or NULL */
    const char *hostname;         /* NULL when absent */
    const char *cpu_model;        /* NULL when absent */
    const char *fingerprint_hash; /* NULL when absent */
    const char *os_release;       /* os.release, NULL when absent */
    const char *compiler;         /* NULL when absent */
    const char *governor;         /* frequency.governor, NULL when absent */
    double max_khz;               /* frequency.max_khz, NAN when absent */
    double logical_cores, physical_cores, numa_nodes; /* cpu.*, NAN absent */
    const cJSON *load_average;    /* array or NULL */
    size_t n_caches;              /* elements of caches (bh_rv_system_cache) */
} bh_rv_system;

/* The roofs measured in the run (top-level roofs). */
typedef struct bh_rv_roofs {
    const cJSON *json;          /* the roofs object or NULL */
    double bandwidth_bytes_per_s; /* NAN when absent */
    const char *bandwidth_case;   /* NULL when absent */
    double flops_per_s;
    const char *flops_case;
    const cJSON *ceilings;      /* roofs.ceilings, or NULL (bh_rv_roofs_ceiling) */
    size_t n_ceilings;
} bh_rv_roofs;

/* One ceiling of the run (roofs.ceilings[]); NULL/NAN when absent. */
typedef struct bh_rv_ceiling {
    const char *name;    /* "L2 read x2", "f32 x1", "call latency @cuda:0" */
    const char *kind;    /* "bandwidth", "compute", "latency" */
    const char *level;   /* bandwidth: "L1" .. "DRAM" */
    const char *access;  /* bandwidth: "read", "write", "read-write" */
    const char *compute; /* compute: "f64", "f32", "bf16", "f16", "int8" */
    const char *at;      /* "@backend:device", NULL on the host */
    const char *unit;    /* "B/s", "FLOP/s", "ns" */
    const char *case_id; /* the case that measured it */
    double threads;
    double value;
} bh_rv_ceiling;

/* Ceiling i (< r->n_ceilings) of the roofs. */
bh_rv_ceiling bh_rv_roofs_ceiling(const bh_rv_roofs *r, size_t i);

/* The summary of a comparison (top-level comparison). */
typedef struct bh_rv_comparison {
    const cJSON *json;       /* the comparison object or NULL */
    const char *baseline;    /* NULL when absent */
    const char *candidate;   /* NULL when absent */
    const cJSON *counts;     /* per verdict, or NULL */
    const cJSON *regressed;  /* per severity, or NULL */
    const cJSON *missing;    /* ids of baseline cases the candidate lacks */
    const cJSON *gate;       /* the gate record, or NULL */
    const char *gate_baseline_sha256; /* gate.baseline_sha256, NULL when absent */
    const cJSON *families;   /* merged results: per shard, or NULL */
    size_t n_families;       /* elements of families */
    int fail_on_regression;  /* gate.fail_on_regression is true */
    double tests, family;    /* tests run and the BH family; NAN absent */
    double fdr, confidence;  /* the settings used; NAN absent */
    double suspects, confirm_tests; /* NAN absent */
} bh_rv_comparison;

/* A whole document. */
typedef struct bh_result_view {
    const cJSON *doc;
    const char *schema;      /* NULL when absent */
    bh_rv_run_info run;
    bh_rv_system system;
    bh_rv_case *cases;       /* in document order (owned) */
    size_t n_cases;
    size_t cases_total;      /* elements of the cases array, read or not */
    size_t n_verdicts;       /* cases with a verdict */
    size_t n_roofline;       /* cases with a roofline fraction */
    bh_rv_roofs roofs;
    bh_rv_comparison comparison;
} bh_result_view;

/* Reads the view of doc. Elements of "cases" that are not objects with a
 * string id are left out. Never fails; free with bh_result_view_free. */
void bh_result_view_load(const cJSON *doc, bh_result_view *v);

/* Reads only the top of doc: schema, run, system, roofs, comparison and
 * cases_total, no case (n_cases 0): for readers of the run alone on large
 * documents. Free with bh_result_view_free. */
void bh_result_view_load_top(const cJSON *doc, bh_result_view *v);

void bh_result_view_free(bh_result_view *v);

/* Reads one case object (an element of a document's "cases", or a case
 * built in memory) into c: 1, or 0 (c zeroed) when j is not an object
 * with a string id. Borrows from j, which must outlive c; free with
 * bh_rv_case_free. */
int bh_rv_case_read(const cJSON *j, bh_rv_case *c);

void bh_rv_case_free(bh_rv_case *c);

/* Element i (< r->n_plugins) of run.plugins; every field absent for an
 * element that is not an object. Borrows from the document. */
bh_rv_plugin bh_rv_run_plugin(const bh_rv_run_info *r, size_t i);

/* Element i (< s->n_caches) of system.caches, as bh_rv_run_plugin. */
bh_rv_cache bh_rv_system_cache(const bh_rv_system *s, size_t i);

/* The case with the given id, or NULL. */
const bh_rv_case *bh_result_view_find(const bh_result_view *v, const char *id);

/* The metric of a case by name, or NULL. */
const bh_rv_metric *bh_rv_case_metric(const bh_rv_case *c, const char *name);

/* The value a run reported for metric: the median of its finite values
 * when it reported several; NAN when none. */
double bh_rv_run_metric_value(const bh_rv_run *r, const char *name);

/* The medians of the ok runs of a case in run order (time per iteration,
 * ns; runs without a valid sample left out): *out is a new array of *n
 * values (free() it; NULL when none). */
void bh_rv_case_run_medians(const bh_rv_case *c, double **out, size_t *n);

/* How many cases of the comparison got verdict ("regressed", "no
 * change", ...); 0 when the document has no count for it. */
double bh_rv_comparison_count(const bh_rv_comparison *c, const char *verdict);

/* How many regressions of the comparison have severity ("critical",
 * "warning", "minor"); 0 when absent. */
double bh_rv_comparison_regressed(const bh_rv_comparison *c, const char *severity);

/* The comparisons that fail the gate: critical regressions, plus noisier
 * verdicts when the comparison's noisier_fails is true (regression.noisier:
 * fail, docs/statistics.md section 11.8). */
double bh_rv_comparison_failing(const bh_rv_comparison *c);

/* True for a failed, invalid, crashed, timeout or oom status. */
int bh_rv_status_failed(const char *status);

/* Orders verdicts for reports: critical regression 0, warning 1, minor 2,
 * improved 3, inconclusive 4, new 5, missing 6, within noise 7, no change
 * 8, noisier 9 (a headline only when nothing else was found), none or
 * unknown 10. */
int bh_rv_verdict_rank(const char *verdict, const char *severity);

#endif
