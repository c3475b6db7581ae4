// SPDX-License-Identifier: MIT
/* The store's schema and its versioned migrations. Migration N takes a
 * store from version N-1 to N; schema_version holds one row per applied
 * migration. Every missing migration is applied in one write transaction
 * (on PostgreSQL under an advisory lock, so concurrent first opens do not
 * race), so a store is always at a version this list names, never
 * between two. Add a migration by appending to the list and raising
 * BH_STORE_SCHEMA_VERSION; never edit one that shipped. */
#define _GNU_SOURCE
#include "store_internal.h"

#include "bh_clock.h"
#include "bh_mem.h"
#include "bh_strbuf.h"

#include <stdlib.h>
#include <string.h>

#ifndef BHOST_VERSION
#define BHOST_VERSION "0.0.0"
#endif

/* Version 1: runs, the series (config, case id) they measure, cases with
 * the history value, summaries, raw samples (each case's runs as they are
 * in the document), verdicts. Times are
 * ISO 8601 UTC text (they sort as text); JSON parts are TEXT. */
static const char migration_1[] =
    "CREATE TABLE runs ("
    " id @ID@,"
    " run_key TEXT NOT NULL UNIQUE,"      /* bh_store_run_key */
    " config_name TEXT NOT NULL,"
    " config_path TEXT,"
    " config_hash TEXT,"
    " fingerprint TEXT,"                  /* system.fingerprint_hash */
    " git_commit TEXT,"
    " git_branch TEXT,"
    " git_dirty BIGINT,"                  /* 1, 0, NULL unknown */
    " host TEXT,"
    " started_at TEXT NOT NULL,"
    " finished_at TEXT,"
    " duration_s DOUBLE PRECISION,"
    " seed TEXT,"
    " complete BIGINT NOT NULL,"
    " host_version TEXT,"
    " n_cases BIGINT NOT NULL,"
    " baseline TEXT,"                     /* comparison.baseline */
    " source TEXT,"                       /* the file it came from */
    " ingested_at TEXT NOT NULL);"
    "CREATE INDEX runs_latest ON runs (config_name, git_branch, fingerprint, started_at);"
    "CREATE INDEX runs_commit ON runs (git_commit, config_name);"
    "CREATE INDEX runs_started ON runs (started_at);"
    /* the documents' run and system objects, apart so that runs rows stay
       small for the history join */
    "CREATE TABLE run_docs ("
    " run_id @KEY@ REFERENCES runs (id) ON DELETE CASCADE,"
    " run_json TEXT NOT NULL,"
    " system_json TEXT NOT NULL,"
    " comparison_json TEXT);"
    "CREATE TABLE series ("
    " id @ID@,"
    " config_name TEXT NOT NULL,"
    " case_id TEXT NOT NULL,"
    " UNIQUE (config_name, case_id));"
    "CREATE TABLE cases ("
    " id @ID@,"
    " run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
    " series_id BIGINT NOT NULL REFERENCES series (id),"
    " ord BIGINT NOT NULL,"               /* position in the document */
    " plugin TEXT,"
    " benchmark TEXT,"
    " status TEXT NOT NULL,"
    " message TEXT,"
    " value DOUBLE PRECISION,"            /* median of the run medians, ns/iter */
    " run_medians TEXT,"                  /* JSON array, ns/iter, run order */
    " detail_json TEXT NOT NULL,"         /* params, settings, throughput, ... */
    " UNIQUE (run_id, ord));"
    /* covers the history query: no cases row is read */
    "CREATE INDEX cases_history ON cases (series_id, run_id, value, run_medians);"
    "CREATE TABLE summaries ("
    " case_row @KEY@ REFERENCES cases (id) ON DELETE CASCADE,"
    " unit TEXT, n BIGINT, runs BIGINT,"
    " min DOUBLE PRECISION, max DOUBLE PRECISION, mean DOUBLE PRECISION,"
    " sd DOUBLE PRECISION, cv DOUBLE PRECISION, median DOUBLE PRECISION,"
    " mad DOUBLE PRECISION, q1 DOUBLE PRECISION, q3 DOUBLE PRECISION,"
    " p5 DOUBLE PRECISION, p95 DOUBLE PRECISION, p99 DOUBLE PRECISION,"
    " median_ci_lo DOUBLE PRECISION, median_ci_hi DOUBLE PRECISION,"
    " median_ci_level DOUBLE PRECISION,"
    " mean_boot_lo DOUBLE PRECISION, mean_boot_hi DOUBLE PRECISION,"
    " median_boot_lo DOUBLE PRECISION, median_boot_hi DOUBLE PRECISION,"
    " within_run_cv DOUBLE PRECISION, between_run_cv DOUBLE PRECISION,"
    " run_median_median DOUBLE PRECISION, mde DOUBLE PRECISION,"
    " flags TEXT,"                        /* comma-separated */
    " extra_json TEXT);"                  /* the other members (tukey, ...) */
    "CREATE TABLE samples ("               /* raw samples: the case's runs */
    " case_row @KEY@ REFERENCES cases (id) ON DELETE CASCADE,"
    " runs BIGINT NOT NULL,"
    " n BIGINT NOT NULL,"                 /* samples over all runs */
    " runs_json TEXT NOT NULL);"          /* [{index, status, samples: [[iterations, ns],
                                             ...], timing, metrics, ...}, ...] */
    "CREATE TABLE verdicts ("
    " case_row BIGINT NOT NULL REFERENCES cases (id) ON DELETE CASCADE,"
    " ord BIGINT NOT NULL,"
    " metric TEXT NOT NULL,"
    " verdict TEXT NOT NULL,"
    " severity TEXT,"
    " unit TEXT,"
    " direction TEXT,"
    " change DOUBLE PRECISION, change_lo DOUBLE PRECISION, change_hi DOUBLE PRECISION,"
    " p DOUBLE PRECISION, q DOUBLE PRECISION,"
    " baseline_median DOUBLE PRECISION, candidate_median DOUBLE PRECISION,"
    " suspect BIGINT, confirmed BIGINT,"
    " detail_json TEXT NOT NULL,"
    " PRIMARY KEY (case_row, ord));"
    "CREATE VIEW case_results AS"
    " SELECT r.id AS run_id, r.config_name, r.started_at, r.git_commit, r.git_branch,"
    " r.fingerprint, r.host, s.case_id, c.status, c.value, m.median, m.median_ci_lo,"
    " m.median_ci_hi, m.cv"
    " FROM cases c JOIN runs r ON r.id = c.run_id JOIN series s ON s.id = c.series_id"
    " LEFT JOIN summaries m ON m.case_row = c.id";

static const char *const migrations[BH_STORE_SCHEMA_VERSION] = {migration_1};

/* sql with @ID@ and @KEY@ spelled for the engine (new string). */
static char *dialect(const bh_store *s, const char *sql)
{
    bh_strbuf b = BH_STRBUF_INIT;

    while (*sql) {
        const char *at = strchr(sql, '@');

        if (!at) {
            bh_strbuf_puts(&b, sql);
            break;
        }
        bh_strbuf_append(&b, sql, (size_t)(at - sql));
        if (strncmp(at, "@ID@", 4) == 0) {
            bh_strbuf_puts(&b, s->ops->id_type);
            sql = at + 4;
        } else if (strncmp(at, "@KEY@", 5) == 0) {
            bh_strbuf_puts(&b, s->ops->key_type);
            sql = at + 5;
        } else {
            bh_strbuf_append(&b, "@", 1);
            sql = at + 1;
        }
    }
    return bh_strbuf_detach(&b);
}

/* Applies migration v (1-based) and records it. 0 or -1. */
static int apply(bh_store *s, int v, bh_error *e)
{
    char *sql = dialect(s, migrations[v - 1]);
    char now[32];
    bh_store_stmt *st;
    int rc = s->ops->exec(s->db, sql, e);

    free(sql);
    if (rc != 0)
        return bh_error_prefix(e, "migration %d", v);
    st = s->ops->prepare(s->db,
                         "INSERT INTO schema_version (version, applied_at, bhost_version) "
                         "VALUES ($1, $2, $3)",
                         3, e);
    if (!st)
        return -1;
    bh_utc_iso8601(now);
    s->ops->bind_i64(st, 1, v);
    s->ops->bind_text(st, 2, now);
    s->ops->bind_text(st, 3, BHOST_VERSION);
    rc = s->ops->step(st, e) < 0 ? -1 : 0;
    s->ops->finalize(st);
    return rc;
}

/* The version recorded, or -1 when there is no schema_version table (or it
 * cannot be read: the locked path below finds out). */
static int64_t current_version(bh_store *s)
{
    bh_error ignored = {""};
    int64_t v = -1;

    if (bh_store_query_i64(s, "SELECT MAX(version) FROM schema_version", &v, &ignored) != 0)
        return -1;
    return v;
}

int bh_store_migrate(bh_store *s, bh_error *e)
{
    int64_t v = current_version(s);

    if (v == BH_STORE_SCHEMA_VERSION) {
        s->opened_version = (int)v;
        return 0;
    }
    if (v > BH_STORE_SCHEMA_VERSION)
        goto newer;
    if (bh_store_tx_begin(s, e) != 0)
        return -1;
    if ((s->ops->migrate_lock && s->ops->exec(s->db, s->ops->migrate_lock, e) != 0) ||
        s->ops->exec(s->db,
                     "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT PRIMARY KEY,"
                     " applied_at TEXT NOT NULL, bhost_version TEXT)",
                     e) != 0 ||
        bh_store_query_i64(s, "SELECT MAX(version) FROM schema_version", &v, e) != 0)
        goto fail;
    if (v > BH_STORE_SCHEMA_VERSION) {
        bh_store_tx_rollback(s);
        goto newer;
    }
    s->opened_version = (int)v;
    for (int k = (int)v + 1; k <= BH_STORE_SCHEMA_VERSION; k++)
        if (apply(s, k, e) != 0)
            goto fail;
    return bh_store_tx_commit(s, e);
fail:
    bh_store_tx_rollback(s);
    return bh_error_prefix(e, "%s: cannot create or upgrade the schema", s->name);
newer:
    return bh_error_set(e, "%s: the store has schema version %lld, newer than this bhost "
                           "reads (%d); use a newer bhost",
                        s->name, (long long)v, BH_STORE_SCHEMA_VERSION);
}
