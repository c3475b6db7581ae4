// SPDX-License-Identifier: MIT
/* Writing a prepared document (store_prep.c) into the store: one
 * transaction per document, or one savepoint inside a batch; statements
 * prepared once per handle; series ids remembered per handle (see
 * store.h, bh_store_put). */
#define _GNU_SOURCE
#include "store_internal.h"

#include "bh_mem.h"
#include "bh_strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "$first, ..., $last" appended to b. */
static void placeholders(bh_strbuf *b, int first, int last)
{
    for (int k = first; k <= last; k++)
        bh_strbuf_printf(b, k == first ? "$%d" : ", $%d", k);
}

/* An INSERT of the columns cols (comma-separated, n of them) into table,
 * with tail appended (new string). */
static char *insert_sql(const char *table, const char *cols, int n, const char *tail)
{
    bh_strbuf b = BH_STRBUF_INIT;

    bh_strbuf_printf(&b, "INSERT INTO %s (%s) VALUES (", table, cols);
    placeholders(&b, 1, n);
    bh_strbuf_printf(&b, ")%s", tail);
    return bh_strbuf_detach(&b);
}

/* The SQL of a put-time statement (new string) and its parameter count;
 * returning_id as the engine has it (see bh_store_ops). */
static char *slot_sql(int slot, const char *returning_id, int *n)
{
    bh_strbuf b = BH_STRBUF_INIT;
    char *sql;

    switch (slot) {
    case BH_STMT_RUN_FIND:
        *n = 1;
        return bh_xstrdup("SELECT id FROM runs WHERE run_key = $1");
    case BH_STMT_RUN_INSERT:
        *n = 19;
        return insert_sql("runs",
                          "run_key, config_name, config_path, config_hash, fingerprint,"
                          " git_commit, git_branch, git_dirty, host, started_at, finished_at,"
                          " duration_s, seed, complete, host_version, n_cases, baseline, source,"
                          " ingested_at",
                          *n, " ON CONFLICT (run_key) DO NOTHING RETURNING id");
    case BH_STMT_DOCS_INSERT:
        *n = 4;
        return insert_sql("run_docs", "run_id, run_json, system_json, comparison_json", *n, "");
    case BH_STMT_SERIES_UPSERT:
        *n = 2;
        return insert_sql("series", "config_name, case_id", *n,
                          " ON CONFLICT (config_name, case_id) DO UPDATE SET case_id ="
                          " excluded.case_id RETURNING id");
    case BH_STMT_CASE_INSERT:
        *n = 10;
        return insert_sql("cases",
                          "run_id, series_id, ord, plugin, benchmark, status, message, value,"
                          " run_medians, detail_json",
                          *n, returning_id);
    case BH_STMT_SUMMARY_INSERT:
        *n = 4 + BH_STORE_N_SUMMARY_NUMS + 2;
        bh_strbuf_puts(&b, "case_row, unit, n, runs");
        for (size_t i = 0; i < BH_STORE_N_SUMMARY_NUMS; i++)
            bh_strbuf_printf(&b, ", %s", bh_store_summary_nums[i]);
        bh_strbuf_puts(&b, ", flags, extra_json");
        sql = insert_sql("summaries", b.data, *n, "");
        bh_strbuf_free(&b);
        return sql;
    case BH_STMT_SAMPLES_INSERT:
        *n = 4;
        return insert_sql("samples", "case_row, runs, n, runs_json", *n, "");
    default: /* BH_STMT_VERDICT_INSERT */
        *n = 17;
        return insert_sql("verdicts",
                          "case_row, ord, metric, verdict, severity, unit, direction, change,"
                          " change_lo, change_hi, p, q, baseline_median, candidate_median,"
                          " suspect, confirmed, detail_json",
                          *n, "");
    }
}

bh_store_stmt *bh_store_stmt_get(bh_store *s, int slot, bh_error *e)
{
    if (!s->st[slot]) {
        int n = 0;
        char *sql = slot_sql(slot, s->ops->returning_id, &n);

        s->st[slot] = s->ops->prepare(s->db, sql, n, e);
        free(sql);
    }
    return s->st[slot];
}

/* Runs a bound statement and resets it; *id (when not NULL) gets the
 * first column of the row it returns. 1 a row came back, 0 none, -1. */
static int run_stmt(bh_store *s, bh_store_stmt *st, int64_t *id, bh_error *e)
{
    int rc = s->ops->step(st, e);

    if (rc == 1 && id)
        *id = s->ops->col_i64(st, 0);
    s->ops->reset(st);
    return rc;
}

/* ---- series ids ------------------------------------------------------- */

static uint64_t hash_key(const char *k)
{
    uint64_t h = 1469598103934665603ull;

    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 1099511628211ull;
    return h;
}

void bh_store_series_forget(bh_store *s)
{
    for (size_t i = 0; i < s->cap_series; i++) {
        free(s->series[i].key);
        s->series[i].key = NULL;
    }
    s->n_series = 0;
}

/* The slot of key: where it is, or the free slot where it belongs. */
static bh_store_series_slot *series_slot(bh_store *s, const char *key)
{
    size_t mask = s->cap_series - 1;
    size_t at = (size_t)hash_key(key) & mask;

    while (s->series[at].key && strcmp(s->series[at].key, key) != 0)
        at = (at + 1) & mask;
    return &s->series[at];
}

/* Remembers key -> id, growing the table at half load. */
static void series_remember(bh_store *s, const char *key, int64_t id)
{
    bh_store_series_slot *slot;

    if (2 * (s->n_series + 1) > s->cap_series) {
        bh_store_series_slot *old = s->series;
        size_t old_cap = s->cap_series;

        s->cap_series = old_cap ? 2 * old_cap : 256;
        s->series = bh_xcalloc(s->cap_series, sizeof(*s->series));
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].key)
                *series_slot(s, old[i].key) = old[i];
        free(old);
    }
    slot = series_slot(s, key);
    if (!slot->key) {
        slot->key = bh_xstrdup(key);
        s->n_series++;
    }
    slot->id = id;
}

/* The series id of (config, case id), created when new. 0 or -1. */
static int series_id(bh_store *s, const char *config, const char *id, bh_strbuf *key,
                     int64_t *out, bh_error *e)
{
    bh_store_stmt *st;

    key->len = 0;
    bh_strbuf_puts(key, config);
    bh_strbuf_append(key, "\x1f", 1);
    bh_strbuf_puts(key, id);
    if (s->cap_series) {
        bh_store_series_slot *slot = series_slot(s, key->data);

        if (slot->key) {
            *out = slot->id;
            return 0;
        }
    }
    st = bh_store_stmt_get(s, BH_STMT_SERIES_UPSERT, e);
    if (!st)
        return -1;
    s->ops->bind_text(st, 1, config);
    s->ops->bind_text(st, 2, id);
    if (run_stmt(s, st, out, e) != 1)
        return e->msg[0] ? -1 : bh_error_set(e, "series upsert returned no id");
    series_remember(s, key->data, *out);
    return 0;
}

/* The series ids of every BH_SV_SERIES value of p, in order (new array). */
static int64_t *resolve_series(bh_store *s, const bh_store_prep *p, bh_error *e)
{
    int64_t *ids = bh_xcalloc(p->n_rows ? p->n_rows : 1, sizeof(int64_t));
    bh_strbuf key = BH_STRBUF_INIT;
    size_t k = 0;

    for (size_t i = 0; i < p->n_vals; i++) {
        if (p->vals[i].type != BH_SV_SERIES)
            continue;
        if (series_id(s, p->config, p->text.data + p->vals[i].off, &key, &ids[k++], e) != 0) {
            free(ids);
            ids = NULL;
            break;
        }
    }
    bh_strbuf_free(&key);
    return ids;
}

/* ---- writing ---------------------------------------------------------- */

/* The id of the run with key, 0 when there is none. -1 on error. */
static int find_run(bh_store *s, const char *key, int64_t *id, bh_error *e)
{
    bh_store_stmt *st = bh_store_stmt_get(s, BH_STMT_RUN_FIND, e);

    *id = 0;
    if (!st)
        return -1;
    s->ops->bind_text(st, 1, key);
    return run_stmt(s, st, id, e) < 0 ? -1 : 0;
}

/* Ends the put's transaction or savepoint: commit when ok, else undo. */
static int finish(bh_store *s, int own, int ok, bh_error *e)
{
    bh_error ignored = {""};

    if (own)
        return ok ? bh_store_tx_commit(s, e) : (bh_store_tx_rollback(s), -1);
    if (ok)
        return s->ops->exec(s->db, "RELEASE SAVEPOINT bh_put", e);
    s->ops->exec(s->db, "ROLLBACK TO SAVEPOINT bh_put", &ignored);
    s->ops->exec(s->db, "RELEASE SAVEPOINT bh_put", &ignored);
    bh_store_series_forget(s);
    return -1;
}

/* Binds and runs row r. *run and *cas are the ids so far; the row's own
 * id (runs, cases) is stored into them. 1 ran (for the runs row: it was
 * inserted), 0 the runs row met an existing key, -1 error. */
static int write_row(bh_store *s, const bh_store_prep *p, const bh_store_row *r,
                     const int64_t *series, size_t *k_series, int64_t *run, int64_t *cas,
                     bh_error *e)
{
    bh_store_stmt *st = bh_store_stmt_get(s, r->slot, e);
    int64_t id = 0;
    int rc;

    if (!st)
        return -1;
    for (int k = 0; k < r->n; k++) {
        const bh_store_val *v = &p->vals[r->first + (size_t)k];

        switch (v->type) {
        case BH_SV_I64: s->ops->bind_i64(st, k + 1, v->i); break;
        case BH_SV_NUM: s->ops->bind_double(st, k + 1, v->d); break;
        case BH_SV_TEXT: s->ops->bind_text(st, k + 1, p->text.data + v->off); break;
        case BH_SV_RUN: s->ops->bind_i64(st, k + 1, *run); break;
        case BH_SV_CASE: s->ops->bind_i64(st, k + 1, *cas); break;
        case BH_SV_SERIES: s->ops->bind_i64(st, k + 1, series[(*k_series)++]); break;
        default: s->ops->bind_null(st, k + 1); break;
        }
    }
    if (r->slot == BH_STMT_CASE_INSERT) {
        /* ids of case rows without RETURNING where the engine can: on
         * SQLite, RETURNING made the case insert three times slower */
        rc = s->ops->step(st, e);
        *cas = rc < 0 ? 0 : s->ops->inserted_id(st);
        s->ops->reset(st);
        if (rc < 0)
            return -1;
        return *cas > 0 ? 1 : bh_error_set(e, "case insert returned no id");
    }
    rc = run_stmt(s, st, &id, e);
    if (rc < 0)
        return -1;
    if (r->slot == BH_STMT_RUN_INSERT) {
        *run = rc == 1 ? id : 0;
        return rc;
    }
    return 1;
}

int bh_store_put_prep(bh_store *s, const bh_store_prep *p, int64_t *run_id, bh_error *e)
{
    int64_t *series = NULL;
    int64_t run = 0, cas = 0;
    size_t k_series = 0;
    int own = 0, rc = -1;

    e->msg[0] = '\0';
    if (find_run(s, p->key, &run, e) != 0)
        goto db_error;
    if (run) {
        rc = 0;
        goto out;
    }
    series = resolve_series(s, p, e);
    if (!series)
        goto db_error;
    own = !s->in_tx;
    if (own ? bh_store_tx_begin(s, e) != 0 : s->ops->exec(s->db, "SAVEPOINT bh_put", e) != 0)
        goto db_error;
    for (size_t i = 0; i < p->n_rows; i++) {
        int w = write_row(s, p, &p->rows[i], series, &k_series, &run, &cas, e);

        if (w < 0)
            goto undo;
        if (w == 0) {
            /* stored meanwhile by a concurrent writer (PostgreSQL) */
            if (finish(s, own, 1, e) != 0 || find_run(s, p->key, &run, e) != 0)
                goto db_error;
            rc = 0;
            goto out;
        }
    }
    if (finish(s, own, 1, e) != 0)
        goto db_error;
    if (!own)
        s->batch_puts++;
    rc = 1;
    goto out;
undo:
    finish(s, own, 0, e);
db_error:
    bh_error_prefix(e, "%s", s->name);
    rc = -1;
out:
    if (rc >= 0 && run_id)
        *run_id = run;
    free(series);
    return rc;
}

int bh_store_put(bh_store *s, const cJSON *doc, const char *source, int64_t *run_id,
                 bh_error *e)
{
    bh_store_prep *p = bh_store_prep_doc(doc, source, NULL, e);
    int rc;

    if (!p)
        return -1;
    rc = bh_store_put_prep(s, p, run_id, e);
    bh_store_prep_free(p);
    return rc;
}
