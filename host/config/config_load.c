// SPDX-License-Identifier: MIT
/* Schema v1: the top level of a (merged) config tree into a bh_config. */
#include "config_internal.h"

#include "bh_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const top_keys[] = {
    "schema",   "name",   "extends",    "plugin_path", "defaults",
    "backends", "suites", "regression", "output", "ratios", "launcher", "scaling",
};
#define N_TOP_KEYS (sizeof(top_keys) / sizeof(top_keys[0]))

static const char *const backend_keys[] = {"required", "devices"};
#define N_BACKEND_KEYS (sizeof(backend_keys) / sizeof(backend_keys[0]))

static const char *const output_formats[] = {
    "json", "markdown", "html", "junit", "csv", "gbench", "bmf",
};
#define N_OUTPUT_FORMATS (sizeof(output_formats) / sizeof(output_formats[0]))

/* Item i of a string-or-list node, for positions. */
static const bh_ynode *item_node(const bh_ynode *n, size_t i)
{
    return n->kind == BH_YNODE_SEQ ? n->kids[i] : n;
}

/* name: a safe file-name component, since it names the results folder. */
static int load_name(bh_config *c, const bh_ynode *n, bh_error *e)
{
    if (!n) {
        c->name = bh_config_stem(c->path);
        return 0;
    }
    if (bh_config_get_string(n, "name", &c->name, e) != 0)
        return -1;
    if (c->name[0] == '.' ||
        strspn(c->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789._-") != strlen(c->name))
        return bh_config_fail(e, n,
                              "'name' must be letters, digits, '.', '_' or "
                              "'-' and not start with '.' (it names the "
                              "results folder), got '%s'",
                              c->name);
    return 0;
}

/* plugin_path: each entry resolved against the directory of the file
 * that declared it. */
static int load_plugin_path(bh_config *c, const bh_ynode *n, bh_error *e)
{
    if (n->kind == BH_YNODE_SEQ && n->n_kids > BH_CONFIG_MAX_PLUGIN_PATH)
        return bh_config_fail(e, n, "plugin_path: more than %d directories",
                              BH_CONFIG_MAX_PLUGIN_PATH);
    if (bh_config_get_strings(n, "plugin_path", &c->plugin_path,
                              &c->n_plugin_path, e) != 0)
        return -1;
    for (size_t i = 0; i < c->n_plugin_path; i++) {
        char *dir = bh_config_dirname(item_node(n, i)->file);
        char *full = bh_config_path_join(dir, c->plugin_path[i]);

        free(dir);
        free(c->plugin_path[i]);
        c->plugin_path[i] = full;
    }
    return 0;
}

/* devices: all, one index, or a non-empty list of distinct indices. */
static int load_devices(bh_backend_req *b, const bh_ynode *n,
                        const char *where, bh_error *e)
{
    size_t count = n->kind == BH_YNODE_SEQ ? n->n_kids : 1;
    char got[96];

    if (n->kind == BH_YNODE_SCALAR && strcmp(n->text, "all") == 0)
        return 0;
    if (n->kind == BH_YNODE_MAP || bh_yaml_is_null(n) || count == 0)
        return bh_config_fail(e, n,
                              "%s: expected all or a list of device indices "
                              "such as [0, 1], got %s",
                              where, n->kind == BH_YNODE_SEQ
                                         ? "an empty list"
                                         : bh_config_got(n, got, sizeof(got)));
    if (count > BH_CONFIG_MAX_DEVICES)
        return bh_config_fail(e, n, "%s: more than %d device indices", where,
                              BH_CONFIG_MAX_DEVICES);
    b->all_devices = 0;
    b->devices = bh_xcalloc(count, sizeof(*b->devices));
    for (size_t i = 0; i < count; i++) {
        const bh_ynode *item = item_node(n, i);
        bh_scalar s = {.kind = BH_SCALAR_STR};

        if (item->kind == BH_YNODE_SCALAR) {
            bh_config_scalar_from_node(item, &s);
            bh_config_scalar_free(&s);
        }
        if (s.kind != BH_SCALAR_INT || s.i < 0 || s.i > (int64_t)UINT32_MAX)
            return bh_config_fail(e, item,
                                  "%s: expected a device index (an integer "
                                  ">= 0), got %s",
                                  where,
                                  bh_config_got(item, got, sizeof(got)));
        for (size_t j = 0; j < b->n_devices; j++)
            if (b->devices[j] == (uint32_t)s.i)
                return bh_config_fail(e, item,
                                      "%s: device %s is listed twice", where,
                                      item->text);
        b->devices[b->n_devices++] = (uint32_t)s.i;
    }
    return 0;
}

/* backends: a map of backend name -> {required, devices}. */
static int load_backends(bh_config *c, const bh_ynode *n, bh_error *e)
{
    size_t len = bh_yaml_map_len(n);

    if (bh_config_expect_map(n, "backends", e) != 0)
        return -1;
    if (len > BH_CONFIG_MAX_PLUGINS)
        return bh_config_fail(e, n, "backends: more than %d backends",
                              BH_CONFIG_MAX_PLUGINS);
    c->backends = bh_xcalloc(len ? len : 1, sizeof(*c->backends));
    for (size_t i = 0; i < len; i++) {
        const bh_ynode *key = bh_yaml_map_key(n, i);
        const bh_ynode *v = bh_yaml_map_value(n, i);
        bh_backend_req *b = &c->backends[c->n_backends++];
        const bh_ynode *opt;
        char where[96];

        b->name = bh_xstrdup(key->text);
        b->all_devices = 1;
        b->pos = bh_config_pos(key);
        if (!bh_config_name_ok(key->text, "_-"))
            return bh_config_fail(e, key,
                                  "backends: backend name '%s' must match "
                                  "[a-z0-9_-]+",
                                  key->text);
        snprintf(where, sizeof(where), "backends.%s", key->text);
        if (bh_config_expect_map(v, where, e) != 0 ||
            bh_config_check_keys(v, backend_keys, N_BACKEND_KEYS, where,
                                 e) != 0)
            return -1;
        snprintf(where, sizeof(where), "backends.%s.required", key->text);
        if ((opt = bh_yaml_map_get(v, "required")) != NULL &&
            bh_config_get_bool(opt, where, &b->required, e) != 0)
            return -1;
        snprintf(where, sizeof(where), "backends.%s.devices", key->text);
        if ((opt = bh_yaml_map_get(v, "devices")) != NULL &&
            load_devices(b, opt, where, e) != 0)
            return -1;
    }
    return 0;
}

/* output: a format or a list of distinct formats. */
static int load_outputs(bh_config *c, const bh_ynode *n, bh_error *e)
{
    if (bh_config_get_strings(n, "output", &c->outputs, &c->n_outputs, e) != 0)
        return -1;
    for (size_t i = 0; i < c->n_outputs; i++) {
        const char *f = c->outputs[i];
        const char *hint;
        size_t j;

        for (j = 0; j < N_OUTPUT_FORMATS; j++)
            if (strcmp(f, output_formats[j]) == 0)
                break;
        if (j == N_OUTPUT_FORMATS) {
            hint = bh_did_you_mean(f, output_formats, N_OUTPUT_FORMATS);
            if (hint)
                return bh_config_fail(e, item_node(n, i),
                                      "output: unknown format '%s' (did "
                                      "you mean '%s'?)",
                                      f, hint);
            return bh_config_fail(e, item_node(n, i),
                                  "output: unknown format '%s' (expected "
                                  "one of: json, markdown, html, junit, csv, "
                                  "gbench, bmf)",
                                  f);
        }
        for (j = 0; j < i; j++)
            if (strcmp(c->outputs[j], f) == 0)
                return bh_config_fail(e, item_node(n, i),
                                      "output: '%s' is listed twice", f);
    }
    return 0;
}

/* Fills c from the merged top-level map root. */
static int build(bh_config *c, const bh_ynode *root, bh_error *e)
{
    const bh_ynode *v;

    if (bh_config_check_keys(root, top_keys, N_TOP_KEYS, NULL, e) != 0)
        return -1;
    if (load_name(c, bh_yaml_map_get(root, "name"), e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(root, "plugin_path")) != NULL &&
        load_plugin_path(c, v, e) != 0)
        return -1;
    if (bh_config_settings_apply(&c->defaults,
                                 bh_yaml_map_get(root, "defaults"),
                                 "defaults", e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(root, "launcher")) != NULL &&
        bh_config_load_launcher(&c->defaults, v, NULL, e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(root, "backends")) != NULL &&
        load_backends(c, v, e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(root, "output")) != NULL &&
        load_outputs(c, v, e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(root, "regression")) != NULL &&
        bh_config_regression_json(v, &c->regression_json, e) != 0)
        return -1;
    if (c->regression_json && v)
        bh_config_regression_pos_json(v, &c->regression_pos_json);
    v = bh_yaml_map_get(root, "suites");
    if (!v)
        return bh_config_fail(e, root,
                              "missing required key 'suites' (a list of "
                              "suites; may be [])");
    if (bh_config_load_suites(c, v, e) != 0)
        return -1;
    if (bh_config_load_ratios(c, bh_yaml_map_get(root, "ratios"), e) != 0)
        return -1;
    return bh_config_load_scaling(c, root, e);
}

bh_config *bh_config_load(const char *path, bh_error *e)
{
    bh_config *c;
    bh_ynode *root = NULL;

    if (!path || !*path) {
        bh_error_set(e, "no config file given");
        return NULL;
    }
    c = bh_xcalloc(1, sizeof(*c));
    c->path = bh_xstrdup(path);
    c->dir = bh_config_dirname(path);
    bh_settings_default(&c->defaults);
    if (bh_config_read_tree(c, &root, e) != 0 || build(c, root, e) != 0) {
        bh_yaml_free(root);
        bh_config_free(c);
        return NULL;
    }
    bh_yaml_free(root);
    return c;
}

void bh_config_free(bh_config *c)
{
    if (!c)
        return;
    free(c->path);
    free(c->dir);
    free(c->name);
    free(c->hash);
    bh_config_strings_free(c->files, c->n_files);
    bh_config_strings_free(c->plugin_path, c->n_plugin_path);
    bh_settings_free(&c->defaults);
    for (size_t i = 0; i < c->n_backends; i++) {
        free(c->backends[i].name);
        free(c->backends[i].devices);
    }
    free(c->backends);
    for (size_t i = 0; i < c->n_suites; i++)
        bh_config_suite_free(&c->suites[i]);
    free(c->suites);
    bh_config_strings_free(c->outputs, c->n_outputs);
    free(c->regression_json);
    free(c->regression_pos_json);
    bh_config_ratios_free(c);
    bh_config_scaling_free(c);
    free(c);
}
