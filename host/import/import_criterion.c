// SPDX-License-Identifier: MIT
/* Criterion.rs results (target/criterion/<id>/new/): sample.json,
 * {"sampling_mode", "iters": [...], "times": [...]} (nanoseconds), becomes
 * one run whose samples are [iters[i], times[i]], so a sample's value is
 * times/iters; estimates.json, {"mean", "median", "std_dev",
 * "median_abs_dev", "slope"} each with a point_estimate and a
 * confidence_interval (nanoseconds), becomes the case's summary, used
 * when the case has no samples. The case id is the benchmark.json beside
 * the file's "full_id", else the folders between criterion/ and new/. */
#include "import_internal.h"

#include "bh_fs.h"
#include "bh_mem.h"

#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* full_id of the benchmark.json in dir, or NULL (new string). */
static char *full_id_beside(const char *dir)
{
    char *path = bh_xasprintf("%s/benchmark.json", dir);
    char *text = NULL, *id = NULL;
    size_t len = 0;
    bh_error ignored = {""};
    cJSON *j;

    if (bh_is_regular_file(path) && bh_read_file(path, 1u << 20, &text, &len, &ignored) == 0 &&
        (j = cJSON_ParseWithLength(text, len))) {
        if (bh_imp_str(j, "full_id"))
            id = bh_xstrdup(bh_imp_str(j, "full_id"));
        cJSON_Delete(j);
    }
    free(text);
    free(path);
    return id;
}

/* The benchmark id of a file at path (new string). */
static char *bench_id(const char *path)
{
    char *copy = bh_xstrdup(path);
    char *dir = bh_xstrdup(dirname(copy));
    char *id = full_id_beside(dir);
    char *base, *at;

    if (!id) {
        /* .../criterion/<id>/{new,base,change}/file.json */
        base = strrchr(dir, '/');
        if (base && (strcmp(base, "/new") == 0 || strcmp(base, "/base") == 0))
            *base = '\0';
        at = strstr(dir, "criterion/");
        id = bh_xstrdup(at ? at + strlen("criterion/") : *dir && strcmp(dir, ".") ? dir : path);
    }
    free(copy);
    free(dir);
    return id;
}

/* The case of the file at path. */
static cJSON *crit_case(bh_imp *imp, const char *path)
{
    char *name = bench_id(path);
    char *id = bh_xasprintf("criterion/%s", name);
    cJSON *c = bh_imp_case(imp, id, "criterion", name, NULL);

    free(id);
    free(name);
    return c;
}

/* sample.json: one run, one sample per measurement. */
static int samples(bh_imp *imp, const char *path, const cJSON *iters, const cJSON *times,
                   bh_error *e)
{
    int n = cJSON_GetArraySize(iters);
    cJSON *run;

    if (n == 0 || n != cJSON_GetArraySize(times))
        return bh_error_set(e, "iters and times: expected two arrays of the same non-zero "
                               "length (Criterion.rs sample.json)");
    run = bh_imp_run(crit_case(imp, path), NULL);
    for (int i = 0; i < n; i++) {
        const cJSON *it = cJSON_GetArrayItem(iters, i), *t = cJSON_GetArrayItem(times, i);

        if (!cJSON_IsNumber(it) || !bh_imp_whole(it->valuedouble))
            return bh_error_set(e, "iters[%d]: expected a whole number >= 1", i);
        if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0)
            return bh_error_set(e, "times[%d]: expected nanoseconds >= 0", i);
        (void)bh_imp_sample(run, it->valuedouble, t->valuedouble); /* both finite */
    }
    return 0;
}

/* The point estimate of member key, its interval and level. */
static double estimate(const cJSON *root, const char *key, double *lo, double *hi, double *level)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, key);
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(o, "confidence_interval");
    double v = NAN;

    *lo = *hi = *level = NAN;
    bh_imp_num(ci, "lower_bound", lo);
    bh_imp_num(ci, "upper_bound", hi);
    bh_imp_num(ci, "confidence_level", level);
    bh_imp_num(o, "point_estimate", &v);
    return v;
}

/* estimates.json: the case's summary. */
static int estimates(bh_imp *imp, const char *path, const cJSON *root, bh_error *e)
{
    bh_imp_stats s = bh_imp_stats_none();
    double lo, hi, level;

    s.mean = estimate(root, "mean", &lo, &hi, &level);
    s.median = estimate(root, "median", &s.ci_lo, &s.ci_hi, &s.ci_level);
    s.sd = estimate(root, "std_dev", &lo, &hi, &level);
    s.mad = estimate(root, "median_abs_dev", &lo, &hi, &level);
    if (!isfinite(s.median) || s.median < 0)
        return bh_error_set(e, "median.point_estimate: expected a number of nanoseconds "
                               "(Criterion.rs estimates.json)");
    if (isfinite(s.mean) && s.mean > 0 && isfinite(s.sd))
        s.cv = s.sd / s.mean;
    bh_imp_summary(crit_case(imp, path), &s);
    return 0;
}

int bh_imp_criterion(bh_imp *imp, const char *path, const cJSON *root, bh_error *e)
{
    const cJSON *iters = cJSON_GetObjectItemCaseSensitive(root, "iters");
    const cJSON *times = cJSON_GetObjectItemCaseSensitive(root, "times");

    if (cJSON_IsArray(iters) && cJSON_IsArray(times))
        return samples(imp, path, iters, times, e);
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "median")) &&
        cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "mean")))
        return estimates(imp, path, root, e);
    return bh_error_set(e, "expected a Criterion.rs sample.json (iters and times arrays) or "
                           "estimates.json (mean and median objects)");
}
