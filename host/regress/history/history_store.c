// SPDX-License-Identifier: MIT
/* bhost history's series from the results store (history_store.h). */
#define _GNU_SOURCE
#include "history_store.h"

#include "bh_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Run id -> file index, open addressing (slot value: index + 1). */
typedef struct run_map {
    int64_t *keys;
    size_t *vals;
    size_t cap;
} run_map;

static size_t slot_of(const run_map *m, int64_t id)
{
    size_t at = (size_t)((uint64_t)id * 0x9e3779b97f4a7c15ull) & (m->cap - 1);

    while (m->vals[at] && m->keys[at] != id)
        at = (at + 1) & (m->cap - 1);
    return at;
}

/* The file index of run id, or (size_t)-1. */
static size_t map_get(const run_map *m, int64_t id)
{
    size_t at;

    if (!m->cap)
        return (size_t)-1;
    at = slot_of(m, id);
    return m->vals[at] ? m->vals[at] - 1 : (size_t)-1;
}

/* Adds id -> file (n entries so far), growing at half load. */
static void map_put(run_map *m, int64_t id, size_t file, size_t n)
{
    size_t at;

    if (2 * (n + 1) > m->cap) {
        run_map old = *m;

        m->cap = old.cap ? 2 * old.cap : 1024;
        m->keys = bh_xcalloc(m->cap, sizeof(int64_t));
        m->vals = bh_xcalloc(m->cap, sizeof(size_t));
        for (size_t i = 0; i < old.cap; i++)
            if (old.vals[i]) {
                at = slot_of(m, old.keys[i]);
                m->keys[at] = old.keys[i];
                m->vals[at] = old.vals[i];
            }
        free(old.keys);
        free(old.vals);
    }
    at = slot_of(m, id);
    m->keys[at] = id;
    m->vals[at] = file + 1;
}

/* The file index of point p's run, adding the file when new. */
static size_t file_of(bh_store *s, bh_history_set *set, bh_history_runs_info *info,
                      run_map *map, const char *config, bh_store_point *p)
{
    size_t fi = map_get(map, p->run_id);
    bh_history_file f;

    if (fi != (size_t)-1)
        return fi;
    fi = set->n_files;
    f.path = p->source ? bh_xstrdup(p->source)
                       : bh_xasprintf("%s run %lld", bh_store_name(s), (long long)p->run_id);
    f.started_at = bh_xstrdup(p->started_at ? p->started_at : "");
    f.config = bh_xstrdup(config);
    f.rank = 0;
    BH_PUSH(set->files, set->n_files, set->cap_files, f);
    bh_grow((void **)&info->run_id, &info->cap, fi + 1, sizeof(int64_t));
    info->commit = bh_xreallocarray(info->commit, info->cap, sizeof(char *));
    info->branch = bh_xreallocarray(info->branch, info->cap, sizeof(char *));
    info->run_id[fi] = p->run_id;
    info->commit[fi] = p->commit ? bh_xstrdup(p->commit) : NULL;
    info->branch[fi] = p->branch ? bh_xstrdup(p->branch) : NULL;
    info->n = fi + 1;
    map_put(map, p->run_id, fi, fi);
    return fi;
}

/* Appends the points of one series to set. */
static void add_series(bh_store *s, bh_history_set *set, bh_history_runs_info *info,
                       run_map *map, const bh_store_series *sr, bh_store_point *pts, size_t n)
{
    bh_history_series hs;

    memset(&hs, 0, sizeof(hs));
    hs.config = bh_xstrdup(sr->config);
    hs.case_id = bh_xstrdup(sr->case_id);
    for (size_t i = 0; i < n; i++) {
        bh_history_point p;

        if (!isfinite(pts[i].value) || pts[i].value <= 0)
            continue;
        p.file = file_of(s, set, info, map, sr->config, &pts[i]);
        p.value = pts[i].value;
        p.run_off = set->n_runs;
        p.n_runs = pts[i].n_runs;
        p.rank = 0;
        bh_grow((void **)&set->runs, &set->cap_runs, set->n_runs + p.n_runs, sizeof(double));
        if (p.n_runs)
            memcpy(set->runs + set->n_runs, pts[i].run_medians, p.n_runs * sizeof(double));
        set->n_runs += p.n_runs;
        BH_PUSH(hs.pts, hs.n, hs.cap, p);
    }
    BH_PUSH(set->series, set->n_series, set->cap_series, hs);
}

/* For ranking: files by (started_at, run id). */
typedef struct rank_key {
    const char *started_at;
    int64_t run;
    size_t file;
} rank_key;

static int cmp_rank(const void *a, const void *b)
{
    const rank_key *x = a, *y = b;
    int r = strcmp(x->started_at, y->started_at);

    return r ? r : (x->run > y->run) - (x->run < y->run);
}

static int cmp_series(const void *a, const void *b)
{
    const bh_history_series *x = a, *y = b;
    int r = strcmp(x->config, y->config);

    return r ? r : strcmp(x->case_id, y->case_id);
}

/* Ranks the files and orders the series (byte order, whatever the
 * database's collation). */
static void order(bh_history_set *set, const bh_history_runs_info *info)
{
    rank_key *k = bh_xcalloc(set->n_files ? set->n_files : 1, sizeof(*k));

    for (size_t i = 0; i < set->n_files; i++)
        k[i] = (rank_key){set->files[i].started_at, info->run_id[i], i};
    qsort(k, set->n_files, sizeof(*k), cmp_rank);
    for (size_t i = 0; i < set->n_files; i++)
        set->files[k[i].file].rank = i;
    free(k);
    for (size_t i = 0; i < set->n_series; i++)
        for (size_t j = 0; j < set->series[i].n; j++)
            set->series[i].pts[j].rank = set->files[set->series[i].pts[j].file].rank;
    if (set->n_series > 1)
        qsort(set->series, set->n_series, sizeof(*set->series), cmp_series);
}

int bh_history_load_store(bh_store *s, const bh_history_filter *f,
                          const bh_store_history_opts *o, bh_history_set *set,
                          bh_history_runs_info *info, bh_error *e)
{
    bh_store_series *sr = NULL;
    size_t n_sr = 0;
    run_map map = {NULL, NULL, 0};
    int rc = 0;

    if (bh_store_list_series(s, f ? f->config : NULL, &sr, &n_sr, e) != 0)
        return -1;
    for (size_t i = 0; i < n_sr && rc == 0; i++) {
        bh_store_point *pts = NULL;
        size_t n = 0;

        if (f && f->match && !f->match(sr[i].case_id, f->match_ctx))
            continue;
        rc = bh_store_history(s, sr[i].id, o, &pts, &n, e);
        if (rc == 0 && n > 0)
            add_series(s, set, info, &map, &sr[i], pts, n);
        bh_store_points_free(pts, n);
    }
    bh_store_series_free(sr, n_sr);
    free(map.keys);
    free(map.vals);
    order(set, info);
    return rc;
}

void bh_history_runs_info_free(bh_history_runs_info *info)
{
    for (size_t i = 0; i < info->n; i++) {
        free(info->commit[i]);
        free(info->branch[i]);
    }
    free(info->run_id);
    free(info->commit);
    free(info->branch);
    memset(info, 0, sizeof(*info));
}
