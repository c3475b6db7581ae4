// SPDX-License-Identifier: MIT
/* Launcher command lines: Open MPI's mpirun, Slurm's srun, or none (the
 * hub forks the ranks itself: launcher: local). */
#include "rank_launch.h"

#include "bh_mem.h"
#include "ipc.h"
#include "rank_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

typedef struct vec {
    char **v;
    size_t n, cap;
} vec;

static void push(vec *a, char *s)
{
    bh_grow((void **)&a->v, &a->cap, a->n + 2, sizeof(*a->v));
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

static void push_dup(vec *a, const char *s)
{
    push(a, bh_xstrdup(s));
}

/* The strings of array member key of o, pushed onto a (prefixed by flag
 * before each when flag is not NULL). */
static void push_all(vec *a, const cJSON *o, const char *key, const char *flag)
{
    const cJSON *it;

    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(o, key)) {
        if (!cJSON_IsString(it))
            continue;
        if (flag)
            push_dup(a, flag);
        push_dup(a, it->valuestring);
    }
}

uint32_t bh_rank_cmd_nodes(const cJSON *l)
{
    const char *hf = bh_json_str(l, "hostfile", NULL);
    uint32_t n = (uint32_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(l, "hosts"));
    FILE *f;
    char line[1024];

    if (n || !hf)
        return n;
    f = fopen(hf, "re");
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f)) {
        char *p = line + strspn(line, " \t");

        if (*p && *p != '#' && *p != '\n')
            n++;
    }
    fclose(f);
    return n;
}

/* "h1:K,h2:K" for mpirun --host: K slots on each named host. */
static char *host_list(const cJSON *l, uint32_t slots)
{
    const cJSON *it;
    char *s = bh_xstrdup("");

    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(l, "hosts")) {
        char *t;

        if (!cJSON_IsString(it))
            continue;
        t = bh_xasprintf("%s%s%s:%u", s, *s ? "," : "", it->valuestring, slots);
        free(s);
        s = t;
    }
    return s;
}

/* mpirun -np N [--hostfile F | --host h:K,...] [--map-by ppr:K:node]
 * [--bind-to B] [--oversubscribe] -x VAR... ARGS... EXE __rank; bind
 * "auto" passes no --bind-to: Open MPI binds each rank to a core for 2
 * ranks, to a package for more, not at all when oversubscribed. */
static void mpirun_argv(vec *a, const cJSON *l, uint32_t ranks, int per_node)
{
    uint32_t nodes = bh_rank_cmd_nodes(l);
    uint32_t per = (uint32_t)bh_json_num(l, "ranks_per_node", 0);
    const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(l, "hosts");
    const cJSON *env;
    int over = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(l, "oversubscribe"));

    if (per_node) {
        ranks = nodes ? nodes : 1;
        per = 1;
    }
    push_dup(a, "-np");
    push(a, bh_xasprintf("%u", ranks));
    if (bh_json_str(l, "hostfile", NULL)) {
        push_dup(a, "--hostfile");
        push_dup(a, bh_json_str(l, "hostfile", ""));
    } else if (cJSON_GetArraySize(hosts) > 0) {
        push_dup(a, "--host");
        push(a, host_list(l, per ? per : (ranks + nodes - 1) / nodes));
    }
    if (per) {
        push_dup(a, "--map-by");
        push(a, bh_xasprintf("ppr:%u:node", per));
    }
    if (strcmp(bh_json_str(l, "bind", "auto"), "auto") != 0) {
        push_dup(a, "--bind-to");
        push_dup(a, bh_json_str(l, "bind", "auto"));
    }
    if (over)
        push_dup(a, "--oversubscribe");
    push_dup(a, "-x");
    push_dup(a, BH_RANK_ENV_ADDR);
    push_dup(a, "-x");
    push_dup(a, BH_RANK_ENV_TOKEN);
    cJSON_ArrayForEach(env, cJSON_GetObjectItemCaseSensitive(l, "env")) {
        const char *eq = cJSON_IsString(env) ? strchr(env->valuestring, '=') : NULL;

        if (!eq)
            continue;
        push_dup(a, "-x");
        push(a, bh_xasprintf("%.*s", (int)(eq - env->valuestring), env->valuestring));
    }
}

/* srun -n N [--nodelist h,...] [--ntasks-per-node K] [--cpu-bind=B]
 * --kill-on-bad-exit=1 --export=ALL ARGS... EXE __rank */
static void srun_argv(vec *a, const cJSON *l, uint32_t ranks, int per_node)
{
    static const char *const binds[][2] = {
        {"none", "none"}, {"core", "cores"}, {"socket", "sockets"}, {"numa", "ldoms"}};
    const char *bind = bh_json_str(l, "bind", "auto"); /* auto: Slurm's own */
    uint32_t per = (uint32_t)bh_json_num(l, "ranks_per_node", 0);
    uint32_t nodes = bh_rank_cmd_nodes(l);
    const cJSON *it;
    char *list = bh_xstrdup("");

    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(l, "hosts")) {
        char *t = bh_xasprintf("%s%s%s", list, *list ? "," : "",
                               cJSON_IsString(it) ? it->valuestring : "");
        free(list);
        list = t;
    }
    if (per_node) {
        ranks = nodes ? nodes : 1;
        per = 1;
    }
    push(a, bh_xasprintf("--ntasks=%u", ranks));
    if (*list)
        push(a, bh_xasprintf("--nodelist=%s", list));
    free(list);
    if (per)
        push(a, bh_xasprintf("--ntasks-per-node=%u", per));
    for (size_t i = 0; i < 4; i++)
        if (strcmp(bind, binds[i][0]) == 0)
            push(a, bh_xasprintf("--cpu-bind=%s", binds[i][1]));
    push_dup(a, "--kill-on-bad-exit=1");
    push_dup(a, "--export=ALL");
}

/* environ, then the launch's variables (a later entry wins in getenv of
 * glibc only for the first match: ours are put first). */
static void build_env(vec *e, const cJSON *l, const char *addr, const char *token)
{
    const cJSON *it;

    push(e, bh_xasprintf("%s=%s", BH_RANK_ENV_ADDR, addr));
    push(e, bh_xasprintf("%s=%s", BH_RANK_ENV_TOKEN, token));
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(l, "env"))
        if (cJSON_IsString(it) && strchr(it->valuestring, '='))
            push_dup(e, it->valuestring);
    if (geteuid() == 0) { /* Open MPI refuses root unless told */
        push_dup(e, "OMPI_ALLOW_RUN_AS_ROOT=1");
        push_dup(e, "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1");
    }
    for (char **p = environ; p && *p; p++) {
        size_t k = strcspn(*p, "=");
        int ours = 0;

        for (size_t i = 0; i < e->n && !ours; i++)
            ours = strncmp(e->v[i], *p, k + 1) == 0;
        if (!ours)
            push_dup(e, *p);
    }
}

int bh_rank_cmd_build(const cJSON *l, uint32_t ranks, int per_node, const char *exe,
                      const char *addr, const char *token, bh_rank_cmd *out, bh_error *e)
{
    const char *kind = bh_json_str(l, "kind", "mpirun");
    vec a = {0}, env = {0};

    memset(out, 0, sizeof(*out));
    if (strcmp(kind, "mpirun") != 0 && strcmp(kind, "srun") != 0 && strcmp(kind, "local") != 0)
        return bh_error_set(e, "launcher: unknown kind '%s'", kind);
    snprintf(out->kind, sizeof(out->kind), "%s", kind);
    build_env(&env, l, addr, token);
    out->envp = env.v;
    if (strcmp(kind, "local") == 0)
        return 0;
    push_dup(&a, bh_json_str(l, "program", kind));
    if (strcmp(kind, "mpirun") == 0)
        mpirun_argv(&a, l, ranks, per_node);
    else
        srun_argv(&a, l, ranks, per_node);
    push_all(&a, l, "args", NULL);
    push_dup(&a, exe);
    push_dup(&a, "__rank");
    out->argv = a.v;
    return 0;
}

void bh_rank_cmd_free(bh_rank_cmd *c)
{
    for (char **p = c->argv; p && *p; p++)
        free(*p);
    for (char **p = c->envp; p && *p; p++)
        free(*p);
    free(c->argv);
    free(c->envp);
    memset(c, 0, sizeof(*c));
}
