// SPDX-License-Identifier: MIT
/* Filling the store from result files (see store_ingest.h). Worker
 * threads read, parse and prepare files (bh_store_scan_doc, or
 * bh_result_parse where that one gives up, then bh_store_prep_doc); the
 * calling thread alone talks to the database and writes the prepared
 * documents in path order, many per transaction. */
#define _GNU_SOURCE
#include "store_ingest.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "result_read.h"
#include "store_arena.h"
#include "store_internal.h"
#include "store_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 32
#define PUTS_PER_TRANSACTION 200
#define MAX_WORKERS 8

typedef struct ingest {
    bh_store *s;
    bh_store_report_fn report;
    void *ctx;
    char **files;
    size_t n_files, cap_files;
    int problems;
} ingest;

/* Reports "path: msg". */
static void say(ingest *g, const char *path, const char *msg)
{
    char *line = path ? bh_xasprintf("%s: %s", path, msg) : bh_xstrdup(msg);

    g->problems = 1;
    if (g->report)
        g->report(line, g->ctx);
    free(line);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);

    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* True for a file name the directory walk reads. */
static int result_name(const char *name)
{
    return name[0] != '.' && ends_with(name, ".json") && !ends_with(name, ".gbench.json") &&
           !ends_with(name, ".bmf.json");
}

/* Collects the result files under dir. */
static void walk(ingest *g, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    if (!d) {
        say(g, dir, strerror(errno));
        return;
    }
    while ((de = readdir(d)) != NULL) {
        char *path;
        struct stat st;

        if (de->d_name[0] == '.')
            continue;
        path = bh_xasprintf("%s/%s", dir, de->d_name);
        if (stat(path, &st) != 0) {
            free(path);
            continue;
        }
        if (S_ISDIR(st.st_mode) && depth + 1 < MAX_DEPTH) {
            walk(g, path, depth + 1);
            free(path);
        } else if (S_ISREG(st.st_mode) && result_name(de->d_name)) {
            BH_PUSH(g->files, g->n_files, g->cap_files, path);
        } else {
            free(path);
        }
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- one file --------------------------------------------------------- */

/* Reads path into *buf (grown as needed, kept between files). 0 or -1. */
static int read_into(const char *path, char **buf, size_t *cap, size_t *len)
{
    int fd = bh_open_regular(path, NULL);
    struct stat st;
    size_t got = 0;

    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_size > BH_RESULT_MAX_BYTES) {
        close(fd);
        return -1;
    }
    if ((size_t)st.st_size + 1 > *cap)
        bh_grow((void **)buf, cap, (size_t)st.st_size + 1, 1);
    while (got < (size_t)st.st_size) {
        ssize_t k = read(fd, *buf + got, (size_t)st.st_size - got);

        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    *len = got;
    return got == (size_t)st.st_size ? 0 : -1;
}

/* What a thread reads files with, kept from file to file: the text and
 * the fast reader's state. */
typedef struct reader {
    char *buf;
    size_t cap;
    bh_store_scan scan;
} reader;

static void reader_free(reader *r)
{
    free(r->buf);
    bh_store_scan_free(&r->scan);
}

/* The prepared document of path, or NULL when it is not a valid result
 * (the message is made again later, in one thread: see finish_bad). Read
 * with the fast reader, or the strict reader when that one gives up. */
static bh_store_prep *prepare(const char *path, reader *r)
{
    bh_error e = {""};
    size_t len = 0;
    cJSON *doc;
    bh_store_prep *p = NULL;

    if (read_into(path, &r->buf, &r->cap, &len) != 0)
        return NULL;
    /* the tree lives in this thread's arena: dropped whole at the end */
    bh_store_arena_begin();
    doc = bh_store_scan_doc(r->buf, len, &r->scan);
    if (doc) {
        if (bh_result_validate(doc, path, &e) == 0)
            p = bh_store_prep_doc(doc, path, &r->scan, &e);
    } else if (read_into(path, &r->buf, &r->cap, &len) == 0) {
        /* read again: the fast reader changed the text in place */
        doc = bh_result_parse(r->buf, len, path, &e);
        p = doc ? bh_store_prep_doc(doc, path, NULL, &e) : NULL;
    }
    bh_store_arena_end();
    return p;
}

/* ---- the pipeline ----------------------------------------------------- */

typedef struct slot {
    int full;
    size_t index;
    bh_store_prep *prep;
} slot;

typedef struct pipeline {
    char **files;
    size_t n;
    size_t next;     /* the next file a worker takes */
    size_t consumed; /* files the writer has taken */
    int stop;
    slot *ring;
    size_t k;
    pthread_mutex_t mu;
    pthread_cond_t ready, freed;
} pipeline;

/* A worker: prepares files until none is left (or the writer stops). */
static void *worker(void *arg)
{
    pipeline *pl = arg;
    reader r = {NULL, 0, {BH_STRBUF_INIT, NULL, 0, 0}};

    for (;;) {
        size_t i;
        bh_store_prep *p;

        pthread_mutex_lock(&pl->mu);
        i = pl->next++;
        while (!pl->stop && i < pl->n && i >= pl->consumed + pl->k)
            pthread_cond_wait(&pl->freed, &pl->mu);
        if (pl->stop || i >= pl->n) {
            pthread_mutex_unlock(&pl->mu);
            break;
        }
        pthread_mutex_unlock(&pl->mu);
        p = prepare(pl->files[i], &r);
        pthread_mutex_lock(&pl->mu);
        pl->ring[i % pl->k] = (slot){1, i, p};
        pthread_cond_broadcast(&pl->ready);
        pthread_mutex_unlock(&pl->mu);
    }
    reader_free(&r);
    bh_store_arena_release();
    return NULL;
}

/* The writer's side: takes file i's outcome (waits for it). *ok is 0 when
 * the file was not a valid result. */
static bh_store_prep *take(pipeline *pl, size_t i, int *ok)
{
    slot *sl = &pl->ring[i % pl->k];
    bh_store_prep *p;

    pthread_mutex_lock(&pl->mu);
    while (!(sl->full && sl->index == i))
        pthread_cond_wait(&pl->ready, &pl->mu);
    p = sl->prep;
    *ok = p != NULL;
    sl->full = 0;
    sl->prep = NULL;
    pl->consumed = i + 1;
    pthread_cond_broadcast(&pl->freed);
    pthread_mutex_unlock(&pl->mu);
    return p;
}

/* Writes one prepared document; counts it. 0, or -1 when the batch is
 * broken (a commit failed: reported, the ingest stops). */
static int store_one(ingest *g, const char *path, bh_store_prep *p, bh_store_ingest_stats *st)
{
    bh_error e = {""};
    int rc;

    if (bh_store_batch_begin(g->s, &e) != 0) {
        say(g, NULL, e.msg);
        return -1;
    }
    rc = bh_store_put_prep(g->s, p, NULL, &e);
    if (rc == 1)
        st->stored++;
    else if (rc == 0)
        st->present++;
    else {
        say(g, path, e.msg);
        st->failed++;
    }
    if (bh_store_batch_tick(g->s, PUTS_PER_TRANSACTION, &e) != 0) {
        say(g, NULL, e.msg);
        return -1;
    }
    return 0;
}

/* A file the workers found invalid: read again here, alone, for the exact
 * message (cJSON keeps its error position in a global), or stored when it
 * reads well now. */
static void finish_bad(ingest *g, const char *path, bh_store_ingest_stats *st)
{
    bh_error e = {""};
    cJSON *doc = bh_result_read(path, &e);
    bh_store_prep *p = doc ? bh_store_prep_doc(doc, path, NULL, &e) : NULL;

    cJSON_Delete(doc);
    if (!p) {
        if (doc)
            say(g, path, e.msg);
        else {
            g->problems = 1;
            if (g->report)
                g->report(e.msg, g->ctx); /* already starts with the path */
        }
        st->malformed++;
        return;
    }
    store_one(g, path, p, st);
    bh_store_prep_free(p);
}

/* Runs the pipeline over g->files with n_workers threads (0: in this
 * thread only). */
static void run(ingest *g, int n_workers, bh_store_ingest_stats *st)
{
    pipeline pl;
    pthread_t tid[MAX_WORKERS];
    size_t *bad = NULL, n_bad = 0, cap_bad = 0;
    reader r = {NULL, 0, {BH_STRBUF_INIT, NULL, 0, 0}};
    int started = 0, broken = 0;
    bh_error e = {""};

    memset(&pl, 0, sizeof(pl));
    pl.files = g->files;
    pl.n = g->n_files;
    pl.k = 4 * (size_t)(n_workers > 0 ? n_workers : 1);
    pl.ring = bh_xcalloc(pl.k, sizeof(slot));
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.ready, NULL);
    pthread_cond_init(&pl.freed, NULL);
    for (; started < n_workers && started < MAX_WORKERS; started++)
        if (pthread_create(&tid[started], NULL, worker, &pl) != 0)
            break;
    for (size_t i = 0; i < pl.n && !broken; i++) {
        int ok;
        bh_store_prep *p = started ? take(&pl, i, &ok) : prepare(pl.files[i], &r);

        if (!started)
            ok = p != NULL;
        st->files++;
        if (!ok)
            BH_PUSH(bad, n_bad, cap_bad, i);
        else
            broken = store_one(g, pl.files[i], p, st) != 0;
        bh_store_prep_free(p);
    }
    pthread_mutex_lock(&pl.mu);
    pl.stop = 1;
    pthread_cond_broadcast(&pl.freed);
    pthread_mutex_unlock(&pl.mu);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    for (size_t i = 0; i < pl.k; i++)
        bh_store_prep_free(pl.ring[i].prep);
    for (size_t i = 0; i < n_bad && !broken; i++)
        finish_bad(g, pl.files[bad[i]], st);
    if (bh_store_batch_end(g->s, &e) != 0)
        say(g, NULL, e.msg);
    pthread_cond_destroy(&pl.ready);
    pthread_cond_destroy(&pl.freed);
    pthread_mutex_destroy(&pl.mu);
    free(pl.ring);
    free(bad);
    reader_free(&r);
    bh_store_arena_release();
}

int bh_store_ingest(bh_store *s, char *const *paths, size_t n, int workers,
                    bh_store_report_fn report, void *ctx, bh_store_ingest_stats *st)
{
    ingest g = {s, report, ctx, NULL, 0, 0, 0};
    size_t kept = 0;

    memset(st, 0, sizeof(*st));
    for (size_t i = 0; i < n; i++) {
        struct stat sb;

        if (stat(paths[i], &sb) != 0)
            say(&g, paths[i], strerror(errno));
        else if (S_ISDIR(sb.st_mode))
            walk(&g, paths[i], 0);
        else
            BH_PUSH(g.files, g.n_files, g.cap_files, bh_xstrdup(paths[i]));
    }
    if (g.n_files > 1)
        qsort(g.files, g.n_files, sizeof(char *), cmp_str);
    for (size_t i = 0; i < g.n_files; i++) {
        if (kept > 0 && strcmp(g.files[i], g.files[kept - 1]) == 0)
            free(g.files[i]); /* named twice */
        else
            g.files[kept++] = g.files[i];
    }
    g.n_files = kept;
    if (workers < 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);

        workers = cpus > 1 ? (int)(cpus < MAX_WORKERS ? cpus : MAX_WORKERS) : 0;
    }
    bh_store_arena_install();
    run(&g, workers > MAX_WORKERS ? MAX_WORKERS : workers, st);
    bh_store_arena_uninstall();
    for (size_t i = 0; i < g.n_files; i++)
        free(g.files[i]);
    free(g.files);
    return g.problems ? -1 : 0;
}
