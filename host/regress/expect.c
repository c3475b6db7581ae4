// SPDX-License-Identifier: MIT
/* Budgets checked on a result document (expect.h). */
#include "expect.h"

#include "bh_json_write.h"
#include "bh_mem.h"
#include "bh_strbuf.h"
#include "descriptive.h"
#include "quantile.h"
#include "result_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of one key of a case, with its interval and where it came
 * from. */
typedef struct keyval {
    double value, lo, hi; /* lo, hi NAN without an interval */
    size_t runs;
    const char *unit; /* static or borrowed from the document */
    char *reason;     /* why there is no value (new), or NULL */
} keyval;

bh_budget_status bh_expect_decide(int op, double target, double value, double lo, double hi)
{
    int below = op == BH_EXPECT_LT || op == BH_EXPECT_LE;
    int strict = op == BH_EXPECT_LT || op == BH_EXPECT_GT;

    if (!isfinite(value))
        return BH_BUDGET_MISSED;
    if (!isfinite(lo) || !isfinite(hi)) {
        /* no interval: the median alone */
        lo = hi = value;
    }
    if (below) {
        if (strict ? hi < target : hi <= target)
            return BH_BUDGET_MET;
        if (strict ? lo >= target : lo > target)
            return BH_BUDGET_MISSED;
        return BH_BUDGET_AT_RISK;
    }
    if (strict ? lo > target : lo >= target)
        return BH_BUDGET_MET;
    if (strict ? hi <= target : hi < target)
        return BH_BUDGET_MISSED;
    return BH_BUDGET_AT_RISK;
}

const char *bh_expect_status_name(bh_budget_status st)
{
    static const char *const names[] = {"met", "at risk", "missed", "unknown metric", "no value"};

    return st <= BH_BUDGET_NO_VALUE ? names[st] : "no value";
}

cJSON *bh_expect_spec_json(const bh_expect *x, size_t n)
{
    cJSON *a;

    if (n == 0)
        return NULL;
    a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();

        cJSON_AddStringToObject(o, "key", x[i].key);
        cJSON_AddStringToObject(o, "name", x[i].name);
        cJSON_AddStringToObject(o, "op", bh_expect_op_text(x[i].op));
        cJSON_AddNumberToObject(o, "target", x[i].target);
        cJSON_AddStringToObject(o, "text", x[i].text);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* The median of v[0..n) and its interval into kv (sorts v). */
static void median_ci(double *v, size_t n, keyval *kv)
{
    kv->runs = n;
    if (n == 0)
        return;
    bh_stats_sort(v, n);
    kv->value = bh_stats_median_sorted(v, n);
    if (bh_stats_quantile_ci_sorted(v, n, 0.5, BH_EXPECT_CI_LEVEL, &kv->lo, &kv->hi, NULL) != 0 ||
        !isfinite(kv->lo) || !isfinite(kv->hi))
        kv->lo = kv->hi = NAN;
}

/* A number member of o, or NAN. */
static double num(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(it) ? it->valuedouble : NAN;
}

/* The work per iteration a throughput key stands for (flops_per_iter
 * for flop_per_s, ...) from the case's first ok run that declares it. */
static double work_per_iter(const cJSON *c, const char *per_iter)
{
    const cJSON *r;

    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(c, "runs")) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "status");
        double w = num(r, per_iter);

        if (cJSON_IsString(st) && strcmp(st->valuestring, "ok") == 0 && w > 0)
            return w;
    }
    return NAN;
}

/* The names of c's metrics, for "the case reports: ..." (new string). */
static char *metric_names(const cJSON *c)
{
    bh_strbuf b = BH_STRBUF_INIT;
    const cJSON *m;
    char *s;

    bh_strbuf_puts(&b, "time");
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(c, "throughput"))
        bh_strbuf_printf(&b, ", %s", m->string);
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(c, "metrics"))
        bh_strbuf_printf(&b, ", %s", m->string);
    s = bh_strbuf_detach(&b);
    bh_strbuf_free(&b);
    return s;
}

/* The value of key for case c into kv; returns NO_VALUE or UNKNOWN with
 * kv->reason set when there is none, else MET (meaning: a value). */
static bh_budget_status key_value(const cJSON *c, const char *key, keyval *kv)
{
    static const char *const rates[][2] = {{"flop_per_s", "flops_per_iter"},
                                           {"bytes_per_s", "bytes_per_iter"},
                                           {"items_per_s", "items_per_iter"}};
    double *v = NULL;
    size_t n = 0;

    kv->value = kv->lo = kv->hi = NAN;
    bh_result_run_medians(c, &v, &n);
    kv->runs = n;
    if (n == 0) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "status");

        free(v);
        kv->reason = bh_xasprintf("no ok run to judge (case %s)",
                                  cJSON_IsString(st) ? st->valuestring : "without runs");
        return BH_BUDGET_NO_VALUE;
    }
    if (strcmp(key, "time") == 0) {
        kv->unit = "ns/iter";
        median_ci(v, n, kv);
        free(v);
        return BH_BUDGET_MET;
    }
    for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
        double w, lo, hi;

        if (strcmp(key, rates[i][0]) != 0)
            continue;
        w = work_per_iter(c, rates[i][1]);
        if (!(w > 0))
            break;
        median_ci(v, n, kv);
        free(v);
        /* a rate is work over time: the time's interval turned over */
        lo = kv->lo;
        hi = kv->hi;
        kv->value = w / (kv->value * 1e-9);
        kv->lo = isfinite(hi) ? w / (hi * 1e-9) : NAN;
        kv->hi = isfinite(lo) && lo > 0 ? w / (lo * 1e-9) : NAN;
        kv->unit = i == 0 ? "FLOP/s" : i == 1 ? "B/s" : "items/s";
        return BH_BUDGET_MET;
    }
    free(v);
    {
        const cJSON *m =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "metrics"), key);
        const cJSON *vals = cJSON_GetObjectItemCaseSensitive(m, "values");
        const cJSON *it;
        const cJSON *unit = cJSON_GetObjectItemCaseSensitive(m, "unit");

        if (!cJSON_IsArray(vals)) {
            char *names = metric_names(c);

            kv->reason =
                bh_xasprintf("the case reports no metric '%s' (it reports: %s)", key, names);
            free(names);
            return BH_BUDGET_UNKNOWN;
        }
        v = bh_xcalloc((size_t)cJSON_GetArraySize(vals) + 1, sizeof(double));
        n = 0;
        cJSON_ArrayForEach(it, vals) {
            if (cJSON_IsNumber(it) && isfinite(it->valuedouble))
                v[n++] = it->valuedouble;
        }
        kv->unit = cJSON_IsString(unit) ? unit->valuestring : "";
        median_ci(v, n, kv);
        free(v);
        if (n == 0) {
            kv->reason = bh_xasprintf("metric '%s' has no value in any ok run", key);
            return BH_BUDGET_NO_VALUE;
        }
        return BH_BUDGET_MET;
    }
}

/* The checked budget of spec s on case c (new object); *failed is set
 * when it fails the gate. */
static cJSON *check_one(const cJSON *c, const cJSON *s, int *failed)
{
    cJSON *o = cJSON_Duplicate(s, 1);
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(s, "key");
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(s, "op");
    double target = num(s, "target");
    keyval kv = {NAN, NAN, NAN, 0, "", NULL};
    bh_budget_status st;
    int opv = -1;

    for (int i = BH_EXPECT_LT; i <= BH_EXPECT_GE; i++)
        if (cJSON_IsString(op) && strcmp(op->valuestring, bh_expect_op_text(i)) == 0)
            opv = i;
    if (!cJSON_IsString(key) || opv < 0 || !isfinite(target)) {
        st = BH_BUDGET_UNKNOWN;
        kv.reason = bh_xstrdup("malformed budget in settings.expect (key, op, target)");
    } else if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(c, "profile"))) {
        /* times under a profiler are the profiler's, not the case's */
        st = BH_BUDGET_NO_VALUE;
        kv.reason = bh_xstrdup("not checked: the case ran under a profiler (--profile)");
    } else {
        st = key_value(c, key->valuestring, &kv);
    }
    if (st == BH_BUDGET_MET)
        st = bh_expect_decide(opv, target, kv.value, kv.lo, kv.hi);
    cJSON_AddStringToObject(o, "unit", kv.unit);
    bh_json_add_num(o, "value", kv.value);
    if (isfinite(kv.lo) && isfinite(kv.hi)) {
        cJSON *ci = cJSON_AddArrayToObject(o, "ci");

        cJSON_AddItemToArray(ci, cJSON_CreateNumber(kv.lo));
        cJSON_AddItemToArray(ci, cJSON_CreateNumber(kv.hi));
    } else {
        cJSON_AddNullToObject(o, "ci");
    }
    cJSON_AddNumberToObject(o, "runs", (double)kv.runs);
    cJSON_AddStringToObject(o, "status", bh_expect_status_name(st));
    if (!kv.reason && st != BH_BUDGET_NO_VALUE && !(isfinite(kv.lo) && isfinite(kv.hi)))
        kv.reason = bh_xasprintf("decided on the median alone: %zu run%s give no %.0f%% "
                                 "interval (6 do)",
                                 kv.runs, kv.runs == 1 ? "" : "s", BH_EXPECT_CI_LEVEL * 100);
    else if (!kv.reason && st == BH_BUDGET_AT_RISK)
        kv.reason = bh_xstrdup("the 95% interval straddles the target");
    if (kv.reason)
        cJSON_AddStringToObject(o, "reason", kv.reason);
    free(kv.reason);
    *failed = st == BH_BUDGET_MISSED || st == BH_BUDGET_UNKNOWN;
    return o;
}

size_t bh_expect_apply(cJSON *doc)
{
    cJSON *c;
    size_t failed = 0;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        const cJSON *specs = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(c, "settings"), "expect");
        const cJSON *s;
        cJSON *out;

        if (!cJSON_IsArray(specs))
            continue;
        out = cJSON_CreateArray();
        cJSON_ArrayForEach(s, specs) {
            int f = 0;

            cJSON_AddItemToArray(out, check_one(c, s, &f));
            failed += (size_t)f;
        }
        cJSON_DeleteItemFromObjectCaseSensitive(c, "expect");
        cJSON_AddItemToObject(c, "expect", out);
    }
    return failed;
}

size_t bh_expect_n_failed(const cJSON *doc)
{
    const cJSON *c;
    size_t n = 0;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        const cJSON *x;

        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(c, "expect")) {
            const cJSON *st = cJSON_GetObjectItemCaseSensitive(x, "status");

            n += cJSON_IsString(st) && (strcmp(st->valuestring, "missed") == 0 ||
                                        strcmp(st->valuestring, "unknown metric") == 0);
        }
    }
    return n;
}
