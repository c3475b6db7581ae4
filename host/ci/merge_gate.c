// SPDX-License-Identifier: MIT
/* Joining the shards' baseline comparisons (merge_gate.h). */
#define _GNU_SOURCE
#include "merge_gate.h"

#include "bh_mem.h"
#include "gate.h"
#include "merge.h"
#include "result_view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A whole number >= 0 at key of o into *v; 0 or -1. */
static int count_of(const cJSON *o, const char *key, double *v)
{
    const cJSON *x = get(o, key);

    if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble != floor(x->valuedouble))
        return -1;
    *v = x->valuedouble;
    return 0;
}

/* Adds b to the number at key of dst. */
static void add_count(cJSON *dst, const char *key, double b)
{
    double a = 0;

    count_of(dst, key, &a);
    cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(dst, key), a + b);
}

/* True when x is a whole number >= 0 (NAN, for an absent member, is not). */
static int is_count(double x)
{
    return x >= 0 && x == floor(x);
}

/* True when every member of object o is a whole number >= 0. */
static int all_counts(const cJSON *o)
{
    const cJSON *x;

    if (!cJSON_IsObject(o))
        return 0;
    cJSON_ArrayForEach(x, o) {
        if (!cJSON_IsNumber(x) || !is_count(x->valuedouble))
            return 0;
    }
    return 1;
}

/* Checks the fields of a shard's summary that merging reads; 0 or -1. */
static int check_summary(const bh_rv_comparison *cmp, const char *name, bh_error *e)
{
    const double top[] = {cmp->tests, cmp->suspects, cmp->confirm_tests};
    static const char *const top_names[] = {"tests", "suspects", "confirm_tests"};
    const cJSON *x;

    if (!cmp->json)
        return bh_error_set(e, "%s: comparison: expected an object", name);
    for (size_t k = 0; k < sizeof(top) / sizeof(*top); k++)
        if (!is_count(top[k]))
            return bh_error_set(e, "%s: comparison.%s: expected a whole number >= 0", name,
                                top_names[k]);
    if (!all_counts(cmp->counts) || !all_counts(cmp->regressed))
        return bh_error_set(e, "%s: comparison: expected counts and regressed objects of "
                               "whole numbers >= 0", name);
    if (!cmp->missing)
        return bh_error_set(e, "%s: comparison.missing: expected an array of case ids", name);
    cJSON_ArrayForEach(x, cmp->missing) {
        if (!cJSON_IsString(x))
            return bh_error_set(e, "%s: comparison.missing: expected an array of case ids",
                                name);
    }
    return 0;
}

/* Adds src's missing case ids that dst lacks; returns how many src had. */
static double join_missing(cJSON *dst, const cJSON *src)
{
    const cJSON *x;
    double n = 0;

    cJSON_ArrayForEach(x, src) {
        const cJSON *y;
        int have = 0;

        cJSON_ArrayForEach(y, dst) have |= strcmp(y->valuestring, x->valuestring) == 0;
        if (!have)
            cJSON_AddItemToArray(dst, cJSON_CreateString(x->valuestring));
        n++;
    }
    return n;
}

/* Adds shard src's summary (checked by check_summary) into the merged
 * one m. */
static void add_summary(cJSON *m, const bh_rv_comparison *src)
{
    static const char *const top[] = {"tests", "suspects", "confirm_tests", "memory_tests",
                                      "spread_tests"};
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(src->json, "memory_tests");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(src->json, "spread_tests");
    const double add[] = {src->tests, src->suspects, src->confirm_tests,
                          cJSON_IsNumber(mt) ? mt->valuedouble : 0,
                          cJSON_IsNumber(st) ? st->valuedouble : 0};
    const cJSON *x;

    for (size_t k = 0; k < sizeof(top) / sizeof(*top); k++)
        add_count(m, top[k], add[k]);
    cJSON_ArrayForEach(x, src->counts) {
        cJSON *counts = cJSON_GetObjectItemCaseSensitive(m, "counts");

        if (!get(counts, x->string))
            cJSON_AddNumberToObject(counts, x->string, 0);
        add_count(counts, x->string, x->valuedouble);
    }
    cJSON_ArrayForEach(x, src->regressed) {
        cJSON *sev = cJSON_GetObjectItemCaseSensitive(m, "regressed");

        if (!get(sev, x->string))
            cJSON_AddNumberToObject(sev, x->string, 0);
        add_count(sev, x->string, x->valuedouble);
    }
    if (src->fail_on_regression)
        bh_merge_put(cJSON_GetObjectItemCaseSensitive(m, "gate"), "fail_on_regression",
                     cJSON_CreateTrue());
}

/* Joins the checked comparisons of n shards (views v) into *out. */
static void join(const bh_result_view *v, const char *const *names, size_t n, cJSON **out)
{
    cJSON *m = cJSON_Duplicate(v[0].comparison.json, 1);
    cJSON *families = cJSON_CreateArray();
    cJSON *missing = cJSON_CreateArray();
    cJSON *counts;
    double listed = 0, have;

    for (size_t i = 0; i < n; i++) {
        const bh_rv_comparison *c = &v[i].comparison;
        cJSON *f;

        if (i > 0)
            add_summary(m, c);
        f = cJSON_CreateObject();
        listed += join_missing(missing, c->missing);
        cJSON_AddStringToObject(f, "file", names[i]);
        cJSON_AddNumberToObject(f, "tests", c->tests);
        if (is_count(c->family))
            cJSON_AddNumberToObject(f, "family", c->family);
        cJSON_AddItemToArray(families, f);
    }
    /* every shard lists the baseline cases no shard runs: count them once */
    counts = cJSON_GetObjectItemCaseSensitive(m, "counts");
    have = 0;
    count_of(counts, "missing", &have);
    if (get(counts, "missing"))
        cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(counts, "missing"),
                             have - listed + cJSON_GetArraySize(missing));
    bh_merge_put(m, "missing", missing);
    bh_merge_put(m, "candidate", cJSON_CreateNull());
    bh_merge_put(m, "family", cJSON_CreateNumber(get(m, "tests")->valuedouble));
    bh_merge_put(m, "families", families);
    *out = m;
}

int bh_merge_comparison(cJSON *const *docs, const char *const *names, size_t n, cJSON **out,
                        int *why, bh_error *e)
{
    bh_result_view *v = bh_xcalloc(n ? n : 1, sizeof(*v));
    const cJSON *first;
    int rc = -1;

    *out = NULL;
    *why = BH_MERGE_MISMATCH;
    for (size_t i = 0; i < n; i++)
        bh_result_view_load_top(docs[i], &v[i]);
    first = n ? v[0].comparison.json : NULL;
    for (size_t i = 1; i < n; i++)
        if (!v[i].comparison.json != !first) {
            bh_error_set(e, "shards gated differently: %s was compared with a baseline, %s "
                            "was not (run every shard with the same --baseline)",
                         first ? names[0] : names[i], first ? names[i] : names[0]);
            goto out;
        }
    for (size_t i = 0; first && i < n; i++) {
        if (check_summary(&v[i].comparison, names[i], e) != 0) {
            *why = BH_MERGE_MALFORMED;
            goto out;
        }
        if (i > 0 && bh_gate_check_same(&v[0].comparison, &v[i].comparison, names[0], names[i],
                                        e) != 0)
            goto out;
    }
    if (first)
        join(v, names, n, out);
    rc = 0;
out:
    for (size_t i = 0; i < n; i++)
        bh_result_view_free(&v[i]);
    free(v);
    return rc;
}

long bh_merge_n_critical(const cJSON *doc)
{
    bh_result_view v;
    long n;

    bh_result_view_load_top(doc, &v);
    n = (long)bh_rv_comparison_failing(&v.comparison);
    bh_result_view_free(&v);
    return n;
}
