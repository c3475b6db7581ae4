// SPDX-License-Identifier: MIT
/* Google Benchmark JSON (`--benchmark_format=json`, `--benchmark_out`):
 * each "iteration" entry (one repetition) becomes a run with one sample,
 * [iterations, real_time x iterations]; cpu_time is kept as the
 * informational metric cpu_time; bytes_per_second and items_per_second
 * become the run's work per iteration. "aggregate" entries (mean, median,
 * stddev, cv, min, max) become the case's summary when the file has no
 * repetitions of it (--benchmark_report_aggregates_only). An entry with
 * error_occurred (or skipped) is a failed run. The context (host name,
 * CPU count and MHz, caches, load, date) is the system record; a file
 * bhost wrote keeps its case ids and config name. */
#include "import_internal.h"

#include "bh_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The system record from the context object. */
static void context(bh_imp *imp, const cJSON *ctx)
{
    cJSON *sys = imp->system, *caches;
    const cJSON *it;
    double v, cpus = NAN;

    if (!cJSON_IsObject(ctx))
        return;
    bh_imp_set_str(sys, "hostname", bh_imp_str(ctx, "host_name"));
    if (bh_imp_num(ctx, "num_cpus", &cpus))
        bh_imp_set_num(bh_imp_obj(sys, "cpu"), "logical_cores", cpus);
    if (bh_imp_num(ctx, "mhz_per_cpu", &v))
        bh_imp_set_num(bh_imp_obj(sys, "frequency"), "max_khz", v * 1000);
    if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(ctx, "load_avg")) &&
        !cJSON_HasObjectItem(sys, "load_average"))
        cJSON_AddItemToObject(
            sys, "load_average",
            cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(ctx, "load_avg"), 1));
    if (!cJSON_HasObjectItem(sys, "caches")) {
        caches = cJSON_AddArrayToObject(sys, "caches");
        cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(ctx, "caches")) {
            const char *type = bh_imp_str(it, "type");
            cJSON *c = cJSON_CreateObject();
            double share;

            bh_imp_set_num(c, "level", bh_imp_num(it, "level", &v) ? v : NAN);
            cJSON_AddStringToObject(c, "type",
                                    !type                              ? "unified"
                                    : strcmp(type, "Data") == 0        ? "data"
                                    : strcmp(type, "Instruction") == 0 ? "instruction"
                                                                       : "unified");
            bh_imp_set_num(c, "size_bytes", bh_imp_num(it, "size", &v) ? v : NAN);
            if (bh_imp_num(it, "num_sharing", &share) && share >= 1 && isfinite(cpus))
                bh_imp_set_num(c, "count", floor(cpus / share));
            cJSON_AddItemToArray(caches, c);
        }
    }
    if (!cJSON_HasObjectItem(sys, "source_context"))
        cJSON_AddItemToObject(sys, "source_context", cJSON_Duplicate(ctx, 1));
    if (!imp->started_at)
        imp->started_at = bh_imp_date(bh_imp_str(ctx, "date"));
    bh_imp_suggest(&imp->config, bh_imp_str(ctx, "bhost_config"));
}

/* The parameters in a benchmark name: "k:v" segments by name, the others
 * as arg0, arg1, ... ("BM_copy/64/threads:2"). */
static cJSON *name_params(const char *name)
{
    cJSON *p = cJSON_CreateObject();
    char *copy = bh_xstrdup(name), *save = NULL;
    int pos = 0;

    strtok_r(copy, "/", &save);
    for (char *seg = strtok_r(NULL, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
        char *colon = strchr(seg, ':');
        char *key = colon ? seg : bh_xasprintf("arg%d", pos++);
        const char *val = colon ? colon + 1 : seg;
        char *end;
        double num = strtod(val, &end);

        if (colon)
            *colon = '\0';
        if (!cJSON_HasObjectItem(p, key)) {
            if (*val && !*end && isfinite(num))
                cJSON_AddNumberToObject(p, key, num);
            else
                cJSON_AddStringToObject(p, key, val);
        }
        if (!colon)
            free(key);
    }
    free(copy);
    return p;
}

/* The case of benchmark name: a bhost id keeps its plugin/benchmark. */
static cJSON *gb_case(bh_imp *imp, const char *name, int from_bhost)
{
    size_t fam = strcspn(name, "/");
    char *plugin, *bench;
    cJSON *c;

    if (from_bhost && name[fam] == '/') {
        plugin = bh_xstrndup(name, fam);
        bench = bh_xstrndup(name + fam + 1, strcspn(name + fam + 1, "[@"));
    } else {
        plugin = bh_xstrdup("gbench");
        bench = bh_xstrndup(name, fam);
    }
    c = bh_imp_case(imp, name, plugin, bench,
                    from_bhost ? cJSON_CreateObject() : name_params(name));
    free(plugin);
    free(bench);
    return c;
}

/* The multiplier to ns of entry i's time_unit (default ns), or 0 with e. */
static double entry_unit(const cJSON *b, int i, bh_error *e)
{
    const char *unit = bh_imp_str(b, "time_unit");
    double ns = bh_imp_unit_ns(unit ? unit : "ns");

    if (ns == 0)
        bh_error_set(e,
                     "benchmarks[%d].time_unit: unit '%s' cannot be mapped to seconds "
                     "(expected ns, us, ms or s)",
                     i, unit ? unit : "(not a string)");
    return ns;
}

/* An aggregate entry: one figure of the case's summary. */
static int aggregate(bh_imp *imp, const cJSON *b, int i, int from_bhost, bh_error *e)
{
    static const char *const names[][2] = {{"mean", "mean"}, {"median", "median"}, {"stddev", "sd"},
                                           {"cv", "cv"},     {"min", "min"},       {"max", "max"}};
    const char *run_name = bh_imp_str(b, "run_name");
    const char *agg = bh_imp_str(b, "aggregate_name");
    double ns, t, reps;
    cJSON *s;

    if (!run_name || !agg)
        return bh_error_set(e,
                            "benchmarks[%d]: an aggregate without run_name and "
                            "aggregate_name (expected Google Benchmark JSON)",
                            i);
    if ((ns = entry_unit(b, i, e)) == 0)
        return -1;
    if (!bh_imp_num(b, "real_time", &t))
        return bh_error_set(e, "benchmarks[%d].real_time: expected a number", i);
    s = bh_imp_obj(gb_case(imp, run_name, from_bhost), "summary");
    bh_imp_set_str(s, "unit", "ns/iter");
    bh_imp_set_str(s, "source", "imported");
    if (bh_imp_num(b, "repetitions", &reps)) {
        bh_imp_set_num(s, "n", reps);
        bh_imp_set_num(s, "runs", reps);
    }
    for (size_t k = 0; k < sizeof(names) / sizeof(*names); k++)
        if (strcmp(agg, names[k][0]) == 0)
            bh_imp_set_num(s, names[k][1], k == 3 ? t : t * ns);
    return 0;
}

/* Sets the run's work per iteration from a rate per second over t_ns. */
static void work(cJSON *run, const cJSON *b, const char *rate, const char *key, double t_ns)
{
    double r;

    if (bh_imp_num(b, rate, &r) && r >= 0 && t_ns > 0)
        bh_imp_set_num(run, key, r * t_ns * 1e-9);
}

/* An iteration entry: one repetition, one run. */
static int repetition(bh_imp *imp, const cJSON *b, int i, int from_bhost, bh_error *e)
{
    const char *run_name = bh_imp_str(b, "run_name");
    const char *name = run_name ? run_name : bh_imp_str(b, "name");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(b, "error_occurred");
    const cJSON *skip = cJSON_GetObjectItemCaseSensitive(b, "skipped");
    double ns, iters, t, cpu;
    cJSON *c, *run;

    if (!name)
        return bh_error_set(e, "benchmarks[%d]: expected a string name", i);
    c = gb_case(imp, name, from_bhost);
    if (cJSON_IsTrue(err) || cJSON_IsTrue(skip) || (cJSON_IsNumber(skip) && skip->valueint)) {
        const char *msg = bh_imp_str(b, "error_message");

        bh_imp_run(c, msg                             ? msg
                      : bh_imp_str(b, "skip_message") ? bh_imp_str(b, "skip_message")
                                                      : "error_occurred");
        return 0;
    }
    if ((ns = entry_unit(b, i, e)) == 0)
        return -1;
    if (!bh_imp_num(b, "iterations", &iters) || !bh_imp_whole(iters))
        return bh_error_set(e, "benchmarks[%d].iterations: expected a whole number >= 1", i);
    if (!bh_imp_num(b, "real_time", &t) || t < 0)
        return bh_error_set(e, "benchmarks[%d].real_time: expected a number >= 0", i);
    run = bh_imp_run(c, NULL);
    if (bh_imp_sample(run, iters, t * ns * iters) != 0)
        return bh_error_set(e, "benchmarks[%d].real_time: a time too large for nanoseconds", i);
    work(run, b, "bytes_per_second", "bytes_per_iter", t * ns);
    work(run, b, "items_per_second", "items_per_iter", t * ns);
    if (bh_imp_num(b, "cpu_time", &cpu))
        bh_imp_metric(c, "cpu_time", "ns", cpu * ns);
    return 0;
}

int bh_imp_gbench(bh_imp *imp, const char *path, const cJSON *root, bh_error *e)
{
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(root, "context");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "benchmarks");
    const cJSON *b;
    int i = 0, from_bhost = bh_imp_str(ctx, "bhost_schema") != NULL;

    (void)path;
    if (!cJSON_IsObject(root) || !cJSON_IsArray(list))
        return bh_error_set(e, "expected an object with a \"benchmarks\" array (Google "
                               "Benchmark JSON, --benchmark_format=json)");
    context(imp, ctx);
    cJSON_ArrayForEach(b, list) {
        const char *type = bh_imp_str(b, "run_type");
        int rc;

        if (!cJSON_IsObject(b))
            return bh_error_set(e, "benchmarks[%d]: expected an object", i);
        rc = type && strcmp(type, "aggregate") == 0 ? aggregate(imp, b, i, from_bhost, e)
                                                    : repetition(imp, b, i, from_bhost, e);
        if (rc != 0)
            return -1;
        i++;
    }
    return 0;
}
