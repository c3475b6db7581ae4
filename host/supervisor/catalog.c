#include "catalog.h"

#include "bh_clock.h"
#include "bh_mem.h"
#include "bh_strbuf.h"
#include "ipc.h"
#include "outcome.h"
#include "worker_spawn.h"

#include <stdlib.h>
#include <string.h>

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
    text = cJSON_PrintUnformatted(job);
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
    en->status = v.status;
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

const bh_catalog_entry *bh_catalog_get(bh_catalog *c, const char *name)
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
        describe(c, en);
    }
    BH_PUSH(c->entries, c->n, c->cap, en);
    return en;
}

void bh_catalog_scan(bh_catalog *c, char **dup_msg)
{
    char **files;
    size_t n;
    bh_strbuf dups = BH_STRBUF_INIT;

    bh_loader_list(&c->sp, &files, &n);
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
