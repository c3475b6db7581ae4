// SPDX-License-Identifier: MIT
/* The suite model: a YAML config (schema v1) parsed and validated with
 * libyaml. Every error names file:line:column and what was expected.
 *
 * Schema v1 (all keys optional unless noted):
 *   schema: 1
 *   name: smoke                      # default: file name without .yaml;
 *                                    # never inherited through extends
 *   extends: base.yaml               # path relative to this file; the
 *                                    # child's keys override the base's,
 *                                    # maps merge, lists replace; chains
 *                                    # allowed, cycles rejected
 *   plugin_path: [dir, ...]          # relative to the config file
 *   defaults:                        # see bh_settings
 *     warmup: 100ms                  # duration: ns us ms s m, e.g. 1.5s
 *     sample_time: 10ms              # minimum time per sample; 0 = auto
 *     samples: 10                    # samples per run
 *     runs: 10                       # runs (fresh workers) per case, or
 *                                    # auto: adaptive (min_runs..max_runs)
 *     min_runs: 8                    # runs: auto: the first runs; default
 *                                    # what the comparison needs
 *     max_runs: 30                   # runs: auto: the most runs
 *     max_time: 60s                  # budget per case, all runs together
 *     timeout: 30s                   # per run; the worker is killed after
 *     seed: 42                       # integer; default: fixed 0x5eed
 *     pin: none | auto | "0,2-3"     # CPU pinning of workers via hwloc
 *     memory_limit: 4GiB             # per worker resident memory; 0 = none
 *     max_cv: 5%                     # percentage: "5%" or 0.05
 *     measure: time                  # or instructions (under callgrind)
 *     iterations: 10                 # per sample with measure: instructions
 *     expect: {time: "< 10us"}       # budgets (bh_expect); maps merge by key
 *     counters: on                   # or off: no perf counters or energy
 *     leaks: warn                    # or fail: host-API blocks destroy left
 *   backends:                        # map of backend name -> options
 *     cpu: {required: true, devices: all | [0, 1]}
 *   suites:                          # list (required, may be empty)
 *     - plugin: selftest             # required: plugin name or path.so
 *       name: quick                  # optional label
 *       include: ["noop", "spin*"]   # glob patterns on benchmark ids
 *       exclude: ["*slow*"]
 *       backends: [cpu]              # for device benchmarks
 *       params: {work: [100, 1000], mode: fast}   # lists: cartesian
 *       defaults: {runs: 3}          # per-suite overrides of defaults
 *       command: {argv: [prog, arg]} # plugin command only: an external
 *                                    # program (config_command.c)
 *   regression: {...}                # stored verbatim for the engine
 *   ratios:                          # time of case over reference, with
 *     - {case: A, reference: B}      # an interval (config_ratios.c)
 *   scaling:                         # speedup and parallel efficiency
 *     - {axis: threads, mode: strong} # over a numeric param; also in a
 *                                    # suite (config_scaling.c)
 *   output: [json, markdown, ...]    # stored for the report module
 */
#ifndef BH_CONFIG_H
#define BH_CONFIG_H

#include "bh_error.h"

#include <stddef.h>
#include <stdint.h>

/* Where a YAML node came from, for diagnostics. */
typedef struct bh_srcpos {
    const char *file; /* owned by the bh_config (its files[] list) */
    int line;         /* 1-based */
    int column;       /* 1-based */
} bh_srcpos;

typedef enum bh_scalar_kind {
    BH_SCALAR_INT,
    BH_SCALAR_FLOAT,
    BH_SCALAR_BOOL,
    BH_SCALAR_STR
} bh_scalar_kind;

/* A YAML scalar typed by its plain form: 12 -> INT, 1.5 / 1e3 -> FLOAT,
 * true/false -> BOOL, anything else or any quoted scalar -> STR. */
typedef struct bh_scalar {
    bh_scalar_kind kind;
    int64_t i;   /* INT, BOOL (0/1) */
    double f;    /* FLOAT; also INT converted */
    char *text;  /* the scalar as written (always set) */
    bh_srcpos pos;
} bh_scalar;

/* What a run measures (setting measure): the time of calibrated samples,
 * or instructions and simulated cache misses counted under Valgrind's
 * callgrind around the samples (README, "Counting instructions"). */
typedef enum bh_measure {
    BH_MEASURE_TIME = 0,
    BH_MEASURE_INSTRUCTIONS = 1
} bh_measure;

/* The comparison of a budget (expect:): the case's value must be below
 * (LT, LE) or above (GT, GE) the target. */
typedef enum bh_expect_op {
    BH_EXPECT_LT = 0,
    BH_EXPECT_LE = 1,
    BH_EXPECT_GT = 2,
    BH_EXPECT_GE = 3
} bh_expect_op;

/* One budget of expect: (config_expect.c, docs/budgets.md): key is
 * "time" (ns per iteration), "flop_per_s", "bytes_per_s", "items_per_s"
 * or the name of a metric the case reports; target is in ns, per second,
 * or the metric's own unit. */
typedef struct bh_expect {
    char *key;        /* canonical key (gflops -> flop_per_s) */
    char *name;       /* the key as written */
    char *text;       /* the value as written, "< 10us" */
    int op;           /* bh_expect_op */
    double target;
    bh_srcpos pos;
} bh_expect;

/* Run settings, layered: built-in defaults < config defaults < suite
 * defaults < CLI overrides. */
/* How the processes of a multi-rank case are started (launcher:, at the
 * top level or in a suite; docs/multi-rank.md). Strings are fresh; NULL
 * means the kind's default. */
typedef struct bh_launcher {
    char *kind;              /* "mpirun", "srun" or "local" */
    char *program;           /* a name in PATH or a path */
    char *hostfile;          /* mpirun --hostfile, resolved against the
                                folder of the file that names it */
    char **hosts;            /* mpirun --host / srun --nodelist */
    size_t n_hosts;
    uint32_t ranks_per_node; /* 0: the launcher decides */
    char *bind;              /* "auto" (the launcher's default), "none", "core", ... */
    int oversubscribe;       /* -1: only when no host is named */
    char **args;             /* extra launcher arguments, in order */
    size_t n_args;
    char **env;              /* NAME=value for every rank */
    size_t n_env;
    char *connect;           /* the address ranks reach bhost at */
    char *runner_label;      /* ci-matrix's runs-on label */
    uint64_t probe_timeout_ns;
    bh_srcpos pos;
} bh_launcher;

typedef struct bh_settings {
    uint64_t warmup_ns;
    uint64_t sample_time_ns; /* 0 = auto: max(1 ms, 1000 x timer resolution) */
    uint32_t samples;
    uint32_t runs;
    int runs_auto;           /* runs: auto (docs/statistics.md section 8.3) */
    uint32_t min_runs;       /* runs: auto: 0 = what the comparison needs */
    uint32_t max_runs;       /* runs: auto: the most runs of a case */
    uint64_t max_time_ns;
    uint64_t timeout_ns;
    uint64_t seed;
    char *pin;               /* "none", "auto" or a CPU list */
    uint64_t memory_limit_bytes; /* 0 = no limit */
    double max_cv;           /* stability flag threshold, fraction */
    bh_expect *expect;       /* budgets, one per key (bh_expect) */
    size_t n_expect;
    int measure;             /* BH_MEASURE_TIME or BH_MEASURE_INSTRUCTIONS */
    uint32_t iterations;     /* iterations per sample when counting
                                instructions (no calibration) */
    int counters_off;        /* counters: off: no perf counters or energy
                                meters around the samples (run_meters.h) */
    int leaks_fail;          /* leaks: fail: a run whose destroy left
                                host-API blocks is failed (else a warning) */
    bh_launcher *launcher;   /* launcher: (NULL: mpirun on this host) */
} bh_settings;

/* One parameter axis of a suite: a key with one or more values. */
typedef struct bh_param_axis {
    char *key;
    bh_scalar *values;
    size_t n_values;
    bh_srcpos pos;
    int hidden;        /* not shown in the case id (a command suite's
                          settings, config_command.c) */
} bh_param_axis;

typedef struct bh_suite {
    char *name;        /* optional label, NULL when absent */
    char *plugin;      /* plugin name or path ending in .so */
    bh_srcpos plugin_pos;
    char **include;    /* glob patterns; none = everything */
    size_t n_include;
    char **exclude;
    size_t n_exclude;
    char **backends;   /* backend names for device benchmarks; none = all
                          configured backends */
    size_t n_backends;
    bh_param_axis *params;
    size_t n_params;
    bh_settings settings; /* fully merged for this suite */
    bh_srcpos pos;
} bh_suite;

typedef struct bh_backend_req {
    char *name;        /* "cpu", "cuda", ... */
    int required;      /* a missing required backend fails the run */
    int all_devices;   /* devices: all (the default) */
    uint32_t *devices; /* explicit list when !all_devices */
    size_t n_devices;
    bh_srcpos pos;
} bh_backend_req;

/* One entry of ratios: (config_ratios.c): the time of case `of` over the
 * time of case `reference`; each side a case id or a suite name. */
typedef struct bh_ratio_spec {
    char *name;      /* label; default "OF / REFERENCE" */
    char *of;        /* bhost's implementation */
    char *reference; /* what a user would pick instead */
    bh_srcpos pos;
} bh_ratio_spec;

typedef struct bh_config {
    char *path;          /* as given */
    char *dir;           /* directory of path, for relative references */
    char *name;
    char *hash;          /* sha256 hex of the file bytes, and of each base
                            it extends, combined */
    char **files;        /* every file read (path, then bases) */
    size_t n_files;
    char **plugin_path;  /* resolved to absolute or config-relative paths */
    size_t n_plugin_path;
    bh_settings defaults;
    bh_backend_req *backends;
    size_t n_backends;
    bh_suite *suites;
    size_t n_suites;
    char **outputs;      /* output: formats */
    size_t n_outputs;
    char *regression_json; /* the regression: section as JSON text, or NULL */
    char *regression_pos_json; /* where its values were written, as JSON
                                  {"key.path[i]": "file:line:col"}, "" the
                                  section itself; NULL with regression_json */
    bh_ratio_spec *ratios; /* ratios: pairs the report divides */
    size_t n_ratios;
    struct bh_scaling_spec *scaling; /* scaling: one per suite and axis */
    size_t n_scaling;
} bh_config;

/* The built-in defaults: warmup 100ms, sample_time 0 (auto), samples 10,
 * runs 10 (not auto; min_runs 0, max_runs 30), max_time 120s, timeout 60s, seed 0x5eed, pin "none",
 * memory_limit 0, max_cv 0.05, measure time, iterations 10, leaks warn. pin is
 * allocated; free with bh_settings_free(). */
void bh_settings_default(bh_settings *s);
void bh_settings_copy(bh_settings *dst, const bh_settings *src);
void bh_settings_free(bh_settings *s);
/* Sets one setting by its config key ("runs", "warmup", ...) from text, as
 * a CLI override would, with the same checks as the config; 0, or -1 with
 * e set to a message without position (unknown keys get a did-you-mean).
 * On failure *s is unchanged. */
int bh_settings_set(bh_settings *s, const char *key, const char *value,
                    bh_error *e);

/* The number of parameter combinations of a suite: the product of its
 * axes' value counts (1 when it has none); at most 100000, as is the sum
 * over a config's suites. */
size_t bh_suite_n_combos(const bh_suite *s);
/* Decodes combination k (< bh_suite_n_combos(s)) into idx[a], the value
 * index for axis a (idx has s->n_params slots). The last axis varies
 * fastest, as nested loops in the order the params were written. */
void bh_suite_combo(const bh_suite *s, size_t k, size_t *idx);

/* Loads and validates path (following extends:). Returns a config (free
 * with bh_config_free) or NULL with e holding "file:line:col: message". */
bh_config *bh_config_load(const char *path, bh_error *e);
void bh_config_free(bh_config *c);

/* One benchmark asked for on the command line: bhost run
 * PLUGIN/BENCH[KEY=VALUE,...][@BACKEND[:DEVICE]] [-p KEY=VALUE]. */
typedef struct bh_case_request {
    const char *text;              /* as given: the config's path and the
                                      file of every position */
    const char *plugin;            /* a plugin name */
    const char *bench;             /* a benchmark id of it */
    const char *const *keys;       /* parameters in order; a key given */
    const char *const *values;     /* twice is a list of values */
    size_t n_params;
    const char *const *backends;   /* for a device benchmark; none: cpu */
    size_t n_backends;
    int device;                    /* a device index, or -1 for all */
} bh_case_request;

/* The config a file with one suite would give (plugin, include: [bench],
 * params typed as YAML plain scalars, backends not required) with the
 * built-in defaults, named after the plugin (results/PLUGIN/) and hashed
 * over the request, so runs of one request compare like runs of one
 * config file. NULL with e set when the plugin name cannot name a results
 * folder. Free with bh_config_free. */
bh_config *bh_config_for_case(const bh_case_request *r, bh_error *e);

/* Parses "500ms", "2s", "1.5m", "250us", "100ns" or a plain number of
 * seconds into nanoseconds; 0 or -1 with e set to what was expected. */
/* A deep copy of l (NULL for NULL), and freeing one. */
bh_launcher *bh_launcher_copy(const bh_launcher *l);
void bh_launcher_free(bh_launcher *l);

int bh_parse_duration(const char *text, uint64_t *ns, bh_error *e);
/* Parses "4GiB", "512MiB", "1G", "100k" or a plain byte count. */
int bh_parse_size(const char *text, uint64_t *bytes, bh_error *e);
/* "<", "<=", ">" or ">=" for a bh_expect_op; "?" for anything else
 * (static). */
const char *bh_expect_op_text(int op);

/* Parses "5%" (-> 0.05) or a plain fraction "0.05". */
int bh_parse_percent(const char *text, double *fraction, bh_error *e);

/* Shell-style glob match (* ? [abc]) of s against pattern. */
int bh_glob_match(const char *pattern, const char *s);

/* The closest candidate to word by edit distance when it is close enough
 * to be a likely typo, else NULL. Borrowed from candidates. */
const char *bh_did_you_mean(const char *word, const char *const *candidates,
                            size_t n);

/* ---- scaling: (config_scaling.c, docs/scaling.md) ---- */

/* What a scaling curve's ideal is: strong (fixed total work, ideal time
 * T0 p0 / p), weak (work grows with p, ideal time T0) or throughput (the
 * case's rate, ideal R0 p / p0). */
typedef enum bh_scaling_mode {
    BH_SCALING_STRONG = 0,
    BH_SCALING_WEAK = 1,
    BH_SCALING_THROUGHPUT = 2
} bh_scaling_mode;

/* The default min_efficiency: points below it are flagged. */
#define BH_SCALING_MIN_EFFICIENCY 0.8

/* One scaling axis of one suite: a parameter its params: sweep over
 * positive numbers. A top-level entry is bound to every suite without a
 * scaling: of its own whose params sweep the axis. */
typedef struct bh_scaling_spec {
    size_t suite;          /* index into the config's suites */
    char *axis;            /* the parameter */
    int mode;              /* bh_scaling_mode */
    char *rate;            /* throughput: "items_per_s", "flop_per_s" or
                              "bytes_per_s"; NULL: the first the case has */
    double min_efficiency; /* in (0, 1] */
    bh_srcpos pos;
} bh_scaling_spec;

/* "strong", "weak", "throughput" ("?" otherwise); static. */
const char *bh_scaling_mode_name(int mode);

#endif
