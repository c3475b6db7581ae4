// SPDX-License-Identifier: MIT
/* bhost history: change points and the newest-value check over the result
 * files of a results folder. */
#define _GNU_SOURCE
#include "bh_mem.h"
#include "bh_json_write.h"
#include "cli.h"
#include "cli_args.h"
#include "config.h"
#include "history_report.h"
#include "history_trend.h"
#include "store.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char history_usage[] =
    "usage: bhost history RESULTS_DIR [options]\n"
    "       bhost history --store FILE|URL [CASE_PATTERN...] [options]\n"
    "\n"
    "Reads every result file under RESULTS_DIR (recursively; baselines/\n"
    "folders are skipped), orders them by run.started_at and, per case,\n"
    "finds change points in the series of run medians (windowed E-Divisive\n"
    "with t-test significance and a magnitude floor) and checks the newest\n"
    "value against a prediction interval built from the points since the\n"
    "last change.\n"
    "\n"
    "  --bench PATTERN    only cases whose id matches the glob (repeatable)\n"
    "  --config NAME      only result files of this config (run.config.name)\n"
    "  --json             print JSON (schema bhost.history/1) instead of text\n"
    "  --window N         points per detection window, 0 = whole series\n"
    "                     (default 50)\n"
    "  --min-change PCT   smallest change reported, in percent (default 1)\n"
    "  --max-p P          significance a change point must reach (default\n"
    "                     0.001; the window pass keeps splits at 10 P)\n"
    "  --min-size N       fewest points on each side of a change (default 3)\n"
    "  --test T           student (default) or welch, on log values\n"
    "  --unit U           what the t test counts: point (one value per\n"
    "                     result, default) or run (every run median)\n"
    "  --pi-level L       coverage of the newest-value interval (default 0.99)\n"
    "  --strict           a malformed result file is an error (exit 4)\n"
    "                     instead of a warning\n"
    "  --store FILE|URL   read the results store (an SQLite file such as\n"
    "                     results/bhost.db, or a postgresql:// URL) instead\n"
    "                     of a folder; CASE_PATTERNs select cases like --bench\n"
    "  --branch NAME      with --store: only runs on this git branch\n"
    "  --last N           with --store: only the newest N results per case\n"
    "  --trend N          after each case, its newest N values: a sparkline,\n"
    "                     the change over them, and one line per result\n"
    "                     (time, branch@commit, value, change)\n"
    "  -h, --help         this help\n"
    "\n"
    "Exit status: 0, also when changes are found; 2 usage; 4 when\n"
    "RESULTS_DIR or the store cannot be read (or, with --strict, a file is\n"
    "malformed).\n";

/* Options of one history command. */
typedef struct history_cli {
    const char *root;
    char **bench;
    size_t n_bench, cap_bench;
    const char *config;
    int json;
    int strict;
    bh_history_analysis_opts ao;
    const char *store;         /* --store: read the results store */
    bh_store_history_opts so;  /* --branch, --last */
    uint64_t trend;            /* --trend N, 0 = none */
    char store_name[1024];     /* the store as shown (no password) */
} history_cli;

/* Parses a finite number in [lo, hi] (an optional trailing '%' when
 * percent); prints the error and returns -1 otherwise. */
static int arg_double(const char *option, const char *text, double lo, double hi, int percent,
                      double *out)
{
    char *end = NULL;
    double v = strtod(text, &end);

    if (percent && end && *end == '%')
        end++;
    if (!end || end == text || *end != '\0' || !isfinite(v) || v < lo || v > hi) {
        bh_cli_error("%s expects a number in [%g, %g], got '%s'", option, lo, hi, text);
        return -1;
    }
    *out = v;
    return 0;
}

/* Parses one option that takes a value (ch from bh_opts_next). */
static int parse_value(int ch, const char *arg, history_cli *o)
{
    uint64_t u = 0;
    double d = 0.0;

    switch (ch) {
    case 'b':
        BH_PUSH(o->bench, o->n_bench, o->cap_bench, (char *)arg);
        return 0;
    case 'c':
        o->config = arg;
        return 0;
    case 'S':
        o->store = arg;
        return 0;
    case 'B':
        o->so.branch = arg;
        return 0;
    case 'L':
        if (bh_arg_u64("--last", arg, 1, 100000000, &u) != 0)
            return -1;
        o->so.last = (size_t)u;
        return 0;
    case 'T':
        return bh_arg_u64("--trend", arg, 1, 100000000, &o->trend);
    case 'w':
        if (bh_arg_u64("--window", arg, 0, 1000000, &u) != 0)
            return -1;
        o->ao.detect.window = (size_t)u;
        return 0;
    case 'm':
        if (arg_double("--min-change", arg, 0.0, 1000.0, 1, &d) != 0)
            return -1;
        o->ao.detect.min_change = d / 100.0;
        return 0;
    case 'p':
        if (arg_double("--max-p", arg, 1e-300, 1.0, 0, &d) != 0)
            return -1;
        o->ao.detect.max_p = d;
        o->ao.detect.split_p = fmin(1.0, 10.0 * d);
        return 0;
    case 'n':
        if (bh_arg_u64("--min-size", arg, 2, 1000, &u) != 0)
            return -1;
        o->ao.detect.min_size = (size_t)u;
        return 0;
    case 'l':
        if (arg_double("--pi-level", arg, 0.5, 0.999999, 0, &d) != 0)
            return -1;
        o->ao.pi_level = d;
        return 0;
    case 't':
        if (strcmp(arg, "student") != 0 && strcmp(arg, "welch") != 0) {
            bh_cli_error("--test expects student or welch, got '%s'", arg);
            return -1;
        }
        o->ao.detect.test = arg[0] == 'w' ? BH_HISTORY_WELCH : BH_HISTORY_STUDENT;
        return 0;
    case 'u':
        if (strcmp(arg, "point") != 0 && strcmp(arg, "run") != 0) {
            bh_cli_error("--unit expects point or run, got '%s'", arg);
            return -1;
        }
        o->ao.detect.unit = arg[0] == 'r' ? BH_HISTORY_UNIT_RUN : BH_HISTORY_UNIT_POINT;
        return 0;
    }
    return -1;
}

/* The options of bhost history. */
static const bh_opt history_options[] = {
    {"bench", 'b', 0, BH_OPT_VALUE, "only series whose case id matches the glob"},
    {"config", 'c', 0, BH_OPT_VALUE, "only results of this config"},
    {"json", 'j', 0, BH_OPT_FLAG, "print the analysis as JSON"},
    {"window", 'w', 0, BH_OPT_VALUE, "points per detection window"},
    {"min-change", 'm', 0, BH_OPT_VALUE, "the least change in percent"},
    {"max-p", 'p', 0, BH_OPT_VALUE, "the largest p-value of a change point"},
    {"min-size", 'n', 0, BH_OPT_VALUE, "the fewest points between change points"},
    {"pi-level", 'l', 0, BH_OPT_VALUE, "level of the newest-value interval"},
    {"test", 't', 0, BH_OPT_VALUE, "student or welch"},
    {"unit", 'u', 0, BH_OPT_VALUE, "point or run"},
    {"strict", 's', 0, BH_OPT_FLAG, "a malformed result file is an error"},
    {"store", 'S', 0, BH_OPT_VALUE, "read the series from the results store"},
    {"branch", 'B', 0, BH_OPT_VALUE, "with --store: runs of this branch"},
    {"last", 'L', 0, BH_OPT_VALUE, "with --store: the newest N points"},
    {"trend", 'T', 0, BH_OPT_VALUE, "print the trend of the newest N points"},
    {NULL, 0, 0, BH_OPT_FLAG, NULL}};

static int parse(int argc, char **argv, history_cli *o)
{
    bh_opts p;
    int ch;

    memset(o, 0, sizeof(*o));
    bh_history_analysis_opts_default(&o->ao);
    bh_opts_init(&p, "history", history_options, argc, argv, 1);
    while ((ch = bh_opts_next(&p)) > 0) {
        if (ch == 'j') {
            o->json = 1;
        } else if (ch == 's') {
            o->strict = 1;
        } else if (parse_value(ch, p.value, o) != 0) {
            return -1;
        }
    }
    if (ch < 0)
        return -1;
    if (o->store) {
        /* the operands are case patterns */
        for (int i = p.next; i < argc; i++)
            BH_PUSH(o->bench, o->n_bench, o->cap_bench, argv[i]);
        o->root = o->store;
    } else if (p.next != argc - 1) {
        bh_cli_error("history: expected exactly one RESULTS_DIR, or --store FILE|URL (see "
                     "bhost history --help)");
        return -1;
    } else if (o->so.branch || o->so.last) {
        bh_cli_error("history: --branch and --last need --store");
        return -1;
    } else {
        o->root = argv[p.next];
    }
    if (bh_history_opts_check(&o->ao.detect) != 0) {
        bh_cli_error("history: --window must be 0 or at least twice --min-size (%zu)",
                     o->ao.detect.min_size);
        return -1;
    }
    return 0;
}

/* Glob filter over case ids: true when any --bench pattern matches, or
 * equals the id (ids hold brackets, which a glob reads as a set). */
static int match_bench(const char *id, void *ctx)
{
    const history_cli *o = ctx;

    for (size_t i = 0; i < o->n_bench; i++)
        if (strcmp(o->bench[i], id) == 0 || bh_glob_match(o->bench[i], id))
            return 1;
    return 0;
}

/* Prints the text report of one series. Returns 1 when its newest value
 * lies outside the prediction interval, else 0. */
static int print_series(const bh_history_set *set, const bh_history_result *r,
                        const bh_history_analysis_opts *ao)
{
    const bh_history_series *s = r->series;
    const bh_history_point *last = &s->pts[s->n - 1];
    const char *ref = r->n_cps ? "since the last change" : "before it";
    char a[32], b[32], c[64];

    printf("%s  [%s]  %zu point%s, %s .. %s\n", s->case_id, s->config, s->n,
           s->n == 1 ? "" : "s", set->files[s->pts[0].file].started_at,
           set->files[last->file].started_at);
    if (r->n_cps == 0)
        printf("  no change point\n");
    for (size_t k = 0; k < r->n_cps; k++) {
        const bh_history_cp *cp = &r->cps[k];

        bh_fmt_time(cp->before, a, sizeof(a));
        bh_fmt_time(cp->after, b, sizeof(b));
        if (cp->p_adjusted < 1e-15)
            snprintf(c, sizeof(c), "p<1e-15 (best of %zu splits)", cp->candidates);
        else
            snprintf(c, sizeof(c), "p=%.2g (best of %zu splits)", cp->p_adjusted, cp->candidates);
        printf("  change  %s  %s -> %s  %+.2f%%  %s  (point %zu of %zu, %s)\n",
               set->files[s->pts[cp->index].file].started_at, a, b, 100.0 * cp->change, c,
               cp->index + 1, s->n, cp->change > 0 ? "slower" : "faster");
    }
    bh_fmt_time(last->value, a, sizeof(a));
    printf("  newest  %s  %s  ", set->files[last->file].started_at, a);
    if (r->newest.status == BH_HISTORY_PI_NONE) {
        if (r->newest.n < ao->pi_min_ref)
            printf("no prediction interval: %zu point%s %s, fewer than %zu\n", r->newest.n,
                   r->newest.n == 1 ? "" : "s", ref, ao->pi_min_ref);
        else
            printf("no prediction interval: the %zu points %s do not vary\n", r->newest.n, ref);
        return 0;
    }
    bh_fmt_time(r->newest.lo, b, sizeof(b));
    bh_fmt_time(r->newest.hi, c, sizeof(c));
    printf("%s the %g%% PI [%s, %s] of the %zu points %s (p=%.2g, q=%.2g)\n",
           r->newest.status == BH_HISTORY_PI_INSIDE ? "inside"
           : r->newest.status == BH_HISTORY_PI_ABOVE ? "ABOVE"
                                                     : "BELOW",
           100.0 * ao->pi_level, b, c, r->newest.n, ref, r->newest.p, r->newest_q);
    return r->newest.status != BH_HISTORY_PI_INSIDE;
}

/* The text report of the whole analysis. */
static void print_text(const history_cli *o, const bh_history_set *set,
                       const bh_history_runs_info *info, const bh_history_analysis *a)
{
    size_t n_cps = 0, outside = 0, shown = 0;

    printf("history of %s: %zu result file%s, %zu series (window %zu, min change %g%%, "
           "p <= %g, %s t test per %s)\n",
           o->root, set->n_files, set->n_files == 1 ? "" : "s", set->n_series,
           o->ao.detect.window, 100.0 * o->ao.detect.min_change, o->ao.detect.max_p,
           o->ao.detect.test == BH_HISTORY_WELCH ? "Welch" : "Student",
           o->ao.detect.unit == BH_HISTORY_UNIT_RUN ? "run" : "result");
    for (size_t i = 0; i < a->n; i++) {
        if (a->r[i].series->n == 0)
            continue;
        putchar('\n');
        outside += (size_t)print_series(set, &a->r[i], &o->ao);
        if (o->trend)
            bh_history_print_trend(stdout, set, info, a->r[i].series, (size_t)o->trend);
        n_cps += a->r[i].n_cps;
        shown++;
    }
    printf("\n%zu series, %zu change point%s, %zu newest value%s outside the prediction "
           "interval\n",
           shown, n_cps, n_cps == 1 ? "" : "s", outside, outside == 1 ? "" : "s");
}

/* Adds "trend" (the newest --trend N values) to each series of doc. */
static void add_trends(cJSON *doc, const history_cli *o, const bh_history_set *set,
                       const bh_history_runs_info *info, const bh_history_analysis *a)
{
    cJSON *j = cJSON_GetObjectItemCaseSensitive(doc, "series")->child;

    /* bh_history_json lists the series with points in analysis order */
    for (size_t i = 0; i < a->n && j; i++) {
        if (a->r[i].series->n == 0)
            continue;
        cJSON_AddItemToObject(j, "trend",
                              bh_history_trend_json(set, info, a->r[i].series, (size_t)o->trend));
        j = j->next;
    }
}

/* Loads the series from the store --store names; o->root becomes its
 * name as shown. 0 or -1 (printed). */
static int load_store(history_cli *o, const bh_history_filter *f, bh_history_set *set,
                      bh_history_runs_info *info)
{
    bh_error e = {""};
    bh_store *s = bh_store_exists(o->store, &e) ? bh_store_open(o->store, &e) : NULL;
    int rc = s ? bh_history_load_store(s, f, &o->so, set, info, &e) : -1;

    if (s) {
        snprintf(o->store_name, sizeof(o->store_name), "%s", bh_store_name(s));
        o->root = o->store_name;
    }

    if (rc != 0)
        bh_cli_error("%s", e.msg);
    bh_store_close(s);
    return rc;
}

static int cmd_history(int argc, char **argv)
{
    history_cli o;
    bh_history_runs_info info;
    bh_history_filter f;
    bh_history_set set;
    bh_history_analysis an;
    bh_error e = {""};
    int rc = BH_EXIT_OK;

    if (parse(argc, argv, &o) != 0) {
        free(o.bench);
        return BH_EXIT_USAGE;
    }
    memset(&f, 0, sizeof(f));
    f.match = o.n_bench ? match_bench : NULL;
    f.match_ctx = &o;
    f.config = o.config;
    f.strict = o.strict;
    memset(&set, 0, sizeof(set));
    memset(&an, 0, sizeof(an));
    memset(&info, 0, sizeof(info));
    if (o.store) {
        if (load_store(&o, &f, &set, &info) != 0) {
            rc = BH_EXIT_IO;
            goto out;
        }
    } else if (bh_history_load(o.root, &f, &set, &e) != 0) {
        for (size_t i = 0; i < set.n_warnings; i++)
            bh_cli_error("warning: %s", set.warnings[i]);
        bh_cli_error("%s", e.msg);
        rc = BH_EXIT_IO;
        goto out;
    }
    for (size_t i = 0; i < set.n_warnings; i++)
        bh_cli_error("warning: %s", set.warnings[i]);
    if (bh_history_analyze(&set, &o.ao, &an) != 0) {
        bh_cli_error("history: the analysis failed (out of memory?)");
        rc = BH_EXIT_INTERNAL;
        goto out;
    }
    if (o.json) {
        cJSON *doc = bh_history_json(o.root, &set, &o.ao, &an);
        char *text;

        if (o.trend)
            add_trends(doc, &o, &set, &info, &an);
        text = bh_json_print(doc);

        cJSON_Delete(doc);
        if (!text) {
            bh_cli_error("history: out of memory printing the JSON report");
            rc = BH_EXIT_INTERNAL;
            goto out;
        }
        fputs(text, stdout);
        fputc('\n', stdout);
        free(text);
    } else {
        print_text(&o, &set, o.store ? &info : NULL, &an);
    }
    if (fflush(stdout) != 0) {
        bh_cli_error("history: cannot write the report to stdout");
        rc = BH_EXIT_IO;
    }
out:
    bh_history_analysis_free(&an);
    bh_history_set_free(&set);
    bh_history_runs_info_free(&info);
    free(o.bench);
    return rc;
}

const bh_cli_cmd bh_cli_history = {
    .name = "history",
    .handler = cmd_history,
    .args = "RESULTS_DIR",
    .summary = "change points over a results folder or the store",
    .usage = history_usage,
    .opts = history_options,
};
