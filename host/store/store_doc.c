// SPDX-License-Identifier: MIT
/* A stored run as a result document again (see store_query.h,
 * bh_store_load_doc): the inverse of store_prep.c, four queries (run,
 * cases, samples, summaries). */
#define _GNU_SOURCE
#include "store_query.h"

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "result_doc.h"
#include "store_internal.h"

#include <stdlib.h>
#include <string.h>

/* One case of the document being rebuilt, by its row id. */
typedef struct case_ref {
    int64_t row;
    cJSON *c;
} case_ref;

typedef struct loader {
    bh_store *s;
    int64_t id;
    case_ref *cases; /* ascending row ids (cases are inserted in order) */
    size_t n, cap;
    bh_error *e;
} loader;

/* Parses JSON text stored by the store; NULL text gives NULL. A column
 * that does not parse is an error (the store was written by something
 * else). */
static int parse(loader *L, const char *text, const char *what, cJSON **out)
{
    *out = NULL;
    if (!text)
        return 0;
    *out = cJSON_Parse(text);
    if (!*out)
        return bh_error_set(L->e, "%s: run %lld: %s is not JSON", L->s->name, (long long)L->id,
                            what);
    return 0;
}

/* Moves every member of obj (an object, deleted) into dst. */
static void merge(cJSON *dst, cJSON *obj)
{
    cJSON *it;

    while (obj && (it = obj->child)) {
        cJSON_DetachItemViaPointer(obj, it);
        cJSON_AddItemToObject(dst, it->string, it);
        /* cJSON_AddItemToObject copied the key; the detached one is freed with it */
    }
    cJSON_Delete(obj);
}

/* Adds text column col of st under key (null when SQL NULL). */
static void add_text(loader *L, bh_store_stmt *st, cJSON *o, const char *key, int col)
{
    const char *t = L->s->ops->col_text(st, col);

    if (t)
        cJSON_AddStringToObject(o, key, t);
    else
        cJSON_AddNullToObject(o, key);
}

/* Adds number column col (null when SQL NULL). */
static void add_num(loader *L, bh_store_stmt *st, cJSON *o, const char *key, int col)
{
    if (L->s->ops->is_null(st, col))
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddNumberToObject(o, key, L->s->ops->col_double(st, col));
}

/* Prepares sql with the run id bound as $1. */
static bh_store_stmt *query(loader *L, const char *sql)
{
    bh_store_stmt *st = L->s->ops->prepare(L->s->db, sql, 1, L->e);

    if (st)
        L->s->ops->bind_i64(st, 1, L->id);
    return st;
}

/* The case of row id, or NULL. */
static cJSON *case_of(const loader *L, int64_t row)
{
    size_t lo = 0, hi = L->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (L->cases[mid].row < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < L->n && L->cases[lo].row == row ? L->cases[lo].c : NULL;
}

/* The run and system objects into doc. 1 found, 0 no such run, -1. */
static int load_run(loader *L, cJSON *doc)
{
    bh_store_stmt *st = query(L, "SELECT run_json, system_json FROM run_docs WHERE run_id = $1");
    cJSON *run = NULL, *sys = NULL;
    int rc;

    if (!st)
        return -1;
    rc = L->s->ops->step(st, L->e);
    if (rc == 1 && (parse(L, L->s->ops->col_text(st, 0), "run_json", &run) != 0 ||
                    parse(L, L->s->ops->col_text(st, 1), "system_json", &sys) != 0))
        rc = -1;
    L->s->ops->finalize(st);
    if (rc == 1) {
        cJSON_AddStringToObject(doc, "schema", BH_RESULT_SCHEMA);
        cJSON_AddItemToObject(doc, "run", run ? run : cJSON_CreateObject());
        cJSON_AddItemToObject(doc, "system", sys ? sys : cJSON_CreateObject());
        return 1;
    }
    cJSON_Delete(run);
    cJSON_Delete(sys);
    return rc;
}

/* The cases (without runs and summaries) into doc.cases. */
static int load_cases(loader *L, cJSON *cases)
{
    bh_store_stmt *st = query(L, "SELECT c.id, s.case_id, c.plugin, c.benchmark, c.status,"
                                 " c.message, c.detail_json FROM cases c JOIN series s ON"
                                 " s.id = c.series_id WHERE c.run_id = $1 ORDER BY c.ord");
    int rc;

    if (!st)
        return -1;
    while ((rc = L->s->ops->step(st, L->e)) == 1) {
        cJSON *c = cJSON_CreateObject();
        cJSON *detail = NULL;
        case_ref ref = {L->s->ops->col_i64(st, 0), c};

        add_text(L, st, c, "id", 1);
        add_text(L, st, c, "plugin", 2);
        add_text(L, st, c, "benchmark", 3);
        add_text(L, st, c, "status", 4);
        if (!L->s->ops->is_null(st, 5))
            add_text(L, st, c, "message", 5);
        cJSON_AddItemToArray(cases, c);
        if (parse(L, L->s->ops->col_text(st, 6), "a case's detail_json", &detail) != 0) {
            rc = -1;
            break;
        }
        merge(c, detail);
        cJSON_AddItemToObject(c, "runs", cJSON_CreateArray());
        cJSON_AddNullToObject(c, "verdict");
        BH_PUSH(L->cases, L->n, L->cap, ref);
    }
    L->s->ops->finalize(st);
    return rc < 0 ? -1 : 0;
}

/* Each case's runs with their raw samples. */
static int load_samples(loader *L)
{
    bh_store_stmt *st = query(L, "SELECT m.case_row, m.runs_json FROM samples m"
                                 " JOIN cases c ON c.id = m.case_row WHERE c.run_id = $1");
    int rc;

    if (!st)
        return -1;
    while ((rc = L->s->ops->step(st, L->e)) == 1) {
        cJSON *c = case_of(L, L->s->ops->col_i64(st, 0));
        cJSON *runs = NULL;

        if (!c)
            continue;
        if (parse(L, L->s->ops->col_text(st, 1), "runs_json", &runs) != 0) {
            rc = -1;
            break;
        }
        cJSON_ReplaceItemInObjectCaseSensitive(c, "runs", runs ? runs : cJSON_CreateArray());
    }
    L->s->ops->finalize(st);
    return rc < 0 ? -1 : 0;
}

/* Each case's summary. */
static int load_summaries(loader *L)
{
    bh_strbuf sql = BH_STRBUF_INIT;
    bh_store_stmt *st;
    int rc;

    bh_strbuf_puts(&sql, "SELECT m.case_row, m.unit, m.n, m.runs");
    for (size_t i = 0; i < BH_STORE_N_SUMMARY_NUMS; i++)
        bh_strbuf_printf(&sql, ", m.%s", bh_store_summary_nums[i]);
    bh_strbuf_puts(&sql, ", m.flags, m.extra_json FROM summaries m JOIN cases c ON"
                         " c.id = m.case_row WHERE c.run_id = $1");
    st = query(L, sql.data);
    bh_strbuf_free(&sql);
    if (!st)
        return -1;
    while ((rc = L->s->ops->step(st, L->e)) == 1) {
        cJSON *c = case_of(L, L->s->ops->col_i64(st, 0));
        cJSON *sum, *extra = NULL, *flags;
        const char *f;
        int k = 4;

        if (!c)
            continue;
        sum = cJSON_CreateObject();
        add_text(L, st, sum, "unit", 1);
        add_num(L, st, sum, "n", 2);
        add_num(L, st, sum, "runs", 3);
        for (size_t i = 0; i < BH_STORE_N_SUMMARY_NUMS; i++)
            add_num(L, st, sum, bh_store_summary_nums[i], k++);
        f = L->s->ops->col_text(st, k++);
        if (parse(L, L->s->ops->col_text(st, k), "extra_json", &extra) != 0) {
            cJSON_Delete(sum);
            rc = -1;
            break;
        }
        merge(sum, extra);
        flags = cJSON_AddArrayToObject(sum, "flags");
        while (f && *f) {
            size_t len = strcspn(f, ",");
            char *one = bh_xstrndup(f, len);

            cJSON_AddItemToArray(flags, cJSON_CreateString(one));
            free(one);
            f += len + (f[len] == ',');
        }
        cJSON_AddItemToObject(c, "summary", sum);
    }
    L->s->ops->finalize(st);
    return rc < 0 ? -1 : 0;
}

cJSON *bh_store_load_doc(bh_store *s, int64_t id, bh_error *e)
{
    loader L = {s, id, NULL, 0, 0, e};
    cJSON *doc = cJSON_CreateObject();
    int rc = load_run(&L, doc);

    if (rc == 0)
        bh_error_set(e, "%s: no run %lld in the store", s->name, (long long)id);
    if (rc == 1)
        rc = load_cases(&L, cJSON_AddArrayToObject(doc, "cases")) == 0 && load_samples(&L) == 0 &&
                     load_summaries(&L) == 0
                 ? 1
                 : -1;
    if (rc < 0 && strncmp(e->msg, s->name, strlen(s->name)) != 0)
        bh_error_prefix(e, "%s", s->name);
    free(L.cases);
    if (rc != 1) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}
