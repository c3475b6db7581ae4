// SPDX-License-Identifier: MIT
/* The gate record of a compared run (gate.h). */
#define _GNU_SOURCE
#include "gate.h"

#include "bh_json_write.h"
#include "bh_mem.h"
#include "bh_sha256.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bh_gate_baseline_digest(const cJSON *base_doc, char hex[65])
{
    char *text = bh_json_print_unformatted(base_doc);

    bh_sha256_hex(text ? text : "", text ? strlen(text) : 0, hex);
    free(text);
}

/* The regression: settings as JSON. */
static cJSON *regression_json(const bh_regress_config *rc)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *metrics = cJSON_CreateArray();
    cJSON *overrides = cJSON_CreateArray();

    cJSON_AddNumberToObject(o, "noise_floor", rc->th.noise_floor);
    cJSON_AddNumberToObject(o, "warning", rc->th.warning);
    cJSON_AddNumberToObject(o, "critical", rc->th.critical);
    cJSON_AddNumberToObject(o, "fdr", rc->fdr);
    cJSON_AddNumberToObject(o, "confidence", rc->confidence);
    cJSON_AddStringToObject(o, "method", rc->method == BH_REGRESS_WELCH ? "welch" : "mwu");
    cJSON_AddBoolToObject(o, "confirm", rc->confirm);
    cJSON_AddNumberToObject(o, "confirm_runs", rc->confirm_runs);
    cJSON_AddNumberToObject(o, "drift_window", (double)rc->drift_window);
    cJSON_AddNumberToObject(o, "drift_min_runs", (double)rc->drift_min_runs);
    {
        static const char *const modes[] = {"warn", "fail", "off"};
        cJSON *mem = cJSON_AddObjectToObject(o, "memory");

        cJSON_AddBoolToObject(mem, "compare", rc->memory);
        cJSON_AddNumberToObject(mem, "rss_floor", rc->rss_floor);
        cJSON_AddNumberToObject(mem, "alloc_floor", rc->alloc_floor);
        cJSON_AddNumberToObject(o, "noisier_ratio", rc->noisier_ratio);
        cJSON_AddStringToObject(o, "noisier", modes[rc->noisier]);
    }
    for (size_t i = 0; i < rc->n_metrics; i++) {
        const bh_regress_metric_cfg *m = &rc->metrics[i];
        cJSON *x = cJSON_CreateObject();

        cJSON_AddStringToObject(x, "name", m->name);
        cJSON_AddStringToObject(x, "direction", m->direction > 0   ? "lower"
                                                : m->direction < 0 ? "higher"
                                                                   : "as reported");
        cJSON_AddBoolToObject(x, "ignore", m->ignore);
        if (!isnan(m->noise_floor))
            cJSON_AddNumberToObject(x, "noise_floor", m->noise_floor);
        cJSON_AddItemToArray(metrics, x);
    }
    for (size_t i = 0; i < rc->n_overrides; i++) {
        const bh_regress_override *v = &rc->overrides[i];
        cJSON *x = cJSON_CreateObject();

        cJSON_AddStringToObject(x, "match", v->match);
        if (v->set & BH_REGRESS_SET_FLOOR)
            cJSON_AddNumberToObject(x, "noise_floor", v->th.noise_floor);
        if (v->set & BH_REGRESS_SET_WARNING)
            cJSON_AddNumberToObject(x, "warning", v->th.warning);
        if (v->set & BH_REGRESS_SET_CRITICAL)
            cJSON_AddNumberToObject(x, "critical", v->th.critical);
        cJSON_AddItemToArray(overrides, x);
    }
    cJSON_AddItemToObject(o, "metrics", metrics);
    cJSON_AddItemToObject(o, "overrides", overrides);
    return o;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

cJSON *bh_gate_json(const bh_gate_spec *g)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *ignore = cJSON_CreateArray();
    char **sorted = bh_xcalloc(g->n_ignore ? g->n_ignore : 1, sizeof(*sorted));

    cJSON_AddStringToObject(o, "baseline_sha256", g->baseline_sha256);
    cJSON_AddItemToObject(o, "regression", regression_json(g->rc));
    if (g->n_ignore > 0) {
        memcpy(sorted, g->ignore_params, g->n_ignore * sizeof(*sorted));
        qsort(sorted, g->n_ignore, sizeof(*sorted), cmp_str);
    }
    for (size_t i = 0; i < g->n_ignore; i++)
        if (i == 0 || strcmp(sorted[i], sorted[i - 1]) != 0)
            cJSON_AddItemToArray(ignore, cJSON_CreateString(sorted[i]));
    free(sorted);
    cJSON_AddItemToObject(o, "ignore_params", ignore);
    cJSON_AddStringToObject(o, "confirmation", g->confirmation);
    cJSON_AddBoolToObject(o, "forced", g->forced);
    cJSON_AddBoolToObject(o, "fail_on_regression", g->fail_on_regression);
    return o;
}

/* Finds the first place where a and b differ (either may be NULL); 1 with
 * its path appended to path (cap bytes), else 0. */
static int first_diff(const cJSON *a, const cJSON *b, char *path, size_t cap)
{
    size_t len = strlen(path);

    if (!a || !b || (a->type & 0xff) != (b->type & 0xff))
        return 1;
    if (cJSON_IsObject(a)) {
        const cJSON *x;

        cJSON_ArrayForEach(x, a) {
            snprintf(path + len, cap - len, "%s%s", len ? "." : "", x->string);
            if (first_diff(x, cJSON_GetObjectItemCaseSensitive(b, x->string), path, cap))
                return 1;
        }
        cJSON_ArrayForEach(x, b) {
            snprintf(path + len, cap - len, "%s%s", len ? "." : "", x->string);
            if (!cJSON_GetObjectItemCaseSensitive(a, x->string))
                return 1;
        }
        path[len] = '\0';
        return 0;
    }
    if (cJSON_IsArray(a)) {
        int n = cJSON_GetArraySize(a);

        if (n != cJSON_GetArraySize(b))
            return 1;
        for (int i = 0; i < n; i++) {
            snprintf(path + len, cap - len, "[%d]", i);
            if (first_diff(cJSON_GetArrayItem(a, i), cJSON_GetArrayItem(b, i), path, cap))
                return 1;
        }
        path[len] = '\0';
        return 0;
    }
    return !cJSON_Compare(a, b, 1);
}

/* The value at a dotted path of first_diff, printed (new string). */
static char *value_text(const cJSON *root, const char *path)
{
    char *copy = bh_xstrdup(path);
    char *save = NULL;
    const cJSON *v = root;
    char *text;

    for (char *tok = strtok_r(copy, ".", &save); tok && v; tok = strtok_r(NULL, ".", &save)) {
        char *br = strchr(tok, '[');

        if (br)
            *br = '\0';
        v = *tok ? cJSON_GetObjectItemCaseSensitive(v, tok) : v;
        for (; br && v; br = strchr(br + 1, '['))
            v = cJSON_GetArrayItem(v, atoi(br + 1));
    }
    free(copy);
    if (!v)
        return bh_xstrdup("nothing");
    text = bh_json_print_unformatted(v);
    if (text && strlen(text) > 80)
        strcpy(text + 77, "...");
    return text ? text : bh_xstrdup("?");
}

/* The baseline a comparison names, or "?". */
static const char *label(const bh_rv_comparison *cmp)
{
    return cmp->baseline ? cmp->baseline : "?";
}

int bh_gate_check_same(const bh_rv_comparison *a, const bh_rv_comparison *b, const char *na,
                       const char *nb, bh_error *e)
{
    const char *da = a->gate_baseline_sha256, *db = b->gate_baseline_sha256;
    char path[256] = "";
    cJSON *xa, *xb;
    int rc = 0;

    if (!a->gate || !b->gate)
        return bh_error_set(e, "%s: comparison without a gate record (comparison.gate, "
                               "written by bhost run --baseline): cannot check how it was "
                               "gated", a->gate ? nb : na);
    if (!da || !db || strcmp(da, db) != 0)
        return bh_error_set(e, "shards gated against different baselines: %s against %s "
                               "(sha256 %.12s), %s against %s (sha256 %.12s)",
                            na, label(a), da ? da : "?", nb, label(b), db ? db : "?");
    /* the records are compared whole, as JSON trees, but fail_on_regression */
    xa = cJSON_Duplicate(a->gate, 1);
    xb = cJSON_Duplicate(b->gate, 1);
    cJSON_DeleteItemFromObjectCaseSensitive(xa, "fail_on_regression");
    cJSON_DeleteItemFromObjectCaseSensitive(xb, "fail_on_regression");
    if (first_diff(xa, xb, path, sizeof(path))) {
        char *va = value_text(xa, path), *vb = value_text(xb, path);

        rc = bh_error_set(e, "shards gated with different settings: %s has %s %s, %s has %s",
                          na, path, va, nb, vb);
        free(va);
        free(vb);
    }
    cJSON_Delete(xa);
    cJSON_Delete(xb);
    return rc;
}
