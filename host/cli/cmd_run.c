#define _GNU_SOURCE
#include "bh_clock.h"
#include "bh_mem.h"
#include "catalog.h"
#include "cli.h"
#include "cli_args.h"
#include "config.h"
#include "console.h"
#include "executor.h"
#include "plan.h"
#include "result_doc.h"
#include "sysinfo.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char run_usage[] =
    "usage: bhost run CONFIG [options]\n"
    "\n"
    "Runs every case of CONFIG in supervised worker processes, prints a\n"
    "summary table and writes one JSON result file.\n"
    "\n"
    "  --filter PATTERN     run only cases whose id matches the glob\n"
    "                       (repeatable), e.g. 'selftest/spin*'\n"
    "  --out FILE           write the result to FILE (replacing it)\n"
    "  --results-dir DIR    root for results/<config>/<time>-<host>.json\n"
    "                       (default: results)\n"
    "  --seed N             seed for run order and plugins (default: the\n"
    "                       config's defaults.seed)\n"
    "  --runs N             runs (fresh workers) per case\n"
    "  --samples N          samples per run\n"
    "  --json               print the result document on stdout instead\n"
    "                       of the table\n"
    "  --quiet              no table and no progress line\n"
    "  -h, --help           this help\n";

/* Options of one run command. */
typedef struct run_opts {
    const char *config;
    char **filters;
    size_t n_filters;
    size_t cap_filters;
    const char *out;
    const char *results_dir;
    int has_seed;
    uint64_t seed;
    uint64_t runs;
    uint64_t samples;
    int json;
    int quiet;
} run_opts;

static void on_signal(int sig)
{
    (void)sig;
    bh_interrupted = 1;
}

static int parse(int argc, char **argv, run_opts *o)
{
    static const struct option longopts[] = {
        {"filter", required_argument, NULL, 'f'},
        {"out", required_argument, NULL, 'o'},
        {"results-dir", required_argument, NULL, 'd'},
        {"seed", required_argument, NULL, 's'},
        {"runs", required_argument, NULL, 'r'},
        {"samples", required_argument, NULL, 'n'},
        {"json", no_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int ch;

    memset(o, 0, sizeof(*o));
    o->results_dir = "results";
    opterr = 0;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'f':
            BH_PUSH(o->filters, o->n_filters, o->cap_filters, optarg);
            break;
        case 'o':
            o->out = optarg;
            break;
        case 'd':
            o->results_dir = optarg;
            break;
        case 's':
            if (bh_arg_u64("--seed", optarg, 0, UINT64_MAX, &o->seed) != 0)
                return -1;
            o->has_seed = 1;
            break;
        case 'r':
            if (bh_arg_u64("--runs", optarg, 1, 10000, &o->runs) != 0)
                return -1;
            break;
        case 'n':
            if (bh_arg_u64("--samples", optarg, 1, 100000, &o->samples) != 0)
                return -1;
            break;
        case 'j':
            o->json = 1;
            break;
        case 'q':
            o->quiet = 1;
            break;
        default:
            bh_cli_error("run: unknown or incomplete option '%s' (see bhost "
                         "run --help)", argv[optind - 1]);
            return -1;
        }
    }
    if (optind != argc - 1) {
        bh_cli_error("run: expected exactly one CONFIG file (see bhost run "
                     "--help)");
        return -1;
    }
    o->config = argv[optind];
    return 0;
}

/* Applies command-line overrides to every suite's settings. */
static void apply_overrides(bh_config *cfg, const run_opts *o)
{
    for (size_t i = 0; i < cfg->n_suites; i++) {
        bh_settings *s = &cfg->suites[i].settings;

        if (o->runs)
            s->runs = (uint32_t)o->runs;
        if (o->samples)
            s->samples = (uint32_t)o->samples;
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
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
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

int bh_cmd_run(int argc, char **argv)
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
    int rc;

    if (bh_wants_help(argc, argv)) {
        fputs(run_usage, stdout);
        return BH_EXIT_OK;
    }
    if (parse(argc, argv, &o) != 0) {
        free(o.filters);
        return BH_EXIT_USAGE;
    }
    cfg = bh_config_load(o.config, &e);
    if (!cfg) {
        bh_cli_error("%s", e.msg);
        free(o.filters);
        return BH_EXIT_CONFIG;
    }
    apply_overrides(cfg, &o);
    bh_catalog_init(&cat, cfg->plugin_path, cfg->n_plugin_path);
    if (bh_plan_build(cfg, &cat, &plan, &e) != 0) {
        bh_cli_error("%s", e.msg);
        bh_catalog_free(&cat);
        bh_config_free(cfg);
        free(o.filters);
        return BH_EXIT_CONFIG;
    }
    bh_plan_filter(&plan, o.filters, o.n_filters);
    memset(&meta, 0, sizeof(meta));
    meta.cfg = cfg;
    meta.argc = argc;
    meta.argv = argv;
    meta.seed = cfg->defaults.seed;
    meta.system = bh_sysinfo_collect();
    bh_utc_iso8601(meta.started_at);
    bh_utc_compact(stamp);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    t0 = bh_now_ns();
    xo.seed = meta.seed;
    xo.progress = !o.quiet && isatty(2);
    xo.log_limit = 64 * 1024;
    bh_exec_plan(&plan, &xo);
    meta.interrupted = bh_interrupted != 0;
    meta.duration_s = (double)(bh_now_ns() - t0) / 1e9;
    bh_utc_iso8601(meta.finished_at);
    doc = bh_result_build(&meta, &plan, &cat);
    host_name(host);
    path = o.out ? bh_xstrdup(o.out)
                 : bh_result_default_path(o.results_dir, cfg->name, stamp,
                                          host);
    rc = exit_code(&plan, meta.interrupted);
    if (bh_result_write(doc, path, o.out != NULL, &used, &e) != 0) {
        bh_cli_error("cannot write results: %s", e.msg);
        rc = BH_EXIT_IO;
    }
    if (o.json) {
        char *text = cJSON_Print(doc);
        puts(text);
        free(text);
    } else if (!o.quiet) {
        const char *nc = getenv("NO_COLOR");
        bh_console_print(stdout, &plan, isatty(1) && !(nc && *nc));
    }
    if (used && !o.json)
        fprintf(o.quiet ? stderr : stdout, "result: %s\n", used);
    if (meta.interrupted)
        bh_cli_error("interrupted: partial results written, run marked "
                     "incomplete");
    free(used);
    free(path);
    cJSON_Delete(doc);
    cJSON_Delete(meta.system);
    bh_plan_free(&plan);
    bh_catalog_free(&cat);
    bh_config_free(cfg);
    free(o.filters);
    return rc;
}
