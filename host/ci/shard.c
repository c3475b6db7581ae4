// SPDX-License-Identifier: MIT
/* Partitioning a plan into shards (shard.h). */
#define _GNU_SOURCE
#include "shard.h"

#include "bh_mem.h"
#include "bh_sha256.h"
#include "bh_strbuf.h"
#include "regress_compare.h"

#include <stdlib.h>
#include <string.h>

/* Reads decimal digits at *p (at most BH_SHARD_MAX); 0 or -1. */
static int read_count(const char **p, unsigned long *v)
{
    if (**p < '0' || **p > '9')
        return -1;
    for (*v = 0; **p >= '0' && **p <= '9'; (*p)++) {
        *v = *v * 10 + (unsigned long)(**p - '0');
        if (*v > BH_SHARD_MAX)
            return -1;
    }
    return 0;
}

int bh_shard_parse(const char *text, bh_shard_spec *s, bh_error *e)
{
    const char *p = text ? text : "";
    unsigned long i, n;

    if (read_count(&p, &i) != 0 || *p++ != '/' || read_count(&p, &n) != 0 || *p != '\0' ||
        i < 1 || i > n)
        return bh_error_set(e, "--shard '%s': expected I/N with 1 <= I <= N <= %d, e.g. 2/4",
                            text ? text : "", BH_SHARD_MAX);
    s->index = (uint32_t)i;
    s->count = (uint32_t)n;
    return 0;
}

/* One case in the LPT order. */
typedef struct lpt_item {
    const char *id;
    uint64_t w;
    size_t i;
} lpt_item;

/* Heaviest first, then by id, then by position: a total order. */
static int cmp_lpt(const void *a, const void *b)
{
    const lpt_item *x = a, *y = b;
    int c;

    if (x->w != y->w)
        return x->w < y->w ? 1 : -1;
    c = strcmp(x->id, y->id);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

void bh_shard_partition(const char *const *ids, const uint64_t *weights, size_t n,
                        uint32_t count, uint32_t *assign, uint64_t *loads)
{
    lpt_item *v = bh_xcalloc(n ? n : 1, sizeof(*v));
    uint64_t *load = bh_xcalloc(count, sizeof(*load));

    for (size_t i = 0; i < n; i++)
        v[i] = (lpt_item){ids[i], weights[i], i};
    qsort(v, n, sizeof(*v), cmp_lpt);
    for (size_t k = 0; k < n; k++) {
        uint32_t best = 0;

        for (uint32_t s = 1; s < count; s++)
            if (load[s] < load[best])
                best = s;
        assign[v[k].i] = best;
        load[best] += v[k].w;
    }
    if (loads)
        memcpy(loads, load, count * sizeof(*load));
    free(load);
    free(v);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

/* Weights of the plan's cases: recorded durations, the median of them for
 * cases without a record, all 1 when nothing is recorded. Returns the
 * number of cases with a record. */
static size_t weigh(const bh_plan *plan, const bh_shard_history *h, uint64_t *w)
{
    uint64_t *known = bh_xcalloc(plan->n ? plan->n : 1, sizeof(*known));
    size_t n_known = 0;
    uint64_t fill = 1;

    for (size_t i = 0; i < plan->n; i++) {
        int64_t d = bh_shard_history_find(h, plan->cases[i].id);

        w[i] = d >= 0 ? (uint64_t)d : UINT64_MAX;
        if (d >= 0)
            known[n_known++] = (uint64_t)d;
    }
    if (n_known) {
        qsort(known, n_known, sizeof(*known), cmp_u64);
        fill = known[n_known / 2];
    }
    for (size_t i = 0; i < plan->n; i++)
        if (w[i] == UINT64_MAX)
            w[i] = fill;
    free(known);
    return n_known;
}

/* The sha256 of the whole assignment: count, then "id<TAB>shard" per case
 * in plan order. */
static void partition_hash(const bh_plan *plan, const uint32_t *assign, uint32_t count,
                           char hex[65])
{
    bh_strbuf b = BH_STRBUF_INIT;

    bh_strbuf_printf(&b, "bhost.shard/1\n%u\n", count);
    for (size_t i = 0; i < plan->n; i++)
        bh_strbuf_printf(&b, "%s\t%u\n", plan->cases[i].id, assign[i] + 1);
    bh_sha256_hex(bh_strbuf_str(&b), b.len, hex);
    bh_strbuf_free(&b);
}

void bh_shard_apply(bh_plan *plan, const bh_shard_spec *spec, const bh_shard_history *h,
                    bh_shard_info *out)
{
    size_t n = plan->n;
    const char **ids = bh_xcalloc(n ? n : 1, sizeof(*ids));
    uint64_t *w = bh_xcalloc(n ? n : 1, sizeof(*w));
    uint32_t *assign = bh_xcalloc(n ? n : 1, sizeof(*assign));
    uint64_t *loads = bh_xcalloc(spec->count, sizeof(*loads));
    unsigned char *keep = bh_xcalloc(n ? n : 1, 1);

    memset(out, 0, sizeof(*out));
    out->spec = *spec;
    out->cases_total = n;
    out->history_files = h->files;
    out->cases_with_history = weigh(plan, h, w);
    out->balanced_by = out->cases_with_history ? "durations" : "case count";
    for (size_t i = 0; i < n; i++)
        ids[i] = plan->cases[i].id;
    bh_shard_partition(ids, w, n, spec->count, assign, loads);
    partition_hash(plan, assign, spec->count, out->partition);
    out->positions = bh_xcalloc(n ? n : 1, sizeof(*out->positions));
    for (size_t i = 0; i < n; i++) {
        keep[i] = assign[i] == spec->index - 1;
        if (keep[i])
            out->positions[out->n_positions++] = i;
    }
    for (uint32_t s = 0; s < spec->count; s++)
        out->total_ns += loads[s];
    out->load_ns = loads[spec->index - 1];
    if (out->cases_with_history == 0) /* weights were case counts */
        out->load_ns = out->total_ns = 0;
    bh_plan_keep(plan, keep);
    free(keep);
    free(loads);
    free(assign);
    free(w);
    free(ids);
}

cJSON *bh_shard_json(const bh_shard_info *info)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *pos = cJSON_AddArrayToObject(o, "positions");

    cJSON_AddNumberToObject(o, "index", info->spec.index);
    cJSON_AddNumberToObject(o, "count", info->spec.count);
    cJSON_AddNumberToObject(o, "cases", (double)info->n_positions);
    cJSON_AddNumberToObject(o, "cases_total", (double)info->cases_total);
    for (size_t i = 0; i < info->n_positions; i++)
        cJSON_AddItemToArray(pos, cJSON_CreateNumber((double)info->positions[i]));
    cJSON_AddStringToObject(o, "partition", info->partition);
    cJSON_AddStringToObject(o, "balanced_by", info->balanced_by);
    if (info->cases_with_history) {
        cJSON_AddNumberToObject(o, "estimated_s", (double)info->load_ns / 1e9);
        cJSON_AddNumberToObject(o, "estimated_total_s", (double)info->total_ns / 1e9);
    }
    cJSON_AddNumberToObject(o, "history_files", (double)info->history_files);
    cJSON_AddNumberToObject(o, "cases_with_history", (double)info->cases_with_history);
    return o;
}

void bh_shard_info_free(bh_shard_info *info)
{
    free(info->positions);
    info->positions = NULL;
    info->n_positions = 0;
}

void bh_shard_select_backends(bh_plan *plan, char *const *names, size_t n)
{
    unsigned char *keep;

    if (n == 0)
        return;
    keep = bh_xcalloc(plan->n ? plan->n : 1, 1);
    for (size_t i = 0; i < plan->n; i++) {
        const char *b = plan->cases[i].backend ? plan->cases[i].backend : "none";

        for (size_t k = 0; k < n && !keep[i]; k++)
            keep[i] = strcmp(names[k], b) == 0;
    }
    bh_plan_keep(plan, keep);
    free(keep);
}

/* The matching key of a plan case (its id without ignored parameters). */
static char *plan_key(const bh_case *c, const bh_regress_match *m)
{
    return bh_regress_id_key(c->id, c->params_plain, m);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **bh_shard_plan_keys(const bh_plan *plan, char *const *ignore, size_t n_ignore)
{
    bh_regress_match m = {ignore, n_ignore};
    char **keys = bh_xcalloc(plan->n ? plan->n : 1, sizeof(*keys));

    for (size_t i = 0; i < plan->n; i++)
        keys[i] = plan_key(&plan->cases[i], &m);
    qsort(keys, plan->n, sizeof(*keys), cmp_str);
    return keys;
}

void bh_shard_keys_free(char **keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
}

cJSON *bh_shard_trim_baseline(cJSON *base_doc, const bh_plan *plan, char *const *ignore,
                              size_t n_ignore, char *const *scope, size_t n_scope)
{
    bh_regress_match m = {ignore, n_ignore};
    /* the array the dropped cases are detached from (a change, not a read) */
    cJSON *cases = cJSON_GetObjectItemCaseSensitive(base_doc, "cases");
    cJSON *dropped = cJSON_CreateArray();
    bh_result_view v;
    char **keys;
    cJSON *c;
    size_t j = 0;

    if (!cJSON_IsArray(cases))
        return dropped;
    bh_result_view_load(base_doc, &v);
    keys = bh_shard_plan_keys(plan, ignore, n_ignore);
    c = cases->child;
    while (c) {
        cJSON *next = c->next;

        /* the view holds the cases in document order */
        if (j < v.n_cases && v.cases[j].json == c) {
            char *key = bh_regress_match_key(&v.cases[j++], &m);

            if (!bsearch(&key, keys, plan->n, sizeof(*keys), cmp_str) &&
                (!scope || bsearch(&key, scope, n_scope, sizeof(*scope), cmp_str)))
                cJSON_AddItemToArray(dropped, cJSON_DetachItemViaPointer(cases, c));
            free(key);
        }
        c = next;
    }
    bh_shard_keys_free(keys, plan->n);
    bh_result_view_free(&v);
    return dropped;
}

size_t bh_shard_family_extra(cJSON *others, const bh_regress_config *rc)
{
    cJSON *doc = cJSON_CreateObject();
    bh_regress_report rep;
    size_t n;

    cJSON_AddItemReferenceToObject(doc, "cases", others);
    bh_regress_compare_docs(doc, doc, rc, NULL, &rep);
    n = rep.m_tests;
    bh_regress_report_free(&rep);
    cJSON_Delete(doc);
    return n;
}
