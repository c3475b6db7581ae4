// SPDX-License-Identifier: MIT
/* The CI side of bhost run (run_ci.h). */
#define _GNU_SOURCE
#include "run_ci.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define GIT_TIMEOUT_MS 5000

/* Prints "bhost: run: <msg>" and returns -1. */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;

    fputs("bhost: run: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

int bh_run_ci_set_shard(bh_run_ci *c, const char *text)
{
    bh_error e = {""};

    if (bh_shard_parse(text, &c->shard, &e) != 0)
        return fail("%s", e.msg);
    c->sharded = 1;
    return 0;
}

int bh_run_ci_add_backend(bh_run_ci *c, const char *name)
{
    if (!*name)
        return fail("--backend: expected a backend name (cpu, cuda, ...) or 'none' for the "
                    "cases that use no backend");
    if (c->n_backends == BH_RUN_CI_MAX_BACKENDS)
        return fail("--backend: at most %d backends", BH_RUN_CI_MAX_BACKENDS);
    c->backends[c->n_backends++] = name;
    return 0;
}

void bh_run_ci_select(bh_run_ci *c, bh_plan *plan, const char *results_dir,
                      const char *config, cJSON *base_doc, const bh_regress_config *rc,
                      char *const *ignore, size_t n_ignore)
{
    bh_shard_select_backends(plan, (char *const *)c->backends, c->n_backends);
    if (base_doc && c->n_backends)
        cJSON_Delete(bh_shard_trim_baseline(base_doc, plan, ignore, n_ignore, NULL, 0));
    if (c->sharded) {
        bh_shard_history h;
        size_t n_whole = plan->n;
        char **whole = base_doc ? bh_shard_plan_keys(plan, ignore, n_ignore) : NULL;

        bh_shard_history_load(results_dir, config, &h);
        bh_shard_apply(plan, &c->shard, &h, &c->info);
        bh_shard_history_free(&h);
        if (base_doc) {
            cJSON *others = bh_shard_trim_baseline(base_doc, plan, ignore, n_ignore, whole,
                                                   n_whole);

            c->family_extra = rc ? bh_shard_family_extra(others, rc) : 0;
            cJSON_Delete(others);
        }
        bh_shard_keys_free(whole, whole ? n_whole : 0);
    }
    bh_git_meta_collect(".", GIT_TIMEOUT_MS, &c->git);
    c->run_git = (bh_run_git){c->git.commit, c->git.branch, c->git.dirty, c->git.source};
}

const bh_run_git *bh_run_ci_git(const bh_run_ci *c)
{
    return &c->run_git;
}

void bh_run_ci_record(const bh_run_ci *c, cJSON *doc)
{
    cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run");

    if (c->sharded && cJSON_IsObject(run))
        cJSON_AddItemToObject(run, "shard", bh_shard_json(&c->info));
}

void bh_run_ci_free(bh_run_ci *c)
{
    bh_shard_info_free(&c->info);
    bh_git_meta_free(&c->git);
}
