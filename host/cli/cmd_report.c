// SPDX-License-Identifier: MIT
/* bhost report RESULT.json: converts an existing result file into the
 * report formats (console, HTML, Markdown, JUnit XML, CSV, Google
 * Benchmark JSON, Bencher Metric Format), optionally after comparing it
 * with a baseline result and with trend lines from a results folder. */
#define _GNU_SOURCE
#include "bh_mem.h"
#include "cli.h"
#include "compare_backends.h"
#include "config.h"
#include "console.h"
#include "regress_compare.h"
#include "regress_config.h"
#include "regress_json.h"
#include "report.h"
#include "report_env.h"
#include "report_expect.h"
#include "result_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char report_usage[] =
    "usage: bhost report RESULT.json [options]\n"
    "\n"
    "Writes reports of an existing result file. Without a file option it\n"
    "prints the console table.\n"
    "\n"
    "  --html FILE          one self-contained HTML file: tables and inline\n"
    "                       SVG charts (distributions, changes, roofline,\n"
    "                       backends side by side, history)\n"
    "  --markdown FILE      summary for a CI job summary or a pull request:\n"
    "                       regressions, improvements, then the full table\n"
    "  --junit FILE         JUnit XML: a testcase per case; critical\n"
    "                       regressions, missed budgets and failed cases\n"
    "                       fail\n"
    "  --csv FILE           CSV (RFC 4180), one row per case and metric\n"
    "  --gbench FILE        Google Benchmark JSON (reads in compare.py)\n"
    "  --bmf FILE           Bencher Metric Format JSON\n"
    "  --json FILE          the result document itself (with the verdicts\n"
    "                       of --baseline)\n"
    "  --baseline B.json    compare with a baseline result first: verdicts\n"
    "                       and change bars in every format\n"
    "  --config CFG         with --baseline: thresholds from CFG's\n"
    "                       regression: section\n"
    "  --ignore-param KEY   with --baseline: leave parameter KEY out of case\n"
    "                       ids when matching (repeatable)\n"
    "  --history DIR        HTML trend lines and change points from the\n"
    "                       result files under DIR\n"
    "  --verbose            console: per-case runs, flags and the plugin\n"
    "                       log of failed runs\n"
    "  -h, --help           this help\n"
    "\n"
    "FILE '-' writes to stdout. Exit: 0 written, 2 usage, 3 bad config,\n"
    "4 a result file missing or malformed, or a report not written.\n";

typedef struct report_opts {
    const char *result;
    const char *out[BH_REPORT_FORMATS]; /* by format; NULL = not asked */
    const char *baseline;
    const char *config;
    const char *history;
    char **ignore;
    size_t n_ignore, cap_ignore;
    int verbose;
} report_opts;

/* The options of bhost report; the first seven are the formats, in
 * bh_report_format order. */
static const bh_opt report_options[] = {
    {"json", 'J', 0, BH_OPT_VALUE, "write the result document to FILE"},
    {"markdown", 'M', 0, BH_OPT_VALUE, "write a Markdown report to FILE"},
    {"html", 'H', 0, BH_OPT_VALUE, "write a single-file HTML report to FILE"},
    {"junit", 'U', 0, BH_OPT_VALUE, "write JUnit XML to FILE"},
    {"csv", 'C', 0, BH_OPT_VALUE, "write CSV to FILE"},
    {"gbench", 'G', 0, BH_OPT_VALUE, "write Google Benchmark JSON to FILE"},
    {"bmf", 'B', 0, BH_OPT_VALUE, "write Bencher Metric Format to FILE"},
    {"baseline", 'b', 0, BH_OPT_VALUE, "compare with this baseline result"},
    {"config", 'c', 0, BH_OPT_VALUE, "thresholds from the regression: section of CFG"},
    {"ignore-param", 'i', 0, BH_OPT_VALUE, "match cases without parameter KEY"},
    {"history", 'y', 0, BH_OPT_VALUE, "trend charts from this results folder"},
    {"verbose", 'v', 'v', BH_OPT_FLAG, "more detail"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

/* Parses the options into *o; prints one line and returns -1 on a usage
 * error. */
static int parse(int argc, char **argv, report_opts *o)
{
    bh_opts p;
    static const char fmt_of[] = "JMHUCGB"; /* in bh_report_format order */
    int ch;

    memset(o, 0, sizeof(*o));
    bh_opts_init(&p, "report", report_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        const char *f = ch ? strchr(fmt_of, ch) : NULL;

        if (f) {
            o->out[f - fmt_of] = p.value;
            continue;
        }
        switch (ch) {
        case 'b':
            o->baseline = p.value;
            break;
        case 'c':
            o->config = p.value;
            break;
        case 'i':
            BH_PUSH(o->ignore, o->n_ignore, o->cap_ignore, p.value);
            break;
        case 'y':
            o->history = p.value;
            break;
        case 'v':
            o->verbose = 1;
            break;
        }
    }
    if (ch < 0)
        return -1;
    if (p.next != argc - 1) {
        bh_cli_error("report: expected exactly one RESULT.json file (see bhost report "
                     "--help)");
        return -1;
    }
    if ((o->config || o->n_ignore) && !o->baseline) {
        bh_cli_error("report: --config and --ignore-param need --baseline");
        return -1;
    }
    o->result = argv[p.next];
    return 0;
}

/* The regression settings: CFG's section, or the defaults. */
static int load_regression(const char *path, bh_regress_config *rc)
{
    bh_error e = {""};
    bh_config *cfg;
    int code;

    bh_regress_config_default(rc);
    if (!path)
        return 0;
    cfg = bh_config_load(path, &e);
    if (!cfg) {
        bh_cli_error("%s", e.msg);
        return -1;
    }
    bh_regress_config_free(rc);
    code = bh_regress_config_parse(cfg->regression_json, cfg->regression_pos_json, cfg->path,
                                   rc, &e);
    if (code != 0)
        bh_cli_error("%s", e.msg);
    bh_config_free(cfg);
    return code;
}

/* Compares doc against the baseline file and writes the verdicts into
 * doc. Returns 0 or an exit code. */
static int compare(const report_opts *o, cJSON *doc)
{
    bh_regress_config rc;
    bh_regress_report rep;
    bh_regress_match match = {o->ignore, o->n_ignore};
    bh_regress_meta meta;
    bh_error e = {""};
    char *sys = NULL, *cfgd = NULL;
    cJSON *base;

    if (load_regression(o->config, &rc) != 0) {
        bh_regress_config_free(&rc);
        return BH_EXIT_CONFIG;
    }
    base = bh_result_read(o->baseline, &e);
    if (!base) {
        bh_cli_error("%s", e.msg);
        bh_regress_config_free(&rc);
        return BH_EXIT_IO;
    }
    if (!bh_regress_comparable(base, doc, &sys, &cfgd))
        bh_cli_error("report: note: %s%s%s%s; compared anyway (the report says so)",
                     cfgd ? "different configs (" : "", cfgd ? cfgd : "", cfgd ? ")" : "",
                     sys ? (cfgd ? ", system fingerprints differ" : "system fingerprints differ")
                         : "");
    bh_regress_compare_docs(base, doc, &rc, &match, &rep);
    meta = (bh_regress_meta){o->baseline, o->result, sys, cfgd, sys || cfgd};
    bh_regress_attach(doc, &rep, &meta);
    bh_regress_report_free(&rep);
    bh_regress_config_free(&rc);
    cJSON_Delete(base);
    free(sys);
    free(cfgd);
    return 0;
}

/* Loads the history folder; 0 or an exit code. */
static int load_history(const report_opts *o, const cJSON *doc, bh_report_history *h)
{
    bh_error e = {""};

    if (bh_report_history_load(o->history, doc, h, &e) != 0) {
        bh_cli_error("%s", e.msg);
        return BH_EXIT_IO;
    }
    if (h->set.n_warnings)
        bh_cli_error("report: %zu file%s under %s skipped (first: %s)", h->set.n_warnings,
                     h->set.n_warnings == 1 ? "" : "s", o->history, h->set.warnings[0]);
    return 0;
}

/* See cli.h. */
static int cmd_report(int argc, char **argv)
{
    report_opts o;
    bh_error e = {""};
    bh_report_history hist;
    bh_report_ctx ctx = {NULL, NULL};
    cJSON *doc = NULL;
    int code = BH_EXIT_OK;
    int any = 0;
    char *dir = NULL; /* the result's folder */

    memset(&hist, 0, sizeof(hist));
    if (parse(argc, argv, &o) != 0) {
        free(o.ignore);
        return BH_EXIT_USAGE;
    }
    doc = bh_result_read(o.result, &e);
    if (!doc) {
        bh_cli_error("%s", e.msg);
        code = BH_EXIT_IO;
        goto out;
    }
    if (o.baseline && (code = compare(&o, doc)) != 0)
        goto out;
    if (strrchr(o.result, '/')) /* the result's relative paths start there */
        ctx.base_dir = dir = bh_xstrndup(o.result, (size_t)(strrchr(o.result, '/') - o.result));
    if (o.history) {
        if ((code = load_history(&o, doc, &hist)) != 0)
            goto out;
        ctx.history = &hist;
    }
    for (int f = 0; f < BH_REPORT_FORMATS; f++) {
        if (!o.out[f])
            continue;
        any = 1;
        if (bh_report_write((bh_report_format)f, doc, &ctx, o.out[f], &e) != 0) {
            bh_cli_error("cannot write the %s report: %s", bh_report_format_name(f), e.msg);
            code = BH_EXIT_IO;
        }
    }
    if (!any) {
        bh_report_console_opts co = {bh_report_use_color(1), o.verbose};

        bh_report_console(stdout, doc, &co);
        bh_report_console_backends(stdout, doc, co.color);
        bh_report_console_expect(stdout, doc, co.color, 0);
        bh_report_console_env(stdout, doc, co.color);
    }
out:
    if (o.history)
        bh_report_history_free(&hist);
    cJSON_Delete(doc);
    free(o.ignore);
    free(dir);
    return code;
}

const bh_cli_cmd bh_cli_report = {
    .name = "report",
    .handler = cmd_report,
    .args = "RESULT.json",
    .summary = "HTML, Markdown, JUnit XML, CSV and other exports",
    .usage = report_usage,
    .opts = report_options,
};
