// SPDX-License-Identifier: MIT
#include "catalog.h"

#include "bh_clock.h"
#include "bh_json_write.h"
#include "config.h"
#include "bh_mem.h"
#include "bh_strbuf.h"
#include "ipc.h"
#include "outcome.h"
#include "worker_spawn.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Describe workers one bh_catalog_prefetch runs at once, at most. */
#define CATALOG_THREADS 8

void bh_catalog_init(bh_catalog *c, char *const *config_dirs, size_t n_dirs)
{
    memset(c, 0, sizeof(*c));
    bh_search_path_init(&c->sp, config_dirs, n_dirs);
    c->exe = bh_self_exe();
    c->timeout_ns = 30ull * 1000000000ull;
    {
        const char *v = getenv("BHOST_ALLOW_UNSAFE_PLUGINS");
        c->allow_unsafe = v && strcmp(v, "1") == 0;
    }
}

void bh_catalog_free(bh_catalog *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->entries[i]->key);
        free(c->entries[i]->path);
        free(c->entries[i]->error);
        free(c->entries[i]->warning);
        cJSON_Delete(c->entries[i]->info);
        free(c->entries[i]);
    }
    free(c->entries);
    free(c->exe);
    bh_search_path_free(&c->sp);
    memset(c, 0, sizeof(*c));
}

/* Runs a describe worker on path and fills the entry. */
static void describe(bh_catalog *c, bh_catalog_entry *en)
{
    cJSON *job = cJSON_CreateObject();
    char *text;
    bh_spawn_opts o;
    bh_worker_outcome out;
    bh_outcome_view v;
    bh_error e = {""};
    uint64_t t0 = bh_now_ns();

    cJSON_AddStringToObject(job, "mode", "describe");
    cJSON_AddStringToObject(job, "plugin", en->path);
    text = bh_json_print_unformatted(job);
    cJSON_Delete(job);
    o = (bh_spawn_opts){c->exe, text, c->timeout_ns, 65536, 0};
    if (bh_spawn_worker(&o, &out, &e) != 0) {
        en->status = BH_ST_FAILED;
        en->error = bh_xstrdup(e.msg);
        free(text);
        return;
    }
    free(text);
    bh_outcome_classify(&out, "describe", &v);
    bh_outcome_name_stage(&v);
    en->status = v.status;
    if (v.warning)
        en->warning = bh_xasprintf("%s: describe: %s", en->path, v.warning);
    if (v.status == BH_ST_OK) {
        en->info = cJSON_Duplicate(v.final, 1);
    } else {
        en->error = bh_xasprintf("%s: %s", en->path,
                                 v.message ? v.message : "describe failed");
        /* a loader message already names the file */
        if (v.message && strncmp(v.message, en->path, strlen(en->path)) == 0) {
            free(en->error);
            en->error = bh_xstrdup(v.message);
        }
    }
    en->describe_ns = bh_now_ns() - t0;
    bh_outcome_view_free(&v);
    bh_worker_outcome_free(&out);
}

/* The entry for name, added (resolved and safety-checked, not yet
 * described: ->pending) when it is new. */
static bh_catalog_entry *entry_for(bh_catalog *c, const char *name)
{
    bh_catalog_entry *en;
    bh_error e = {""};

    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->entries[i]->key, name) == 0)
            return c->entries[i];
    en = bh_xcalloc(1, sizeof(*en));
    en->key = bh_xstrdup(name);
    en->path = bh_loader_find(&c->sp, name, &e);
    if (!en->path) {
        en->status = BH_ST_SKIPPED;
        en->error = bh_xstrdup(e.msg);
    } else if (!c->allow_unsafe && bh_loader_check_safe(en->path, &e) != 0) {
        en->status = BH_ST_FAILED;
        en->error = bh_xstrdup(e.msg);
    } else {
        en->pending = 1;
    }
    BH_PUSH(c->entries, c->n, c->cap, en);
    return en;
}

const bh_catalog_entry *bh_catalog_get(bh_catalog *c, const char *name)
{
    bh_catalog_entry *en = entry_for(c, name);

    if (en->pending) {
        describe(c, en);
        en->pending = 0;
    }
    return en;
}

/* Shared state of the describe threads of one bh_catalog_prefetch. */
typedef struct prefetch_job {
    bh_catalog *c;
    bh_catalog_entry **todo;
    size_t n;
    atomic_size_t next;
} prefetch_job;

/* Thread body: describes entries until none is left. */
static void *prefetch_thread(void *arg)
{
    prefetch_job *j = arg;
    size_t i;

    while ((i = atomic_fetch_add(&j->next, 1)) < j->n) {
        describe(j->c, j->todo[i]);
        j->todo[i]->pending = 0;
    }
    return NULL;
}

void bh_catalog_prefetch(bh_catalog *c, char *const *names, size_t n)
{
    prefetch_job j = {c, bh_xcalloc(n ? n : 1, sizeof(*j.todo)), 0, 0};
    pthread_t th[CATALOG_THREADS];
    size_t nth = 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t want;

    for (size_t i = 0; i < n; i++) {
        bh_catalog_entry *en = entry_for(c, names[i]);
        int seen = 0;

        for (size_t k = 0; k < j.n; k++)
            seen |= j.todo[k] == en;
        if (en->pending && !seen)
            j.todo[j.n++] = en;
    }
    /* a describe worker mostly waits for its process to start and load
     * the plugin (a GPU runtime's initialisation): a few per CPU */
    want = cpus > 0 ? (size_t)cpus * 2 : 2;
    want = want < CATALOG_THREADS ? want : CATALOG_THREADS;
    want = want < j.n ? want : j.n;
    for (; nth < want; nth++)
        if (pthread_create(&th[nth], NULL, prefetch_thread, &j) != 0)
            break;
    prefetch_thread(&j); /* the caller helps, and finishes alone if no
                          * thread could be started */
    for (size_t t = 0; t < nth; t++)
        pthread_join(th[t], NULL);
    free(j.todo);
}

void bh_catalog_scan(bh_catalog *c, char **dup_msg)
{
    char **files;
    size_t n;
    bh_strbuf dups = BH_STRBUF_INIT;

    bh_loader_list(&c->sp, &files, &n);
    bh_catalog_prefetch(c, files, n);
    for (size_t i = 0; i < n; i++) {
        const bh_catalog_entry *en = bh_catalog_get(c, files[i]);
        const char *id = en->info ? bh_json_str(en->info, "plugin_id", "")
                                  : "";

        for (size_t j = 0; *id && j + 1 < c->n; j++) {
            const cJSON *other = c->entries[j]->info;
            if (other && c->entries[j] != en &&
                strcmp(bh_json_str(other, "plugin_id", ""), id) == 0)
                bh_strbuf_printf(&dups,
                                 "%sduplicate plugin id '%s': %s and %s",
                                 dups.len ? "; " : "", id,
                                 c->entries[j]->path, en->path);
        }
        free(files[i]);
    }
    free(files);
    *dup_msg = dups.len ? bh_strbuf_detach(&dups) : NULL;
    bh_strbuf_free(&dups);
}

const cJSON *bh_catalog_bench(const cJSON *info, const char *id)
{
    const cJSON *b;

    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(info, "benchmarks"))
        if (strcmp(bh_json_str(b, "id", ""), id) == 0)
            return b;
    return NULL;
}

/* See catalog.h. */
char *bh_catalog_suggest(const bh_catalog *c, const char *name)
{
    char **paths = NULL;
    size_t n = 0;
    const char **names;
    const char *hint;
    char *out = NULL;

    if (strchr(name, '/'))
        return NULL;
    bh_loader_list(&c->sp, &paths, &n);
    names = bh_xcalloc(n ? n : 1, sizeof(*names));
    for (size_t i = 0; i < n; i++) {
        char *base = strrchr(paths[i], '/');
        size_t len;

        base = base ? base + 1 : paths[i];
        len = strlen(base);
        if (len > 3 && strcmp(base + len - 3, ".so") == 0)
            base[len - 3] = '\0';
        names[i] = base;
    }
    hint = bh_did_you_mean(name, names, n);
    if (hint)
        out = bh_xstrdup(hint);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    free(names);
    return out;
}
