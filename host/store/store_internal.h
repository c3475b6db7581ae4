// SPDX-License-Identifier: MIT
/* Inside the results store: the engine interface (one implementation per
 * database: store_sqlite.c, store_pg.c), statements, the handle. Only
 * host/store/ includes this header.
 *
 * SQL is written once for both engines: parameters are $1..$N (each
 * appearing in ascending order of first use), DDL uses the token @ID@
 * for an auto-assigned 64-bit primary key and @KEY@ for a 64-bit primary
 * key the caller assigns; store_schema.c substitutes the engine's
 * spelling. Every other construct used (ON CONFLICT ... DO NOTHING/UPDATE,
 * RETURNING, CREATE ... IF NOT EXISTS, DOUBLE PRECISION, BIGINT, TEXT) is
 * understood by SQLite >= 3.35 and PostgreSQL >= 10. */
#ifndef BH_STORE_INTERNAL_H
#define BH_STORE_INTERNAL_H

#include "bh_strbuf.h"
#include "store.h"
#include "store_scan.h"

#include <stddef.h>
#include <stdint.h>

typedef struct bh_store_stmt bh_store_stmt; /* an engine's prepared statement */

/* What an engine provides. Statement calls never return NULL pointers for
 * text columns that are SQL NULL: they return NULL and is_null says 1. */
typedef struct bh_store_ops {
    const char *engine;      /* "sqlite" or "postgresql" */
    const char *id_type;     /* @ID@ */
    const char *key_type;    /* @KEY@ */
    const char *begin_write; /* starts a write transaction */
    const char *migrate_lock; /* run after begin_write before migrating, or NULL */
    int batch_puts;          /* 1: several puts may share one transaction */
    /* Ends an INSERT whose new row's id inserted_id reads: "" where the
     * engine knows it without RETURNING (cheaper), else " RETURNING id". */
    const char *returning_id;
    void (*close)(void *db);
    /* Runs sql (one statement or several separated by ';', no
     * parameters, results discarded). 0 or -1 with e set. */
    int (*exec)(void *db, const char *sql, bh_error *e);
    /* Prepares sql with n_params parameters. NULL with e set. */
    bh_store_stmt *(*prepare)(void *db, const char *sql, int n_params, bh_error *e);
    /* Parameter k (1-based) for the next step. Text must stay valid until
     * the statement is reset (an engine may read it in place). */
    void (*bind_null)(bh_store_stmt *st, int k);
    void (*bind_i64)(bh_store_stmt *st, int k, int64_t v);
    void (*bind_double)(bh_store_stmt *st, int k, double v);
    void (*bind_text)(bh_store_stmt *st, int k, const char *s);
    /* Executes (first call after binding) and moves to the next row:
     * 1 a row is there, 0 no more rows, -1 error (e set). */
    int (*step)(bh_store_stmt *st, bh_error *e);
    int (*is_null)(bh_store_stmt *st, int col);
    int64_t (*col_i64)(bh_store_stmt *st, int col);
    double (*col_double)(bh_store_stmt *st, int col);
    /* Valid until the next step or reset. */
    const char *(*col_text)(bh_store_stmt *st, int col);
    /* The id of the row that the INSERT (ending in returning_id) just
     * executed by st inserted; before the reset. */
    int64_t (*inserted_id)(bh_store_stmt *st);
    /* Ends the current execution (rows not read are dropped) and clears
     * the parameters, keeping the statement prepared. */
    void (*reset)(bh_store_stmt *st);
    void (*finalize)(bh_store_stmt *st);
    /* Readies the connection for a batch (many write transactions in a
     * row); what it returns goes to bulk_end when the batch is over (NULL:
     * nothing to undo). Both NULL where the engine needs nothing. */
    void *(*bulk_begin)(void *db);
    void (*bulk_end)(void *bulk);
} bh_store_ops;

/* Opens an engine's connection: *db and *ops on success (0), -1 with e
 * set ("NAME: message"). name is the display name. */
int bh_store_sqlite_connect(const char *path, const char *name, void **db,
                            const bh_store_ops **ops, bh_error *e);
int bh_store_pg_connect(const char *url, const char *name, void **db,
                        const bh_store_ops **ops, bh_error *e);

/* SQLite's bulk_begin and bulk_end (store_sqlite_bulk.c): checkpoints in
 * a thread of their own while the batch lasts. */
void *bh_store_sqlite_bulk_begin(void *db);
void bh_store_sqlite_bulk_end(void *bulk);

/* Statements the handle keeps prepared (store_put.c). */
enum {
    BH_STMT_RUN_FIND,
    BH_STMT_RUN_INSERT,
    BH_STMT_DOCS_INSERT,
    BH_STMT_SERIES_UPSERT,
    BH_STMT_CASE_INSERT,
    BH_STMT_SUMMARY_INSERT,
    BH_STMT_SAMPLES_INSERT,
    BH_STMT_VERDICT_INSERT,
    BH_STMT_COUNT
};

/* One series id remembered by (config, case id). */
typedef struct bh_store_series_slot {
    char *key; /* config '\x1f' case id, NULL when the slot is free */
    int64_t id;
} bh_store_series_slot;

struct bh_store {
    const bh_store_ops *ops;
    void *db;
    char *name;
    int opened_version;
    int in_tx;           /* a transaction of ours is open */
    int in_batch;
    size_t batch_puts;   /* puts in the open batch transaction */
    void *bulk;          /* from ops->bulk_begin while in a batch */
    bh_store_stmt *st[BH_STMT_COUNT];
    bh_store_series_slot *series; /* open addressing, power-of-two size */
    size_t n_series, cap_series;
};

/* ---- a document turned into rows (store_prep.c) ------------------------
 * Everything a put needs, computed without the database (so worker
 * threads can prepare documents while one thread writes): the run key and
 * one row of values per insert, in order. Values that only the write can
 * know refer to it: the new run's id, the id of the case row inserted
 * last, the series id of (config, case id). */
enum {
    BH_SV_NULL,
    BH_SV_I64,
    BH_SV_NUM,    /* a finite double */
    BH_SV_TEXT,   /* text at off in the prep's text */
    BH_SV_RUN,    /* the run row's id */
    BH_SV_CASE,   /* the id of the last case row */
    BH_SV_SERIES  /* the series of (config, case id at off) */
};

typedef struct bh_store_val {
    int type;
    int64_t i;
    double d;
    size_t off;
} bh_store_val;

typedef struct bh_store_row {
    int slot;     /* BH_STMT_RUN_INSERT, BH_STMT_CASE_INSERT, ... */
    size_t first; /* its values: vals[first .. first + n) */
    int n;
} bh_store_row;

typedef struct bh_store_prep {
    char key[65];
    char *config;
    bh_strbuf text; /* NUL-terminated strings the values point into */
    bh_store_val *vals;
    size_t n_vals, cap_vals;
    bh_store_row *rows;
    size_t n_rows, cap_rows;
} bh_store_prep;

/* The rows of a validated result document (source: the file, or NULL).
 * scan, when not NULL, is the bh_store_scan_doc that read doc: the raw
 * samples are then taken as it kept them. Pure: no database, no globals;
 * safe in any thread. NULL with e = what the document lacks ("expected
 * ..."). Free with bh_store_prep_free. */
bh_store_prep *bh_store_prep_doc(const cJSON *doc, const char *source,
                                 const bh_store_scan *scan, bh_error *e);
void bh_store_prep_free(bh_store_prep *p);

/* Writes a prepared document: 1 stored, 0 the run was there, -1 error
 * (nothing of it stored). As bh_store_put. */
int bh_store_put_prep(bh_store *s, const bh_store_prep *p, int64_t *run_id, bh_error *e);

/* The summary members kept as number columns of summaries, in column
 * order (after case_row, unit, n, runs; before flags, extra_json). */
#define BH_STORE_N_SUMMARY_NUMS 23
extern const char *const bh_store_summary_nums[BH_STORE_N_SUMMARY_NUMS];

/* Runs one of the handle's transaction statements ("BEGIN ...",
 * "COMMIT", "ROLLBACK") and tracks in_tx. 0 or -1. */
int bh_store_tx_begin(bh_store *s, bh_error *e);
int bh_store_tx_commit(bh_store *s, bh_error *e);
void bh_store_tx_rollback(bh_store *s);

/* The statement for a put-time slot, prepared on first use. NULL with e. */
bh_store_stmt *bh_store_stmt_get(bh_store *s, int slot, bh_error *e);

/* Binds a double, as SQL NULL when it is not finite (NaN, +-Inf). */
void bh_store_bind_num(bh_store *s, bh_store_stmt *st, int k, double v);
/* Binds a string, as SQL NULL when it is NULL. */
void bh_store_bind_str(bh_store *s, bh_store_stmt *st, int k, const char *v);

/* Brings the schema to BH_STORE_SCHEMA_VERSION (store_schema.c): sets
 * s->opened_version. 0 or -1 with e set. */
int bh_store_migrate(bh_store *s, bh_error *e);

/* Forgets every remembered series id (after a rollback). */
void bh_store_series_forget(bh_store *s);

/* Runs sql (no parameters) that returns one integer in its first row;
 * *out gets it (0 when SQL NULL). 0 or -1 with e set. */
int bh_store_query_i64(bh_store *s, const char *sql, int64_t *out, bh_error *e);

#endif
