// SPDX-License-Identifier: MIT
/* Opening and closing the results store, transactions, the run key and
 * the table counts (see store.h). */
#define _GNU_SOURCE
#include "store_internal.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "bh_sha256.h"
#include "bh_strbuf.h"
#include "store_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bh_store_is_url(const char *target)
{
    return target && (strncmp(target, "postgresql://", 13) == 0 ||
                      strncmp(target, "postgres://", 11) == 0);
}

char *bh_store_default_target(const char *target, const char *results_dir)
{
    const char *env = getenv("BHOST_STORE");

    if (target && *target)
        return bh_xstrdup(target);
    if (env && *env)
        return bh_xstrdup(env);
    return bh_xasprintf("%s/bhost.db", results_dir && *results_dir ? results_dir : "results");
}

/* The target with a URL's password ("user:SECRET@" or "password=SECRET")
 * replaced by "***" (new string). */
static char *display_name(const char *target)
{
    bh_strbuf b = BH_STRBUF_INIT;
    const char *scheme_end = strstr(target, "://");
    const char *at = scheme_end ? strchr(scheme_end + 3, '@') : NULL;
    const char *colon = NULL;
    const char *p;

    if (!bh_store_is_url(target))
        return bh_xstrdup(target);
    if (at)
        colon = memchr(scheme_end + 3, ':', (size_t)(at - (scheme_end + 3)));
    if (colon) {
        bh_strbuf_append(&b, target, (size_t)(colon + 1 - target));
        bh_strbuf_puts(&b, "***");
        p = at;
    } else {
        p = target;
    }
    while (*p) {
        const char *pw = strstr(p, "password=");

        if (!pw) {
            bh_strbuf_puts(&b, p);
            break;
        }
        bh_strbuf_append(&b, p, (size_t)(pw + 9 - p));
        bh_strbuf_puts(&b, "***");
        p = pw + 9 + strcspn(pw + 9, "&");
    }
    return bh_strbuf_detach(&b);
}

int bh_store_exists(const char *target, bh_error *e)
{
    if (!target || bh_store_is_url(target) || bh_is_regular_file(target))
        return 1;
    if (bh_path_exists(target)) {
        bh_error_set(e, "%s: not a regular file", target);
        return 0;
    }
    bh_error_set(e, "%s: no such store (bhost run and bhost store ingest create it)", target);
    return 0;
}

bh_store *bh_store_open(const char *target, bh_error *e)
{
    bh_store *s;
    int rc;

    if (!target || !*target) {
        bh_error_set(e, "store: expected a file path or a postgresql:// URL");
        return NULL;
    }
    s = bh_xcalloc(1, sizeof(*s));
    s->name = display_name(target);
    if (bh_store_is_url(target))
        rc = bh_store_pg_connect(target, s->name, &s->db, &s->ops, e);
    else
        rc = bh_store_sqlite_connect(target, s->name, &s->db, &s->ops, e);
    if (rc != 0 || bh_store_migrate(s, e) != 0) {
        bh_store_close(s);
        return NULL;
    }
    return s;
}

/* Marks the batch over and ends the engine's bulk mode. */
static void batch_over(bh_store *s)
{
    s->in_batch = 0;
    s->batch_puts = 0;
    if (s->bulk)
        s->ops->bulk_end(s->bulk);
    s->bulk = NULL;
}

void bh_store_close(bh_store *s)
{
    if (!s)
        return;
    if (s->in_tx)
        bh_store_tx_rollback(s);
    batch_over(s);
    for (int i = 0; i < BH_STMT_COUNT; i++)
        if (s->st[i])
            s->ops->finalize(s->st[i]);
    bh_store_series_forget(s);
    free(s->series);
    if (s->db)
        s->ops->close(s->db);
    free(s->name);
    free(s);
}

const char *bh_store_engine(const bh_store *s)
{
    return s->ops->engine;
}

const char *bh_store_name(const bh_store *s)
{
    return s->name;
}

int bh_store_opened_version(const bh_store *s)
{
    return s->opened_version;
}

void bh_store_run_key(const cJSON *doc, char key[65])
{
    bh_strbuf b = BH_STRBUF_INIT;

    bh_store_json_append(&b, cJSON_GetObjectItemCaseSensitive(doc, "run"));
    bh_strbuf_append(&b, "\n", 1);
    bh_store_json_append(&b, cJSON_GetObjectItemCaseSensitive(doc, "system"));
    bh_sha256_hex(b.data, b.len, key);
    bh_strbuf_free(&b);
}

/* Runs one transaction statement; errors name the store. */
static int tx_exec(bh_store *s, const char *sql, bh_error *e)
{
    if (s->ops->exec(s->db, sql, e) != 0)
        return bh_error_prefix(e, "%s", s->name);
    return 0;
}

int bh_store_tx_begin(bh_store *s, bh_error *e)
{
    if (tx_exec(s, s->ops->begin_write, e) != 0)
        return -1;
    s->in_tx = 1;
    return 0;
}

int bh_store_tx_commit(bh_store *s, bh_error *e)
{
    if (tx_exec(s, "COMMIT", e) != 0) {
        bh_store_tx_rollback(s);
        return -1;
    }
    s->in_tx = 0;
    return 0;
}

void bh_store_tx_rollback(bh_store *s)
{
    bh_error ignored = {""};

    s->ops->exec(s->db, "ROLLBACK", &ignored);
    s->in_tx = 0;
    /* Series rows created in the transaction are gone with it. */
    bh_store_series_forget(s);
}

int bh_store_batch_begin(bh_store *s, bh_error *e)
{
    if (s->in_batch)
        return 0;
    s->in_batch = 1;
    s->batch_puts = 0;
    if (!s->ops->batch_puts)
        return 0;
    if (s->ops->bulk_begin)
        s->bulk = s->ops->bulk_begin(s->db);
    if (bh_store_tx_begin(s, e) != 0) {
        batch_over(s);
        return -1;
    }
    return 0;
}

int bh_store_batch_tick(bh_store *s, size_t max_puts, bh_error *e)
{
    if (!s->in_batch || !s->in_tx || s->batch_puts < max_puts)
        return 0;
    s->batch_puts = 0;
    if (bh_store_tx_commit(s, e) != 0 || bh_store_tx_begin(s, e) != 0) {
        batch_over(s);
        return -1;
    }
    return 0;
}

int bh_store_batch_end(bh_store *s, bh_error *e)
{
    int rc = 0;

    if (!s->in_batch)
        return 0;
    if (s->in_tx)
        rc = bh_store_tx_commit(s, e);
    batch_over(s);
    return rc;
}

void bh_store_bind_num(bh_store *s, bh_store_stmt *st, int k, double v)
{
    if (isfinite(v))
        s->ops->bind_double(st, k, v);
    else
        s->ops->bind_null(st, k);
}

void bh_store_bind_str(bh_store *s, bh_store_stmt *st, int k, const char *v)
{
    if (v)
        s->ops->bind_text(st, k, v);
    else
        s->ops->bind_null(st, k);
}

int bh_store_query_i64(bh_store *s, const char *sql, int64_t *out, bh_error *e)
{
    bh_store_stmt *st = s->ops->prepare(s->db, sql, 0, e);
    int rc;

    if (!st)
        return -1;
    rc = s->ops->step(st, e);
    if (rc >= 0)
        *out = rc == 1 && !s->ops->is_null(st, 0) ? s->ops->col_i64(st, 0) : 0;
    s->ops->finalize(st);
    return rc < 0 ? -1 : 0;
}

int bh_store_count(bh_store *s, bh_store_counts *c, bh_error *e)
{
    static const char *const sql[] = {
        "SELECT COUNT(*) FROM runs",      "SELECT COUNT(*) FROM series",
        "SELECT COUNT(*) FROM cases",     "SELECT COUNT(*) FROM samples",
        "SELECT COUNT(*) FROM summaries", "SELECT COUNT(*) FROM verdicts"};
    int64_t *out[] = {&c->runs, &c->series, &c->cases, &c->samples, &c->summaries,
                      &c->verdicts};

    for (size_t i = 0; i < sizeof(sql) / sizeof(sql[0]); i++)
        if (bh_store_query_i64(s, sql[i], out[i], e) != 0)
            return bh_error_prefix(e, "%s", s->name);
    return 0;
}
