// SPDX-License-Identifier: MIT
/* The command: map of a suite of plugin command (plugins/command): an
 * external program as a benchmark. It is checked here, with positions,
 * and becomes the suite's parameters, one value each: name (the suite's
 * name, the one parameter shown in the case id), argv, env and requires
 * as JSON text, shell, stdin, cwd, prepare, cleanup, status, checksum,
 * per_run.
 *
 *   command:
 *     argv: [spm_encode, --output_format=id]   # or shell: "a | b"
 *     stdin: corpus.txt
 *     env: {OMP_NUM_THREADS: 1}
 *     cwd: /tmp
 *     prepare: "sync"                           # sh -c, before each run
 *     cleanup: "rm -f out"                      # sh -c, after each run
 *     per_run: 50                               # units of work per run
 *     requires: {spm_encode: "Debian package sentencepiece"}  # else skipped
 *     verify: {status: 0, checksum: "fnv64:..."}
 */
#include "config_internal.h"

#include "bh_mem.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const command_keys[] = {
    "argv", "shell", "stdin", "env", "cwd", "prepare", "cleanup", "per_run", "verify", "requires",
};
static const char *const verify_keys[] = {"status", "checksum"};
static const char *const text_keys[] = {"shell", "stdin", "cwd", "prepare", "cleanup"};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Appends the axis key = one scalar of the given kind, text and position
 * to s; hidden axes stay out of the case id. */
static void add_value(bh_suite *s, const char *key, bh_scalar_kind kind, const char *text,
                      int64_t i, bh_srcpos pos, int hidden)
{
    bh_param_axis *a;

    s->params = bh_xreallocarray(s->params, s->n_params + 1, sizeof(*s->params));
    a = &s->params[s->n_params++];
    memset(a, 0, sizeof(*a));
    a->key = bh_xstrdup(key);
    a->pos = pos;
    a->hidden = hidden;
    a->n_values = 1;
    a->values = bh_xcalloc(1, sizeof(*a->values));
    a->values[0].kind = kind;
    a->values[0].i = i;
    a->values[0].f = (double)i;
    a->values[0].text = bh_xstrdup(text);
    a->values[0].pos = pos;
}

/* Adds axis key (argv or env) holding the scalars of list or map node n
 * as JSON text; what names n in errors. -1 when an item is no scalar. */
static int add_json(bh_suite *s, const char *key, const bh_ynode *n, const char *what, bh_error *e)
{
    int as_map = n->kind == BH_YNODE_MAP;
    cJSON *j = as_map ? cJSON_CreateObject() : cJSON_CreateArray();
    size_t count = as_map ? bh_yaml_map_len(n) : n->n_kids;
    char got[96], *text;

    for (size_t i = 0; i < count; i++) {
        const bh_ynode *v = as_map ? bh_yaml_map_value(n, i) : n->kids[i];

        if (v->kind != BH_YNODE_SCALAR || bh_yaml_is_null(v)) {
            cJSON_Delete(j);
            return bh_config_fail(e, v, "%s: expected a scalar value, got %s", what,
                                  bh_config_got(v, got, sizeof(got)));
        }
        if (as_map)
            cJSON_AddItemToObject(j, bh_yaml_map_key(n, i)->text, cJSON_CreateString(v->text));
        else
            cJSON_AddItemToArray(j, cJSON_CreateString(v->text));
    }
    text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    add_value(s, key, BH_SCALAR_STR, text ? text : "", 0, bh_config_pos(n), 1);
    cJSON_free(text);
    return 0;
}

/* argv: a non-empty list of scalars, its first a non-empty program. */
static int load_argv(bh_suite *s, const bh_ynode *v, const char *where, bh_error *e)
{
    char got[96], sub[128];

    snprintf(sub, sizeof(sub), "%s.argv", where);
    if (v->kind != BH_YNODE_SEQ || v->n_kids == 0)
        return bh_config_fail(e, v, "%s: expected a non-empty list (program and arguments), got %s",
                              sub, bh_config_got(v, got, sizeof(got)));
    if (v->kids[0]->kind == BH_YNODE_SCALAR && !v->kids[0]->text[0])
        return bh_config_fail(e, v->kids[0], "%s[0]: expected a program name, got ''", sub);
    return add_json(s, "argv", v, sub, e);
}

/* env or requires: a map of scalars. */
static int load_map(bh_suite *s, const bh_ynode *v, const char *key, const char *where, bh_error *e)
{
    char sub[128];

    snprintf(sub, sizeof(sub), "%s.%s", where, key);
    if (bh_yaml_is_null(v) || v->kind != BH_YNODE_MAP)
        return bh_config_expect_map(v, sub, e) == 0 ? 0 : -1;
    return add_json(s, key, v, sub, e);
}

/* An integer scalar in [lo, hi] as axis key. */
static int load_int(bh_suite *s, const bh_ynode *v, const char *key, const char *what, int64_t lo,
                    int64_t hi, bh_error *e)
{
    bh_scalar sc;
    char got[96];
    int ok;

    if (v->kind != BH_YNODE_SCALAR)
        return bh_config_fail(e, v, "%s: expected an integer in [%lld, %lld], got %s", what,
                              (long long)lo, (long long)hi, bh_config_got(v, got, sizeof(got)));
    bh_config_scalar_from_node(v, &sc);
    ok = sc.kind == BH_SCALAR_INT && sc.i >= lo && sc.i <= hi;
    if (ok)
        add_value(s, key, BH_SCALAR_INT, sc.text, sc.i, bh_config_pos(v), 1);
    bh_config_scalar_free(&sc);
    if (!ok)
        return bh_config_fail(e, v, "%s: expected an integer in [%lld, %lld], got %s", what,
                              (long long)lo, (long long)hi, bh_config_got(v, got, sizeof(got)));
    return 0;
}

/* verify: {status: 0..255, checksum: "fnv64:<16 hex digits>"}. */
static int load_verify(bh_suite *s, const bh_ynode *v, const char *where, bh_error *e)
{
    char sub[128], what[160];
    const bh_ynode *x;
    char *sum;
    size_t hex;

    snprintf(sub, sizeof(sub), "%s.verify", where);
    if (bh_config_expect_map(v, sub, e) != 0 ||
        bh_config_check_keys(v, verify_keys, N_OF(verify_keys), sub, e) != 0)
        return -1;
    snprintf(what, sizeof(what), "%s.status", sub);
    if ((x = bh_yaml_map_get(v, "status")) != NULL && load_int(s, x, "status", what, 0, 255, e))
        return -1;
    if ((x = bh_yaml_map_get(v, "checksum")) == NULL)
        return 0;
    snprintf(what, sizeof(what), "%s.checksum", sub);
    if (bh_config_get_string(x, what, &sum, e) != 0)
        return -1;
    hex = strncmp(sum, "fnv64:", 6) == 0 ? strspn(sum + 6, "0123456789abcdef") : 0;
    if (hex != 16 || sum[22] != '\0') {
        free(sum);
        return bh_config_fail(e, x, "%s: expected fnv64: and 16 lower-case hex digits, got '%s'",
                              what, x->text);
    }
    add_value(s, "checksum", BH_SCALAR_STR, sum, 0, bh_config_pos(x), 1);
    free(sum);
    return 0;
}

/* The string-valued keys (shell, stdin, cwd, prepare, cleanup). */
static int load_texts(bh_suite *s, const bh_ynode *cmd, const char *where, bh_error *e)
{
    for (size_t i = 0; i < N_OF(text_keys); i++) {
        const bh_ynode *v = bh_yaml_map_get(cmd, text_keys[i]);
        char sub[128], *text;

        if (!v)
            continue;
        snprintf(sub, sizeof(sub), "%s.%s", where, text_keys[i]);
        if (bh_config_get_string(v, sub, &text, e) != 0)
            return -1;
        add_value(s, text_keys[i], BH_SCALAR_STR, text, 0, bh_config_pos(v), 1);
        free(text);
    }
    return 0;
}

int bh_config_load_command(bh_suite *s, const bh_ynode *suite, const bh_ynode *cmd,
                           const char *where, bh_error *e)
{
    const bh_ynode *argv = bh_yaml_map_get(cmd, "argv"), *shell, *v;
    char sub[96], what[128];

    snprintf(sub, sizeof(sub), "%s.command", where);
    if (strcmp(s->plugin, "command") != 0)
        return bh_config_fail(e, cmd, "%s: only a suite of plugin 'command' takes a command", sub);
    if (bh_yaml_map_get(suite, "params"))
        return bh_config_fail(e, bh_yaml_map_get(suite, "params"),
                              "%s.params: a command suite takes its settings from command:", where);
    if (!s->name)
        return bh_config_fail(e, suite, "%s: a command suite needs a name: (its case's name)",
                              where);
    if (bh_config_expect_map(cmd, sub, e) != 0 ||
        bh_config_check_keys(cmd, command_keys, N_OF(command_keys), sub, e) != 0)
        return -1;
    shell = bh_yaml_map_get(cmd, "shell");
    if (!argv == !shell)
        return bh_config_fail(e, cmd,
                              "%s: expected exactly one of argv: (a list) and shell: (a "
                              "string), got %s",
                              sub, argv ? "both" : "neither");
    add_value(s, "name", BH_SCALAR_STR, s->name, 0, bh_config_pos(cmd), 0);
    if ((argv && load_argv(s, argv, sub, e) != 0) || load_texts(s, cmd, sub, e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(cmd, "env")) != NULL && load_map(s, v, "env", sub, e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(cmd, "requires")) != NULL && load_map(s, v, "requires", sub, e) != 0)
        return -1;
    snprintf(what, sizeof(what), "%s.per_run", sub);
    if ((v = bh_yaml_map_get(cmd, "per_run")) != NULL &&
        load_int(s, v, "per_run", what, 1, 1000000000, e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(cmd, "verify")) != NULL && load_verify(s, v, sub, e) != 0)
        return -1;
    return 0;
}
