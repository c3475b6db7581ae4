// SPDX-License-Identifier: MIT
/* Recent values of every case of a config on one machine: the history the
 * regression gate's drift floor is estimated from (see store_query.h). */
#define _GNU_SOURCE
#include "store_query.h"

#include "bh_mem.h"
#include "descriptive.h"
#include "store_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How many of the newest runs are looked at, per value wanted of a case:
 * shards store a share of the cases each, so a case's last `window`
 * values may lie among several times as many runs. */
#define RUNS_PER_VALUE 16

/* The newest `window` ok results of each case (ROW_NUMBER per series)
 * among the newest window * RUNS_PER_VALUE runs of the config on the
 * fingerprint that started at or before $3; by case id, newest first. */
static const char recent_sql[] =
    "SELECT case_id, value, detail_json FROM ("
    " SELECT s.case_id AS case_id, c.value AS value, c.detail_json AS detail_json,"
    "  r.started_at AS started_at, r.id AS run_id,"
    "  ROW_NUMBER() OVER (PARTITION BY c.series_id ORDER BY r.started_at DESC, r.id DESC)"
    "  AS k"
    " FROM cases c JOIN runs r ON r.id = c.run_id JOIN series s ON s.id = c.series_id"
    " WHERE c.run_id IN (SELECT id FROM runs WHERE config_name = $1 AND fingerprint = $2"
    "  AND started_at <= $3 ORDER BY started_at DESC, id DESC LIMIT $4)"
    " AND c.status = 'ok' AND c.value IS NOT NULL) t"
    " WHERE k <= $5 ORDER BY case_id, started_at DESC, run_id DESC";

/* The entry of (case_id, metric) among v[from..*n), appended when absent. */
static bh_store_recent *entry(bh_store_recent **v, size_t *n, size_t *cap, size_t from,
                              const char *case_id, const char *metric)
{
    bh_store_recent x = {NULL, NULL, NULL, 0, 0};

    for (size_t i = from; i < *n; i++)
        if (strcmp((*v)[i].metric, metric) == 0)
            return &(*v)[i];
    x.case_id = bh_xstrdup(case_id);
    x.metric = bh_xstrdup(metric);
    BH_PUSH(*v, *n, *cap, x);
    return &(*v)[*n - 1];
}

/* Appends value to e's values. */
static void add(bh_store_recent *e, double value)
{
    BH_PUSH(e->values, e->n, e->cap, value);
}

/* The median of the numbers of a JSON array; NAN when it has none. */
static double median_of(const cJSON *arr)
{
    size_t cap = (size_t)cJSON_GetArraySize(arr), k = 0;
    double *v, m;
    const cJSON *x;

    if (cap == 0)
        return NAN;
    v = bh_xcalloc(cap, sizeof(*v));
    cJSON_ArrayForEach(x, arr)
        if (cJSON_IsNumber(x) && isfinite(x->valuedouble))
            v[k++] = x->valuedouble;
    if (k > 0) {
        bh_stats_sort(v, k);
        m = bh_stats_median_sorted(v, k);
    } else {
        m = NAN;
    }
    free(v);
    return m;
}

/* The extra metrics of a case's detail_json: each metric's median value
 * appended to its entry. Text that does not parse adds nothing. */
static void add_metrics(bh_store_recent **v, size_t *n, size_t *cap, size_t from,
                        const char *case_id, const char *detail)
{
    cJSON *d = detail ? cJSON_Parse(detail) : NULL;
    const cJSON *m;

    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(d, "metrics")) {
        double x = median_of(cJSON_GetObjectItemCaseSensitive(m, "values"));

        if (m->string && isfinite(x))
            add(entry(v, n, cap, from, case_id, m->string), x);
    }
    cJSON_Delete(d);
}

int bh_store_recent_values(bh_store *s, const char *config, const char *fingerprint,
                           const char *before, size_t window, bh_store_recent **out,
                           size_t *n, bh_error *e)
{
    bh_store_stmt *st;
    size_t cap = 0, from = 0;
    char *current = NULL;
    int rc;

    *out = NULL;
    *n = 0;
    if (window == 0)
        return 0;
    st = s->ops->prepare(s->db, recent_sql, 5, e);
    if (!st)
        return bh_error_prefix(e, "%s", s->name);
    s->ops->bind_text(st, 1, config);
    s->ops->bind_text(st, 2, fingerprint);
    s->ops->bind_text(st, 3, before);
    s->ops->bind_i64(st, 4, (int64_t)(window * RUNS_PER_VALUE));
    s->ops->bind_i64(st, 5, (int64_t)window);
    while ((rc = s->ops->step(st, e)) == 1) {
        const char *id = s->ops->col_text(st, 0);

        if (!id)
            continue;
        if (!current || strcmp(current, id) != 0) {
            free(current);
            current = bh_xstrdup(id);
            from = *n;
        }
        add(entry(out, n, &cap, from, id, BH_STORE_TIME_METRIC), s->ops->col_double(st, 1));
        add_metrics(out, n, &cap, from, id, s->ops->col_text(st, 2));
    }
    free(current);
    s->ops->finalize(st);
    if (rc < 0) {
        bh_error_prefix(e, "%s", s->name);
        bh_store_recent_free(*out, *n);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

void bh_store_recent_free(bh_store_recent *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].case_id);
        free(v[i].metric);
        free(v[i].values);
    }
    free(v);
}
