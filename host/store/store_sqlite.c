// SPDX-License-Identifier: MIT
/* The SQLite engine of the results store (see store_internal.h). The file
 * is in WAL mode (readers never block the writer), synchronous=NORMAL (a
 * crash of the process loses nothing committed; a power loss can lose the
 * last transactions, never corrupt the file), and every connection waits
 * up to 120 s for another writer's lock. */
#define _GNU_SOURCE
#include "store_internal.h"

#include "bh_fs.h"
#include "bh_mem.h"

#include <libgen.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUSY_TIMEOUT_MS 120000

struct bh_store_stmt {
    sqlite3 *db;
    sqlite3_stmt *st;
    int *index; /* parameter k (1-based) -> SQLite's index of "$k" */
    int n;
    int started;
};

/* "NAME: message" from the connection's last error. */
static int fail(sqlite3 *db, const char *what, bh_error *e)
{
    return bh_error_set(e, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
}

static void sq_close(void *db)
{
    sqlite3_close_v2(db);
}

/* Milliseconds on the monotonic clock. */
static int64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Whether a statement that failed with rc should run again: SQLITE_BUSY
 * outside a transaction (nothing of it took effect) and *start (set on the
 * first call) less than BUSY_TIMEOUT_MS ago; sleeps 1 to 64 ms first. The
 * busy handler covers most waits, but not the ones WAL mode answers with an
 * immediate SQLITE_BUSY: another connection recovering the WAL or removing
 * it as the file's last user closes, or a new file switching to WAL, which
 * many writers starting at once on a slow machine do meet. */
static int busy_again(sqlite3 *db, int rc, int64_t *start, int *attempt)
{
    struct timespec pause;
    int ms;

    if ((rc & 0xff) != SQLITE_BUSY || !sqlite3_get_autocommit(db))
        return 0;
    if (*start == 0)
        *start = now_ms();
    if (now_ms() - *start > BUSY_TIMEOUT_MS)
        return 0;
    ms = 1 << (*attempt < 6 ? *attempt : 6);
    (*attempt)++;
    pause.tv_sec = 0;
    pause.tv_nsec = (long)ms * 1000000L;
    nanosleep(&pause, NULL);
    return 1;
}

static int sq_exec(void *db, const char *sql, bh_error *e)
{
    int64_t start = 0;
    int attempt = 0, rc;
    char *msg = NULL;

    /* a script that stopped busy part-way runs again whole: the scripts
     * run outside a transaction are pragmas and BEGIN, safe to repeat */
    while ((rc = sqlite3_exec(db, sql, NULL, NULL, &msg)) != SQLITE_OK &&
           busy_again(db, rc, &start, &attempt)) {
        sqlite3_free(msg);
        msg = NULL;
    }
    if (rc != SQLITE_OK) {
        bh_error_set(e, "sqlite: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static bh_store_stmt *sq_prepare(void *db, const char *sql, int n_params, bh_error *e)
{
    bh_store_stmt *p = bh_xcalloc(1, sizeof(*p));

    p->db = db;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &p->st, NULL) != SQLITE_OK) {
        fail(db, "sqlite: prepare", e);
        free(p);
        return NULL;
    }
    p->n = n_params;
    p->index = bh_xcalloc(n_params > 0 ? (size_t)n_params : 1, sizeof(int));
    for (int k = 1; k <= n_params; k++) {
        char name[16];

        snprintf(name, sizeof(name), "$%d", k);
        p->index[k - 1] = sqlite3_bind_parameter_index(p->st, name);
    }
    return p;
}

/* SQLite's index of parameter k, 0 when the statement does not use it. */
static int pidx(const bh_store_stmt *p, int k)
{
    return k >= 1 && k <= p->n ? p->index[k - 1] : 0;
}

static void sq_bind_null(bh_store_stmt *p, int k)
{
    sqlite3_bind_null(p->st, pidx(p, k));
}

static void sq_bind_i64(bh_store_stmt *p, int k, int64_t v)
{
    sqlite3_bind_int64(p->st, pidx(p, k), v);
}

static void sq_bind_double(bh_store_stmt *p, int k, double v)
{
    sqlite3_bind_double(p->st, pidx(p, k), v);
}

static void sq_bind_text(bh_store_stmt *p, int k, const char *s)
{
    sqlite3_bind_text(p->st, pidx(p, k), s, -1, SQLITE_STATIC); /* valid until reset */
}

static int sq_step(bh_store_stmt *p, bh_error *e)
{
    int64_t start = 0;
    int attempt = 0, first = !p->started, rc;

    /* only a first step runs again: a later one would repeat rows */
    while ((rc = sqlite3_step(p->st)) != SQLITE_ROW && rc != SQLITE_DONE && first &&
           busy_again(p->db, rc, &start, &attempt))
        sqlite3_reset(p->st);
    p->started = 1;
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return fail(p->db, "sqlite", e);
}

static int sq_is_null(bh_store_stmt *p, int col)
{
    return sqlite3_column_type(p->st, col) == SQLITE_NULL;
}

static int64_t sq_col_i64(bh_store_stmt *p, int col)
{
    return sqlite3_column_int64(p->st, col);
}

static double sq_col_double(bh_store_stmt *p, int col)
{
    return sqlite3_column_double(p->st, col);
}

static const char *sq_col_text(bh_store_stmt *p, int col)
{
    return (const char *)sqlite3_column_text(p->st, col);
}

static int64_t sq_inserted_id(bh_store_stmt *p)
{
    return sqlite3_last_insert_rowid(p->db);
}

static void sq_reset(bh_store_stmt *p)
{
    sqlite3_reset(p->st);
    sqlite3_clear_bindings(p->st);
    p->started = 0;
}

static void sq_finalize(bh_store_stmt *p)
{
    if (!p)
        return;
    sqlite3_finalize(p->st);
    free(p->index);
    free(p);
}

static const bh_store_ops sqlite_ops = {
    .engine = "sqlite",
    .id_type = "INTEGER PRIMARY KEY",
    .key_type = "INTEGER PRIMARY KEY",
    .begin_write = "BEGIN IMMEDIATE",
    .migrate_lock = NULL,
    .batch_puts = 1,
    .returning_id = "",
    .close = sq_close,
    .exec = sq_exec,
    .prepare = sq_prepare,
    .bind_null = sq_bind_null,
    .bind_i64 = sq_bind_i64,
    .bind_double = sq_bind_double,
    .bind_text = sq_bind_text,
    .step = sq_step,
    .is_null = sq_is_null,
    .col_i64 = sq_col_i64,
    .col_double = sq_col_double,
    .col_text = sq_col_text,
    .inserted_id = sq_inserted_id,
    .reset = sq_reset,
    .finalize = sq_finalize,
    .bulk_begin = bh_store_sqlite_bulk_begin,
    .bulk_end = bh_store_sqlite_bulk_end,
};

int bh_store_sqlite_connect(const char *path, const char *name, void **db,
                            const bh_store_ops **ops, bh_error *e)
{
    static int configured;
    sqlite3 *h = NULL;
    char *dir = bh_xstrdup(path);
    int rc;

    if (!configured) {
        /* no allocation statistics: they take a global mutex per malloc
         * (fails harmlessly when SQLite is already initialised) */
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
        configured = 1;
    }

    /* The results folder may not exist yet on a first run. */
    rc = strchr(dir, '/') ? bh_mkdir_p(dirname(dir), e) : 0;
    free(dir);
    if (rc != 0)
        return bh_error_prefix(e, "%s", name);
    /* SQLite would open a FIFO or a device and then block or fail late */
    if (bh_path_exists(path) && !bh_is_regular_file(path))
        return bh_error_set(e, "%s: not a regular file", name);
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                      SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        bh_error_set(e, "%s: cannot open the SQLite store: %s", name,
                     h ? sqlite3_errmsg(h) : "out of memory");
        sqlite3_close_v2(h);
        return -1;
    }
    sqlite3_busy_timeout(h, BUSY_TIMEOUT_MS);
    /* page_size applies to a new file only: 16 KiB pages hold a case's
     * raw samples (a few KiB of JSON) without overflow pages. A WAL of up
     * to 256 MiB between checkpoints keeps bulk ingests from syncing the
     * file every few MiB. */
    if (sq_exec(h, "PRAGMA page_size=16384; PRAGMA journal_mode=WAL; "
                   "PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=16384; "
                   "PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY",
                e) != 0) {
        bh_error_prefix(e, "%s", name);
        sqlite3_close_v2(h);
        return -1;
    }
    *db = h;
    *ops = &sqlite_ops;
    return 0;
}
