// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "bh_clock.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "catalog.h"
#include "cli.h"
#include "cli_args.h"
#include "compare_backends.h"
#include "compare_console.h"
#include "config.h"
#include "console.h"
#include "executor.h"
#include "expect.h"
#include "host_signals.h"
#include "plan.h"
#include "report.h"
#include "report_env.h"
#include "report_expect.h"
#include "result_build.h"
#include "run_case.h"
#include "run_ci.h"
#include "run_profile.h"
#include "runs_auto_limits.h"
#include "run_store.h"
#include "run_verdict.h"
#include "sysinfo.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char run_usage[] =
    "usage: bhost run CONFIG [options]\n"
    "       bhost run PLUGIN/BENCH[KEY=VALUE,...][@BACKEND[:DEVICE]]\n"
    "                 [-p KEY=VALUE]... [options]\n"
    "\n"
    "Runs every case of CONFIG in supervised worker processes, prints a\n"
    "summary table and writes one JSON result file. Instead of a config,\n"
    "one benchmark: PLUGIN/BENCH (as bhost list names it) runs with its\n"
    "declared defaults and the built-in settings (10 runs of 10 samples,\n"
    "100ms warm-up), e.g. bhost run 'selftest/spin[work=2000]' --runs 3;\n"
    "a case id copied from a table works too. Its result goes to\n"
    "results/PLUGIN/. A benchmark that needs a device runs on --backend\n"
    "(default: cpu).\n"
    "\n"
    "  -p, --param KEY=VALUE\n"
    "                       a parameter of PLUGIN/BENCH (repeatable; a key\n"
    "                       given twice runs each of its values)\n"
    "  -f, --filter PATTERN run only cases whose id matches the glob\n"
    "                       (repeatable), e.g. 'selftest/spin*'; a word\n"
    "                       without * ? [ matches ids that contain it\n"
    "  --out FILE           write the result to FILE (replacing it), and\n"
    "                       nothing elsewhere: no store unless --store or\n"
    "                       $BHOST_STORE names one\n"
    "  --results-dir DIR    root for results/<config>/<time>-<host>.json\n"
    "                       (default: results)\n"
    "  --seed N             seed for run order and plugins (default: the\n"
    "                       config's defaults.seed)\n"
    "  --runs N|auto        runs (fresh workers) per case; auto: from min_runs\n"
    "                       until the 95% CI of the run medians is narrower\n"
    "                       than the noise floor (max_runs, max_time)\n"
    "  --samples N          samples per run\n"
    "  --warmup DURATION    warm-up time per run, e.g. 200ms (overrides the\n"
    "                       config)\n"
    "  --sample-time DURATION\n"
    "                       the least time one sample takes, e.g. 10ms\n"
    "                       (--min-time is the same)\n"
    "  --timeout DURATION   per-run timeout, e.g. 30s\n"
    "  --measure time|instructions\n"
    "                       what every case measures: time, or instructions\n"
    "                       and simulated cache misses per iteration counted\n"
    "                       under valgrind (overrides the config's measure)\n"
    "  --counters on|off    perf counters and energy meters around the timed\n"
    "                       samples (overrides the config's counters)\n"
    "  --json               print the result document on stdout instead\n"
    "                       of the table\n"
    "  -q, --quiet          no table and no progress lines (errors and the\n"
    "                       result's path still go to stderr)\n"
    "  -v, --verbose        after the table, each case's runs, flags and\n"
    "                       settings, and the plugin log of failed runs\n"
    "  --allow-unsafe-plugins  load plugin files that are world-writable or\n"
    "                       owned by another user (also for list, info and\n"
    "                       validate: BHOST_ALLOW_UNSAFE_PLUGINS=1)\n"
    "  -h, --help           this help\n"
    "\n"
    "Progress: on a terminal, one line on stderr redrawn after each run;\n"
    "otherwise (a CI log) a line per finished suite and at least every 30 s:\n"
    "cases done of all, time elapsed, the estimate of the time left.\n";

/* The second half of run's help: comparison, store and CI options. */
static const char run_usage_more[] =
    "\n"
    "Comparison, results store and CI:\n"
    "\n"
    "  --baseline NAME|FILE compare with a baseline (a name saved with\n"
    "                       --save-baseline, or a result file): verdicts go\n"
    "                       into the result and are printed per case;\n"
    "                       suspect regressions are rerun to confirm them\n"
    "  --save-baseline NAME store this result as\n"
    "                       <results-dir>/<config>/baselines/NAME.json\n"
    "  --baseline-plugins DIR\n"
    "                       the baseline build's plugin files (another build\n"
    "                       tree's plugins dir, or an install's plugindir):\n"
    "                       suspects are rerun interleaved (ABBA) with it and\n"
    "                       decided on paired data\n"
    "  --fail-on-regression exit 5 when a critical regression remains after\n"
    "                       confirmation (warnings do not fail), or a budget\n"
    "                       (expect:) is missed; needs no --baseline for that\n"
    "  --no-confirm         do not rerun suspect cases\n"
    "  --force              compare with a baseline of another config or\n"
    "                       system fingerprint\n"
    "  --ignore-param KEY   match baseline cases with parameter KEY left out\n"
    "                       of the ids (repeatable)\n"
    "  --shard I/N          run only share I of N of the cases: a deterministic\n"
    "                       split balanced by the durations recorded in\n"
    "                       earlier results (else by case count); join the\n"
    "                       shards with bhost merge\n"
    "  --backend NAME       run only the cases of backend NAME, 'none' for\n"
    "                       the cases that use no backend (repeatable); with\n"
    "                       PLUGIN/BENCH: the backend a device benchmark runs on\n"
    "  --store FILE|URL     the results store the result is added to after\n"
    "                       its JSON file is written, and store: baselines\n"
    "                       come from: an SQLite file or a postgresql:// URL\n"
    "                       (default: $BHOST_STORE, else\n"
    "                       <results-dir>/bhost.db; none with --out)\n"
    "  --no-store           do not add the result to the store\n"
    "  --baseline store:latest-BRANCH | store:nearest-ancestor\n"
    "                       the newest run of this config on BRANCH (e.g.\n"
    "                       store:latest-main), or of the nearest commit of\n"
    "                       HEAD's first-parent history that has one, with\n"
    "                       this system's fingerprint, from the store\n"
    BH_CLI_NOTIFY_HELP
    "                       a warning (needs --baseline)\n"
    "\n"
    "Profiling one case:\n"
    "\n"
    "  --profile perf|callgrind|massif|heaptrack|nsys|rocprofv3\n"
    "                       run the one selected case (--filter) once under\n"
    "                       the profiler: callgrind collects the timed samples\n"
    "                       only, perf the run stage, the others the whole\n"
    "                       worker. The profile and a flame graph SVG (perf,\n"
    "                       callgrind, massif) go to <stamp>-profiles/ next to\n"
    "                       the result, named in its case.profile; the times\n"
    "                       are not comparable: no store, never gated\n";

/* Options of one run command. */
typedef struct run_opts {
    const char *config; /* a config file, or PLUGIN/BENCH (run_case.h) */
    int one_case;       /* config is PLUGIN/BENCH */
    char **params;      /* -p KEY=VALUE */
    size_t n_params;
    size_t cap_params;
    char **filters;
    size_t n_filters;
    size_t cap_filters;
    const char *out;
    const char *results_dir;
    int has_seed;
    uint64_t seed;
    uint64_t runs;
    int runs_auto; /* --runs auto */
    uint64_t samples;
    uint64_t warmup_ns;      /* UINT64_MAX: not given */
    uint64_t sample_time_ns; /* 0: not given */
    uint64_t timeout_ns;     /* 0: not given */
    int json;
    int quiet;
    int verbose;
    int measure;  /* -1: not given, else a bh_measure */
    int counters; /* -1: not given, 0 off, 1 on */
    int allow_unsafe;
    bh_run_verdict verdict; /* --baseline and friends */
    bh_run_store store;     /* --store, --no-store, --notify */
    bh_run_ci ci;           /* --shard, --backend, git metadata */
    bh_run_profile profile; /* --profile */
} run_opts;

/* The options of bhost run. */
static const bh_opt run_options[] = {
    {"param", 'p', 'p', BH_OPT_VALUE, "a parameter KEY=VALUE of PLUGIN/BENCH"},
    {"filter", 'f', 'f', BH_OPT_VALUE, "run only cases whose id matches a glob or word"},
    {"out", 'o', 0, BH_OPT_VALUE, "write the result to FILE"},
    {"results-dir", 'd', 0, BH_OPT_VALUE, "root of the results folders"},
    {"seed", 's', 0, BH_OPT_VALUE, "seed for run order and plugins"},
    {"runs", 'r', 0, BH_OPT_VALUE, "runs (fresh workers) per case, or auto"},
    {"samples", 'n', 0, BH_OPT_VALUE, "samples per run"},
    {"warmup", 'w', 0, BH_OPT_VALUE, "warm-up time per run"},
    {"sample-time", 't', 0, BH_OPT_VALUE, "the least time one sample takes"},
    {"min-time", 't', 0, BH_OPT_VALUE, "the same as --sample-time"},
    {"timeout", 'O', 0, BH_OPT_VALUE, "per-run timeout"},
    {"measure", 'M', 0, BH_OPT_VALUE, "time, or instructions counted under valgrind"},
    {"counters", 'Z', 0, BH_OPT_VALUE, "on or off: perf counters and energy meters"},
    {"json", 'j', 0, BH_OPT_FLAG, "print the result document instead of the table"},
    {"quiet", 'q', 'q', BH_OPT_FLAG, "no table and no progress lines"},
    {"verbose", 'v', 'v', BH_OPT_FLAG, "each case's runs, flags and settings"},
    {"allow-unsafe-plugins", 'u', 0, BH_OPT_FLAG, "load world-writable or foreign plugin files"},
    {"baseline", 'B', 0, BH_OPT_VALUE, "compare with a baseline name, file or store selection"},
    {"save-baseline", 'S', 0, BH_OPT_VALUE, "store this result as baseline NAME"},
    {"baseline-plugins", 'P', 0, BH_OPT_VALUE, "the baseline build's plugin files"},
    {"fail-on-regression", 'R', 0, BH_OPT_FLAG,
     "exit 5 on a confirmed critical regression or a missed budget"},
    {"no-confirm", 'C', 0, BH_OPT_FLAG, "do not rerun suspect cases"},
    {"force", 'F', 0, BH_OPT_FLAG, "compare with a baseline of another config or system"},
    {"ignore-param", 'I', 0, BH_OPT_VALUE, "match baseline cases without parameter KEY"},
    {"store", 'T', 0, BH_OPT_VALUE, "the results store (SQLite file or postgresql:// URL)"},
    {"no-store", 'N', 0, BH_OPT_FLAG, "do not add the result to the store"},
    {"notify", 'W', 0, BH_OPT_VALUE, "deliver the verdicts: URL, slack:, github:, email:"},
    {"shard", 'X', 0, BH_OPT_VALUE, "run only share I of N of the cases"},
    {"backend", 'K', 0, BH_OPT_VALUE, "run only the cases of backend NAME"},
    {"profile", 0x100, 0, BH_OPT_VALUE,
     "profile the one case: perf, callgrind, massif, heaptrack, nsys or rocprofv3"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

/* Parses the command line into o; -1 after printing one usage error. */
static int parse(int argc, char **argv, run_opts *o)
{
    bh_opts p;
    int ch;

    memset(o, 0, sizeof(*o));
    o->results_dir = "results";
    o->warmup_ns = UINT64_MAX;
    o->measure = -1;
    o->counters = -1;
    bh_opts_init(&p, "run", run_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        switch (ch) {
        case 'f':
            BH_PUSH(o->filters, o->n_filters, o->cap_filters, p.value);
            break;
        case 'p':
            BH_PUSH(o->params, o->n_params, o->cap_params, p.value);
            break;
        case 'o':
            o->out = p.value;
            break;
        case 'd':
            o->results_dir = p.value;
            break;
        case 's':
            if (bh_arg_u64("--seed", p.value, 0, UINT64_MAX, &o->seed) != 0)
                return -1;
            o->has_seed = 1;
            break;
        case 'r':
            o->runs_auto = strcmp(p.value, "auto") == 0;
            if (!o->runs_auto && strspn(p.value, "0123456789") != strlen(p.value)) {
                bh_cli_error("run: --runs expects an integer from 1 to 10000 or auto, got '%s'",
                             p.value);
                return -1;
            }
            if (!o->runs_auto && bh_arg_u64("--runs", p.value, 1, 10000, &o->runs) != 0)
                return -1;
            break;
        case 'n':
            if (bh_arg_u64("--samples", p.value, 1, 100000, &o->samples) != 0)
                return -1;
            break;
        case 'w':
            if (bh_arg_duration("run", "--warmup", p.value, 0, &o->warmup_ns) != 0)
                return -1;
            break;
        case 't':
            if (bh_arg_duration("run", "--sample-time", p.value, 1, &o->sample_time_ns) != 0)
                return -1;
            break;
        case 'O':
            if (bh_arg_duration("run", "--timeout", p.value, 1, &o->timeout_ns) != 0)
                return -1;
            break;
        case 'M':
            if (strcmp(p.value, "time") != 0 && strcmp(p.value, "instructions") != 0) {
                bh_cli_error("run: --measure '%s': expected time or instructions", p.value);
                return -1;
            }
            o->measure = strcmp(p.value, "time") == 0 ? BH_MEASURE_TIME : BH_MEASURE_INSTRUCTIONS;
            break;
        case 'Z':
            if (strcmp(p.value, "on") != 0 && strcmp(p.value, "off") != 0) {
                bh_cli_error("run: --counters '%s': expected on or off", p.value);
                return -1;
            }
            o->counters = strcmp(p.value, "on") == 0;
            break;
        case 'j':
            o->json = 1;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'v':
            o->verbose = 1;
            break;
        case 'u':
            o->allow_unsafe = 1;
            break;
        case 'B':
            o->verdict.baseline = p.value;
            break;
        case 'S':
            o->verdict.save_baseline = p.value;
            break;
        case 'P':
            o->verdict.baseline_plugins = p.value;
            break;
        case 'R':
            o->verdict.fail_on_regression = 1;
            break;
        case 'C':
            o->verdict.no_confirm = 1;
            break;
        case 'F':
            o->verdict.force = 1;
            break;
        case 'I':
            BH_PUSH(o->verdict.ignore_params, o->verdict.n_ignore, o->verdict.cap_ignore, p.value);
            break;
        case 'X':
            if (bh_run_ci_set_shard(&o->ci, p.value) != 0)
                return -1;
            break;
        case 'K':
            if (bh_run_ci_add_backend(&o->ci, p.value) != 0)
                return -1;
            break;
        case 0x100: /* --profile: no short form */
            if (bh_run_profile_set(&o->profile, p.value) != 0)
                return -1;
            break;
        case 'T':
            o->store.store = p.value;
            break;
        case 'N':
            o->store.no_store = 1;
            break;
        case 'W':
            if (bh_cli_notify_add(&o->store.notify, "run", p.value) != 0)
                return -1;
            break;
        }
    }
    if (ch < 0)
        return -1;
    if (p.next != argc - 1) {
        bh_cli_error("run: expected exactly one CONFIG file or benchmark PLUGIN/BENCH (see "
                     "bhost run --help)");
        return -1;
    }
    o->config = argv[p.next];
    o->one_case = bh_run_case_is_spec(o->config);
    if (o->n_params && !o->one_case) {
        bh_cli_error("run: -p/--param KEY=VALUE is for a benchmark PLUGIN/BENCH; a config "
                     "sets params: in its suites");
        return -1;
    }
    o->verdict.results_dir = o->results_dir;
    if (o->store.notify.n && !o->verdict.baseline) {
        bh_cli_error("run: --notify needs --baseline NAME|FILE|store:...");
        return -1;
    }
    if (o->out && !o->store.store && !getenv("BHOST_STORE"))
        o->store.no_store = 1; /* --out writes that one file and nothing elsewhere */
    if (o->profile.on && o->verdict.save_baseline) {
        bh_cli_error("run: --profile with --save-baseline: a profiled run's times are not "
                     "comparable, so it cannot be a baseline");
        return -1;
    }
    o->store.no_store |= o->profile.on; /* nor history (run_profile.h) */
    if (bh_run_store_prepare(&o->store, o->results_dir) != 0)
        return -1;
    o->verdict.store = o->store.target;
    return 0;
}

/* The config of the run: the file, or the in-memory one of PLUGIN/BENCH
 * (checked against the plugin in cat, which is set up here). NULL after
 * printing one line, with *rc the exit code. */
static bh_config *load_config(run_opts *o, bh_catalog *cat, int *rc)
{
    bh_error e = {""};
    bh_config *cfg;

    if (!o->one_case) {
        cfg = bh_config_load(o->config, &e);
        if (!cfg) {
            bh_cli_error("%s", e.msg);
            *rc = BH_EXIT_CONFIG;
            return NULL;
        }
        bh_catalog_init(cat, cfg->plugin_path, cfg->n_plugin_path);
        return cfg;
    }
    *rc = BH_EXIT_USAGE;
    cfg = bh_run_case_config(o->config, o->params, o->n_params, o->ci.backends, o->ci.n_backends);
    o->ci.n_backends = 0; /* they name the device's backend; nothing to select */
    bh_catalog_init(cat, NULL, 0);
    if (cfg && bh_run_case_check(cfg, cat) != 0) {
        bh_config_free(cfg);
        cfg = NULL;
    }
    return cfg;
}

/* Applies command-line overrides to every suite's settings. */
static void apply_overrides(bh_config *cfg, const run_opts *o)
{
    for (size_t i = 0; i < cfg->n_suites; i++) {
        bh_settings *s = &cfg->suites[i].settings;

        if (o->runs)
            s->runs = (uint32_t)o->runs;
        if (o->runs || o->runs_auto)
            s->runs_auto = o->runs_auto;
        if (o->samples)
            s->samples = (uint32_t)o->samples;
        if (o->warmup_ns != UINT64_MAX)
            s->warmup_ns = o->warmup_ns;
        if (o->sample_time_ns)
            s->sample_time_ns = o->sample_time_ns;
        if (o->timeout_ns)
            s->timeout_ns = o->timeout_ns;
        if (o->measure >= 0)
            s->measure = o->measure;
        if (o->counters >= 0)
            s->counters_off = !o->counters;
        if (o->has_seed)
            s->seed = o->seed;
    }
    if (o->has_seed)
        cfg->defaults.seed = o->seed;
}

/* A file-name-safe host name. */
static void host_name(char buf[64])
{
    if (gethostname(buf, 64) != 0)
        snprintf(buf, 64, "host");
    buf[63] = '\0';
    for (char *p = buf; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.'))
            *p = '_';
}

/* The exit code a finished run deserves. */
static int exit_code(const bh_plan *plan, int interrupted)
{
    if (interrupted)
        return BH_EXIT_INTERRUPTED;
    for (size_t i = 0; i < plan->n; i++)
        if (bh_status_is_failure(plan->cases[i].status))
            return BH_EXIT_CASES_FAILED;
    return BH_EXIT_OK;
}

/* Marks the result document doc as incomplete (run.complete false). */
static void mark_incomplete(cJSON *doc)
{
    cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run");

    if (cJSON_IsObject(run))
        cJSON_ReplaceItemInObjectCaseSensitive(run, "complete", cJSON_CreateFalse());
}

/* Writes the formats of the config's output: list next to the result
 * file (atomically) and names each on out. 0 or -1 (reported). */
static int write_outputs(const cJSON *doc, const char *result, const bh_config *cfg, FILE *out)
{
    char **written = NULL;
    size_t n_written = 0;
    bh_error e = {""};
    int rc = bh_report_write_outputs(doc, result, cfg->outputs, cfg->n_outputs, NULL, &written,
                                     &n_written, &e);

    if (rc != 0)
        bh_cli_error("cannot write a report: %s", e.msg);
    for (size_t i = 0; i < n_written; i++) {
        fprintf(out, "report: %s\n", written[i]);
        free(written[i]);
    }
    free(written);
    return rc;
}

static int cmd_run(int argc, char **argv)
{
    run_opts o;
    bh_error e = {""};
    bh_config *cfg;
    bh_catalog cat;
    bh_plan plan;
    bh_exec_opts xo;
    bh_run_meta meta;
    cJSON *doc;
    char stamp[32];
    char host[64];
    char *path;
    char *used = NULL;
    uint64_t t0;
    size_t budgets_failed;
    int rc;

    if (parse(argc, argv, &o) != 0) {
        free(o.filters);
        free(o.params);
        bh_run_verdict_free(&o.verdict);
        return BH_EXIT_USAGE;
    }
    cfg = load_config(&o, &cat, &rc);
    free(o.params);
    if (!cfg) {
        if (o.one_case)
            bh_catalog_free(&cat);
        free(o.filters);
        bh_run_verdict_free(&o.verdict);
        return rc;
    }
    apply_overrides(cfg, &o);
    bh_run_profile_settings(&o.profile, cfg);
    cat.allow_unsafe |= o.allow_unsafe;
    if (bh_plan_build(cfg, &cat, &plan, &e) != 0) {
        if (o.one_case)
            bh_cli_error("run: %s", bh_run_case_message(cfg, e.msg));
        else
            bh_cli_error("%s", e.msg);
        bh_catalog_free(&cat);
        bh_config_free(cfg);
        free(o.filters);
        bh_run_verdict_free(&o.verdict);
        return o.one_case ? BH_EXIT_USAGE : BH_EXIT_CONFIG;
    }
    if (o.n_filters) {
        char *example =
            plan.n
                ? bh_xasprintf("'%s'%s%s%s", plan.cases[0].id, plan.n > 1 ? ", '" : "",
                               plan.n > 1 ? plan.cases[plan.n - 1].id : "", plan.n > 1 ? "'" : "")
                : bh_xstrdup("(none)");
        size_t before = plan.n;

        bh_plan_filter(&plan, o.filters, o.n_filters);
        if (plan.n == 0) {
            bh_cli_error("run: --filter '%s'%s matches none of the %zu case%s of %s; ids look "
                         "like %s (bhost list %s shows them all)",
                         o.filters[0], o.n_filters > 1 ? " (and the others)" : "", before,
                         before == 1 ? "" : "s", o.config, example, o.config);
            free(example);
            bh_plan_free(&plan);
            bh_catalog_free(&cat);
            bh_config_free(cfg);
            free(o.filters);
            bh_run_verdict_free(&o.verdict);
            return BH_EXIT_USAGE;
        }
        free(example);
    }
    memset(&meta, 0, sizeof(meta));
    meta.cfg = cfg;
    meta.argc = argc;
    meta.argv = argv;
    meta.seed = cfg->defaults.seed;
    meta.system = bh_sysinfo_collect();
    rc = bh_run_verdict_prepare(&o.verdict, cfg, meta.system);
    if (rc != 0) {
        bh_run_verdict_free(&o.verdict);
        cJSON_Delete(meta.system);
        bh_plan_free(&plan);
        bh_catalog_free(&cat);
        bh_config_free(cfg);
        free(o.filters);
        return rc;
    }
    bh_runs_auto_limits(&plan, &o.verdict.rc); /* before a shard is chosen */
    bh_run_ci_select(&o.ci, &plan, o.results_dir, cfg->name, o.verdict.base_doc, &o.verdict.rc,
                     o.verdict.ignore_params, o.verdict.n_ignore);
    o.verdict.family_extra = o.ci.family_extra;
    meta.git = bh_run_ci_git(&o.ci);
    bh_utc_iso8601(meta.started_at);
    bh_utc_compact(stamp);
    host_name(host);
    path =
        o.out ? bh_xstrdup(o.out) : bh_result_default_path(o.results_dir, cfg->name, stamp, host);
    if (bh_result_check_writable(path, &e) != 0) {
        /* found out before the first case runs, not after the whole run */
        bh_cli_error("%s", e.msg);
        rc = BH_EXIT_IO;
    } else {
        rc = bh_run_profile_prepare(&o.profile, &plan, path, stamp, o.out != NULL);
    }
    if (rc != 0) {
        free(path);
        bh_run_profile_free(&o.profile);
        bh_run_verdict_free(&o.verdict);
        bh_run_ci_free(&o.ci);
        cJSON_Delete(meta.system);
        bh_plan_free(&plan);
        bh_catalog_free(&cat);
        bh_config_free(cfg);
        free(o.filters);
        return rc;
    }
    bh_supervisor_catch_signals();
    t0 = bh_now_ns();
    xo.seed = meta.seed;
    xo.progress = o.quiet ? BH_PROGRESS_NONE : isatty(2) ? BH_PROGRESS_LIVE : BH_PROGRESS_LOG;
    xo.log_limit = 64 * 1024;
    xo.profile = bh_run_profile_request(&o.profile);
    bh_exec_plan(&plan, &xo);
    meta.interrupted = bh_interrupted != 0;
    meta.duration_s = (double)(bh_now_ns() - t0) / 1e9;
    bh_utc_iso8601(meta.finished_at);
    doc = bh_result_build(&meta, &plan, &cat);
    bh_run_profile_record(&o.profile, doc); /* before the budgets: they skip a profiled case */
    budgets_failed = bh_expect_apply(doc);
    bh_run_ci_record(&o.ci, doc);
    bh_run_verdict_apply(&o.verdict, doc, &plan, &xo, !o.quiet && !o.json, stderr);
    if (bh_interrupted && !meta.interrupted) {
        /* interrupted during the confirmation reruns */
        meta.interrupted = 1;
        mark_incomplete(doc);
    }
    rc = exit_code(&plan, meta.interrupted || bh_interrupted);
    if (rc == BH_EXIT_OK)
        rc = bh_run_verdict_exit(&o.verdict);
    if (rc == BH_EXIT_OK && budgets_failed && o.verdict.fail_on_regression)
        rc = BH_EXIT_REGRESSION; /* a missed budget gates like a critical regression */
    {
        cJSON *cmp = bh_report_backend_groups(doc); /* backends side by side */

        if (cJSON_GetArraySize(cmp) > 0)
            cJSON_AddItemToObject(doc, "backend_comparison", cmp);
        else
            cJSON_Delete(cmp);
    }
    if (bh_result_write(doc, path, o.out != NULL, &used, &e) != 0) {
        bh_cli_error("cannot write results: %s", e.msg);
        rc = BH_EXIT_IO;
    }
    if (meta.interrupted && o.verdict.save_baseline)
        bh_cli_error("baseline '%s' not saved: the run is incomplete", o.verdict.save_baseline);
    else if (bh_run_verdict_save(&o.verdict, doc, cfg->name, o.quiet || o.json ? stderr : stdout) !=
             0)
        rc = BH_EXIT_IO;
    if (o.json) {
        char *text = bh_json_print(doc);
        puts(text);
        free(text);
    } else if (!o.quiet) {
        bh_report_console_opts co = {bh_report_use_color(1), o.verbose};

        bh_report_console(stdout, doc, &co);
        bh_report_console_backends(stdout, doc, co.color);
        bh_report_console_expect(stdout, doc, co.color, 0);
        bh_report_console_env(stdout, doc, co.color);
        bh_run_verdict_print(&o.verdict, stdout, co.color);
    } else if (o.verdict.compared) {
        bh_compare_print_summary(stderr, &o.verdict.rep);
    }
    if (o.quiet || o.json)
        bh_report_console_expect(stderr, doc, 0, 1);
    if (used && !o.json)
        fprintf(o.quiet ? stderr : stdout, "result: %s\n", used);
    bh_run_profile_print(&o.profile, o.quiet || o.json ? stderr : stdout);
    if (used && write_outputs(doc, used, cfg, o.quiet || o.json ? stderr : stdout) != 0)
        rc = BH_EXIT_IO;
    bh_run_store_finish(&o.store, doc, used, o.quiet || o.json ? stderr : stdout);
    if (meta.interrupted)
        bh_cli_error("interrupted: partial results written, run marked "
                     "incomplete");
    free(used);
    free(path);
    bh_run_profile_free(&o.profile);
    bh_run_verdict_free(&o.verdict);
    bh_run_ci_free(&o.ci);
    cJSON_Delete(doc);
    cJSON_Delete(meta.system);
    bh_plan_free(&plan);
    bh_catalog_free(&cat);
    bh_config_free(cfg);
    free(o.filters);
    return rc;
}

const bh_cli_cmd bh_cli_run = {
    .name = "run",
    .handler = cmd_run,
    .args = "CONFIG|PLUGIN/BENCH",
    .summary = "run a suite config, or one benchmark, and write a result file",
    .usage = run_usage,
    .usage_more = run_usage_more,
    .opts = run_options,
};
