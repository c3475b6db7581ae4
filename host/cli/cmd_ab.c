// SPDX-License-Identifier: MIT
/* bhost ab: every case of a config run with two builds of its plugins,
 * interleaved ABBA in one invocation, decided on paired data (issue 26
 * item 2; docs/statistics.md section 11.9). The options and the flow; one
 * side's plan is ab_side.c, the interleaving pipeline/ab_exec.c, the
 * decision regress/ab_decide.c, the table report/ab_console.c. */
#define _GNU_SOURCE
#include "ab_console.h"
#include "ab_decide.h"
#include "ab_exec.h"
#include "ab_side.h"
#include "bh_clock.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "cli.h"
#include "cli_args.h"
#include "compare_console.h"
#include "console.h"
#include "gitmeta.h"
#include "host_signals.h"
#include "regress_json.h"
#include "report.h"
#include "result_build.h"
#include "sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char ab_usage[] =
    "usage: bhost ab CONFIG --a DIR --b DIR [options]\n"
    "\n"
    "Runs every case of CONFIG with two builds of its plugins, A from DIR\n"
    "--a (e.g. main's plugins) and B from DIR --b (e.g. a pull request's),\n"
    "in one invocation: each case's runs go in pairs of one A and one B run,\n"
    "in blocks A B B A or B A A B (a seeded coin per block), the blocks of\n"
    "all cases shuffled together, so both runs of a pair see the same\n"
    "machine. Each pair gives the ratio B/A; the change per case is the\n"
    "Hodges-Lehmann shift of the ln ratios with its interval, the Wilcoxon\n"
    "signed-rank test decides, Benjamini-Hochberg over all cases, and the\n"
    "verdicts are compare's (regressed, improved, no change, within noise,\n"
    "inconclusive) under the config's regression: thresholds. A DIR is a\n"
    "plugin folder or a build tree's plugins/ (one level of subfolders is\n"
    "searched); it goes in front of the plugin search path, and every\n"
    "plugin of the config must be a file there. Cases only one build has\n"
    "are listed, not compared.\n"
    "\n"
    "  --a DIR              the baseline build's plugin files\n"
    "  --b DIR              the candidate build's plugin files\n"
    "  -f, --filter PATTERN run only cases whose id matches (repeatable)\n"
    "  --runs N             pairs per case (default: the config's runs;\n"
    "                       runs: auto gives min_runs pairs, else 10)\n"
    "  --samples N          samples per run\n"
    "  --warmup DURATION    warm-up time per run, e.g. 200ms\n"
    "  --sample-time DURATION  the least time one sample takes\n"
    "  --timeout DURATION   per-run timeout, e.g. 30s\n"
    "  --seed N             seed of the schedule and the plugins\n"
    "  --out FILE           write the result to FILE (replacing it); default\n"
    "                       <results-dir>/<config>/ab/<time>-<host>.json\n"
    "  --results-dir DIR    root of the results folders (default: results)\n"
    "  --json               print the result document instead of the table\n"
    "  -q, --quiet          no table and no progress lines\n"
    "  -v, --verbose        also compare's lines per case\n"
    "  --fail-on-regression exit 5 when a critical regression is decided\n"
    "  --allow-unsafe-plugins  load world-writable or foreign plugin files\n"
    "  -h, --help           this help\n"
    "\n"
    "The result (bhost.result/1) holds B's cases with the paired verdicts,\n"
    "A's cases under ab.a.cases. Exit: 0, 1 a case failed on either side\n"
    "(its status is shown; the others are still decided), 2 usage (a\n"
    "missing DIR), 3 config (a DIR lacking a plugin of the config), 4\n"
    "results not written, 5 a critical regression (--fail-on-regression),\n"
    "6 interrupted.\n";

/* Options and state of one ab command. */
typedef struct ab_opts {
    const char *config;
    bh_ab_side a, b;
    char **filters;
    size_t n_filters, cap_filters;
    const char *out;
    const char *results_dir;
    int has_seed;
    uint64_t seed, runs, samples;
    uint64_t warmup_ns, sample_time_ns, timeout_ns; /* UINT64_MAX, 0, 0: not given */
    int json, quiet, verbose, fail_on_regression, allow_unsafe;
} ab_opts;

static const bh_opt ab_options[] = {
    {"a", 'A', 0, BH_OPT_VALUE, "the baseline build's plugin folder"},
    {"b", 'B', 0, BH_OPT_VALUE, "the candidate build's plugin folder"},
    {"filter", 'f', 'f', BH_OPT_VALUE, "run only cases whose id matches a glob or word"},
    {"runs", 'r', 0, BH_OPT_VALUE, "pairs per case"},
    {"samples", 'n', 0, BH_OPT_VALUE, "samples per run"},
    {"warmup", 'w', 0, BH_OPT_VALUE, "warm-up time per run"},
    {"sample-time", 't', 0, BH_OPT_VALUE, "the least time one sample takes"},
    {"timeout", 'O', 0, BH_OPT_VALUE, "per-run timeout"},
    {"seed", 's', 0, BH_OPT_VALUE, "seed of the schedule and the plugins"},
    {"out", 'o', 0, BH_OPT_VALUE, "write the result to FILE"},
    {"results-dir", 'd', 0, BH_OPT_VALUE, "root of the results folders"},
    {"json", 'j', 0, BH_OPT_FLAG, "print the result document instead of the table"},
    {"quiet", 'q', 'q', BH_OPT_FLAG, "no table and no progress lines"},
    {"verbose", 'v', 'v', BH_OPT_FLAG, "also compare's lines per case"},
    {"fail-on-regression", 'R', 0, BH_OPT_FLAG, "exit 5 on a critical regression"},
    {"allow-unsafe-plugins", 'u', 0, BH_OPT_FLAG, "load world-writable or foreign plugin files"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

/* Sets the flag option ch (--json, --quiet, --verbose,
 * --fail-on-regression, --allow-unsafe-plugins) in o; 0. */
static int ab_flag(ab_opts *o, int ch)
{
    int *flag = ch == 'j'   ? &o->json
                : ch == 'q' ? &o->quiet
                : ch == 'v' ? &o->verbose
                : ch == 'R' ? &o->fail_on_regression
                            : &o->allow_unsafe;

    *flag = 1;
    return 0;
}

/* Takes option ch (its value v) into o; -1 after one line. */
static int ab_take(ab_opts *o, int ch, char *v)
{
    switch (ch) {
    case 'A':
        o->a.dir = v;
        return 0;
    case 'B':
        o->b.dir = v;
        return 0;
    case 'f':
        BH_PUSH(o->filters, o->n_filters, o->cap_filters, v);
        return 0;
    case 'r':
        return bh_arg_u64("--runs", v, 2, 10000, &o->runs);
    case 'n':
        return bh_arg_u64("--samples", v, 1, 100000, &o->samples);
    case 'w':
        return bh_arg_duration("ab", "--warmup", v, 0, &o->warmup_ns);
    case 't':
        return bh_arg_duration("ab", "--sample-time", v, 1, &o->sample_time_ns);
    case 'O':
        return bh_arg_duration("ab", "--timeout", v, 1, &o->timeout_ns);
    case 's':
        o->has_seed = 1;
        return bh_arg_u64("--seed", v, 0, UINT64_MAX, &o->seed);
    case 'o':
        o->out = v;
        return 0;
    case 'd':
        o->results_dir = v;
        return 0;
    default:
        return ab_flag(o, ch);
    }
}

/* Parses the command line into o; -1 after one usage line. */
static int ab_parse(int argc, char **argv, ab_opts *o)
{
    bh_opts p;
    int ch;

    memset(o, 0, sizeof(*o));
    o->results_dir = "results";
    o->warmup_ns = UINT64_MAX;
    o->a.flag = "--a";
    o->b.flag = "--b";
    bh_opts_init(&p, "ab", ab_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0)
        if (ab_take(o, ch, p.value) != 0)
            return -1;
    if (ch < 0)
        return -1;
    if (p.next != argc - 1) {
        bh_cli_error("ab: expected exactly one CONFIG file (see bhost ab --help)");
        return -1;
    }
    o->config = argv[p.next];
    if (!o->a.dir || !o->b.dir) {
        bh_cli_error("ab: expected both --a DIR and --b DIR (the two builds' plugin folders)");
        return -1;
    }
    return 0;
}

/* Applies the command line's settings to every suite of cfg. */
static void ab_overrides(bh_config *cfg, const ab_opts *o)
{
    for (size_t i = 0; i < cfg->n_suites; i++) {
        bh_settings *s = &cfg->suites[i].settings;

        if (o->runs) {
            s->runs = (uint32_t)o->runs;
            s->runs_auto = 0;
        }
        if (o->samples)
            s->samples = (uint32_t)o->samples;
        if (o->warmup_ns != UINT64_MAX)
            s->warmup_ns = o->warmup_ns;
        if (o->sample_time_ns)
            s->sample_time_ns = o->sample_time_ns;
        if (o->timeout_ns)
            s->timeout_ns = o->timeout_ns;
        if (o->has_seed)
            s->seed = o->seed;
    }
    if (o->has_seed)
        cfg->defaults.seed = o->seed;
}

/* What one invocation holds besides its options. */
typedef struct ab_run {
    bh_config *cfg;
    bh_regress_config rc;
    int has_rc;
    cJSON *only_a, *only_b; /* ids one build lacks */
    bh_run_meta meta;
    cJSON *doc; /* the result: B's document with A's cases */
    bh_regress_report rep;
    char *path;      /* where it goes */
    bh_git_meta git; /* the working directory's revision */
    bh_run_git run_git;
} ab_run;

/* Loads the config and plans it against both folders, matched. 0, or the
 * exit code after one line. */
static int ab_prepare(ab_opts *o, ab_run *r)
{
    bh_error e = {""};
    int rc;

    if ((rc = bh_ab_side_check(&o->a)) != 0 || (rc = bh_ab_side_check(&o->b)) != 0)
        return rc;
    if (!(r->cfg = bh_config_load(o->config, &e)) ||
        bh_regress_config_parse(r->cfg->regression_json, r->cfg->regression_pos_json, r->cfg->path,
                                &r->rc, &e) != 0) {
        bh_cli_error("%s", e.msg);
        return BH_EXIT_CONFIG;
    }
    r->has_rc = 1;
    ab_overrides(r->cfg, o);
    if ((rc = bh_ab_side_plan(&o->a, r->cfg, o->filters, o->n_filters, o->allow_unsafe)) != 0 ||
        (rc = bh_ab_side_plan(&o->b, r->cfg, o->filters, o->n_filters, o->allow_unsafe)) != 0)
        return rc;
    r->only_a = cJSON_CreateArray();
    r->only_b = cJSON_CreateArray();
    bh_ab_match(&o->a.plan, &o->b.plan, r->only_a, r->only_b);
    if (o->b.plan.n == 0) {
        bh_cli_error("ab: the builds in %s and %s have no case of %s in common", o->a.dir, o->b.dir,
                     o->config);
        return BH_EXIT_CONFIG;
    }
    return 0;
}

/* The result's file: --out, else <results-dir>/<config>/ab/<stamp>-<host>.json.
 * 0, or BH_EXIT_IO after one line when it cannot be written. */
static int ab_path(const ab_opts *o, ab_run *r)
{
    char stamp[32], host[64], *sub;
    bh_error e = {""};

    bh_utc_compact(stamp);
    if (gethostname(host, sizeof(host)) != 0)
        snprintf(host, sizeof(host), "host");
    host[sizeof(host) - 1] = '\0';
    for (char *p = host; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", *p))
            *p = '_';
    sub = bh_xasprintf("%s/ab", r->cfg->name);
    r->path =
        o->out ? bh_xstrdup(o->out) : bh_result_default_path(o->results_dir, sub, stamp, host);
    free(sub);
    if (bh_result_check_writable(r->path, &e) != 0) {
        bh_cli_error("%s", e.msg);
        return BH_EXIT_IO;
    }
    return 0;
}

/* Moves key of from into to (when from has it). */
static void move_item(cJSON *to, cJSON *from, const char *key)
{
    cJSON *it = cJSON_DetachItemFromObjectCaseSensitive(from, key);

    if (it)
        cJSON_AddItemToObject(to, key, it);
}

/* Adds the "ab" object to r->doc: the design, both folders, A's plugins
 * and cases (taken from doc_a), the ids only one build has. */
static void ab_section(const ab_opts *o, ab_run *r, cJSON *doc_a)
{
    cJSON *ab = cJSON_AddObjectToObject(r->doc, "ab");
    cJSON *a = cJSON_CreateObject();
    cJSON *b = cJSON_CreateObject();

    cJSON_AddStringToObject(ab, "design", "abba");
    cJSON_AddStringToObject(a, "plugins_dir", o->a.abs);
    move_item(a, cJSON_GetObjectItemCaseSensitive(doc_a, "run"), "plugins");
    move_item(a, doc_a, "cases");
    cJSON_AddStringToObject(b, "plugins_dir", o->b.abs);
    cJSON_AddItemToObject(ab, "a", a);
    cJSON_AddItemToObject(ab, "b", b);
    cJSON_AddItemToObject(ab, "only_a", r->only_a);
    cJSON_AddItemToObject(ab, "only_b", r->only_b);
    r->only_a = r->only_b = NULL;
}

/* The least pairs a case gets: without --runs, what the signed-rank test
 * needs to decide at the config's fdr over one test per case (more when
 * the config's runs are fewer, said on stderr); with --runs, what it says,
 * with a note when that is too few. */
static uint32_t ab_least_pairs(const ab_opts *o, const ab_run *r)
{
    size_t m = o->b.plan.n;
    uint32_t least = bh_regress_ab_least_pairs(r->rc.fdr, m);
    uint32_t fewest = UINT32_MAX;

    for (size_t k = 0; k < m; k++) {
        uint32_t p = bh_ab_pairs(&o->a.plan.cases[k], &o->b.plan.cases[k]);

        if (p && p < fewest)
            fewest = p;
    }
    if (fewest == UINT32_MAX || fewest >= least)
        return 0;
    if (!o->quiet && o->runs)
        fprintf(stderr,
                "ab: warning: %u pairs cannot reach q <= %g over %zu cases (the least p of n "
                "pairs is 2/2^n): one regression alone needs %u pairs\n",
                fewest, r->rc.fdr, m, least);
    else if (!o->quiet)
        fprintf(stderr,
                "ab: %u pairs per case, not the config's %u: fewer cannot reach q <= %g "
                "over %zu cases\n",
                least, fewest, r->rc.fdr, m);
    return o->runs ? 0 : least;
}

/* Runs both plans interleaved and builds the result with the paired
 * verdicts. */
static void ab_execute(ab_opts *o, ab_run *r)
{
    bh_exec_opts xo = {0, BH_PROGRESS_NONE, 64 * 1024, NULL};
    uint64_t t0 = bh_now_ns();
    bh_regress_meta rm = {o->a.abs, o->b.abs, NULL, NULL, 0};
    cJSON *doc_a;

    r->meta.cfg = r->cfg;
    r->meta.seed = r->cfg->defaults.seed;
    r->meta.system = bh_sysinfo_collect();
    bh_git_meta_collect(".", 5000, &r->git);
    r->run_git = (bh_run_git){r->git.commit, r->git.branch, r->git.dirty, r->git.source};
    r->meta.git = &r->run_git;
    bh_utc_iso8601(r->meta.started_at);
    xo.seed = r->meta.seed;
    xo.progress = o->quiet ? BH_PROGRESS_NONE : isatty(2) ? BH_PROGRESS_LIVE : BH_PROGRESS_LOG;
    if (!o->quiet)
        fprintf(stderr, "ab: %zu case%s, A %s, B %s, interleaved ABBA\n", o->b.plan.n,
                o->b.plan.n == 1 ? "" : "s", o->a.dir, o->b.dir);
    bh_supervisor_catch_signals();
    bh_ab_execute(&o->a.plan, &o->b.plan, ab_least_pairs(o, r), &xo);
    r->meta.interrupted = bh_interrupted != 0;
    r->meta.duration_s = (double)(bh_now_ns() - t0) / 1e9;
    bh_utc_iso8601(r->meta.finished_at);
    doc_a = bh_result_build(&r->meta, &o->a.plan, &o->a.cat);
    r->doc = bh_result_build(&r->meta, &o->b.plan, &o->b.cat);
    bh_regress_ab_decide(doc_a, r->doc, &r->rc, &r->rep);
    bh_regress_attach(r->doc, &r->rep, &rm);
    ab_section(o, r, doc_a);
    cJSON_Delete(doc_a);
}

/* The exit code: interrupted, a case failed on either side, a critical
 * regression with --fail-on-regression, else 0. */
static int ab_exit(const ab_opts *o, const ab_run *r)
{
    if (r->meta.interrupted)
        return BH_EXIT_INTERRUPTED;
    for (size_t i = 0; i < o->b.plan.n; i++)
        if (bh_status_is_failure(o->a.plan.cases[i].status) ||
            bh_status_is_failure(o->b.plan.cases[i].status))
            return BH_EXIT_CASES_FAILED;
    if (o->fail_on_regression && bh_regress_n_critical(&r->rep) > 0)
        return BH_EXIT_REGRESSION;
    return BH_EXIT_OK;
}

/* Writes the reports the config's output: names next to the result file
 * at used and names each on out; 0, or -1 after one line. */
static int ab_reports(const cJSON *doc, const char *used, const bh_config *cfg, FILE *out)
{
    char **written = NULL;
    size_t n = 0;
    bh_error e = {""};
    int rc =
        bh_report_write_outputs(doc, used, cfg->outputs, cfg->n_outputs, NULL, &written, &n, &e);

    if (rc != 0)
        bh_cli_error("cannot write a report: %s", e.msg);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "report: %s\n", written[i]);
        free(written[i]);
    }
    free(written);
    return rc;
}

/* Writes the result and prints the table or the document; the exit code
 * (BH_EXIT_IO when the result cannot be written). */
static int ab_output(const ab_opts *o, ab_run *r)
{
    bh_error e = {""};
    char *used = NULL;
    int rc = ab_exit(o, r);

    if (r->meta.interrupted) {
        cJSON *run = cJSON_GetObjectItemCaseSensitive(r->doc, "run");

        cJSON_ReplaceItemInObjectCaseSensitive(run, "complete", cJSON_CreateFalse());
    }
    if (bh_result_write(r->doc, r->path, o->out != NULL, &used, &e) != 0) {
        bh_cli_error("cannot write results: %s", e.msg);
        rc = BH_EXIT_IO;
    }
    if (o->json) {
        char *text = bh_json_print(r->doc);

        puts(text);
        free(text);
    } else if (!o->quiet) {
        int color = bh_report_use_color(1);

        bh_report_console_ab(stdout, r->doc, color);
        if (o->verbose) {
            fputc('\n', stdout);
            bh_compare_print(stdout, &r->rep, 0, color);
            bh_compare_print_summary(stdout, &r->rep);
        }
    }
    if (used) {
        fprintf(o->quiet || o->json ? stderr : stdout, "result: %s\n", used);
        if (ab_reports(r->doc, used, r->cfg, o->quiet || o->json ? stderr : stdout) != 0)
            rc = BH_EXIT_IO;
    }
    if (r->meta.interrupted)
        bh_cli_error("interrupted: partial results written, run marked incomplete");
    free(used);
    return rc;
}

/* Frees what o and r hold. */
static void ab_free(ab_opts *o, ab_run *r)
{
    bh_regress_report_free(&r->rep);
    if (r->has_rc)
        bh_regress_config_free(&r->rc);
    cJSON_Delete(r->only_a);
    cJSON_Delete(r->only_b);
    cJSON_Delete(r->doc);
    cJSON_Delete(r->meta.system);
    free(r->path);
    bh_git_meta_free(&r->git);
    bh_ab_side_free(&o->a);
    bh_ab_side_free(&o->b);
    bh_config_free(r->cfg);
    free(o->filters);
}

static int cmd_ab(int argc, char **argv)
{
    ab_opts o;
    ab_run r;
    int rc;

    memset(&r, 0, sizeof(r));
    if (ab_parse(argc, argv, &o) != 0) {
        free(o.filters);
        return BH_EXIT_USAGE;
    }
    r.meta.argc = argc;
    r.meta.argv = argv;
    rc = ab_prepare(&o, &r);
    if (rc == 0)
        rc = ab_path(&o, &r);
    if (rc == 0) {
        ab_execute(&o, &r);
        rc = ab_output(&o, &r);
    }
    ab_free(&o, &r);
    return rc;
}

const bh_cli_cmd bh_cli_ab = {
    .name = "ab",
    .handler = cmd_ab,
    .args = "CONFIG --a DIR --b DIR",
    .summary = "run a config with two plugin builds interleaved (ABBA) and decide paired",
    .usage = ab_usage,
    .opts = ab_options,
};
