// SPDX-License-Identifier: MIT
/* Reading a results folder into per-case series (contract in
 * history_load.h). Each file is parsed once; what is kept per point is
 * its run medians, nothing else of the document. */
#include "history_load.h"

#include "bh_mem.h"
#include "descriptive.h"
#include "result_read.h"
#include "result_view.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPTH 32

/* A growable list of paths. */
typedef struct paths {
    char **v;
    size_t n, cap;
} paths;

/* Appends "PATH: message" (already formatted in msg) to the warnings. */
static void warn(bh_history_set *set, const char *msg)
{
    BH_PUSH(set->warnings, set->n_warnings, set->cap_warnings, bh_xstrdup(msg));
}

/* True when name ends with ".json". */
static int is_json_name(const char *name)
{
    size_t k = strlen(name);

    return k > 5 && strcmp(name + k - 5, ".json") == 0;
}

/* Collects the *.json files under dir into out. The root failing to open
 * is an error (-1, e set); a subfolder failing adds a warning. */
static int walk(const char *dir, int depth, paths *out, bh_history_set *set, bh_error *e)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    if (!d) {
        if (depth == 0)
            return bh_error_set(e, "%s: cannot open the results directory: %s", dir,
                                strerror(errno));
        char *m = bh_xasprintf("%s: cannot open directory: %s", dir, strerror(errno));
        warn(set, m);
        free(m);
        return 0;
    }
    while ((de = readdir(d)) != NULL) {
        struct stat st;
        char *path;

        if (de->d_name[0] == '.')
            continue;
        path = bh_xasprintf("%s/%s", dir, de->d_name);
        if (stat(path, &st) != 0) {
            free(path);
            continue;
        }
        if (S_ISDIR(st.st_mode) && strcmp(de->d_name, "baselines") != 0 && depth + 1 < MAX_DEPTH) {
            walk(path, depth + 1, out, set, e);
            free(path);
        } else if (S_ISREG(st.st_mode) && is_json_name(de->d_name)) {
            BH_PUSH(out->v, out->n, out->cap, path);
        } else {
            free(path);
        }
    }
    closedir(d);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* FNV-1a of config, a 0x1f separator and id. */
static uint64_t key_hash(const char *config, const char *id)
{
    uint64_t h = 1469598103934665603ull;

    for (const char *p = config; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ 0x1fu) * 1099511628211ull;
    for (const char *p = id; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return h;
}

/* Places series i in the open-addressing index (which has a free slot). */
static void index_put(bh_history_set *set, size_t i)
{
    size_t mask = set->index_cap - 1;
    size_t at = (size_t)key_hash(set->series[i].config, set->series[i].case_id) & mask;

    while (set->index[at] != 0)
        at = (at + 1) & mask;
    set->index[at] = i + 1;
}

/* The series of (config, id), created when new. */
static bh_history_series *intern(bh_history_set *set, const char *config, const char *id)
{
    size_t mask, at;
    bh_history_series s;

    if (2 * (set->n_series + 1) > set->index_cap) {
        free(set->index);
        set->index_cap = set->index_cap ? 2 * set->index_cap : 64;
        set->index = bh_xcalloc(set->index_cap, sizeof(size_t));
        for (size_t i = 0; i < set->n_series; i++)
            index_put(set, i);
    }
    mask = set->index_cap - 1;
    at = (size_t)key_hash(config, id) & mask;
    while (set->index[at] != 0) {
        bh_history_series *t = &set->series[set->index[at] - 1];

        if (strcmp(t->config, config) == 0 && strcmp(t->case_id, id) == 0)
            return t;
        at = (at + 1) & mask;
    }
    memset(&s, 0, sizeof(s));
    s.config = bh_xstrdup(config);
    s.case_id = bh_xstrdup(id);
    BH_PUSH(set->series, set->n_series, set->cap_series, s);
    set->index[at] = set->n_series;
    return &set->series[set->n_series - 1];
}

/* Adds the point of one ok case c of file fi (its run medians m[0..k)). */
static void add_point(bh_history_set *set, bh_history_series *s, size_t fi, const double *m,
                      size_t k)
{
    bh_history_point p;
    double *sorted = bh_xmalloc(k * sizeof(double));

    memcpy(sorted, m, k * sizeof(double));
    bh_stats_sort(sorted, k);
    p.file = fi;
    p.value = bh_stats_median_sorted(sorted, k);
    p.run_off = set->n_runs;
    p.n_runs = k;
    p.rank = 0;
    free(sorted);
    bh_grow((void **)&set->runs, &set->cap_runs, set->n_runs + k, sizeof(double));
    memcpy(set->runs + set->n_runs, m, k * sizeof(double));
    set->n_runs += k;
    BH_PUSH(s->pts, s->n, s->cap, p);
}

/* s, or NULL when it is NULL or empty. */
static const char *non_empty(const char *s)
{
    return s && *s ? s : NULL;
}

/* Reads one file into set. Returns 0 (read, or skipped with a warning) or
 * -1 with e set when it is malformed and filter->strict. */
static int read_one(bh_history_set *set, const char *path, const bh_history_filter *f, bh_error *e)
{
    bh_error err = {""};
    cJSON *doc = bh_result_read(path, &err);
    bh_result_view v;
    const char *started, *config;
    bh_history_file file;
    size_t fi;

    bh_result_view_load_top(doc, &v);
    started = non_empty(v.run.started_at);
    config = non_empty(v.run.config_name);
    if (doc && (!started || !config)) {
        bh_error_set(&err, "%s: expected strings run.started_at and run.config.name", path);
        cJSON_Delete(doc);
        doc = NULL;
    }
    bh_result_view_free(&v);
    if (!doc) {
        if (f && f->strict)
            return bh_error_set(e, "%s", err.msg);
        warn(set, err.msg);
        set->n_skipped++;
        return 0;
    }
    if (f && f->config && strcmp(config, f->config) != 0) {
        set->n_other_config++;
        cJSON_Delete(doc);
        return 0;
    }
    /* a bhost ab result measured two builds side by side: neither is a
       point of the config's history (docs/results-schema.md, ab) */
    if (cJSON_GetObjectItemCaseSensitive(doc, "ab")) {
        cJSON_Delete(doc);
        return 0;
    }
    file.path = bh_xstrdup(path);
    file.started_at = bh_xstrdup(started);
    file.config = bh_xstrdup(config);
    file.rank = 0;
    fi = set->n_files;
    BH_PUSH(set->files, set->n_files, set->cap_files, file);
    bh_result_view_load(doc, &v);
    for (size_t i = 0; i < v.n_cases; i++) {
        const bh_rv_case *c = &v.cases[i];
        double *m = NULL;
        size_t k = 0;

        /* a profiled case's times (bhost run --profile) come from a worker
           under a profiler: no point of its history (docs/profiling.md) */
        if (!c->ok || cJSON_GetObjectItemCaseSensitive(c->json, "profile") ||
            (f && f->match && !f->match(c->id, f->match_ctx)))
            continue;
        bh_rv_case_run_medians(c, &m, &k);
        if (k > 0)
            add_point(set, intern(set, file.config, c->id), fi, m, k);
        free(m);
    }
    bh_result_view_free(&v);
    cJSON_Delete(doc);
    return 0;
}

/* The part of path after its last '/'. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');

    return s ? s + 1 : path;
}

/* Orders file pointers by (started_at, base name, path). */
static int cmp_file(const void *a, const void *b)
{
    const bh_history_file *x = *(const bh_history_file *const *)a;
    const bh_history_file *y = *(const bh_history_file *const *)b;
    int r = strcmp(x->started_at, y->started_at);

    if (r == 0)
        r = strcmp(base_name(x->path), base_name(y->path));
    return r ? r : strcmp(x->path, y->path);
}

static int cmp_point(const void *a, const void *b)
{
    size_t x = ((const bh_history_point *)a)->rank, y = ((const bh_history_point *)b)->rank;

    return (x > y) - (x < y);
}

static int cmp_series(const void *a, const void *b)
{
    const bh_history_series *x = a, *y = b;
    int r = strcmp(x->config, y->config);

    return r ? r : strcmp(x->case_id, y->case_id);
}

/* Ranks the files by time and sorts every series' points and the series. */
static void order(bh_history_set *set)
{
    bh_history_file **by = bh_xcalloc(set->n_files ? set->n_files : 1, sizeof(*by));

    for (size_t i = 0; i < set->n_files; i++)
        by[i] = &set->files[i];
    if (set->n_files > 1)
        qsort(by, set->n_files, sizeof(*by), cmp_file);
    for (size_t i = 0; i < set->n_files; i++)
        by[i]->rank = i;
    free(by);
    for (size_t i = 0; i < set->n_series; i++) {
        bh_history_series *s = &set->series[i];

        for (size_t k = 0; k < s->n; k++)
            s->pts[k].rank = set->files[s->pts[k].file].rank;
        if (s->n > 1)
            qsort(s->pts, s->n, sizeof(*s->pts), cmp_point);
    }
    if (set->n_series > 1)
        qsort(set->series, set->n_series, sizeof(*set->series), cmp_series);
    free(set->index);
    set->index = NULL;
    set->index_cap = 0;
}

int bh_history_load(const char *root, const bh_history_filter *filter, bh_history_set *set,
                    bh_error *e)
{
    paths ps = {NULL, 0, 0};
    char *dir = bh_xstrdup(root);
    size_t k = strlen(dir);
    int rc = 0;

    while (k > 1 && dir[k - 1] == '/')
        dir[--k] = '\0';
    if (walk(dir, 0, &ps, set, e) != 0)
        rc = -1;
    if (ps.n > 1)
        qsort(ps.v, ps.n, sizeof(char *), cmp_str);
    for (size_t i = 0; i < ps.n && rc == 0; i++)
        rc = read_one(set, ps.v[i], filter, e);
    for (size_t i = 0; i < ps.n; i++)
        free(ps.v[i]);
    free(ps.v);
    free(dir);
    order(set);
    return rc;
}

void bh_history_set_free(bh_history_set *set)
{
    for (size_t i = 0; i < set->n_files; i++) {
        free(set->files[i].path);
        free(set->files[i].started_at);
        free(set->files[i].config);
    }
    for (size_t i = 0; i < set->n_series; i++) {
        free(set->series[i].config);
        free(set->series[i].case_id);
        free(set->series[i].pts);
    }
    for (size_t i = 0; i < set->n_warnings; i++)
        free(set->warnings[i]);
    free(set->files);
    free(set->series);
    free(set->runs);
    free(set->warnings);
    free(set->index);
    memset(set, 0, sizeof(*set));
}
