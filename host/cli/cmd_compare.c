// SPDX-License-Identifier: MIT
/* bhost compare BASE.json CAND.json: verdicts of a candidate result
 * against a baseline result. */
#define _GNU_SOURCE
#include "bh_fs.h"
#include "bh_json_write.h"
#include "bh_mem.h"
#include "cli.h"
#include "expect.h"
#include "report_expect.h"
#include "compare_console.h"
#include "config.h"
#include "drift.h"
#include "regress_compare.h"
#include "regress_config.h"
#include "regress_json.h"
#include "result_read.h"
#include "run_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char compare_usage[] =
    "usage: bhost compare BASE.json CAND.json [options]\n"
    "\n"
    "Compares a candidate result against a baseline result, case by case\n"
    "and metric by metric (run medians, Hodges-Lehmann shift with a\n"
    "Mann-Whitney CI, Benjamini-Hochberg q over every test), prints one\n"
    "verdict per case and metric and a summary.\n"
    "\n"
    "  --config CFG         thresholds from CFG's regression: section\n"
    "                       (default: noise floor 1%, warning 3%,\n"
    "                       critical 10%, fdr 0.05, method mwu)\n"
    "  --json               print the comparison document on stdout\n"
    "                       instead of the lines\n"
    "  --out FILE           also write the comparison document to FILE\n"
    "  --force              compare results of different configs or with\n"
    "                       different system fingerprints\n"
    "  --filter PATTERN     compare only cases whose id matches the glob\n"
    "                       (repeatable)\n"
    "  --baseline-filter PATTERN, --candidate-filter PATTERN\n"
    "                       the same for one side only: with --ignore-param\n"
    "                       this compares two variants measured in one run\n"
    "                       (BASE and CAND the same file), e.g.\n"
    "                       --baseline-filter '*slowdown_pct=0]'\n"
    "  --ignore-param KEY   leave parameter KEY out of case ids when\n"
    "                       matching cases (repeatable), e.g. to compare\n"
    "                       spin[slowdown_pct=5] against spin[slowdown_pct=0]\n"
    "  --store FILE|URL     widen each noise floor to the run-to-run drift\n"
    "                       this results store recorded for the case on the\n"
    "                       candidate's machine before the baseline ran\n"
    "                       (regression: drift_window; default: $BHOST_STORE,\n"
    "                       else results/bhost.db when it exists, as bhost run)\n"
    "  --fail-on-regression exit 5 when a critical regression is found, or\n"
    "                       the candidate missed a budget (expect:)\n"
    "  --quiet              print only the summary line\n"
    BH_CLI_NOTIFY_HELP
    "                       a warning\n"
    "  -h, --help           this help\n"
    "\n"
    "Exit: 0 compared, 2 usage or not comparable without --force,\n"
    "3 bad config, 4 a result file missing or malformed, 5 critical\n"
    "regression with --fail-on-regression.\n";

typedef struct compare_opts {
    const char *base;
    const char *cand;
    const char *config;
    const char *out;
    char **filters;
    size_t n_filters, cap_filters;
    char **ignore;
    size_t n_ignore, cap_ignore;
    char **bfilters, **cfilters;
    size_t n_bfilters, cap_bfilters, n_cfilters, cap_cfilters;
    int json, force, fail, quiet;
    bh_cli_notify_list notify;
    const char *store;
} compare_opts;

/* The options of bhost compare. */
static const bh_opt compare_options[] = {
    {"config", 'c', 0, BH_OPT_VALUE, "thresholds from the regression: section of CFG"},
    {"out", 'o', 0, BH_OPT_VALUE, "also write the comparison document to FILE"},
    {"filter", 'f', 0, BH_OPT_VALUE, "compare only cases whose id matches the glob"},
    {"ignore-param", 'i', 0, BH_OPT_VALUE, "match cases without parameter KEY"},
    {"baseline-filter", 'b', 0, BH_OPT_VALUE, "the baseline's cases to compare"},
    {"candidate-filter", 'C', 0, BH_OPT_VALUE, "the candidate's cases to compare"},
    {"json", 'j', 0, BH_OPT_FLAG, "print the comparison as JSON"},
    {"force", 'F', 0, BH_OPT_FLAG, "compare results of other configs or systems"},
    {"fail-on-regression", 'x', 0, BH_OPT_FLAG, "exit 5 on a critical regression"},
    {"quiet", 'q', 0, BH_OPT_FLAG, "print only the summary line"},
    {"notify", 'N', 0, BH_OPT_VALUE, "deliver the verdicts: URL, slack:, github:, email:"},
    {"store", 'S', 0, BH_OPT_VALUE, "widen noise floors to the drift recorded in this store"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

static int parse(int argc, char **argv, compare_opts *o)
{
    bh_opts p;
    int ch;

    memset(o, 0, sizeof(*o));
    bh_opts_init(&p, "compare", compare_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        switch (ch) {
        case 'c':
            o->config = p.value;
            break;
        case 'o':
            o->out = p.value;
            break;
        case 'f':
            BH_PUSH(o->filters, o->n_filters, o->cap_filters, p.value);
            break;
        case 'i':
            BH_PUSH(o->ignore, o->n_ignore, o->cap_ignore, p.value);
            break;
        case 'b':
            BH_PUSH(o->bfilters, o->n_bfilters, o->cap_bfilters, p.value);
            break;
        case 'C':
            BH_PUSH(o->cfilters, o->n_cfilters, o->cap_cfilters, p.value);
            break;
        case 'j':
            o->json = 1;
            break;
        case 'F':
            o->force = 1;
            break;
        case 'x':
            o->fail = 1;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'N':
            if (bh_cli_notify_add(&o->notify, "compare", p.value) != 0)
                return -1;
            break;
        case 'S':
            o->store = p.value;
            break;
        }
    }
    if (ch < 0)
        return -1;
    if (p.next != argc - 2) {
        bh_cli_error("compare: expected two result files, BASE.json and CAND.json (see "
                     "bhost compare --help)");
        return -1;
    }
    o->base = argv[p.next];
    o->cand = argv[p.next + 1];
    return 0;
}

/* Drops the cases of doc whose id matches none of the patterns. */
static void filter_cases(cJSON *doc, char *const *patterns, size_t n)
{
    cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    cJSON *c = cases ? cases->child : NULL;

    while (n && c) {
        cJSON *next = c->next;
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
        int keep = 0;

        for (size_t k = 0; k < n && !keep; k++)
            keep = cJSON_IsString(id) && bh_glob_match(patterns[k], id->valuestring);
        if (!keep)
            cJSON_Delete(cJSON_DetachItemViaPointer(cases, c));
        c = next;
    }
}

/* The regression settings: CFG's section, or the defaults. */
static int load_regression(const char *path, bh_regress_config *rc)
{
    bh_error e = {""};
    bh_config *cfg;
    int rcode;

    if (!path) {
        bh_regress_config_default(rc);
        return 0;
    }
    cfg = bh_config_load(path, &e);
    if (!cfg) {
        bh_regress_config_default(rc);
        bh_cli_error("%s", e.msg);
        return -1;
    }
    rcode = bh_regress_config_parse(cfg->regression_json, cfg->regression_pos_json, cfg->path,
                                    rc, &e);
    if (rcode != 0)
        bh_cli_error("%s", e.msg);
    bh_config_free(cfg);
    return rcode;
}

/* Refuses documents that are not comparable unless forced; 0 to go on. */
static int check_comparable(const compare_opts *o, const cJSON *base, const cJSON *cand,
                            char **sys, char **cfgd)
{
    if (bh_regress_comparable(base, cand, sys, cfgd))
        return 0;
    if (*cfgd)
        bh_cli_error("compare: %s and %s are results of different configs (%s)%s", o->base,
                     o->cand, *cfgd, o->force ? "; compared anyway (--force)" :
                                                "; use --force to compare anyway");
    if (*sys)
        bh_cli_error("compare: system fingerprints differ: %s%s", *sys,
                     o->force ? "; compared anyway (--force)" :
                                "; use --force to compare anyway");
    return o->force ? 0 : -1;
}

/* Writes and prints what was asked; returns the exit code. */
static int emit(const compare_opts *o, const bh_regress_report *rep, const bh_regress_meta *m)
{
    int rc = BH_EXIT_OK;

    if (o->json || o->out) {
        cJSON *doc = bh_regress_report_json(rep, m);
        char *text = bh_json_print(doc);
        bh_error e = {""};

        if (o->out && bh_write_file_atomic(o->out, text, strlen(text), &e) != 0) {
            bh_cli_error("cannot write the comparison: %s", e.msg);
            rc = BH_EXIT_IO;
        }
        if (o->json)
            puts(text);
        free(text);
        cJSON_Delete(doc);
    }
    if (!o->json) {
        const char *nc = getenv("NO_COLOR");
        int color = isatty(1) && !(nc && *nc);

        if (!o->quiet)
            bh_compare_print(stdout, rep, 0, color);
        bh_compare_print_summary(stdout, rep);
    }
    if (rc == BH_EXIT_OK && o->fail && bh_regress_n_critical(rep) > 0)
        rc = BH_EXIT_REGRESSION;
    return rc;
}

/* Widens rep's noise floors by the drift recorded in the store --store
 * (or the default one) names; a store that cannot be read is a warning. */
static void apply_drift(const compare_opts *o, const bh_regress_config *rc, const cJSON *base,
                        const cJSON *cand, bh_regress_report *rep)
{
    char *target = bh_store_default_target(o->store, "results");
    bh_error e = {""};

    if (bh_regress_drift_from_store(rep, rc, target, base, cand, &e) != 0)
        bh_cli_error("warning: no drift floor (the recorded history cannot be read): %s",
                     e.msg);
    free(target);
}

static int cmd_compare(int argc, char **argv)
{
    compare_opts o;
    bh_regress_config rc;
    bh_regress_report rep;
    bh_regress_match match;
    bh_regress_meta meta;
    bh_error e = {""};
    cJSON *base = NULL, *cand = NULL;
    char *sys = NULL, *cfgd = NULL;
    int code;

    if (parse(argc, argv, &o) != 0) {
        code = BH_EXIT_USAGE;
        goto out_opts;
    }
    if (load_regression(o.config, &rc) != 0) {
        code = BH_EXIT_CONFIG;
        goto out_opts;
    }
    if (!(base = bh_result_read(o.base, &e)) || !(cand = bh_result_read(o.cand, &e))) {
        bh_cli_error("%s", e.msg);
        code = BH_EXIT_IO;
        goto out;
    }
    if (check_comparable(&o, base, cand, &sys, &cfgd) != 0) {
        code = BH_EXIT_USAGE;
        goto out;
    }
    filter_cases(base, o.filters, o.n_filters);
    filter_cases(cand, o.filters, o.n_filters);
    filter_cases(base, o.bfilters, o.n_bfilters);
    filter_cases(cand, o.cfilters, o.n_cfilters);
    match = (bh_regress_match){o.ignore, o.n_ignore};
    bh_regress_compare_docs(base, cand, &rc, &match, &rep);
    apply_drift(&o, &rc, base, cand, &rep);
    meta = (bh_regress_meta){o.base, o.cand, sys, cfgd, o.force};
    code = emit(&o, &rep, &meta);
    if (!o.json)
        bh_report_console_expect(stdout, cand, 0, 1);
    if (code == BH_EXIT_OK && o.fail && bh_expect_n_failed(cand) > 0)
        code = BH_EXIT_REGRESSION; /* the candidate missed a budget (expect:) */
    if (o.notify.n) {
        /* the candidate with its verdicts: what ran, where, against what */
        bh_regress_attach(cand, &rep, &meta);
        bh_cli_notify(&o.notify, cand, o.cand, o.json ? stderr : stdout);
    }
    bh_regress_report_free(&rep);
out:
    cJSON_Delete(base);
    cJSON_Delete(cand);
    free(sys);
    free(cfgd);
    bh_regress_config_free(&rc);
out_opts:
    free(o.filters);
    free(o.ignore);
    free(o.bfilters);
    free(o.cfilters);
    return code;
}

const bh_cli_cmd bh_cli_compare = {
    .name = "compare",
    .handler = cmd_compare,
    .args = "BASE.json CAND.json",
    .summary = "verdicts of a candidate result against a baseline",
    .usage = compare_usage,
    .opts = compare_options,
};
