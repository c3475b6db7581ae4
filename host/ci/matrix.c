// SPDX-License-Identifier: MIT
/* The GitHub Actions job matrix of a folder of configs (matrix.h). */
#define _GNU_SOURCE
#include "matrix.h"

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **bh_matrix_list_configs(const char *dir, size_t *n, bh_error *e)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char **v = NULL;
    size_t cap = 0;

    *n = 0;
    if (!d) {
        bh_error_set(e, "%s: cannot read the folder: %s (expected a folder of configs)", dir,
                     strerror(errno));
        return NULL;
    }
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        int yaml = (len > 5 && strcmp(de->d_name + len - 5, ".yaml") == 0) ||
                   (len > 4 && strcmp(de->d_name + len - 4, ".yml") == 0);
        char *path;

        if (de->d_name[0] == '.' || !yaml)
            continue;
        path = bh_xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
        BH_PUSH(v, *n, cap, path);
    }
    closedir(d);
    if (*n)
        qsort(v, *n, sizeof(*v), cmp_str);
    else
        v = bh_xcalloc(1, sizeof(*v));
    return v;
}

/* True for characters safe in ids, artifact names and shell words. */
static int safe_char(char c, const char *extra)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-' || (c && strchr(extra, c));
}

static int safe_word(const char *s, const char *extra)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!safe_char(*s, extra))
            return 0;
    return 1;
}

/* A backend's runner mapping. */
typedef struct runner {
    char *backend;
    cJSON *runs_on; /* a string or an array of strings */
} runner;

typedef struct ctx {
    runner *runners;
    size_t n_runners;
    cJSON *default_runner;
    char **words; /* filter words */
    size_t n_words;
    unsigned char *word_used;
    uint32_t shards;
} ctx;

/* Parses "BACKEND=LABEL[,LABEL]" into *r; 0 or -1 with e set. */
static int parse_runner(const char *text, runner *r, bh_error *e)
{
    const char *eq = strchr(text, '=');
    char *labels;
    char *save = NULL;
    int rc = 0;

    if (!eq || eq == text)
        return bh_error_set(e, "--runner '%s': expected BACKEND=LABEL[,LABEL...], e.g. "
                               "cuda=self-hosted,gpu", text);
    r->backend = bh_xstrndup(text, (size_t)(eq - text));
    r->runs_on = cJSON_CreateArray();
    labels = bh_xstrdup(eq + 1);
    for (char *l = strtok_r(labels, ",", &save); l; l = strtok_r(NULL, ",", &save)) {
        if (!safe_word(l, ":/"))
            rc = bh_error_set(e, "--runner '%s': label '%s': expected letters, digits and "
                                 ". _ - : /", text, l);
        cJSON_AddItemToArray(r->runs_on, cJSON_CreateString(l));
    }
    if (rc == 0 && (!safe_word(r->backend, "") || cJSON_GetArraySize(r->runs_on) == 0))
        rc = bh_error_set(e, "--runner '%s': expected BACKEND=LABEL[,LABEL...], e.g. "
                             "cuda=self-hosted,gpu", text);
    if (rc == 0 && cJSON_GetArraySize(r->runs_on) == 1) {
        cJSON *one = cJSON_DetachItemFromArray(r->runs_on, 0);

        cJSON_Delete(r->runs_on);
        r->runs_on = one;
    }
    free(labels);
    return rc;
}

/* The runner mapped to backend, or NULL. */
static const cJSON *runner_for(const ctx *c, const char *backend)
{
    for (size_t i = 0; i < c->n_runners; i++)
        if (strcmp(c->runners[i].backend, backend) == 0)
            return c->runners[i].runs_on;
    return NULL;
}

static void ctx_free(ctx *c)
{
    for (size_t i = 0; i < c->n_runners; i++) {
        free(c->runners[i].backend);
        cJSON_Delete(c->runners[i].runs_on);
    }
    free(c->runners);
    cJSON_Delete(c->default_runner);
    for (size_t i = 0; i < c->n_words; i++)
        free(c->words[i]);
    free(c->words);
    free(c->word_used);
}

static int ctx_init(ctx *c, const bh_matrix_opts *o, bh_error *e)
{
    size_t cap = 0, rcap = 0;

    memset(c, 0, sizeof(*c));
    c->shards = o->shards > 1 ? o->shards : 1;
    for (size_t i = 0; i < o->n_filters; i++) {
        char *copy = bh_xstrdup(o->filters[i]);
        char *save = NULL;

        for (char *w = strtok_r(copy, ", \t\n", &save); w; w = strtok_r(NULL, ", \t\n", &save))
            BH_PUSH(c->words, c->n_words, cap, bh_xstrdup(w));
        free(copy);
    }
    c->word_used = bh_xcalloc(c->n_words ? c->n_words : 1, 1);
    for (size_t i = 0; i < o->n_runners; i++) {
        runner r = {NULL, NULL};

        if (parse_runner(o->runners[i], &r, e) != 0) {
            free(r.backend);
            cJSON_Delete(r.runs_on);
            return -1;
        }
        if (strcmp(r.backend, "default") == 0) {
            cJSON_Delete(c->default_runner);
            c->default_runner = r.runs_on;
            free(r.backend);
        } else {
            BH_PUSH(c->runners, c->n_runners, rcap, r);
        }
    }
    if (!c->default_runner)
        c->default_runner = cJSON_CreateString(BH_MATRIX_DEFAULT_RUNNER);
    return 0;
}

/* True when a config name passes the filters (marking the words used). */
static int wanted(ctx *c, const char *name)
{
    int hit = c->n_words == 0;

    for (size_t i = 0; i < c->n_words; i++)
        if (bh_glob_match(c->words[i], name)) {
            c->word_used[i] = 1;
            hit = 1;
        }
    return hit;
}

/* One job of a group (before sharding). */
typedef struct job {
    const char *backend; /* "" for the whole config */
    const char **backends;
    size_t n_backends;
    int required;
    const cJSON *runs_on;
} job;

/* Appends the jobs of one job group, sharded, to arr. */
static void add_jobs(cJSON *arr, const ctx *c, const bh_config *cfg, const char *path,
                     const job *j)
{
    for (uint32_t s = 1; s <= c->shards; s++) {
        cJSON *o = cJSON_CreateObject();
        cJSON *bl = cJSON_CreateArray();
        bh_strbuf id = BH_STRBUF_INIT, name = BH_STRBUF_INIT, args = BH_STRBUF_INIT;
        char *group;
        char sh[32] = "";

        bh_strbuf_puts(&id, cfg->name);
        bh_strbuf_puts(&name, cfg->name);
        if (*j->backend) {
            bh_strbuf_printf(&id, "-%s", j->backend);
            bh_strbuf_printf(&name, " (%s)", j->backend);
        }
        group = bh_xstrdup(bh_strbuf_str(&id));
        for (size_t k = 0; k < j->n_backends; k++) {
            bh_strbuf_printf(&args, "%s--backend %s", args.len ? " " : "", j->backends[k]);
            cJSON_AddItemToArray(bl, cJSON_CreateString(j->backends[k]));
        }
        if (c->shards > 1) {
            bh_strbuf_printf(&id, "-shard-%u-of-%u", s, c->shards);
            bh_strbuf_printf(&name, " [%u/%u]", s, c->shards);
            bh_strbuf_printf(&args, "%s--shard %u/%u", args.len ? " " : "", s, c->shards);
        }
        cJSON_AddStringToObject(o, "id", bh_strbuf_str(&id));
        cJSON_AddStringToObject(o, "group", group);
        cJSON_AddStringToObject(o, "name", bh_strbuf_str(&name));
        cJSON_AddStringToObject(o, "config", path);
        cJSON_AddStringToObject(o, "config_name", cfg->name);
        cJSON_AddStringToObject(o, "backend", j->backend);
        cJSON_AddItemToObject(o, "backends", bl);
        cJSON_AddBoolToObject(o, "required", j->required);
        cJSON_AddItemToObject(o, "runs_on", cJSON_Duplicate(j->runs_on, 1));
        if (c->shards > 1)
            snprintf(sh, sizeof(sh), "%u/%u", s, c->shards);
        cJSON_AddStringToObject(o, "shard", sh);
        cJSON_AddNumberToObject(o, "shards", c->shards);
        cJSON_AddStringToObject(o, "args", bh_strbuf_str(&args));
        cJSON_AddItemToArray(arr, o);
        free(group);
        bh_strbuf_free(&id);
        bh_strbuf_free(&name);
        bh_strbuf_free(&args);
    }
}

/* The runner label a config's launcher: asks for (a multi-node runner,
 * docs/multi-rank.md): the top level's, else the first suite's; NULL. */
static const char *launcher_label(const bh_config *cfg)
{
    if (cfg->defaults.launcher && cfg->defaults.launcher->runner_label)
        return cfg->defaults.launcher->runner_label;
    for (size_t i = 0; i < cfg->n_suites; i++)
        if (cfg->suites[i].settings.launcher && cfg->suites[i].settings.launcher->runner_label)
            return cfg->suites[i].settings.launcher->runner_label;
    return NULL;
}

/* The jobs of one config. A launcher's runner_label is the runner of all
 * of them: the whole config runs where its ranks can reach their nodes. */
static void config_jobs(cJSON *arr, const ctx *c, const bh_config *cfg, const char *path)
{
    const bh_backend_req **split = bh_xcalloc(cfg->n_backends + 1, sizeof(*split));
    const char **names = bh_xcalloc(cfg->n_backends + 2, sizeof(*names));
    size_t n_split = 0;
    cJSON *label = launcher_label(cfg) ? cJSON_CreateString(launcher_label(cfg)) : NULL;

    for (size_t i = 0; i < cfg->n_backends; i++)
        if (cfg->backends[i].required || runner_for(c, cfg->backends[i].name))
            split[n_split++] = &cfg->backends[i];
    if (n_split <= 1) {
        const cJSON *r = n_split ? runner_for(c, split[0]->name) : NULL;
        job j = {"", NULL, 0, 1, label ? label : r ? r : c->default_runner};

        add_jobs(arr, c, cfg, path, &j);
    } else {
        for (size_t s = 0; s < n_split; s++) {
            const cJSON *r = runner_for(c, split[s]->name);
            job j = {split[s]->name, names, 0, split[s]->required,
                     label ? label : r ? r : c->default_runner};

            if (s == 0) {
                names[j.n_backends++] = "none"; /* host-only cases */
                names[j.n_backends++] = split[0]->name;
                for (size_t i = 0; i < cfg->n_backends; i++) {
                    int in_split = 0;

                    for (size_t k = 0; k < n_split; k++)
                        in_split |= split[k] == &cfg->backends[i];
                    if (!in_split)
                        names[j.n_backends++] = cfg->backends[i].name;
                }
            } else {
                names[j.n_backends++] = split[s]->name;
            }
            add_jobs(arr, c, cfg, path, &j);
        }
    }
    cJSON_Delete(label);
    free(names);
    free(split);
}

int bh_matrix_build(char *const *paths, size_t n, const bh_matrix_opts *o, cJSON **out,
                    bh_error *e)
{
    ctx c;
    cJSON *m = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(m, "include");
    char **seen = bh_xcalloc(n ? n : 1, sizeof(*seen));
    char **seen_path = bh_xcalloc(n ? n : 1, sizeof(*seen_path));
    size_t n_seen = 0;
    int rc = ctx_init(&c, o, e);

    for (size_t i = 0; i < n && rc == 0; i++) {
        bh_config *cfg = bh_config_load(paths[i], e);

        if (!cfg) {
            rc = BH_MATRIX_BAD_CONFIG;
            break;
        }
        if (!safe_word(cfg->name, "")) {
            rc = bh_error_set(e, "%s: config name '%s': expected letters, digits and . _ - for "
                                 "job and artifact names", paths[i], cfg->name);
        } else if (wanted(&c, cfg->name)) {
            for (size_t k = 0; k < n_seen && rc == 0; k++)
                if (strcmp(seen[k], cfg->name) == 0)
                    rc = bh_error_set(e, "%s and %s are both named '%s': their results would "
                                         "mix", seen_path[k], paths[i], cfg->name);
            if (rc == 0) {
                seen[n_seen] = bh_xstrdup(cfg->name);
                seen_path[n_seen++] = paths[i];
                config_jobs(arr, &c, cfg, paths[i]);
            }
        }
        bh_config_free(cfg);
    }
    for (size_t k = 0; k < c.n_words && rc == 0; k++)
        if (!c.word_used[k])
            rc = bh_error_set(e, "--filter '%s' matches no config name", c.words[k]);
    if (rc == 0 && cJSON_GetArraySize(arr) == 0)
        rc = bh_error_set(e, "no configs: the job matrix would be empty");
    for (size_t k = 0; k < n_seen; k++)
        free(seen[k]);
    free(seen);
    free(seen_path);
    ctx_free(&c);
    if (rc != 0) {
        cJSON_Delete(m);
        m = NULL;
    }
    *out = m;
    return rc;
}
