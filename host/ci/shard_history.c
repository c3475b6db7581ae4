// SPDX-License-Identifier: MIT
/* Recorded case durations for balancing shards (shard.h). */
#define _GNU_SOURCE
#include "shard.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "result_read.h"
#include "result_view.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* The durations one result file recorded. */
typedef struct hist_file {
    char *started_at;
    char *path;
    char **ids;
    uint64_t *ns;
    size_t n;
} hist_file;

static int cmp_str_desc(const void *a, const void *b)
{
    return strcmp(*(char *const *)b, *(char *const *)a);
}

/* The *.json regular files directly in dir, newest name first, at most
 * max of them (*n set; free each and the array). */
static char **list_json(const char *dir, size_t max, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char **v = NULL;
    size_t cap = 0;

    *n = 0;
    if (!d)
        return NULL;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        char *path;

        if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
            continue;
        path = bh_xasprintf("%s/%s", dir, de->d_name);
        if (bh_is_regular_file(path))
            BH_PUSH(v, *n, cap, path);
        else
            free(path);
    }
    closedir(d);
    if (*n > 1)
        qsort(v, *n, sizeof(*v), cmp_str_desc);
    while (*n > max)
        free(v[--*n]);
    return v;
}

/* Reads one result file's durations when it is a whole run of config;
 * 0, or -1 when the file does not count. */
static int read_file(const char *path, const char *config, hist_file *f)
{
    cJSON *doc = bh_result_read(path, NULL);
    bh_result_view v;
    size_t cap = 0, cap2 = 0, n2 = 0;

    memset(f, 0, sizeof(*f));
    bh_result_view_load(doc, &v);
    if (!doc || !v.run.config_name || strcmp(v.run.config_name, config) != 0 || v.run.shard) {
        bh_result_view_free(&v);
        cJSON_Delete(doc);
        return -1;
    }
    f->started_at = bh_xstrdup(v.run.started_at ? v.run.started_at : "");
    f->path = bh_xstrdup(path);
    for (size_t i = 0; i < v.n_cases; i++) {
        const bh_rv_case *c = &v.cases[i];
        double ns = 0;

        for (size_t k = 0; k < c->n_runs; k++)
            if (c->runs[k].wall_ns > 0 && c->runs[k].wall_ns < 1e18)
                ns += c->runs[k].wall_ns;
        BH_PUSH(f->ids, f->n, cap, bh_xstrdup(c->id));
        BH_PUSH(f->ns, n2, cap2, ns < 1.8e19 ? (uint64_t)ns : UINT64_C(18000000000000000000));
    }
    bh_result_view_free(&v);
    cJSON_Delete(doc);
    return 0;
}

/* Newest run first; the path breaks ties. */
static int cmp_file(const void *a, const void *b)
{
    const hist_file *x = a, *y = b;
    int c = strcmp(y->started_at, x->started_at);

    return c ? c : strcmp(x->path, y->path);
}

/* Record order for lookup: by id. */
typedef struct rec {
    char *id;
    uint64_t ns;
    size_t order;
} rec;

static int cmp_rec(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    int c = strcmp(x->id, y->id);

    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* Fills h from the files (newest first): per id, the newest record. */
static void collect(hist_file *files, size_t nf, bh_shard_history *h)
{
    rec *r = NULL;
    size_t n = 0, cap = 0;

    if (nf > 1)
        qsort(files, nf, sizeof(*files), cmp_file);
    for (size_t k = 0; k < nf; k++)
        for (size_t i = 0; i < files[k].n; i++) {
            rec x = {files[k].ids[i], files[k].ns[i], n};

            BH_PUSH(r, n, cap, x);
        }
    if (n > 1)
        qsort(r, n, sizeof(*r), cmp_rec);
    h->ids = bh_xcalloc(n ? n : 1, sizeof(*h->ids));
    h->ns = bh_xcalloc(n ? n : 1, sizeof(*h->ns));
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(r[i].id, r[i - 1].id) == 0)
            continue; /* an older record of the same case */
        h->ids[h->n] = bh_xstrdup(r[i].id);
        h->ns[h->n++] = r[i].ns;
    }
    h->files = nf;
    free(r);
}

void bh_shard_history_load(const char *results_dir, const char *config_name,
                           bh_shard_history *h)
{
    char *dirs[2];
    hist_file *files = NULL;
    size_t nf = 0, cap = 0;

    memset(h, 0, sizeof(*h));
    dirs[0] = bh_xasprintf("%s/%s", results_dir, config_name);
    dirs[1] = bh_xasprintf("%s/%s/baselines", results_dir, config_name);
    for (int d = 0; d < 2; d++) {
        size_t n;
        char **paths = list_json(dirs[d], BH_SHARD_HISTORY_FILES, &n);

        for (size_t i = 0; i < n; i++) {
            hist_file f;

            if (read_file(paths[i], config_name, &f) == 0)
                BH_PUSH(files, nf, cap, f);
            free(paths[i]);
        }
        free(paths);
        free(dirs[d]);
    }
    collect(files, nf, h);
    for (size_t k = 0; k < nf; k++) {
        for (size_t i = 0; i < files[k].n; i++)
            free(files[k].ids[i]);
        free(files[k].ids);
        free(files[k].ns);
        free(files[k].started_at);
        free(files[k].path);
    }
    free(files);
}

static int cmp_id(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(char *const *)elem);
}

int64_t bh_shard_history_find(const bh_shard_history *h, const char *id)
{
    char **at;
    uint64_t ns;

    if (h->n == 0)
        return -1;
    at = bsearch(id, h->ids, h->n, sizeof(*h->ids), cmp_id);
    if (!at)
        return -1;
    ns = h->ns[at - h->ids];
    return ns > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)ns;
}

void bh_shard_history_free(bh_shard_history *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->ids[i]);
    free(h->ids);
    free(h->ns);
    memset(h, 0, sizeof(*h));
}
