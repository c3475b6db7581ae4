// SPDX-License-Identifier: MIT
/* bhost-eval regress: the regression engine evaluating itself.
 *
 *   sim    seeded Monte Carlo: null calibration of each test and of BH, a
 *          synthetic A/A suite, power against injected slowdowns
 *   tally  rates over comparison documents written by bhost compare --out
 *          (the real half, driven by tools/eval-regress.sh) */
#define _GNU_SOURCE
#include "bh_fs.h"
#include "bh_mem.h"
#include "cli.h"
#include "cli_args.h"
#include "config.h"
#include "eval.h"
#include "eval_sim.h"
#include "regress_config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char eval_usage[] =
    "usage: bhost-eval regress sim [--seed N] [--trials N] [--runs N] [--cases N]\n"
    "       bhost-eval regress tally --expect aa|regressed FILE...\n"
    "\n"
    "sim: Monte Carlo evaluation of the verdict engine on synthetic data\n"
    "(null calibration of MWU exact/asymptotic, Welch and Wilcoxon; BH; a\n"
    "synthetic A/A suite; power against 2/5/10% slowdowns).\n"
    "tally: false-alarm or detection rates over comparison documents\n"
    "(bhost compare --out FILE), one per trial.\n";

typedef struct eval_opts {
    uint64_t seed, trials, runs, cases;
    const char *expect;
    int first; /* argv index of tally's first FILE */
} eval_opts;

/* The options of both modes. */
static const bh_opt eval_options[] = {
    {"seed", 's', 0, BH_OPT_VALUE, "PRNG seed"},
    {"trials", 't', 0, BH_OPT_VALUE, "trials per cell"},
    {"runs", 'r', 0, BH_OPT_VALUE, "runs per side"},
    {"cases", 'c', 0, BH_OPT_VALUE, "cases of the synthetic A/A suite"},
    {"expect", 'e', 0, BH_OPT_VALUE, "tally: aa or regressed"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

/* Parses the options after the mode (argv[1]) into o; -1 after printing
 * one usage error. */
static int parse(int argc, char **argv, eval_opts *o)
{
    bh_opts p;
    int ch;

    o->seed = 0x5eed;
    o->trials = 0;
    o->runs = 0;
    o->cases = 300;
    o->expect = NULL;
    bh_opts_init(&p, "regress", eval_options, argc, argv, 2);
    p.prog = "bhost-eval";
    while ((ch = bh_opts_next(&p)) > 0) {
        int rc = 0;

        switch (ch) {
        case 's':
            rc = bh_arg_u64("--seed", p.value, 0, UINT64_MAX, &o->seed);
            break;
        case 't':
            rc = bh_arg_u64("--trials", p.value, 1, 1000000, &o->trials);
            break;
        case 'r':
            rc = bh_arg_u64("--runs", p.value, 2, 64, &o->runs);
            break;
        case 'c':
            rc = bh_arg_u64("--cases", p.value, 1, 100000, &o->cases);
            break;
        case 'e':
            o->expect = p.value;
            break;
        }
        if (rc != 0)
            return -1;
    }
    o->first = p.next;
    return ch < 0 ? -1 : 0;
}

static void print_null(const eval_opts *o)
{
    bh_regress_null_row *rows;
    size_t n;

    bh_regress_eval_null(o->seed, o->trials ? (uint32_t)o->trials : 4000, &rows, &n);
    printf("== (a) null calibration: type-I rate at alpha 0.05 and 0.01 (99%% band "
           "around nominal), %u trials per cell\n",
           rows[0].trials);
    printf("%-16s %-28s %4s %8s %-17s %8s %-17s\n", "test", "model", "n", "a=0.05", "band",
           "a=0.01", "band");
    for (size_t i = 0; i < n; i++) {
        const bh_regress_null_row *r = &rows[i];
        const char *f05 = r->rate05 > r->hi05 ? " HIGH" : r->rate05 < r->lo05 ? " low" : "";
        const char *f01 = r->rate01 > r->hi01 ? " HIGH" : r->rate01 < r->lo01 ? " low" : "";

        printf("%-16s %-28s %4zu %8.4f [%.4f,%.4f]%-5s %8.4f [%.4f,%.4f]%s\n", r->test,
               r->model, r->n, r->rate05, r->lo05, r->hi05, f05, r->rate01, r->lo01, r->hi01,
               f01);
    }
    printf("(\"low\" is conservative: exact rank tests cannot reach every level at "
           "small n; \"HIGH\" would be a miscalibration)\n\n");
    free(rows);
}

static void print_bh(const eval_opts *o, uint32_t runs)
{
    bh_regress_bh_row rows[2];

    bh_regress_eval_bh(o->seed + 1, o->trials ? (uint32_t)o->trials / 10 + 1 : 400, runs,
                       rows);
    printf("== (a) Benjamini-Hochberg over m=300 MWU tests, %u runs/side, cv 1%% + run "
           "tau 2%%, true effects +5%%, q=0.05, %u trials\n",
           runs, rows[0].trials);
    for (int i = 0; i < 2; i++) {
        printf("pi0=%.1f  FDR=%.4f (target <= %.2f)  P(any false rejection)=%.4f", rows[i].pi0,
               rows[i].fdr, rows[i].q, rows[i].fwer);
        if (!isnan(rows[i].power))
            printf("  power=%.3f", rows[i].power);
        printf("\n");
    }
    printf("\n");
}

static void print_aa(const eval_opts *o, uint32_t runs, const bh_regress_config *cfg)
{
    static const double drifts[] = {0.0, 0.005, 0.01};
    uint32_t trials = o->trials ? (uint32_t)o->trials / 10 + 1 : 400;

    printf("== (b) synthetic A/A: %zu cases per suite (cv 1%%, run tau 0.5-3%%), %u "
           "runs/side, default thresholds, %u suites\n",
           (size_t)o->cases, runs, trials);
    for (int i = 0; i < 3; i++) {
        bh_regress_aa_result a;

        bh_regress_eval_aa(o->seed + 2 + (uint64_t)i, trials, (size_t)o->cases, runs,
                           drifts[i], cfg, &a);
        printf("side drift %.1f%%: P(any critical)=%.4f (target <= 0.05)  P(any "
               "regressed)=%.4f  per-case warning+=%.5f (target <= 0.01)  regressed=%.5f "
               " improved=%.5f  inconclusive=%.3f (mean runs needed %.0f)\n",
               drifts[i] * 100, a.p_any_critical, a.p_any_regressed, a.per_case_warning,
               a.per_case_regressed, a.per_case_improved, a.per_case_inconclusive,
               a.mean_runs_needed);
    }
    printf("(side drift: one offset shared by every run of a side, a machine that "
           "changed between baseline and candidate)\n\n");
}

static void print_power(const eval_opts *o, uint32_t runs, const bh_regress_config *cfg)
{
    bh_regress_power_row *rows;
    size_t n;
    uint32_t trials = o->trials ? (uint32_t)o->trials / 10 + 1 : 400;
    size_t cases = o->cases < 100 ? (size_t)o->cases : 100;

    bh_regress_eval_power(o->seed + 9, trials, runs, cases, cfg, &rows, &n);
    printf("== (c) synthetic power: one slowed case among %zu, %u runs/side, %u trials\n",
           cases, runs, trials);
    printf("%9s %13s %9s %9s %12s %9s\n", "slowdown", "between-run", "detected", "critical",
           "mean change", "CI cover");
    for (size_t i = 0; i < n; i++)
        printf("%8.0f%% %12.1f%% %9.3f %9.3f %+11.2f%% %9.3f\n", rows[i].slowdown * 100,
               rows[i].cv * 100, rows[i].detected, rows[i].critical,
               rows[i].mean_change * 100, rows[i].coverage);
    printf("\n");
    free(rows);
}

static int cmd_sim(const eval_opts *o)
{
    bh_settings s;
    bh_regress_config cfg;
    uint32_t runs;

    bh_settings_default(&s);
    runs = o->runs ? (uint32_t)o->runs : s.runs;
    bh_settings_free(&s);
    bh_regress_config_default(&cfg);
    printf("bhost regression engine evaluation (seed 0x%llx)\n\n", (unsigned long long)o->seed);
    print_null(o);
    print_bh(o, runs);
    print_aa(o, runs, &cfg);
    print_power(o, runs, &cfg);
    bh_regress_config_free(&cfg);
    return BH_EXIT_OK;
}

/* Tallies of time verdicts in one comparison document. */
typedef struct tally {
    size_t files, cases, regressed, warning, critical, improved, inconclusive, any_crit,
        any_regr, detected;
    double change_sum;
    double *spreads; /* robust between-run spread of each comparison */
    size_t n_spreads, cap_spreads;
} tally;

static int tally_file(const char *path, const char *expect, tally *t)
{
    bh_error e = {""};
    char *text = NULL;
    size_t len;
    cJSON *doc;
    const cJSON *c;
    size_t crit = 0, regr = 0;

    if (bh_read_file(path, 64u << 20, &text, &len, &e) != 0) {
        bh_cli_error("%s", e.msg);
        return -1;
    }
    doc = cJSON_Parse(text);
    free(text);
    if (!doc || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "cases"))) {
        bh_cli_error("%s: expected a comparison document (bhost compare --out)", path);
        cJSON_Delete(doc);
        return -1;
    }
    t->files++;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        const cJSON *m;

        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(c, "metrics")) {
            const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "verdict"));
            const char *sev =
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "severity"));
            const cJSON *ch = cJSON_GetObjectItemCaseSensitive(m, "change");
            const cJSON *sp = cJSON_GetObjectItemCaseSensitive(m, "spread");

            const char *metric =
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "metric"));

            if (!metric || strcmp(metric, "time") != 0 || !v)
                continue;
            t->cases++;
            if (cJSON_IsNumber(ch))
                t->change_sum += ch->valuedouble;
            if (cJSON_IsNumber(sp))
                BH_PUSH(t->spreads, t->n_spreads, t->cap_spreads, sp->valuedouble);
            if (strcmp(v, "regressed") == 0) {
                regr++;
                t->regressed++;
                t->warning += sev && strcmp(sev, "minor") != 0;
                crit += sev && strcmp(sev, "critical") == 0;
            }
            t->improved += strcmp(v, "improved") == 0;
            t->inconclusive += strcmp(v, "inconclusive") == 0;
        }
    }
    t->critical += crit;
    t->any_crit += crit > 0;
    t->any_regr += regr > 0;
    t->detected += strcmp(expect, "regressed") == 0 && regr > 0;
    cJSON_Delete(doc);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The median between-run spread of the tallied comparisons, in %. */
static double median_spread(tally *t)
{
    if (t->n_spreads == 0)
        return NAN;
    qsort(t->spreads, t->n_spreads, sizeof(double), cmp_double);
    return 100.0 * (t->n_spreads % 2 ? t->spreads[t->n_spreads / 2]
                                     : 0.5 * (t->spreads[t->n_spreads / 2 - 1] +
                                              t->spreads[t->n_spreads / 2]));
}

static int cmd_tally(int argc, char **argv, const eval_opts *o)
{
    tally t;
    int rc = BH_EXIT_OK;

    memset(&t, 0, sizeof(t));
    if (!o->expect || (strcmp(o->expect, "aa") != 0 && strcmp(o->expect, "regressed") != 0)) {
        bh_cli_error("regress tally: expected --expect aa or --expect regressed");
        return BH_EXIT_USAGE;
    }
    for (int i = o->first; i < argc && rc == BH_EXIT_OK; i++)
        if (tally_file(argv[i], o->expect, &t) != 0)
            rc = BH_EXIT_IO;
    if (rc == BH_EXIT_OK && (t.files == 0 || t.cases == 0)) {
        bh_cli_error("regress tally: no comparison with a time verdict given");
        rc = BH_EXIT_USAGE;
    }
    if (rc != BH_EXIT_OK) {
        free(t.spreads);
        return rc;
    }
    if (strcmp(o->expect, "aa") == 0)
        printf("A/A: %zu comparisons, %zu case verdicts: P(any critical)=%.3f "
               "P(any regressed)=%.3f per-case regressed=%.4f warning+=%.4f critical=%.4f "
               "improved=%.4f inconclusive=%.3f mean change=%+.2f%%\n",
               t.files, t.cases, (double)t.any_crit / t.files, (double)t.any_regr / t.files,
               (double)t.regressed / t.cases, (double)t.warning / t.cases,
               (double)t.critical / t.cases, (double)t.improved / t.cases,
               (double)t.inconclusive / t.cases, 100 * t.change_sum / t.cases);
    else
        printf("detected %zu of %zu case comparisons (power %.3f; warning+ %.3f, critical "
               "%.3f), mean change=%+.2f%%\n",
               t.regressed, t.cases, (double)t.regressed / t.cases,
               (double)t.warning / t.cases, (double)t.critical / t.cases,
               100 * t.change_sum / t.cases);
    printf("  (median between-run spread of ln run medians, 1.4826 MAD: %.2f%%)\n",
           median_spread(&t));
    free(t.spreads);
    return BH_EXIT_OK;
}

int bh_eval_regress(int argc, char **argv)
{
    eval_opts o;

    if (argc < 2 || bh_wants_help(argc, argv)) {
        fputs(eval_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? BH_EXIT_USAGE : BH_EXIT_OK;
    }
    if (parse(argc, argv, &o) != 0)
        return BH_EXIT_USAGE;
    if (strcmp(argv[1], "sim") == 0)
        return cmd_sim(&o);
    if (strcmp(argv[1], "tally") == 0)
        return cmd_tally(argc, argv, &o);
    bh_cli_error("regress: unknown mode '%s' (expected sim or tally)", argv[1]);
    return BH_EXIT_USAGE;
}
