// SPDX-License-Identifier: MIT
/* launcher: -- how the processes of a multi-rank case are started
 * (docs/multi-rank.md): read from a config map into a bh_launcher, copied
 * into each suite's settings, and freed. */
#include "config_internal.h"

#include "bh_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const launcher_keys[] = {
    "kind", "program", "hostfile", "hosts",   "ranks_per_node", "bind",
    "oversubscribe", "args", "env", "connect", "runner_label", "probe_timeout",
};
#define N_LAUNCHER_KEYS (sizeof(launcher_keys) / sizeof(launcher_keys[0]))

static const char *const kinds[] = {"mpirun", "srun", "local"};
static const char *const binds[] = {"auto", "none", "core", "socket", "numa"};

/* True when v is one of the n words. */
static int one_of(const char *v, const char *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v, words[i]) == 0)
            return 1;
    return 0;
}

static char **copy_strings(char *const *v, size_t n)
{
    char **out = n ? bh_xcalloc(n, sizeof(*out)) : NULL;

    for (size_t i = 0; i < n; i++)
        out[i] = bh_xstrdup(v[i]);
    return out;
}

static char *dup_or_null(const char *s)
{
    return s ? bh_xstrdup(s) : NULL;
}

bh_launcher *bh_launcher_copy(const bh_launcher *l)
{
    bh_launcher *c;

    if (!l)
        return NULL;
    c = bh_xcalloc(1, sizeof(*c));
    *c = *l;
    c->kind = dup_or_null(l->kind);
    c->program = dup_or_null(l->program);
    c->hostfile = dup_or_null(l->hostfile);
    c->hosts = copy_strings(l->hosts, l->n_hosts);
    c->bind = dup_or_null(l->bind);
    c->args = copy_strings(l->args, l->n_args);
    c->env = copy_strings(l->env, l->n_env);
    c->connect = dup_or_null(l->connect);
    c->runner_label = dup_or_null(l->runner_label);
    return c;
}

void bh_launcher_free(bh_launcher *l)
{
    if (!l)
        return;
    free(l->kind);
    free(l->program);
    free(l->hostfile);
    bh_config_strings_free(l->hosts, l->n_hosts);
    free(l->bind);
    bh_config_strings_free(l->args, l->n_args);
    bh_config_strings_free(l->env, l->n_env);
    free(l->connect);
    free(l->runner_label);
    free(l);
}

/* env: a map of NAME: value into "NAME=value" strings. */
static int load_env(bh_launcher *l, const bh_ynode *n, bh_error *e)
{
    char got[96];

    if (n->kind != BH_YNODE_MAP)
        return bh_config_fail(e, n, "launcher.env: expected a map of NAME: value, got %s",
                              bh_config_got(n, got, sizeof(got)));
    l->n_env = bh_yaml_map_len(n);
    l->env = l->n_env ? bh_xcalloc(l->n_env, sizeof(*l->env)) : NULL;
    for (size_t i = 0; i < l->n_env; i++) {
        const bh_ynode *k = bh_yaml_map_key(n, i), *v = bh_yaml_map_value(n, i);

        if (!*k->text || strspn(k->text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_") != strlen(k->text) ||
            (k->text[0] >= '0' && k->text[0] <= '9'))
            return bh_config_fail(e, k, "launcher.env: '%s' is not a variable name "
                                        "(expected letters, digits and _)", k->text);
        if (v->kind != BH_YNODE_SCALAR)
            return bh_config_fail(e, v, "launcher.env.%s: expected a value, got %s", k->text,
                                  bh_config_got(v, got, sizeof(got)));
        l->env[i] = bh_xasprintf("%s=%s", k->text, bh_yaml_is_null(v) ? "" : v->text);
    }
    return 0;
}

/* One scalar key of the launcher map onto l. */
static int load_scalar(bh_launcher *l, const char *key, const bh_ynode *v, bh_error *e)
{
    char what[48];
    char *text = NULL;

    snprintf(what, sizeof(what), "launcher.%s", key);
    if (strcmp(key, "oversubscribe") == 0)
        return bh_config_get_bool(v, what, &l->oversubscribe, e);
    if (bh_config_get_string(v, what, &text, e) != 0)
        return -1;
    if (strcmp(key, "kind") == 0 && !one_of(text, kinds, 3)) {
        free(text);
        return bh_config_fail(e, v, "launcher.kind: expected mpirun, srun or local, got '%s'",
                              v->text);
    }
    if (strcmp(key, "bind") == 0 && !one_of(text, binds, 5)) {
        free(text);
        return bh_config_fail(e, v, "launcher.bind: expected auto, none, core, socket or numa, "
                                    "got '%s'", v->text);
    }
    if (strcmp(key, "ranks_per_node") == 0) {
        char *end;
        unsigned long k = strtoul(text, &end, 10);
        int bad = *end || k < 1 || k > 65536 || text[0] == '-';

        free(text);
        if (bad)
            return bh_config_fail(e, v, "launcher.ranks_per_node: expected an integer "
                                        "from 1 to 65536, got '%s'", v->text);
        l->ranks_per_node = (uint32_t)k;
        return 0;
    }
    if (strcmp(key, "probe_timeout") == 0) {
        int rc = bh_parse_duration(text, &l->probe_timeout_ns, e);

        free(text);
        if (rc != 0 || l->probe_timeout_ns == 0)
            return bh_config_fail(e, v, "launcher.probe_timeout: expected a duration > 0 "
                                        "such as 30s, got '%s'", v->text);
        return 0;
    }
    if (strcmp(key, "hostfile") == 0) {
        char *dir = bh_config_dirname(v->file);

        l->hostfile = bh_config_path_join(dir, text);
        free(dir);
        free(text);
        return 0;
    }
    char **slot = strcmp(key, "kind") == 0      ? &l->kind
                  : strcmp(key, "program") == 0 ? &l->program
                  : strcmp(key, "bind") == 0    ? &l->bind
                  : strcmp(key, "connect") == 0 ? &l->connect
                                                : &l->runner_label;
    free(*slot);
    *slot = text;
    return 0;
}

/* The keys of map n onto l. */
static int load_keys(bh_launcher *l, const bh_ynode *n, bh_error *e)
{
    for (size_t i = 0; i < bh_yaml_map_len(n); i++) {
        const char *key = bh_yaml_map_key(n, i)->text;
        const bh_ynode *v = bh_yaml_map_value(n, i);
        int rc;

        if (strcmp(key, "hosts") == 0)
            rc = bh_config_get_strings(v, "launcher.hosts", &l->hosts, &l->n_hosts, e);
        else if (strcmp(key, "args") == 0)
            rc = bh_config_get_strings(v, "launcher.args", &l->args, &l->n_args, e);
        else if (strcmp(key, "env") == 0)
            rc = load_env(l, v, e);
        else
            rc = load_scalar(l, key, v, e);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int bh_config_load_launcher(bh_settings *s, const bh_ynode *n, const char *where,
                            bh_error *e)
{
    bh_launcher *l;
    char what[64];

    if (where)
        snprintf(what, sizeof(what), "%s.launcher", where);
    else
        snprintf(what, sizeof(what), "launcher");
    if (bh_config_expect_map(n, what, e) != 0)
        return -1;
    if (bh_config_check_keys(n, launcher_keys, N_LAUNCHER_KEYS, what, e) != 0)
        return -1;
    l = bh_xcalloc(1, sizeof(*l));
    l->oversubscribe = -1;
    l->pos = bh_config_pos(n);
    if (load_keys(l, n, e) != 0) {
        bh_launcher_free(l);
        return -1;
    }
    if (!l->kind)
        l->kind = bh_xstrdup("mpirun");
    if (strcmp(l->kind, "local") == 0 && (l->hostfile || l->n_hosts)) {
        bh_launcher_free(l);
        return bh_config_fail(e, n, "%s: kind local starts every rank on this machine "
                                    "(expected no hostfile or hosts)", what);
    }
    if (l->hostfile && l->n_hosts) {
        bh_launcher_free(l);
        return bh_config_fail(e, n, "%s: expected hostfile or hosts, not both", what);
    }
    bh_launcher_free(s->launcher);
    s->launcher = l;
    return 0;
}
