// SPDX-License-Identifier: MIT
/* Launchers of multi-rank cases: the job's launcher object and the check
 * before a run (rank_plan.h). */
#include "rank_plan.h"

#include "bh_json_write.h"
#include "bh_mem.h"
#include "bh_strset.h"
#include "ipc.h"
#include "tool_env.h"
#include "worker_spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SEC 1000000000ull

/* The launcher of settings s (mpirun on this host when none is set). */
static const char *kind_of(const bh_settings *s)
{
    return s->launcher && s->launcher->kind ? s->launcher->kind : "mpirun";
}

/* Pushes the strings of v onto a new JSON array member key of o. */
static void add_strings(cJSON *o, const char *key, char *const *v, size_t n)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);

    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
}

/* The job's launcher object for s, the program resolved on PATH; NULL
 * with *why (new string) when the program is not there. */
static cJSON *launcher_json(const bh_settings *s, char **why)
{
    const bh_launcher *l = s->launcher;
    const char *kind = kind_of(s);
    const char *prog = l && l->program ? l->program : kind;
    cJSON *o = cJSON_CreateObject();
    char *path = strcmp(kind, "local") == 0 ? NULL
                 : strchr(prog, '/')        ? bh_xstrdup(prog)
                                            : bh_tool_find(prog);
    int named_hosts = l && (l->hostfile || l->n_hosts);

    cJSON_AddStringToObject(o, "kind", kind);
    if (strcmp(kind, "local") != 0) {
        if (!path || access(path, X_OK) != 0) {
            *why = bh_xasprintf("launcher: %s not found%s (%s)", prog,
                                strchr(prog, '/') ? "" : " in PATH",
                                strcmp(kind, "srun") == 0 ? "Debian package slurm-client"
                                                          : "Debian package openmpi-bin");
            free(path);
            cJSON_Delete(o);
            return NULL;
        }
        cJSON_AddStringToObject(o, "program", path);
    }
    free(path);
    if (l && l->hostfile)
        cJSON_AddStringToObject(o, "hostfile", l->hostfile);
    if (l && l->n_hosts)
        add_strings(o, "hosts", l->hosts, l->n_hosts);
    if (l && l->ranks_per_node)
        cJSON_AddNumberToObject(o, "ranks_per_node", l->ranks_per_node);
    cJSON_AddStringToObject(o, "bind", l && l->bind ? l->bind : "auto");
    cJSON_AddBoolToObject(o, "oversubscribe",
                          l && l->oversubscribe >= 0 ? l->oversubscribe : !named_hosts);
    if (l && l->n_args)
        add_strings(o, "args", l->args, l->n_args);
    if (l && l->n_env)
        add_strings(o, "env", l->env, l->n_env);
    if (l && l->connect)
        cJSON_AddStringToObject(o, "connect", l->connect);
    cJSON_AddNumberToObject(o, "probe_timeout_ns",
                            l && l->probe_timeout_ns ? (double)l->probe_timeout_ns : 60e9);
    return o;
}

void bh_rank_job(const bh_case *c, cJSON *job)
{
    char *why = NULL;
    cJSON *l;
    uint64_t t = c->settings.timeout_ns;

    if (c->ranks <= 1)
        return;
    l = launcher_json(&c->settings, &why);
    free(why); /* the preflight skipped such a case */
    if (!l)
        return;
    cJSON_ReplaceItemInObject(job, "mode", cJSON_CreateString("ranks"));
    cJSON_AddNumberToObject(job, "ranks", c->ranks);
    cJSON_AddItemToObject(job, "launcher", l);
    if (t)
        cJSON_AddNumberToObject(job, "rank_deadline_ns",
                                (double)(t > 20 * SEC ? t - 6 * SEC : t / 2));
}

/* True when a probe launch is worth its cost: the launcher names other
 * nodes, or is Slurm's. */
static int needs_probe(const bh_settings *s)
{
    const bh_launcher *l = s->launcher;

    return l && (l->hostfile || l->n_hosts || strcmp(kind_of(s), "srun") == 0);
}

/* Starts one rank per node through launcher l and waits for them to
 * reach a hub; NULL when they did, else why (new string). */
static char *probe(cJSON *l, uint64_t timeout_ns)
{
    cJSON *job = cJSON_CreateObject();
    char *text, *exe = bh_self_exe(), *why = NULL;
    bh_spawn_opts so = {0};
    bh_worker_outcome out;
    bh_error e = {""};

    cJSON_AddStringToObject(job, "mode", "probe");
    cJSON_AddStringToObject(job, "plugin", "");
    cJSON_AddItemToObject(job, "launcher", cJSON_Duplicate(l, 1));
    text = bh_json_print_unformatted(job);
    so = (bh_spawn_opts){exe, text, timeout_ns + 15 * SEC, 65536, 0};
    if (bh_spawn_worker(&so, &out, &e) != 0) {
        why = bh_xstrdup(e.msg);
    } else {
        cJSON *msgs = bh_ipc_decode(out.result, out.result_len, &e);
        const cJSON *res = cJSON_GetArrayItem(msgs, cJSON_GetArraySize(msgs) - 1);

        if (!res || strcmp(bh_json_str(res, "status", ""), "ok") != 0)
            why = bh_xasprintf("launcher probe (one rank per node) failed: %s",
                               res ? bh_json_str(res, "message", "no reason")
                               : out.timed_out ? "it hung"
                                               : "it sent no result");
        cJSON_Delete(msgs);
        bh_worker_outcome_free(&out);
    }
    free(text);
    free(exe);
    cJSON_Delete(job);
    return why;
}

/* Skips every case i..n of the plan that uses the same launcher as c0
 * (same settings.launcher text) with why. */
static void skip_same(bh_plan *plan, size_t from, const char *key, const char *why)
{
    for (size_t i = from; i < plan->n; i++) {
        bh_case *c = &plan->cases[i];
        cJSON *l;
        char *text, *no = NULL;

        if (c->pre_status != BH_ST_OK || c->ranks <= 1)
            continue;
        l = launcher_json(&c->settings, &no);
        text = l ? bh_json_print_unformatted(l) : no;
        if (strcmp(text, key) == 0) {
            c->pre_status = BH_ST_SKIPPED;
            free(c->pre_reason);
            c->pre_reason = bh_xstrdup(why);
        }
        if (l)
            free(text);
        else
            free(no);
        cJSON_Delete(l);
    }
}

void bh_rank_preflight(bh_plan *plan)
{
    bh_strset good = BH_STRSET_INIT; /* launchers already found to work */
    char **keys = NULL;               /* the set's keys, freed at the end */
    size_t n_keys = 0, cap = 0;

    for (size_t i = 0; i < plan->n; i++) {
        bh_case *c = &plan->cases[i];
        char *why = NULL, *key;
        cJSON *l;

        if (c->pre_status != BH_ST_OK || c->ranks <= 1 || c->launcher_checked)
            continue;
        c->launcher_checked = 1;
        l = launcher_json(&c->settings, &why);
        key = l ? bh_json_print_unformatted(l) : bh_xstrdup(why);
        if (l && !bh_strset_get(&good, key, NULL) && needs_probe(&c->settings))
            why = probe(l, (uint64_t)bh_json_num(l, "probe_timeout_ns", 60e9));
        if (why) {
            fprintf(stderr, "bhost: warning: %s; the multi-rank cases using it are skipped\n",
                    why);
            skip_same(plan, i, key, why);
            free(key);
        } else if (bh_strset_add(&good, key, 0, NULL)) {
            BH_PUSH(keys, n_keys, cap, key);
        } else {
            free(key);
        }
        free(why);
        cJSON_Delete(l);
    }
    bh_strset_free(&good);
    for (size_t i = 0; i < n_keys; i++)
        free(keys[i]);
    free(keys);
}
