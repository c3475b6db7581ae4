// SPDX-License-Identifier: MIT
/* pyperf JSON (`--output`, `pyperf timeit -o`): a benchmark suite
 * {"version", "metadata", "benchmarks": [{"metadata", "runs": [{"metadata",
 * "warmups", "values"}]}]}. Each run with values (one worker process)
 * becomes a run; each value, the time of one loop iteration in the
 * benchmark's unit (seconds), becomes the sample [loops x inner_loops,
 * value x that x 1e9]; warmups are left out, and so are the calibration
 * runs, which have warmups only. loops and inner_loops are read from the
 * run's metadata, else the benchmark's, else the suite's (default 1).
 * The suite's metadata (hostname, CPU model and count, platform, Python)
 * is the system record. */
#include "import_internal.h"

#include "bh_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A metadata number: run, then benchmark, then suite; def when absent. */
static double meta_num(const cJSON *const meta[3], const char *key, double def)
{
    double v;

    for (int k = 0; k < 3; k++)
        if (bh_imp_num(meta[k], key, &v))
            return v;
    return def;
}

/* A metadata string, looked up the same way, or NULL. */
static const char *meta_str(const cJSON *const meta[3], const char *key)
{
    for (int k = 0; k < 3; k++)
        if (bh_imp_str(meta[k], key))
            return bh_imp_str(meta[k], key);
    return NULL;
}

/* The system record from the suite's metadata. */
static void system_record(bh_imp *imp, const cJSON *meta)
{
    cJSON *sys = imp->system;
    double cpus;

    if (!cJSON_IsObject(meta))
        return;
    bh_imp_set_str(sys, "hostname", bh_imp_str(meta, "hostname"));
    bh_imp_set_str(bh_imp_obj(sys, "cpu"), "model", bh_imp_str(meta, "cpu_model_name"));
    if (bh_imp_num(meta, "cpu_count", &cpus))
        bh_imp_set_num(bh_imp_obj(sys, "cpu"), "logical_cores", cpus);
    bh_imp_set_str(bh_imp_obj(sys, "os"), "version", bh_imp_str(meta, "platform"));
    bh_imp_set_str(sys, "compiler", bh_imp_str(meta, "python_version"));
    if (!cJSON_HasObjectItem(sys, "source_context"))
        cJSON_AddItemToObject(sys, "source_context", cJSON_Duplicate(meta, 1));
}

/* One run of benchmark b (index bi, run ri): its values as samples. */
static int one_run(cJSON *c, const cJSON *r, const cJSON *const meta[3], double ns, int bi, int ri,
                   bh_error *e)
{
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(r, "values");
    const cJSON *v;
    double loops = meta_num(meta, "loops", 1) * meta_num(meta, "inner_loops", 1);
    cJSON *run;

    if (!cJSON_IsObject(r))
        return bh_error_set(e, "benchmarks[%d].runs[%d]: expected an object", bi, ri);
    if (values && !cJSON_IsArray(values))
        return bh_error_set(e, "benchmarks[%d].runs[%d].values: expected an array", bi, ri);
    if (cJSON_GetArraySize(values) == 0)
        return 0; /* a calibration run: warmups only */
    if (!bh_imp_whole(loops))
        return bh_error_set(e,
                            "benchmarks[%d].runs[%d]: loops x inner_loops: expected a "
                            "whole number >= 1",
                            bi, ri);
    run = bh_imp_run(c, NULL);
    cJSON_ArrayForEach(v, values) {
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
            return bh_error_set(e, "benchmarks[%d].runs[%d].values: expected numbers >= 0", bi, ri);
        if (bh_imp_sample(run, loops, v->valuedouble * ns * loops) != 0)
            return bh_error_set(e,
                                "benchmarks[%d].runs[%d].values: a time too large for "
                                "nanoseconds",
                                bi, ri);
    }
    return 0;
}

/* One benchmark: a case named after metadata.name. */
static int benchmark(bh_imp *imp, const cJSON *b, const cJSON *suite_meta, int bi, bh_error *e)
{
    const cJSON *bmeta = cJSON_GetObjectItemCaseSensitive(b, "metadata");
    const cJSON *meta[3] = {NULL, bmeta, suite_meta};
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(b, "runs");
    const char *name = bh_imp_str(bmeta, "name");
    const char *unit = meta_str(meta, "unit");
    double ns = bh_imp_unit_ns(unit ? unit : "second");
    const cJSON *r;
    char *id;
    cJSON *c;
    int ri = 0;

    if (!cJSON_IsObject(b) || !name || !cJSON_IsArray(runs))
        return bh_error_set(e,
                            "benchmarks[%d]: expected an object with metadata.name and a "
                            "runs array (pyperf JSON)",
                            bi);
    if (ns == 0)
        return bh_error_set(e,
                            "benchmarks[%d]: unit '%s' cannot be mapped to seconds "
                            "(expected second)",
                            bi, unit);
    id = bh_xasprintf("pyperf/%s", name);
    c = bh_imp_case(imp, id, "pyperf", name, NULL);
    free(id);
    cJSON_ArrayForEach(r, runs) {
        meta[0] = cJSON_GetObjectItemCaseSensitive(r, "metadata");
        if (one_run(c, r, meta, ns, bi, ri++, e) != 0)
            return -1;
        if (!imp->started_at)
            imp->started_at = bh_imp_date(bh_imp_str(meta[0], "date"));
    }
    return 0;
}

int bh_imp_pyperf(bh_imp *imp, const char *path, const cJSON *root, bh_error *e)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "benchmarks");
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "metadata");
    const cJSON *b;
    int bi = 0;

    (void)path;
    if (!cJSON_IsObject(root) || !cJSON_IsArray(list) || !bh_imp_str(root, "version"))
        return bh_error_set(e, "expected an object with \"version\" and a \"benchmarks\" "
                               "array (pyperf JSON)");
    system_record(imp, meta);
    cJSON_ArrayForEach(b, list) {
        if (benchmark(imp, b, meta, bi++, e) != 0)
            return -1;
    }
    return 0;
}
