// SPDX-License-Identifier: MIT
/* Reading the results store: series, history points, runs and baseline
 * selection (see store_query.h). */
#define _GNU_SOURCE
#include "store_query.h"

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "store_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A new copy of text column col, or NULL when it is SQL NULL. */
static char *col_dup(bh_store *s, bh_store_stmt *st, int col)
{
    const char *t = s->ops->col_text(st, col);

    return t ? bh_xstrdup(t) : NULL;
}

/* Prepares sql; errors name the store. */
static bh_store_stmt *prep(bh_store *s, const char *sql, int n, bh_error *e)
{
    bh_store_stmt *st = s->ops->prepare(s->db, sql, n, e);

    if (!st)
        bh_error_prefix(e, "%s", s->name);
    return st;
}

/* Steps st; errors name the store. */
static int step(bh_store *s, bh_store_stmt *st, bh_error *e)
{
    int rc = s->ops->step(st, e);

    if (rc < 0)
        bh_error_prefix(e, "%s", s->name);
    return rc;
}

int bh_store_list_series(bh_store *s, const char *config, bh_store_series **out, size_t *n,
                         bh_error *e)
{
    bh_store_stmt *st = prep(s, config ? "SELECT id, config_name, case_id FROM series WHERE "
                                         "config_name = $1 ORDER BY config_name, case_id"
                                       : "SELECT id, config_name, case_id FROM series "
                                         "ORDER BY config_name, case_id",
                             config ? 1 : 0, e);
    size_t cap = 0;
    int rc;

    *out = NULL;
    *n = 0;
    if (!st)
        return -1;
    if (config)
        s->ops->bind_text(st, 1, config);
    while ((rc = step(s, st, e)) == 1) {
        bh_store_series v = {s->ops->col_i64(st, 0), col_dup(s, st, 1), col_dup(s, st, 2)};

        BH_PUSH(*out, *n, cap, v);
    }
    s->ops->finalize(st);
    if (rc < 0) {
        bh_store_series_free(*out, *n);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

void bh_store_series_free(bh_store_series *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].config);
        free(v[i].case_id);
    }
    free(v);
}

/* The numbers of a JSON array of numbers "[a,b,...]" (new array). */
static double *parse_numbers(const char *text, size_t *n)
{
    size_t cap = 0;
    double *v = NULL;
    const char *p = text;

    *n = 0;
    while (p && *p) {
        char *end;
        double x;

        p += strspn(p, "[, \t\n]");
        if (!*p)
            break;
        x = strtod(p, &end);
        if (end == p)
            break;
        BH_PUSH(v, *n, cap, x);
        p = end;
    }
    return v;
}

int bh_store_history(bh_store *s, int64_t series, const bh_store_history_opts *o,
                     bh_store_point **out, size_t *n, bh_error *e)
{
    bh_strbuf sql = BH_STRBUF_INIT;
    bh_store_stmt *st;
    size_t cap = 0;
    int k = 1, rc;

    *out = NULL;
    *n = 0;
    /* cases_history covers the cases side; runs rows are small */
    bh_strbuf_puts(&sql, "SELECT r.id, r.started_at, r.git_commit, r.git_branch, r.source,"
                         " c.value, c.run_medians FROM cases c JOIN runs r ON r.id = c.run_id"
                         " WHERE c.series_id = $1 AND c.value IS NOT NULL");
    if (o && o->branch)
        bh_strbuf_printf(&sql, " AND r.git_branch = $%d", ++k);
    bh_strbuf_puts(&sql, " ORDER BY r.started_at DESC, r.id DESC");
    if (o && o->last)
        bh_strbuf_printf(&sql, " LIMIT $%d", ++k);
    st = prep(s, sql.data, k, e);
    bh_strbuf_free(&sql);
    if (!st)
        return -1;
    k = 1;
    s->ops->bind_i64(st, k, series);
    if (o && o->branch)
        s->ops->bind_text(st, ++k, o->branch);
    if (o && o->last)
        s->ops->bind_i64(st, ++k, (int64_t)o->last);
    while ((rc = step(s, st, e)) == 1) {
        bh_store_point p;

        memset(&p, 0, sizeof(p));
        p.run_id = s->ops->col_i64(st, 0);
        p.started_at = col_dup(s, st, 1);
        p.commit = col_dup(s, st, 2);
        p.branch = col_dup(s, st, 3);
        p.source = col_dup(s, st, 4);
        p.value = s->ops->col_double(st, 5);
        p.run_medians = parse_numbers(s->ops->col_text(st, 6), &p.n_runs);
        BH_PUSH(*out, *n, cap, p);
    }
    s->ops->finalize(st);
    if (rc < 0) {
        bh_store_points_free(*out, *n);
        *out = NULL;
        *n = 0;
        return -1;
    }
    /* newest first from the query; oldest first for the caller */
    for (size_t i = 0; i < *n / 2; i++) {
        bh_store_point t = (*out)[i];

        (*out)[i] = (*out)[*n - 1 - i];
        (*out)[*n - 1 - i] = t;
    }
    return 0;
}

void bh_store_points_free(bh_store_point *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].started_at);
        free(v[i].commit);
        free(v[i].branch);
        free(v[i].source);
        free(v[i].run_medians);
    }
    free(v);
}

#define RUN_COLUMNS                                                                          \
    "SELECT id, config_name, started_at, git_commit, git_branch, fingerprint, host, source," \
    " git_dirty, complete, n_cases FROM runs"

/* The run of the current row of a RUN_COLUMNS query. */
static bh_store_run run_row(bh_store *s, bh_store_stmt *st)
{
    bh_store_run r;

    r.id = s->ops->col_i64(st, 0);
    r.config = col_dup(s, st, 1);
    r.started_at = col_dup(s, st, 2);
    r.commit = col_dup(s, st, 3);
    r.branch = col_dup(s, st, 4);
    r.fingerprint = col_dup(s, st, 5);
    r.host = col_dup(s, st, 6);
    r.source = col_dup(s, st, 7);
    r.dirty = s->ops->is_null(st, 8) ? -1 : (int)s->ops->col_i64(st, 8);
    r.complete = (int)s->ops->col_i64(st, 9);
    r.n_cases = s->ops->col_i64(st, 10);
    return r;
}

int bh_store_list_runs(bh_store *s, const char *config, const char *branch, size_t limit,
                       bh_store_run **out, size_t *n, bh_error *e)
{
    bh_strbuf sql = BH_STRBUF_INIT;
    bh_store_stmt *st;
    size_t cap = 0;
    int k = 0, rc;

    *out = NULL;
    *n = 0;
    bh_strbuf_puts(&sql, RUN_COLUMNS " WHERE 1 = 1");
    if (config)
        bh_strbuf_printf(&sql, " AND config_name = $%d", ++k);
    if (branch)
        bh_strbuf_printf(&sql, " AND git_branch = $%d", ++k);
    bh_strbuf_puts(&sql, " ORDER BY started_at DESC, id DESC");
    if (limit)
        bh_strbuf_printf(&sql, " LIMIT $%d", ++k);
    st = prep(s, sql.data, k, e);
    bh_strbuf_free(&sql);
    if (!st)
        return -1;
    k = 0;
    if (config)
        s->ops->bind_text(st, ++k, config);
    if (branch)
        s->ops->bind_text(st, ++k, branch);
    if (limit)
        s->ops->bind_i64(st, ++k, (int64_t)limit);
    while ((rc = step(s, st, e)) == 1) {
        bh_store_run r = run_row(s, st);

        BH_PUSH(*out, *n, cap, r);
    }
    s->ops->finalize(st);
    if (rc < 0) {
        bh_store_runs_free(*out, *n);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

int bh_store_get_run(bh_store *s, int64_t id, bh_store_run *out, bh_error *e)
{
    bh_store_stmt *st = prep(s, RUN_COLUMNS " WHERE id = $1", 1, e);
    int rc;

    if (!st)
        return -1;
    s->ops->bind_i64(st, 1, id);
    rc = step(s, st, e);
    if (rc == 1)
        *out = run_row(s, st);
    s->ops->finalize(st);
    return rc;
}

void bh_store_run_clear(bh_store_run *r)
{
    free(r->config);
    free(r->started_at);
    free(r->commit);
    free(r->branch);
    free(r->fingerprint);
    free(r->host);
    free(r->source);
    memset(r, 0, sizeof(*r));
}

void bh_store_runs_free(bh_store_run *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        bh_store_run_clear(&v[i]);
    free(v);
}

/* Runs a selection returning one run id with params bound as texts
 * (count n). 1 found, 0 none, -1 error. */
static int select_id(bh_store *s, const char *sql, const char *const *params, int n,
                     int64_t *id, bh_error *e)
{
    bh_store_stmt *st = prep(s, sql, n, e);
    int rc;

    if (!st)
        return -1;
    for (int k = 0; k < n; k++)
        bh_store_bind_str(s, st, k + 1, params[k]);
    rc = step(s, st, e);
    if (rc == 1)
        *id = s->ops->col_i64(st, 0);
    s->ops->finalize(st);
    return rc;
}

int bh_store_find_latest(bh_store *s, const char *config, const char *branch,
                         const char *fingerprint, int64_t *id, bh_error *e)
{
    const char *params[] = {config, branch, fingerprint};

    return select_id(s,
                     "SELECT id FROM runs WHERE config_name = $1 AND git_branch = $2 AND "
                     "fingerprint = $3 AND complete = 1 ORDER BY started_at DESC, id DESC "
                     "LIMIT 1",
                     params, 3, id, e);
}

int bh_store_find_commit(bh_store *s, const char *config, const char *fingerprint,
                         char *const *commits, size_t n, int64_t *id, size_t *which,
                         bh_error *e)
{
    for (size_t i = 0; i < n; i++) {
        const char *params[] = {commits[i], config, fingerprint};
        int rc = select_id(s,
                           "SELECT id FROM runs WHERE git_commit = $1 AND config_name = $2 "
                           "AND fingerprint = $3 AND complete = 1 AND (git_dirty IS NULL OR "
                           "git_dirty = 0) ORDER BY started_at DESC, id DESC LIMIT 1",
                           params, 3, id, e);

        if (rc != 0) {
            if (rc == 1)
                *which = i;
            return rc;
        }
    }
    return 0;
}
