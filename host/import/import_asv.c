// SPDX-License-Identifier: MIT
/* asv results files (results/MACHINE/COMMIT-ENV.json, version 2): the
 * machine's "params" are the system record, "commit_hash" the commit,
 * "date" the time; "results" maps each benchmark to a row whose columns
 * "result_columns" names (result, params, stats_ci_99_a, stats_ci_99_b,
 * stats_q_25, stats_q_75, stats_number, stats_repeat, samples, ...).
 * A parameterized benchmark has one value per combination of its
 * parameters (the product of the params lists, the last varying
 * fastest): each combination is a case with those parameters (named from
 * ../benchmarks.json's param_names when it is there, else p1, p2, ...).
 * Samples (seconds per call) become one run of [number, value x number x
 * 1e9] samples; without samples the median (result), quartiles and 99%
 * interval become the summary; a null result is a failed run. Only time_
 * benchmarks (seconds) are imported; the others (mem_, peakmem_, track_:
 * bytes or units of their own) are skipped with a warning. */
#include "import_internal.h"

#include "bh_fs.h"
#include "bh_mem.h"

#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What one file has: its columns and the benchmarks.json beside it. */
typedef struct asv_file {
    const cJSON *columns;
    cJSON *benchmarks; /* ../benchmarks.json, or NULL */
    size_t skipped;
    const char *first_skipped;
} asv_file;

/* Column col of a row, or NULL. */
static const cJSON *column(const asv_file *f, const cJSON *row, const char *col)
{
    int i = 0;
    const cJSON *c;

    cJSON_ArrayForEach(c, f->columns) {
        if (cJSON_IsString(c) && strcmp(c->valuestring, col) == 0)
            return cJSON_GetArrayItem(row, i);
        i++;
    }
    return NULL;
}

/* A number of combination j of a per-combination column, or NAN. */
static double at(const cJSON *list, int j)
{
    const cJSON *v = cJSON_GetArrayItem(list, j);

    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

/* The system record and the file's commit and date. */
static void machine(bh_imp *imp, const cJSON *root)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(root, "params");
    cJSON *sys = imp->system;
    double ms;

    if (cJSON_IsObject(p)) {
        bh_imp_set_str(sys, "hostname", bh_imp_str(p, "machine"));
        bh_imp_set_str(bh_imp_obj(sys, "cpu"), "model", bh_imp_str(p, "cpu"));
        bh_imp_set_str(bh_imp_obj(sys, "os"), "machine", bh_imp_str(p, "arch"));
        bh_imp_set_str(bh_imp_obj(sys, "os"), "version", bh_imp_str(p, "os"));
        if (bh_imp_str(p, "num_cpu"))
            bh_imp_set_num(bh_imp_obj(sys, "cpu"), "logical_cores", atof(bh_imp_str(p, "num_cpu")));
        if (!cJSON_HasObjectItem(sys, "source_context"))
            cJSON_AddItemToObject(sys, "source_context", cJSON_Duplicate(p, 1));
    }
    bh_imp_suggest(&imp->commit, bh_imp_str(root, "commit_hash"));
    if (!imp->started_at && bh_imp_num(root, "date", &ms))
        imp->started_at = bh_imp_date_ms(ms);
}

/* A parameter value as asv writes it (Python repr), quotes removed. */
static char *unquote(const char *v)
{
    size_t n = strlen(v);

    if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0])
        return bh_xstrndup(v + 1, n - 2);
    return bh_xstrdup(v);
}

/* The case of combination j of benchmark name with parameter lists ps. */
static cJSON *combo_case(bh_imp *imp, const asv_file *f, const char *name, const cJSON *ps, int j)
{
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(f->benchmarks, name), "param_names");
    int np = cJSON_GetArraySize(ps), rest = j;
    cJSON *params = cJSON_CreateObject(), *c;
    bh_strbuf id = BH_STRBUF_INIT;
    char **vals = bh_xcalloc((size_t)np + 1, sizeof(*vals));

    for (int k = np - 1; k >= 0; k--) {
        const cJSON *list = cJSON_GetArrayItem(ps, k);
        int len = cJSON_GetArraySize(list);
        const cJSON *v = cJSON_GetArrayItem(list, len ? rest % len : 0);

        vals[k] = unquote(cJSON_IsString(v) ? v->valuestring : "?");
        rest = len ? rest / len : 0;
    }
    bh_strbuf_printf(&id, "asv/%s", name);
    for (int k = 0; k < np; k++) {
        char *key = cJSON_IsString(cJSON_GetArrayItem(names, k))
                        ? bh_xstrdup(cJSON_GetArrayItem(names, k)->valuestring)
                        : bh_xasprintf("p%d", k + 1);

        bh_strbuf_printf(&id, "%s%s=%s", k ? "," : "[", key, vals[k]);
        if (!cJSON_HasObjectItem(params, key))
            cJSON_AddStringToObject(params, key, vals[k]);
        free(key);
        free(vals[k]);
    }
    if (np > 0)
        bh_strbuf_puts(&id, "]");
    c = bh_imp_case(imp, bh_strbuf_str(&id), "asv", name, params);
    bh_strbuf_free(&id);
    free(vals);
    return c;
}

/* Combination j of a benchmark row: samples, or the figures asv kept.
 * 0, or -1 with e for a sample that is not a time. */
static int combo(cJSON *c, const asv_file *f, const cJSON *row, int j, bh_error *e)
{
    const cJSON *res = column(f, row, "result");
    const cJSON *smp = cJSON_GetArrayItem(column(f, row, "samples"), j);
    double value = at(res, j), number = at(column(f, row, "stats_number"), j);
    bh_imp_stats s = bh_imp_stats_none();
    const cJSON *v;
    cJSON *run;

    if (!bh_imp_whole(number))
        number = 1;
    if (!isfinite(value) || value < 0) {
        bh_imp_run(c, "asv recorded no result (the benchmark failed)");
        return 0;
    }
    if (cJSON_GetArraySize(smp) > 0) {
        run = bh_imp_run(c, NULL);
        cJSON_ArrayForEach(v, smp) {
            if (!cJSON_IsNumber(v) || v->valuedouble < 0 ||
                bh_imp_sample(run, number, v->valuedouble * 1e9 * number) != 0)
                return bh_error_set(e,
                                    "results.%s: samples[%d]: expected times in seconds "
                                    ">= 0",
                                    row->string, j);
        }
        return 0;
    }
    s.median = value * 1e9;
    s.q1 = at(column(f, row, "stats_q_25"), j) * 1e9;
    s.q3 = at(column(f, row, "stats_q_75"), j) * 1e9;
    s.ci_lo = at(column(f, row, "stats_ci_99_a"), j) * 1e9;
    s.ci_hi = at(column(f, row, "stats_ci_99_b"), j) * 1e9;
    s.ci_level = isfinite(s.ci_lo) ? 0.99 : NAN;
    s.n = s.runs = at(column(f, row, "stats_repeat"), j);
    bh_imp_summary(c, &s);
    return 0;
}

/* The combinations of params (a list of lists); 1 without parameters. */
static int combinations(const cJSON *ps)
{
    long n = 1;
    const cJSON *l;

    cJSON_ArrayForEach(l, ps) {
        n *= cJSON_GetArraySize(l) > 0 ? cJSON_GetArraySize(l) : 1;
        if (n > 100000)
            return -1;
    }
    return (int)n;
}

/* One benchmark of the file. */
static int benchmark(bh_imp *imp, asv_file *f, const cJSON *row, bh_error *e)
{
    const char *name = row->string;
    const char *leaf = strrchr(name, '.') ? strrchr(name, '.') + 1 : name;
    const cJSON *ps = column(f, row, "params");
    int n;

    if (!cJSON_IsArray(row))
        return bh_error_set(e, "results.%s: expected an array of result_columns", name);
    if (strncmp(leaf, "time_", 5) != 0) {
        if (f->skipped++ == 0)
            f->first_skipped = name;
        return 0;
    }
    if ((ps && !cJSON_IsArray(ps)) || (n = combinations(ps)) < 0)
        return bh_error_set(e, "results.%s.params: expected a list of parameter lists", name);
    for (int j = 0; j < n; j++)
        if (combo(combo_case(imp, f, name, ps, j), f, row, j, e) != 0)
            return -1;
    return 0;
}

/* ../benchmarks.json of the results file at path, or NULL. */
static cJSON *benchmarks_json(const char *path)
{
    char *copy = bh_xstrdup(path);
    char *file = bh_xasprintf("%s/../benchmarks.json", dirname(copy));
    char *text = NULL;
    size_t len = 0;
    bh_error ignored = {""};
    cJSON *j = NULL;

    if (bh_is_regular_file(file) && bh_read_file(file, 64u << 20, &text, &len, &ignored) == 0)
        j = cJSON_ParseWithLength(text, len);
    free(text);
    free(file);
    free(copy);
    return j;
}

int bh_imp_asv(bh_imp *imp, const char *path, const cJSON *root, bh_error *e)
{
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    asv_file f = {cJSON_GetObjectItemCaseSensitive(root, "result_columns"), NULL, 0, NULL};
    const cJSON *row;
    double version = 0;
    int rc = 0;

    if (!cJSON_IsObject(root) || !cJSON_IsObject(results) || !cJSON_IsArray(f.columns) ||
        !bh_imp_num(root, "version", &version) || version != 2)
        return bh_error_set(e, "expected an asv results file of version 2 (an object with "
                               "version 2, result_columns and results)");
    machine(imp, root);
    f.benchmarks = benchmarks_json(path);
    cJSON_ArrayForEach(row, results) {
        if ((rc = benchmark(imp, &f, row, e)) != 0)
            break;
    }
    if (rc == 0 && f.skipped)
        bh_strbuf_printf(&imp->warnings,
                         "%s: skipped %zu benchmark%s that are not time_ benchmarks (%s...): "
                         "their units are not times\n",
                         path, f.skipped, f.skipped == 1 ? "" : "s", f.first_skipped);
    cJSON_Delete(f.benchmarks);
    return rc;
}
