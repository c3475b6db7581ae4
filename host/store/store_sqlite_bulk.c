// SPDX-License-Identifier: MIT
/* Checkpoints in the background while an SQLite store takes a batch of
 * writes (see bh_store_ops.bulk_begin). A checkpoint copies the WAL into
 * the database file and waits for both to reach the disk; SQLite runs it
 * in the committing thread, which then stops writing for as long. Here a
 * thread with its own connection checkpoints instead (PASSIVE: it never
 * waits for the writer, the writer never waits for it) each time the WAL
 * has grown by STEP_FRAMES, and the writer goes on. Only when the WAL
 * reaches CATCH_UP_FRAMES does the writer, after a commit, wait for that
 * thread and checkpoint what is left itself, so that its next transaction
 * starts the WAL again from the beginning (the WAL never grows past about
 * that size). Crash safety is SQLite's: a checkpoint only copies
 * committed transactions. */
#define _GNU_SOURCE
#include "store_internal.h"

#include "bh_mem.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>

#define STEP_FRAMES 4096      /* 64 MiB of 16 KiB pages */
#define CATCH_UP_FRAMES 16384 /* 256 MiB, the WAL size SQLite would checkpoint at */
#define AUTOCHECKPOINT 16384  /* as store_sqlite.c sets it */

typedef struct bulk {
    sqlite3 *writer;
    sqlite3 *ckpt; /* the checkpointing thread's connection */
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t wake, idle;
    int requested, busy, stop;
    int target; /* WAL frames when the last checkpoint was asked for */
} bulk;

/* The checkpointing thread: one PASSIVE checkpoint per request. */
static void *checkpointer(void *arg)
{
    bulk *b = arg;

    pthread_mutex_lock(&b->mu);
    for (;;) {
        while (!b->requested && !b->stop)
            pthread_cond_wait(&b->wake, &b->mu);
        if (!b->requested)
            break;
        b->requested = 0;
        b->busy = 1;
        pthread_mutex_unlock(&b->mu);
        /* SQLITE_BUSY (another connection checkpoints) is fine: it copies */
        sqlite3_wal_checkpoint_v2(b->ckpt, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&b->mu);
        b->busy = 0;
        pthread_cond_broadcast(&b->idle);
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

/* SQLite's WAL hook, in the writer's thread after each commit; frames is
 * the WAL's size. */
static int on_commit(void *arg, sqlite3 *db, const char *name, int frames)
{
    bulk *b = arg;

    pthread_mutex_lock(&b->mu);
    if (frames >= CATCH_UP_FRAMES) {
        while (b->busy || b->requested)
            pthread_cond_wait(&b->idle, &b->mu);
        pthread_mutex_unlock(&b->mu);
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&b->mu);
        b->target = 0;
    } else if (frames < b->target || frames - b->target >= STEP_FRAMES) {
        b->target = frames; /* a smaller WAL was started again */
        if (!b->busy) {
            b->requested = 1;
            pthread_cond_signal(&b->wake);
        }
    }
    pthread_mutex_unlock(&b->mu);
    return SQLITE_OK;
}

void *bh_store_sqlite_bulk_begin(void *db)
{
    bulk *b = bh_xcalloc(1, sizeof(*b));
    const char *path = sqlite3_db_filename(db, "main");

    b->writer = db;
    if (!path || !*path ||
        sqlite3_open_v2(path, &b->ckpt, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
            SQLITE_OK ||
        sqlite3_exec(b->ckpt, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->wake, NULL);
    pthread_cond_init(&b->idle, NULL);
    if (pthread_create(&b->tid, NULL, checkpointer, b) != 0) {
        pthread_cond_destroy(&b->idle);
        pthread_cond_destroy(&b->wake);
        pthread_mutex_destroy(&b->mu);
        goto fail;
    }
    sqlite3_wal_hook(db, on_commit, b); /* replaces the automatic checkpoints */
    return b;
fail:
    /* no thread: SQLite's own checkpoints stay */
    sqlite3_close_v2(b->ckpt);
    free(b);
    return NULL;
}

void bh_store_sqlite_bulk_end(void *arg)
{
    bulk *b = arg;

    if (!b)
        return;
    pthread_mutex_lock(&b->mu);
    b->stop = 1;
    pthread_cond_signal(&b->wake);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->tid, NULL);
    sqlite3_wal_autocheckpoint(b->writer, AUTOCHECKPOINT);
    sqlite3_close_v2(b->ckpt);
    pthread_cond_destroy(&b->idle);
    pthread_cond_destroy(&b->wake);
    pthread_mutex_destroy(&b->mu);
    free(b);
}
