// SPDX-License-Identifier: MIT
/* Joining the shards' baseline comparisons (merge_gate.h). */
#define _GNU_SOURCE
#include "merge_gate.h"

#include "gate.h"
#include "merge.h"

#include <math.h>
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

/* Adds the number at key of src to the one at key of dst. */
static void add_count(cJSON *dst, const cJSON *src, const char *key)
{
    double a = 0, b = 0;

    count_of(dst, key, &a);
    count_of(src, key, &b);
    cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(dst, key), a + b);
}

/* True when every member of object o is a whole number >= 0. */
static int all_counts(const cJSON *o)
{
    const cJSON *x;
    double v;

    if (!cJSON_IsObject(o))
        return 0;
    cJSON_ArrayForEach(x, o) {
        if (count_of(o, x->string, &v) != 0)
            return 0;
    }
    return 1;
}

/* Checks the fields of a shard's summary that merging reads; 0 or -1. */
static int check_summary(const cJSON *cmp, const char *name, bh_error *e)
{
    static const char *const top[] = {"tests", "suspects", "confirm_tests"};
    const cJSON *x;
    double v;

    if (!cJSON_IsObject(cmp))
        return bh_error_set(e, "%s: comparison: expected an object", name);
    for (size_t k = 0; k < sizeof(top) / sizeof(*top); k++)
        if (count_of(cmp, top[k], &v) != 0)
            return bh_error_set(e, "%s: comparison.%s: expected a whole number >= 0", name,
                                top[k]);
    if (!all_counts(get(cmp, "counts")) || !all_counts(get(cmp, "regressed")))
        return bh_error_set(e, "%s: comparison: expected counts and regressed objects of "
                               "whole numbers >= 0", name);
    if (!cJSON_IsArray(get(cmp, "missing")))
        return bh_error_set(e, "%s: comparison.missing: expected an array of case ids", name);
    cJSON_ArrayForEach(x, get(cmp, "missing")) {
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

/* Adds shard src's summary into the merged one m. */
static void add_summary(cJSON *m, const cJSON *src)
{
    static const char *const top[] = {"tests", "suspects", "confirm_tests"};
    const cJSON *x;

    for (size_t k = 0; k < sizeof(top) / sizeof(*top); k++)
        add_count(m, src, top[k]);
    cJSON_ArrayForEach(x, get(src, "counts")) {
        cJSON *counts = cJSON_GetObjectItemCaseSensitive(m, "counts");

        if (!get(counts, x->string))
            cJSON_AddNumberToObject(counts, x->string, 0);
        add_count(counts, get(src, "counts"), x->string);
    }
    cJSON_ArrayForEach(x, get(src, "regressed")) {
        cJSON *sev = cJSON_GetObjectItemCaseSensitive(m, "regressed");

        if (!get(sev, x->string))
            cJSON_AddNumberToObject(sev, x->string, 0);
        add_count(sev, get(src, "regressed"), x->string);
    }
    if (cJSON_IsTrue(get(get(src, "gate"), "fail_on_regression")))
        bh_merge_put(cJSON_GetObjectItemCaseSensitive(m, "gate"), "fail_on_regression",
                     cJSON_CreateTrue());
}

int bh_merge_comparison(cJSON *const *docs, const char *const *names, size_t n, cJSON **out,
                        int *why, bh_error *e)
{
    const cJSON *first = n ? get(docs[0], "comparison") : NULL;
    cJSON *m, *families, *missing, *counts;
    double listed = 0, have;

    *out = NULL;
    *why = BH_MERGE_MISMATCH;
    for (size_t i = 1; i < n; i++)
        if (!get(docs[i], "comparison") != !first)
            return bh_error_set(e, "shards gated differently: %s was compared with a "
                                   "baseline, %s was not (run every shard with the same "
                                   "--baseline)", first ? names[0] : names[i],
                                first ? names[i] : names[0]);
    if (!first)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (check_summary(get(docs[i], "comparison"), names[i], e) != 0) {
            *why = BH_MERGE_MALFORMED;
            return -1;
        }
        if (i > 0 && bh_gate_check_same(first, get(docs[i], "comparison"), names[0], names[i],
                                        e) != 0)
            return -1;
    }
    m = cJSON_Duplicate(first, 1);
    families = cJSON_CreateArray();
    missing = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        const cJSON *c = get(docs[i], "comparison");

        if (i > 0)
            add_summary(m, c);
        cJSON *f = cJSON_CreateObject();
        double fam = 0;

        listed += join_missing(missing, get(c, "missing"));
        cJSON_AddStringToObject(f, "file", names[i]);
        cJSON_AddNumberToObject(f, "tests", get(c, "tests")->valuedouble);
        if (count_of(c, "family", &fam) == 0)
            cJSON_AddNumberToObject(f, "family", fam);
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
    return 0;
}

long bh_merge_n_critical(const cJSON *doc)
{
    const cJSON *c = get(get(get(doc, "comparison"), "regressed"), "critical");

    return cJSON_IsNumber(c) ? (long)c->valuedouble : 0;
}
