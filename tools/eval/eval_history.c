// SPDX-License-Identifier: MIT
/* bhost-eval history: evaluates the history change-point
 * detector on seeded synthetic nightly series (docs/statistics.md
 * section 12.4). Steps of a few sizes are injected at random positions into
 * lognormal noise; it reports the detection rate, the detection delay
 * (points after the step until a prefix of the series shows it), the
 * localization error, and false alarms per 100 points on flat series.
 * Deterministic: the same options give the same table. */
#define _GNU_SOURCE
#include "bh_mem.h"
#include "bh_rng.h"
#include "cli.h"
#include "cli_args.h"
#include "descriptive.h"
#include "eval.h"
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DELAY 20 /* prefixes tried after a step */
#define MATCH_TOL 5  /* a change point this close to the step (same sign) finds it */

static const char eval_usage[] =
    "usage: bhost-eval history [options]\n"
    "\n"
    "  --seed N          PRNG seed (default 1)\n"
    "  --trials N        series per cell (default 500)\n"
    "  --length N        points per series (default 120)\n"
    "  --model M         point: each point lognormal with the cell's CV;\n"
    "                    runs: --runs run medians per point, each with the\n"
    "                    cell's CV, around a night level with --night-cv\n"
    "  --runs N          runs per point in the runs model (default 5)\n"
    "  --night-cv PCT    night-to-night CV in the runs model (default 0)\n"
    "  --cv LIST         comma-separated CVs in percent (default 1,2,3)\n"
    "  --window, --min-change, --max-p, --min-size, --test, --unit: as in\n"
    "                    bhost history\n";

/* Options of one evaluation. */
typedef struct eval_opts {
    uint64_t seed, trials, length, runs;
    int runs_model;
    double night_cv;
    double cvs[8];
    size_t n_cvs;
    bh_history_opts d;
} eval_opts;

/* One synthetic series: point values and, per point, run values. */
typedef struct series {
    double *x;
    double *rv;
    size_t *off;
    size_t n;
} series;

/* Lognormal factor with coefficient of variation cv (median 1). */
static double lognormal(bh_rng *r, double cv)
{
    return cv > 0.0 ? exp(sqrt(log1p(cv * cv)) * bh_rng_normal(r)) : 1.0;
}

/* Fills s with n points: level 1000 ns, times `factor` from point tau on. */
static void generate(const eval_opts *o, bh_rng *r, double cv, size_t tau, double factor,
                     series *s)
{
    size_t per = o->runs_model ? (size_t)o->runs : 1;

    s->n = (size_t)o->length;
    s->off[0] = 0;
    for (size_t i = 0; i < s->n; i++) {
        double level = 1000.0 * (i >= tau ? factor : 1.0);
        double tmp[64];

        if (o->runs_model)
            level *= lognormal(r, o->night_cv);
        for (size_t k = 0; k < per; k++)
            tmp[k] = s->rv[i * per + k] = level * lognormal(r, cv);
        s->off[i + 1] = s->off[i] + per;
        bh_stats_sort(tmp, per);
        s->x[i] = bh_stats_median_sorted(tmp, per);
    }
}

/* Change points of the first n points of s (*cps freed by the caller). */
static size_t detect(const eval_opts *o, const series *s, size_t n, bh_history_cp **cps)
{
    bh_history_runs runs = {s->rv, s->off};
    size_t k = 0;

    if (bh_history_detect(s->x, n, &runs, &o->d, cps, &k) != 0) {
        bh_cli_error("history: the detector failed");
        exit(BH_EXIT_INTERNAL);
    }
    return k;
}

/* Index into cps of the change point that finds a step at tau going up
 * (up != 0) or down, the closest one; -1 when none. */
static long find_match(const bh_history_cp *cps, size_t k, size_t tau, int up)
{
    long best = -1;
    size_t best_d = 0;

    for (size_t i = 0; i < k; i++) {
        size_t d = cps[i].index > tau ? cps[i].index - tau : tau - cps[i].index;

        if (d <= MATCH_TOL && (cps[i].change > 0) == (up != 0) && (best < 0 || d < best_d)) {
            best = (long)i;
            best_d = d;
        }
    }
    return best;
}

/* Tallies of one cell. */
typedef struct cell {
    size_t trials, found, within5, exact;
    size_t delays[MAX_DELAY + 1]; /* histogram of delays; [0] unused */
    size_t delayed;               /* trials found on some prefix */
    double loc_sum, delay_sum;
    size_t false_cps, points;
} cell;

static void run_step_trial(const eval_opts *o, bh_rng *r, double cv, double step, series *s,
                           cell *c)
{
    size_t lo = (size_t)o->length / 3, hi = (size_t)o->length - MAX_DELAY;
    size_t tau = lo + (size_t)bh_rng_below(r, hi - lo + 1);
    int up = bh_rng_below(r, 2) == 0;
    bh_history_cp *cps = NULL;
    size_t k;
    long m;

    generate(o, r, cv, tau, up ? 1.0 + step : 1.0 / (1.0 + step), s);
    k = detect(o, s, s->n, &cps);
    m = find_match(cps, k, tau, up);
    c->trials++;
    c->points += s->n;
    c->false_cps += k - (m >= 0 ? 1 : 0);
    if (m >= 0) {
        size_t d = cps[m].index > tau ? cps[m].index - tau : tau - cps[m].index;

        c->found++;
        c->loc_sum += (double)d;
        c->exact += d == 0;
    }
    free(cps);
    for (size_t delay = 1; delay <= MAX_DELAY; delay++) {
        k = detect(o, s, tau + delay, &cps);
        m = find_match(cps, k, tau, up);
        free(cps);
        if (m >= 0) {
            c->delays[delay]++;
            c->delayed++;
            c->delay_sum += (double)delay;
            c->within5 += delay <= 5;
            break;
        }
    }
}

/* The delay below which a fraction q of the found trials lie. */
static size_t delay_quantile(const cell *c, double q)
{
    size_t need = (size_t)ceil(q * (double)c->delayed), acc = 0;

    for (size_t d = 1; d <= MAX_DELAY; d++) {
        acc += c->delays[d];
        if (acc >= need && need > 0)
            return d;
    }
    return 0;
}

static void print_header(const eval_opts *o)
{
    printf("history detector evaluation: seed %llu, %llu trials per cell, %llu points per "
           "series, model %s",
           (unsigned long long)o->seed, (unsigned long long)o->trials,
           (unsigned long long)o->length, o->runs_model ? "runs" : "point");
    if (o->runs_model)
        printf(" (%llu runs per point, night CV %g%%)", (unsigned long long)o->runs,
               100.0 * o->night_cv);
    printf("\ndetector: window %zu, min size %zu, split p %g, max p %g, min change %g%%, %s t "
           "per %s, %s scale; match: same sign within %d points\n\n",
           o->d.window, o->d.min_size, o->d.split_p, o->d.max_p, 100.0 * o->d.min_change,
           o->d.test == BH_HISTORY_WELCH ? "Welch" : "Student",
           o->d.unit == BH_HISTORY_UNIT_RUN ? "run" : "point", o->d.log_scale ? "log" : "raw",
           MATCH_TOL);
    printf("%-5s %-5s %9s %9s %13s %15s %11s %12s\n", "cv", "step", "detected", "within5",
           "delay med/p90", "delay mean", "loc err", "false/100pt");
}

/* Evaluates every (cv, step) cell and the flat series. */
static void evaluate(const eval_opts *o)
{
    static const double steps[] = {0.02, 0.05, 0.10};
    size_t per = o->runs_model ? (size_t)o->runs : 1;
    series s;
    bh_rng r;

    s.x = bh_xcalloc((size_t)o->length, sizeof(double));
    s.rv = bh_xcalloc((size_t)o->length * per, sizeof(double));
    s.off = bh_xcalloc((size_t)o->length + 1, sizeof(size_t));
    print_header(o);
    for (size_t ci = 0; ci < o->n_cvs; ci++) {
        for (size_t si = 0; si < sizeof(steps) / sizeof(steps[0]); si++) {
            cell c;

            memset(&c, 0, sizeof(c));
            bh_rng_seed(&r, o->seed * 1000003u + ci * 31u + si);
            for (uint64_t t = 0; t < o->trials; t++)
                run_step_trial(o, &r, o->cvs[ci], steps[si], &s, &c);
            printf("%4.1f%% %4.0f%% %8.1f%% %8.1f%% %8zu/%-4zu %15.2f %5.2f (%2.0f%%) %12.3f\n",
                   100.0 * o->cvs[ci], 100.0 * steps[si], 100.0 * (double)c.found / (double)c.trials,
                   100.0 * (double)c.within5 / (double)c.trials, delay_quantile(&c, 0.5),
                   delay_quantile(&c, 0.9), c.delayed ? c.delay_sum / (double)c.delayed : NAN,
                   c.found ? c.loc_sum / (double)c.found : NAN,
                   c.found ? 100.0 * (double)c.exact / (double)c.found : 0.0,
                   100.0 * (double)c.false_cps / (double)c.points);
        }
    }
    printf("\nflat series (no step):\n%-5s %12s %18s %16s\n", "cv", "false/100pt",
           "series with any", "newest outside PI");
    for (size_t ci = 0; ci < o->n_cvs; ci++) {
        size_t fa = 0, any = 0, outside = 0, with_pi = 0;

        bh_rng_seed(&r, o->seed * 1000003u + ci * 31u + 999u);
        for (uint64_t t = 0; t < o->trials; t++) {
            bh_history_cp *cps = NULL;
            bh_history_pi pi;
            size_t k;

            generate(o, &r, o->cvs[ci], (size_t)o->length + 1, 1.0, &s);
            k = detect(o, &s, s.n, &cps);
            fa += k;
            any += k > 0;
            if (bh_history_check_newest(s.x, s.n, k ? cps[k - 1].index : 0, 5, 64, 0.99, 1, &pi) ==
                    0 &&
                pi.status != BH_HISTORY_PI_NONE) {
                with_pi++;
                outside += pi.status != BH_HISTORY_PI_INSIDE;
            }
            free(cps);
        }
        printf("%4.1f%% %12.3f %17.1f%% %15.2f%%\n", 100.0 * o->cvs[ci],
               100.0 * (double)fa / (double)(o->trials * o->length),
               100.0 * (double)any / (double)o->trials,
               with_pi ? 100.0 * (double)outside / (double)with_pi : NAN);
    }
    free(s.x);
    free(s.rv);
    free(s.off);
}

/* Parses "1,2,3" (percent) into o->cvs; -1 on error. */
static int parse_cvs(const char *text, eval_opts *o)
{
    const char *p = text;

    o->n_cvs = 0;
    while (*p) {
        char *end = NULL;
        double v = strtod(p, &end);

        if (end == p || !(v >= 0.0 && v <= 100.0) || o->n_cvs == 8)
            return -1;
        o->cvs[o->n_cvs++] = v / 100.0;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return o->n_cvs ? 0 : -1;
}

/* Parses a number with strtod into *out; -1 when it is not one. */
static int number(const char *text, double *out)
{
    char *end = NULL;

    *out = strtod(text, &end);
    return end != text && *end == '\0' && isfinite(*out) ? 0 : -1;
}

/* Applies one option (ch from bh_opts_next) to o; nonzero when invalid. */
static int apply(int ch, const char *arg, eval_opts *o)
{
    double v = 0.0;
    uint64_t u = 0;

    switch (ch) {
    case 's':
        return bh_arg_u64("--seed", arg, 0, UINT64_MAX, &o->seed);
    case 'T':
        return bh_arg_u64("--trials", arg, 1, 1000000, &o->trials);
    case 'L':
        return bh_arg_u64("--length", arg, 3 * MAX_DELAY, 100000, &o->length);
    case 'R':
        return bh_arg_u64("--runs", arg, 1, 64, &o->runs);
    case 'M':
        o->runs_model = strcmp(arg, "runs") == 0;
        return !o->runs_model && strcmp(arg, "point") != 0;
    case 'N':
        if (number(arg, &v) != 0 || v < 0.0)
            return 1;
        o->night_cv = v / 100.0;
        return 0;
    case 'C':
        return parse_cvs(arg, o);
    case 'w':
        if (bh_arg_u64("--window", arg, 0, 100000, &u) != 0)
            return 1;
        o->d.window = (size_t)u;
        return 0;
    case 'm':
        if (number(arg, &v) != 0 || v < 0.0)
            return 1;
        o->d.min_change = v / 100.0;
        return 0;
    case 'p':
        if (number(arg, &v) != 0 || !(v > 0.0 && v <= 1.0))
            return 1;
        o->d.max_p = v;
        o->d.split_p = fmin(1.0, 10.0 * v);
        return 0;
    case 'n':
        if (bh_arg_u64("--min-size", arg, 2, 1000, &u) != 0)
            return 1;
        o->d.min_size = (size_t)u;
        return 0;
    case 't':
        o->d.test = strcmp(arg, "welch") == 0 ? BH_HISTORY_WELCH : BH_HISTORY_STUDENT;
        return strcmp(arg, "welch") != 0 && strcmp(arg, "student") != 0;
    case 'u':
        o->d.unit = strcmp(arg, "run") == 0 ? BH_HISTORY_UNIT_RUN : BH_HISTORY_UNIT_POINT;
        return strcmp(arg, "run") != 0 && strcmp(arg, "point") != 0;
    }
    return 1;
}

/* The options of bhost-eval history. */
static const bh_opt eval_options[] = {
    {"seed", 's', 0, BH_OPT_VALUE, "PRNG seed"},
    {"trials", 'T', 0, BH_OPT_VALUE, "series per cell"},
    {"length", 'L', 0, BH_OPT_VALUE, "points per series"},
    {"model", 'M', 0, BH_OPT_VALUE, "point or runs"},
    {"runs", 'R', 0, BH_OPT_VALUE, "runs per point in the runs model"},
    {"night-cv", 'N', 0, BH_OPT_VALUE, "night-to-night CV in percent"},
    {"cv", 'C', 0, BH_OPT_VALUE, "comma-separated CVs in percent"},
    {"window", 'w', 0, BH_OPT_VALUE, "as in bhost history"},
    {"min-change", 'm', 0, BH_OPT_VALUE, "as in bhost history"},
    {"max-p", 'p', 0, BH_OPT_VALUE, "as in bhost history"},
    {"min-size", 'n', 0, BH_OPT_VALUE, "as in bhost history"},
    {"test", 't', 0, BH_OPT_VALUE, "as in bhost history"},
    {"unit", 'u', 0, BH_OPT_VALUE, "as in bhost history"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

/* Parses the command line into o; -1 after printing one usage error. */
static int parse(int argc, char **argv, eval_opts *o)
{
    bh_opts p;
    int ch = 0, bad = 0;

    memset(o, 0, sizeof(*o));
    o->seed = 1;
    o->trials = 500;
    o->length = 120;
    o->runs = 5;
    parse_cvs("1,2,3", o);
    bh_history_opts_default(&o->d);
    bh_opts_init(&p, "history", eval_options, argc, argv, 1);
    p.prog = "bhost-eval";
    while (!bad && (ch = bh_opts_next(&p)) > 0)
        bad = apply(ch, p.value, o) != 0;
    if (!bad && ch < 0)
        return -1;
    if (bad || p.next != argc || bh_history_opts_check(&o->d) != 0) {
        bh_cli_error("history: bad options (see bhost-eval history --help)");
        return -1;
    }
    return 0;
}

int bh_eval_history(int argc, char **argv)
{
    eval_opts o;

    if (bh_wants_help(argc, argv)) {
        fputs(eval_usage, stdout);
        return BH_EXIT_OK;
    }
    if (parse(argc, argv, &o) != 0)
        return BH_EXIT_USAGE;
    evaluate(&o);
    return fflush(stdout) == 0 ? BH_EXIT_OK : BH_EXIT_IO;
}
