// SPDX-License-Identifier: MIT
/* gen-results: writes many realistic result files for measuring and
 * testing the results store (bhost store ingest, history, baselines).
 *
 * Each file is a copy of a template result (one that `bhost run` wrote on
 * this machine: its run metadata, system fingerprint and case shapes)
 * with CASES cases made from the template's cases round-robin: ids and
 * params get copy=K, every raw sample is scaled by a per-case level
 * (constant across files, so each case is a stationary series) times
 * lognormal run and sample noise, and the summary's location figures by
 * the same level. Files are one hour apart (run.started_at), carry
 * run.git (a commit per file unless --commit, --branch, --dirty) and are
 * written with bh_result_write, the writer bhost run uses.
 *
 *   gen-results --template T.json --out DIR [--files N] [--cases M]
 *               [--first I] [--seed S] [--start YYYY-MM-DDTHH:MM:SSZ] [--branch B]
 *               [--commit SHA] [--dirty] [--step-case K --step-at F
 *               --step-pct P]
 *
 * Files land in DIR/<config>/<stamp>-gen.json; --first I numbers them
 * from I (to write a long series in parts). Deterministic: the same
 * options give the same files. */
#define _GNU_SOURCE
#include "bh_error.h"
#include "bh_mem.h"
#include "bh_rng.h"
#include "bh_sha256.h"
#include "result_doc.h"
#include "result_read.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct gen_opts {
    const char *tmpl, *out, *branch, *commit, *start;
    long files, first, cases, step_case, step_at;
    double step_pct;
    unsigned long long seed;
    int dirty;
} gen_opts;

static void usage(void)
{
    fputs("usage: gen-results --template RESULT.json --out DIR [--files N] [--first I]\n"
          "       [--cases M]\n"
          "       [--seed S] [--start YYYY-MM-DDTHH:MM:SSZ] [--branch B] [--commit SHA]\n"
          "       [--dirty] [--step-case K --step-at F --step-pct P]\n",
          stderr);
}

static long arg_long(const char *opt, const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);

    if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "gen-results: %s expects an integer in [%ld, %ld], got '%s'\n", opt, lo,
                hi, s);
        exit(2);
    }
    return v;
}

static void parse(int argc, char **argv, gen_opts *o)
{
    static const struct option lo[] = {
        {"template", 1, NULL, 't'}, {"out", 1, NULL, 'o'},      {"files", 1, NULL, 'f'},
        {"first", 1, NULL, 'F'},
        {"cases", 1, NULL, 'c'},    {"seed", 1, NULL, 's'},     {"start", 1, NULL, 'S'},
        {"branch", 1, NULL, 'b'},   {"commit", 1, NULL, 'C'},   {"dirty", 0, NULL, 'd'},
        {"step-case", 1, NULL, 'k'}, {"step-at", 1, NULL, 'a'}, {"step-pct", 1, NULL, 'p'},
        {NULL, 0, NULL, 0}};
    int ch;

    memset(o, 0, sizeof(*o));
    o->files = 10;
    o->cases = 100;
    o->seed = 1;
    o->branch = "main";
    o->start = "2026-01-01T00:00:00Z";
    o->step_case = -1;
    while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (ch) {
        case 't': o->tmpl = optarg; break;
        case 'o': o->out = optarg; break;
        case 'f': o->files = arg_long("--files", optarg, 1, 10000000); break;
        case 'F': o->first = arg_long("--first", optarg, 0, 10000000); break;
        case 'c': o->cases = arg_long("--cases", optarg, 1, 1000000); break;
        case 's': o->seed = (unsigned long long)arg_long("--seed", optarg, 0, 1L << 62); break;
        case 'S': o->start = optarg; break;
        case 'b': o->branch = optarg; break;
        case 'C': o->commit = optarg; break;
        case 'd': o->dirty = 1; break;
        case 'k': o->step_case = arg_long("--step-case", optarg, 0, 1000000); break;
        case 'a': o->step_at = arg_long("--step-at", optarg, 0, 10000000); break;
        case 'p': o->step_pct = (double)arg_long("--step-pct", optarg, -99, 10000); break;
        default: usage(); exit(2);
        }
    }
    if (!o->tmpl || !o->out || optind != argc) {
        usage();
        exit(2);
    }
}

/* Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; exits when malformed. */
static time_t parse_time(const char *s)
{
    struct tm tm;
    const char *end;

    memset(&tm, 0, sizeof(tm));
    end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (!end || *end) {
        fprintf(stderr, "gen-results: --start: expected YYYY-MM-DDTHH:MM:SSZ, got '%s'\n", s);
        exit(2);
    }
    return timegm(&tm);
}

/* id with "copy=K" added to its parameter list, before any "@backend". */
static char *copy_id(const char *id, long k)
{
    const char *at = strchr(id, '@');
    size_t head = at ? (size_t)(at - id) : strlen(id);
    const char *tail = at ? at : "";

    if (head > 0 && id[head - 1] == ']')
        return bh_xasprintf("%.*s,copy=%ld]%s", (int)(head - 1), id, k, tail);
    return bh_xasprintf("%.*s[copy=%ld]%s", (int)head, id, k, tail);
}

/* Multiplies the number member key of o by f (when it is a finite number). */
static void scale(cJSON *o, const char *key, double f)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
        cJSON_SetNumberValue(v, v->valuedouble * f);
}

/* Replaces (or adds) member key of o. */
static void put(cJSON *o, const char *key, cJSON *v)
{
    if (cJSON_GetObjectItemCaseSensitive(o, key))
        cJSON_ReplaceItemInObjectCaseSensitive(o, key, v);
    else
        cJSON_AddItemToObject(o, key, v);
}

/* One case: template case t as copy k of file i. */
static cJSON *make_case(const cJSON *t, long k, long i, const gen_opts *o, bh_rng *rng)
{
    static const char *const loc[] = {"min", "max", "mean", "sd", "median", "mad", "q1", "q3",
                                      "p5", "p95", "p99", "median_ci_lo", "median_ci_hi",
                                      "mean_boot_lo", "mean_boot_hi", "median_boot_lo",
                                      "median_boot_hi", "run_median_median"};
    cJSON *c = cJSON_Duplicate(t, 1);
    cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
    cJSON *params = cJSON_GetObjectItemCaseSensitive(c, "params");
    char *nid = copy_id(id->valuestring, k);
    bh_rng lvl;
    double level;
    cJSON *r;

    cJSON_SetValuestring(id, nid);
    put(c, "verdict", cJSON_CreateNull());
    free(nid);
    if (cJSON_IsObject(params))
        cJSON_AddNumberToObject(params, "copy", (double)k);
    /* the case's level: the same in every file */
    bh_rng_seed(&lvl, o->seed * 1000003u + (unsigned long long)k);
    level = exp(0.5 * bh_rng_normal(&lvl));
    if (k == o->step_case && i >= o->step_at)
        level *= 1.0 + o->step_pct / 100.0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(c, "runs")) {
        double run_f = level * exp(0.01 * bh_rng_normal(rng));
        cJSON *smp;

        cJSON_ArrayForEach(smp, cJSON_GetObjectItemCaseSensitive(r, "samples")) {
            cJSON *ns = cJSON_GetArrayItem(smp, 1);

            if (cJSON_IsNumber(ns))
                cJSON_SetNumberValue(ns, round(ns->valuedouble * run_f *
                                               exp(0.02 * bh_rng_normal(rng))));
        }
    }
    for (size_t j = 0; j < sizeof(loc) / sizeof(loc[0]); j++)
        scale(cJSON_GetObjectItemCaseSensitive(c, "summary"), loc[j], level);
    return c;
}

/* Sets file i's run metadata: times, git. */
static void set_run(cJSON *doc, long i, time_t start, const gen_opts *o, char stamp[32])
{
    cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run");
    cJSON *git = cJSON_CreateObject();
    time_t t0 = start + 3600 * (time_t)i;
    time_t t1 = t0 + 600;
    char a[32], b[32], seed[64], commit[65];
    struct tm tm;

    strftime(a, sizeof(a), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t0, &tm));
    strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t1, &tm));
    strftime(stamp, 32, "%Y%m%dT%H%M%SZ", gmtime_r(&t0, &tm));
    put(run, "started_at", cJSON_CreateString(a));
    put(run, "finished_at", cJSON_CreateString(b));
    put(run, "duration_s", cJSON_CreateNumber(600.0 + 1e-3 * (double)(i % 997)));
    snprintf(seed, sizeof(seed), "gen-results/%llu/%ld", o->seed, i);
    bh_sha256_hex(seed, strlen(seed), commit);
    commit[40] = '\0';
    cJSON_AddStringToObject(git, "commit", o->commit ? o->commit : commit);
    cJSON_AddStringToObject(git, "branch", o->branch);
    cJSON_AddBoolToObject(git, "dirty", o->dirty);
    cJSON_AddStringToObject(git, "source", "gen-results");
    put(run, "git", git);
}

int main(int argc, char **argv)
{
    gen_opts o;
    bh_error e = {""};
    cJSON *tmpl;
    const cJSON *tcases, *cfgname;
    long n_t;
    time_t start;
    bh_rng rng;

    parse(argc, argv, &o);
    start = parse_time(o.start);
    tmpl = bh_result_read(o.tmpl, &e);
    if (!tmpl) {
        fprintf(stderr, "gen-results: %s\n", e.msg);
        return 1;
    }
    tcases = cJSON_GetObjectItemCaseSensitive(tmpl, "cases");
    n_t = cJSON_GetArraySize(tcases);
    cfgname = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(tmpl, "run"), "config"),
        "name");
    if (n_t == 0 || !cJSON_IsString(cfgname)) {
        fprintf(stderr, "gen-results: %s: expected cases and run.config.name\n", o.tmpl);
        return 1;
    }
    bh_rng_seed(&rng, o.seed ^ ((unsigned long long)o.first << 32));
    for (long i = o.first; i < o.first + o.files; i++) {
        cJSON *doc = cJSON_Duplicate(tmpl, 1);
        cJSON *cases = cJSON_CreateArray();
        char stamp[32];
        char *path, *used = NULL;

        set_run(doc, i, start, &o, stamp);
        for (long k = 0; k < o.cases; k++)
            cJSON_AddItemToArray(cases, make_case(cJSON_GetArrayItem(tcases, (int)(k % n_t)), k,
                                                  i, &o, &rng));
        put(doc, "cases", cases);
        cJSON_DeleteItemFromObjectCaseSensitive(doc, "comparison");
        cJSON_DeleteItemFromObjectCaseSensitive(doc, "backend_comparison");
        path = bh_result_default_path(o.out, cfgname->valuestring, stamp, "gen");
        if (bh_result_write(doc, path, 0, &used, &e) != 0) {
            fprintf(stderr, "gen-results: %s\n", e.msg);
            return 1;
        }
        free(path);
        free(used);
        cJSON_Delete(doc);
    }
    cJSON_Delete(tmpl);
    return 0;
}
