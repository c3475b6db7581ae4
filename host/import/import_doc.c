// SPDX-License-Identifier: MIT
/* The bhost.result/1 document an import builds (import_internal.h): cases
 * looked up by id, runs with their samples, informational metrics,
 * summaries from samples (host/stats) or from the source's own figures,
 * and the run object that marks the document as imported. */
#include "import_internal.h"

#include "bh_mem.h"
#include "result_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bh_imp_init(bh_imp *imp)
{
    memset(imp, 0, sizeof(*imp));
    imp->doc = cJSON_CreateObject();
    cJSON_AddStringToObject(imp->doc, "schema", BH_RESULT_SCHEMA);
    imp->run = cJSON_AddObjectToObject(imp->doc, "run");
    imp->system = cJSON_AddObjectToObject(imp->doc, "system");
    imp->cases = cJSON_AddArrayToObject(imp->doc, "cases");
    imp->warnings = (bh_strbuf)BH_STRBUF_INIT;
}

void bh_imp_free(bh_imp *imp)
{
    cJSON_Delete(imp->doc);
    bh_strset_free(&imp->ids);
    free(imp->items);
    free(imp->config);
    free(imp->started_at);
    free(imp->commit);
    bh_strbuf_free(&imp->warnings);
    memset(imp, 0, sizeof(*imp));
}

cJSON *bh_imp_obj(cJSON *parent, const char *key)
{
    cJSON *o = cJSON_GetObjectItemCaseSensitive(parent, key);

    if (cJSON_IsObject(o))
        return o;
    cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
    return cJSON_AddObjectToObject(parent, key);
}

void bh_imp_set_str(cJSON *o, const char *key, const char *value)
{
    if (!value)
        return;
    cJSON_DeleteItemFromObjectCaseSensitive(o, key);
    cJSON_AddStringToObject(o, key, value);
}

void bh_imp_set_num(cJSON *o, const char *key, double v)
{
    if (!isfinite(v))
        return;
    cJSON_DeleteItemFromObjectCaseSensitive(o, key);
    cJSON_AddNumberToObject(o, key, v);
}

void bh_imp_suggest(char **slot, const char *value)
{
    if (!*slot && value && *value)
        *slot = bh_xstrdup(value);
}

cJSON *bh_imp_case(bh_imp *imp, const char *id, const char *plugin, const char *bench,
                   cJSON *params)
{
    size_t at;
    cJSON *c;

    if (bh_strset_get(&imp->ids, id, &at)) {
        cJSON_Delete(params);
        return imp->items[at];
    }
    c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "id", id);
    cJSON_AddStringToObject(c, "plugin", plugin);
    cJSON_AddStringToObject(c, "benchmark", bench);
    cJSON_AddItemToObject(c, "params", params ? params : cJSON_CreateObject());
    cJSON_AddStringToObject(c, "status", "ok");
    cJSON_AddArrayToObject(c, "runs");
    cJSON_AddItemToArray(imp->cases, c);
    bh_grow((void **)&imp->items, &imp->cap, imp->n_items + 1, sizeof(*imp->items));
    imp->items[imp->n_items] = c;
    /* the key is the case's own id string, which lives as long as the doc */
    bh_strset_add(&imp->ids, cJSON_GetObjectItemCaseSensitive(c, "id")->valuestring, imp->n_items++,
                  NULL);
    return c;
}

cJSON *bh_imp_run(cJSON *c, const char *message)
{
    cJSON *runs = cJSON_GetObjectItemCaseSensitive(c, "runs");
    cJSON *r = cJSON_CreateObject();

    cJSON_AddNumberToObject(r, "index", cJSON_GetArraySize(runs));
    cJSON_AddStringToObject(r, "status", message ? "failed" : "ok");
    if (message)
        cJSON_AddStringToObject(r, "message", message);
    cJSON_AddStringToObject(r, "timing", "manual");
    cJSON_AddArrayToObject(r, "samples");
    cJSON_AddItemToArray(runs, r);
    return r;
}

int bh_imp_sample(cJSON *run, double iters, double ns)
{
    cJSON *pair;

    if (!isfinite(ns) || !isfinite(iters))
        return -1;
    pair = cJSON_CreateArray();
    cJSON_AddItemToArray(pair, cJSON_CreateNumber(iters));
    cJSON_AddItemToArray(pair, cJSON_CreateNumber(ns));
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(run, "samples"), pair);
    if (!cJSON_HasObjectItem(run, "iters_per_sample"))
        cJSON_AddNumberToObject(run, "iters_per_sample", iters);
    return 0;
}

void bh_imp_metric(cJSON *c, const char *name, const char *unit, double value)
{
    cJSON *m = bh_imp_obj(bh_imp_obj(c, "metrics"), name);

    if (!isfinite(value))
        return;
    if (!cJSON_HasObjectItem(m, "unit")) {
        cJSON_AddStringToObject(m, "unit", unit);
        cJSON_AddStringToObject(m, "direction", "lower");
        cJSON_AddStringToObject(m, "kind", "informational");
        cJSON_AddArrayToObject(m, "values");
    }
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(m, "values"), cJSON_CreateNumber(value));
}

bh_imp_stats bh_imp_stats_none(void)
{
    bh_imp_stats s;

    s.n = s.runs = s.mean = s.median = s.sd = s.cv = s.min = s.max = NAN;
    s.mad = s.q1 = s.q3 = s.ci_lo = s.ci_hi = s.ci_level = NAN;
    return s;
}

void bh_imp_summary(cJSON *c, const bh_imp_stats *s)
{
    const char *const keys[] = {
        "n",   "runs", "mean", "median", "sd",           "cv",           "min",
        "max", "mad",  "q1",   "q3",     "median_ci_lo", "median_ci_hi", "median_ci_level"};
    const double vals[] = {s->n,   s->runs, s->mean, s->median, s->sd,    s->cv,    s->min,
                           s->max, s->mad,  s->q1,   s->q3,     s->ci_lo, s->ci_hi, s->ci_level};
    cJSON *o = bh_imp_obj(c, "summary");

    bh_imp_set_str(o, "unit", "ns/iter");
    for (size_t k = 0; k < sizeof(vals) / sizeof(*vals); k++)
        bh_imp_set_num(o, keys[k], vals[k]);
    bh_imp_set_str(o, "source", "imported");
}
