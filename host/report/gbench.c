// SPDX-License-Identifier: MIT
/* Google Benchmark JSON export, the form `benchmark --benchmark_format=json`
 * writes, so Google Benchmark's tools (compare.py) read bhost results.
 *
 * context: date, host_name, executable, num_cpus, mhz_per_cpu,
 * cpu_scaling_enabled, caches, load_avg, library_build_type, plus bhost_*
 * keys. benchmarks: per case, one "iteration" entry per ok run (a run is a
 * repetition: real_time = cpu_time = the run's median ns per iteration,
 * iterations = the iterations its samples timed, time_unit "ns",
 * bytes_per_second / items_per_second / flop_per_second counters from the
 * work per iteration), then the aggregates mean, median, stddev (unit
 * time) and cv (unit percentage, a fraction as Google Benchmark writes it)
 * over those run medians. A case that is not ok is one entry with
 * error_occurred and error_message ("status: message"), as Google Benchmark
 * reports a benchmark that called SkipWithError. Names are the case ids.
 * Times and rates are written with up to 17 significant digits (they read
 * back as the same doubles). */
#include "report.h"

#include "bh_json_write.h"
#include "bh_mem.h"
#include "descriptive.h"
#include "result_view.h"
#include "report_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* The "context" object from the document's run and system sections. */
static cJSON *context(const bh_result_view *v)
{
    const bh_rv_system *sys = &v->system;
    const char *gov = bh_report_str_or(sys->governor, "");
    double cores = sys->logical_cores;
    double khz = sys->max_khz;
    cJSON *ctx = cJSON_CreateObject();
    cJSON *caches;

    cJSON_AddStringToObject(ctx, "date", bh_report_str_or(v->run.started_at, ""));
    cJSON_AddStringToObject(ctx, "host_name", bh_report_str_or(sys->hostname, ""));
    cJSON_AddStringToObject(ctx, "executable", "bhost");
    cJSON_AddNumberToObject(ctx, "num_cpus", isfinite(cores) ? cores : 0);
    cJSON_AddNumberToObject(ctx, "mhz_per_cpu", isfinite(khz) ? floor(khz / 1000) : 0);
    cJSON_AddBoolToObject(ctx, "cpu_scaling_enabled",
                          *gov && strcmp(gov, "performance") != 0 &&
                              strcmp(gov, "unavailable") != 0);
    caches = cJSON_AddArrayToObject(ctx, "caches");
    for (size_t i = 0; i < sys->n_caches; i++) {
        bh_rv_cache cache = bh_rv_system_cache(sys, i);
        const char *type = bh_report_str_or(cache.type, "unified");
        cJSON *o = cJSON_CreateObject();

        cJSON_AddStringToObject(o, "type", strcmp(type, "data") == 0          ? "Data"
                                           : strcmp(type, "instruction") == 0 ? "Instruction"
                                                                              : "Unified");
        cJSON_AddNumberToObject(o, "level", cache.level);
        cJSON_AddNumberToObject(o, "size", cache.size_bytes);
        cJSON_AddNumberToObject(o, "num_sharing",
                                cache.count > 0 && cores > 0 ? floor(cores / cache.count) : 1);
        cJSON_AddItemToArray(caches, o);
    }
    cJSON_AddItemToObject(ctx, "load_avg",
                          sys->load_average ? cJSON_Duplicate(sys->load_average, 1)
                                            : cJSON_CreateArray());
    cJSON_AddStringToObject(ctx, "library_build_type", "release");
    cJSON_AddStringToObject(ctx, "bhost_schema", bh_report_str_or(v->schema, ""));
    cJSON_AddStringToObject(ctx, "bhost_version", bh_report_str_or(v->run.host_version, ""));
    cJSON_AddStringToObject(ctx, "bhost_config", bh_report_str_or(v->run.config_name, ""));
    cJSON_AddStringToObject(ctx, "bhost_seed", bh_report_str_or(v->run.seed, ""));
    return ctx;
}

/* The fields every entry of a case starts with. */
static cJSON *entry(const char *name, const char *run_name, double family, const char *type,
                    double reps)
{
    cJSON *o = cJSON_CreateObject();

    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddNumberToObject(o, "family_index", family);
    cJSON_AddNumberToObject(o, "per_family_instance_index", 0);
    cJSON_AddStringToObject(o, "run_name", run_name);
    cJSON_AddStringToObject(o, "run_type", type);
    cJSON_AddNumberToObject(o, "repetitions", reps);
    return o;
}

/* Adds iterations, real_time and cpu_time (both t) in ns. */
static void times(cJSON *o, double iters, double t)
{
    bh_report_json_num(o, "iterations", iters);
    bh_report_json_num(o, "real_time", t);
    bh_report_json_num(o, "cpu_time", t);
    cJSON_AddStringToObject(o, "time_unit", "ns");
}

/* Appends the mean, median, stddev and cv aggregates of the run medians
 * v[0..n) of case id (n >= 1). */
static void aggregates(cJSON *arr, const char *id, double family, const double *v, size_t n)
{
    static const char *const names[] = {"mean", "median", "stddev", "cv"};
    double *s = bh_xcalloc(n, sizeof(double));
    double sum = 0, ss = 0, mean, sd, val[4];

    memcpy(s, v, n * sizeof(double));
    bh_stats_sort(s, n);
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (s[i] - mean) * (s[i] - mean);
    sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    val[0] = mean;
    val[1] = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    val[2] = sd;
    val[3] = mean > 0 ? sd / mean : 0;
    for (int k = 0; k < 4; k++) {
        char *name = bh_xasprintf("%s_%s", id, names[k]);
        cJSON *o = entry(name, id, family, "aggregate", (double)n);

        cJSON_AddNumberToObject(o, "threads", 1);
        cJSON_AddStringToObject(o, "aggregate_name", names[k]);
        cJSON_AddStringToObject(o, "aggregate_unit", k == 3 ? "percentage" : "time");
        times(o, (double)n, val[k]);
        cJSON_AddItemToArray(arr, o);
        free(name);
    }
    free(s);
}

/* Adds the rate counters of one repetition from the work per iteration. */
static void counters(cJSON *o, const bh_rv_run *run, double ns)
{
    const double in[] = {run->bytes_per_iter, run->items_per_iter, run->flops_per_iter};
    static const char *const outk[] = {"bytes_per_second", "items_per_second",
                                       "flop_per_second"};

    for (int k = 0; k < 3; k++) {
        double w = in[k];

        if (isfinite(w) && w > 0 && ns > 0)
            bh_report_json_num(o, outk[k], w / (ns * 1e-9));
    }
}

/* Appends the entries of one case: its repetitions and aggregates, or one
 * error entry. */
static void case_entries(cJSON *arr, const bh_rv_case *r, double family)
{
    size_t cap = r->n_runs;
    double *med = bh_xcalloc(cap ? cap : 1, sizeof(double));
    double *its = bh_xcalloc(cap ? cap : 1, sizeof(double));
    const bh_rv_run **src = bh_xcalloc(cap ? cap : 1, sizeof(bh_rv_run *));
    size_t n = 0;

    for (size_t i = 0; i < r->n_runs; i++) {
        const bh_rv_run *run = &r->runs[i];

        if (!run->ok)
            continue;
        med[n] = run->median_ns;
        its[n] = run->iters;
        src[n] = run;
        if (isfinite(med[n]) && med[n] > 0)
            n++;
    }
    if (!r->ok || n == 0) {
        cJSON *o = entry(r->id, r->id, family, "iteration", 1);
        char *msg = bh_xasprintf("%s%s%s", r->status, *r->message ? ": " : "", r->message);

        cJSON_AddNumberToObject(o, "repetition_index", 0);
        cJSON_AddNumberToObject(o, "threads", 1);
        cJSON_AddBoolToObject(o, "error_occurred", 1);
        cJSON_AddStringToObject(o, "error_message", r->ok ? "ok: no timed runs" : msg);
        times(o, 0, 0);
        cJSON_AddItemToArray(arr, o);
        free(msg);
    } else {
        for (size_t k = 0; k < n; k++) {
            cJSON *o = entry(r->id, r->id, family, "iteration", (double)n);

            cJSON_AddNumberToObject(o, "repetition_index", (double)k);
            cJSON_AddNumberToObject(o, "threads", 1);
            times(o, its[k], med[k]);
            counters(o, src[k], med[k]);
            cJSON_AddItemToArray(arr, o);
        }
        aggregates(arr, r->id, family, med, n);
    }
    free(med);
    free(its);
    free(src);
}

/* See report.h: the Google Benchmark JSON of doc, appended to out. */
void bh_report_gbench(const cJSON *doc, bh_strbuf *out)
{
    bh_result_view view;
    cJSON *root = cJSON_CreateObject();
    cJSON *arr;
    char *text;

    bh_result_view_load(doc, &view);
    cJSON_AddItemToObject(root, "context", context(&view));
    arr = cJSON_AddArrayToObject(root, "benchmarks");
    for (size_t i = 0; i < view.n_cases; i++)
        case_entries(arr, &view.cases[i], (double)i);
    text = bh_json_print(root);
    if (text) {
        bh_strbuf_puts(out, text);
        bh_strbuf_puts(out, "\n");
        free(text);
    }
    cJSON_Delete(root);
    bh_result_view_free(&view);
}
