// SPDX-License-Identifier: MIT
/* The results store: result documents ("bhost.result/1") kept in a
 * database that serves history, baselines and trends
 * (docs/architecture.md, docs/results-schema.md). One interface, two
 * engines: SQLite (a file, the default: <results-dir>/bhost.db) and
 * PostgreSQL through libpq (a "postgresql://" or "postgres://" URL, for
 * fleets of CI runners). Both
 * hold the same schema, created and upgraded by the same versioned
 * migrations (store_schema.c).
 *
 * A run is stored once: its key is the SHA-256 of what identifies it (the
 * document's "run" object and system fingerprint, see bh_store_run_key),
 * so ingesting a file twice, or a result and its saved baseline copy,
 * stores one run. Concurrent writers (several processes on one SQLite
 * file or one PostgreSQL database) neither lose nor duplicate a run.
 *
 * A bh_store handle belongs to one thread at a time. */
#ifndef BH_STORE_H
#define BH_STORE_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bh_store bh_store;

/* The schema version this build creates and reads. */
#define BH_STORE_SCHEMA_VERSION 1

/* True when target names a PostgreSQL database (postgresql:// or
 * postgres://); otherwise it is an SQLite file path. */
int bh_store_is_url(const char *target);

/* The store a command uses: target when given, else $BHOST_STORE when
 * set and not empty, else <results_dir>/bhost.db (new string). */
char *bh_store_default_target(const char *target, const char *results_dir);

/* For commands that only read: 0 with e = "TARGET: no such store ..."
 * when target is an SQLite path that does not exist (opening it would
 * create an empty store), else 1. */
int bh_store_exists(const char *target, bh_error *e);

/* Opens (creating when missing) the store at target and brings its schema
 * to BH_STORE_SCHEMA_VERSION, applying the missing migrations in one
 * transaction. A store written by a newer bhost (higher version) is
 * refused. Returns the handle (close with bh_store_close) or NULL with e =
 * "TARGET: what failed". Passwords in a URL never appear in messages. */
bh_store *bh_store_open(const char *target, bh_error *e);

/* Closes the handle (NULL is a no-op); an open batch is rolled back. */
void bh_store_close(bh_store *s);

/* "sqlite" or "postgresql". */
const char *bh_store_engine(const bh_store *s);

/* The target as given, with any password in a URL replaced by "***". */
const char *bh_store_name(const bh_store *s);

/* The schema version the store had when it was opened, before migration
 * (0 for a new store). */
int bh_store_opened_version(const bh_store *s);

/* The key of a result document: hex SHA-256 over the unformatted JSON of
 * its "run" object and of its "system" object. Identical for a result
 * file, its saved baseline copy and the document in memory that wrote
 * them; different for any two runs (start time, duration to the
 * nanosecond, command line, seed, host). */
void bh_store_run_key(const cJSON *doc, char key[65]);

/* Groups the following puts into few transactions (SQLite: one write
 * transaction, committed every commit_every puts by bh_store_batch_tick
 * or at bh_store_batch_end, while a thread of the batch's own copies the
 * WAL into the database; PostgreSQL: each put stays its own transaction,
 * so concurrent batches cannot deadlock). 0 or -1. */
int bh_store_batch_begin(bh_store *s, bh_error *e);

/* Commits the batch's work so far when it holds at least max_puts puts
 * and starts a new one. 0 or -1 (the batch's uncommitted puts are
 * lost and the batch is over). */
int bh_store_batch_tick(bh_store *s, size_t max_puts, bh_error *e);

/* Commits and ends the batch. 0 or -1 (rolled back). */
int bh_store_batch_end(bh_store *s, bh_error *e);

/* Stores a validated result document (bh_result_validate) read from
 * source (a file path, kept with the run; may be NULL). Returns 1 when
 * stored, 0 when a run with the same key is already there (nothing is
 * written), -1 with e set on a database error (nothing of this document
 * is stored). *run_id, when not NULL, gets the run's row id (also when
 * it was already there). Outside a batch the document is one
 * transaction. */
int bh_store_put(bh_store *s, const cJSON *doc, const char *source, int64_t *run_id,
                 bh_error *e);

/* Row counts of the store's tables. */
typedef struct bh_store_counts {
    int64_t runs, series, cases, samples, summaries, verdicts;
} bh_store_counts;

/* Fills *c. 0 or -1 with e set. */
int bh_store_count(bh_store *s, bh_store_counts *c, bh_error *e);

#endif
