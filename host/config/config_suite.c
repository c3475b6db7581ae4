// SPDX-License-Identifier: MIT
/* The suites: list: which plugin, which benchmarks, which backends, the
 * parameter axes and the settings of each suite. */
#include "config_internal.h"

#include "bh_mem.h"
#include "bh_strset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const suite_keys[] = {
    "plugin", "name", "include", "exclude", "backends", "params", "defaults",
    "expect", "command", "launcher", "scaling",
};
#define N_SUITE_KEYS (sizeof(suite_keys) / sizeof(suite_keys[0]))

/* Item i of a string-or-list node, for positions. */
static const bh_ynode *item_node(const bh_ynode *n, size_t i)
{
    return n->kind == BH_YNODE_SEQ ? n->kids[i] : n;
}

/* Adds one axis key -> values (a scalar or a non-empty list of scalars)
 * to s. where names the params map. The caller has checked the length
 * against the combination limit; the duplicate check is one hash pass. */
static int add_axis(bh_suite *s, const bh_ynode *key, const bh_ynode *v,
                    const char *where, bh_error *e)
{
    bh_param_axis *axis;
    char got[96];
    size_t n = v->kind == BH_YNODE_SEQ ? v->n_kids : 1;
    bh_strset seen = BH_STRSET_INIT;
    int rc = 0;

    if (!bh_config_name_ok(key->text, "_"))
        return bh_config_fail(e, key,
                              "%s: parameter name '%s' must match "
                              "[a-z0-9_]+",
                              where, key->text);
    if (v->kind == BH_YNODE_MAP || bh_yaml_is_null(v))
        return bh_config_fail(e, v,
                              "%s.%s: expected a value or a list of values, "
                              "got %s",
                              where, key->text,
                              bh_config_got(v, got, sizeof(got)));
    if (n == 0)
        return bh_config_fail(e, v,
                              "%s.%s: expected at least one value, got an "
                              "empty list",
                              where, key->text);
    for (size_t i = 0; i < n && rc == 0; i++) {
        const bh_ynode *item = item_node(v, i);

        if (item->kind != BH_YNODE_SCALAR || bh_yaml_is_null(item))
            rc = bh_config_fail(e, item,
                                "%s.%s[%zu]: expected a scalar value, got "
                                "%s",
                                where, key->text, i,
                                bh_config_got(item, got, sizeof(got)));
        else if (!bh_strset_add(&seen, item->text, i, NULL))
            rc = bh_config_fail(e, item,
                                "%s.%s[%zu]: value '%s' is listed "
                                "twice",
                                where, key->text, i, item->text);
    }
    bh_strset_free(&seen);
    if (rc != 0)
        return -1;
    s->params = bh_xreallocarray(s->params, s->n_params + 1,
                                 sizeof(*s->params));
    axis = &s->params[s->n_params++];
    memset(axis, 0, sizeof(*axis));
    axis->key = bh_xstrdup(key->text);
    axis->pos = bh_config_pos(key);
    axis->values = bh_xcalloc(n, sizeof(*axis->values));
    for (size_t i = 0; i < n; i++)
        bh_config_scalar_from_node(item_node(v, i), &axis->values[i]);
    axis->n_values = n;
    return 0;
}

/* Fills s->params from the params: map. budget is what the earlier
 * suites left of the config's combination limit; each list is checked
 * against it before its values are looked at. */
static int load_params(bh_suite *s, const bh_ynode *map, size_t budget,
                       const char *where, bh_error *e)
{
    size_t combos = 1;

    if (bh_config_expect_map(map, where, e) != 0)
        return -1;
    for (size_t i = 0; i < bh_yaml_map_len(map); i++) {
        const bh_ynode *v = bh_yaml_map_value(map, i);
        size_t n = v->kind == BH_YNODE_SEQ ? v->n_kids : 1;

        if (n > BH_CONFIG_MAX_COMBOS / combos)
            return bh_config_fail(e, map,
                                  "%s: the parameter lists expand to more "
                                  "than %d combinations",
                                  where, BH_CONFIG_MAX_COMBOS);
        if (n > budget / combos)
            return bh_config_fail(e, map,
                                  "%s: the parameter lists of all suites "
                                  "together expand to more than %d "
                                  "combinations",
                                  where, BH_CONFIG_MAX_COMBOS);
        if (add_axis(s, bh_yaml_map_key(map, i), v, where, e) != 0)
            return -1;
        combos *= s->params[s->n_params - 1].n_values;
    }
    return 0;
}

/* Fills s->backends from a name or list of names, each of which must be
 * configured in c->backends when that map is not empty. */
static int load_backends(const bh_config *c, bh_suite *s, const bh_ynode *n,
                         const char *where, bh_error *e)
{
    const char **known;
    bh_strset seen = BH_STRSET_INIT, configured = BH_STRSET_INIT;
    int rc = 0;

    if (bh_config_get_strings(n, where, &s->backends, &s->n_backends, e) != 0)
        return -1;
    known = bh_xcalloc(c->n_backends + 1, sizeof(*known));
    for (size_t i = 0; i < c->n_backends; i++) {
        known[i] = c->backends[i].name;
        bh_strset_add(&configured, known[i], i, NULL);
    }
    for (size_t i = 0; i < s->n_backends && rc == 0; i++) {
        const char *name = s->backends[i];
        const bh_ynode *at = item_node(n, i);
        const char *hint;

        if (!bh_config_name_ok(name, "_-")) {
            rc = bh_config_fail(e, at,
                                "%s[%zu]: backend name '%s' must match "
                                "[a-z0-9_-]+",
                                where, i, name);
            break;
        }
        if (!bh_strset_add(&seen, name, i, NULL))
            rc = bh_config_fail(e, at, "%s[%zu]: backend '%s' is listed "
                                       "twice",
                                where, i, name);
        if (rc != 0 || c->n_backends == 0 ||
            bh_strset_get(&configured, name, NULL))
            continue;
        hint = bh_did_you_mean(name, known, c->n_backends);
        rc = bh_config_fail(e, at,
                            "%s[%zu]: backend '%s' is not in the top-level "
                            "backends: map%s%s%s",
                            where, i, name, hint ? " (did you mean '" : "",
                            hint ? hint : "", hint ? "'?)" : "");
    }
    free(known);
    bh_strset_free(&seen);
    bh_strset_free(&configured);
    return rc;
}

/* Fills s (zeroed, already owned by c) from suite map n, number index;
 * budget is what the earlier suites left of the combination limit. */
static int load_suite(bh_config *c, bh_suite *s, const bh_ynode *n,
                      size_t index, size_t budget, bh_error *e)
{
    char where[64], sub[96];
    const bh_ynode *v;
    char got[96];

    snprintf(where, sizeof(where), "suites[%zu]", index);
    bh_settings_copy(&s->settings, &c->defaults);
    s->pos = bh_config_pos(n);
    if (n->kind != BH_YNODE_MAP)
        return bh_config_fail(e, n,
                              "%s: expected a map with at least 'plugin', "
                              "got %s",
                              where, bh_config_got(n, got, sizeof(got)));
    if (bh_config_check_keys(n, suite_keys, N_SUITE_KEYS, where, e) != 0)
        return -1;
    v = bh_yaml_map_get(n, "plugin");
    if (!v)
        return bh_config_fail(e, n, "%s: missing required key 'plugin'",
                              where);
    snprintf(sub, sizeof(sub), "%s.plugin", where);
    if (bh_config_get_string(v, sub, &s->plugin, e) != 0)
        return -1;
    s->plugin_pos = bh_config_pos(v);
    if ((v = bh_yaml_map_get(n, "name")) != NULL) {
        snprintf(sub, sizeof(sub), "%s.name", where);
        if (bh_config_get_string(v, sub, &s->name, e) != 0)
            return -1;
    }
    snprintf(sub, sizeof(sub), "%s.include", where);
    if ((v = bh_yaml_map_get(n, "include")) != NULL &&
        bh_config_get_strings(v, sub, &s->include, &s->n_include, e) != 0)
        return -1;
    snprintf(sub, sizeof(sub), "%s.exclude", where);
    if ((v = bh_yaml_map_get(n, "exclude")) != NULL &&
        bh_config_get_strings(v, sub, &s->exclude, &s->n_exclude, e) != 0)
        return -1;
    snprintf(sub, sizeof(sub), "%s.backends", where);
    if ((v = bh_yaml_map_get(n, "backends")) != NULL &&
        load_backends(c, s, v, sub, e) != 0)
        return -1;
    snprintf(sub, sizeof(sub), "%s.params", where);
    if ((v = bh_yaml_map_get(n, "params")) != NULL &&
        load_params(s, v, budget, sub, e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(n, "command")) != NULL &&
        bh_config_load_command(s, n, v, where, e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(n, "launcher")) != NULL &&
        bh_config_load_launcher(&s->settings, v, where, e) != 0)
        return -1;
    snprintf(sub, sizeof(sub), "%s.defaults", where);
    if ((v = bh_yaml_map_get(n, "defaults")) != NULL &&
        bh_config_settings_apply(&s->settings, v, sub, e) != 0)
        return -1;
    /* a suite's own budgets are its cases' (after its defaults:) */
    if ((v = bh_yaml_map_get(n, "expect")) != NULL &&
        bh_config_expect_apply(&s->settings, v, where, e) != 0)
        return -1;
    return 0;
}

/* Adds the plugin and backends of suite i (loaded from node n) to the
 * config's sets of names; fails when either grows past the limit. */
static int count_names(const bh_suite *s, const bh_ynode *n, size_t i,
                       bh_strset *plugins, bh_strset *backends, bh_error *e)
{
    const bh_ynode *list = bh_yaml_map_get(n, "backends");

    bh_strset_add(plugins, s->plugin, i, NULL);
    if (plugins->n > BH_CONFIG_MAX_PLUGINS)
        return bh_config_fail(e, bh_yaml_map_get(n, "plugin"),
                              "suites[%zu].plugin: the config names more "
                              "than %d different plugins",
                              i, BH_CONFIG_MAX_PLUGINS);
    for (size_t j = 0; j < s->n_backends; j++) {
        bh_strset_add(backends, s->backends[j], j, NULL);
        if (backends->n > BH_CONFIG_MAX_PLUGINS)
            return bh_config_fail(e, item_node(list, j),
                                  "suites[%zu].backends[%zu]: the config "
                                  "names more than %d different backends",
                                  i, j, BH_CONFIG_MAX_PLUGINS);
    }
    return 0;
}

int bh_config_load_suites(bh_config *c, const bh_ynode *list, bh_error *e)
{
    bh_strset plugins = BH_STRSET_INIT, backends = BH_STRSET_INIT;
    char got[96];
    size_t used = 0;
    int rc = 0;

    if (bh_yaml_is_null(list))
        return 0;
    if (list->kind != BH_YNODE_SEQ)
        return bh_config_fail(e, list,
                              "suites: expected a list of suites (may be "
                              "[]), got %s",
                              bh_config_got(list, got, sizeof(got)));
    c->suites = bh_xcalloc(list->n_kids ? list->n_kids : 1,
                           sizeof(*c->suites));
    for (size_t i = 0; i < list->n_kids && rc == 0; i++) {
        c->n_suites = i + 1;
        if (used == BH_CONFIG_MAX_COMBOS)
            rc = bh_config_fail(e, list->kids[i],
                                "suites[%zu]: the suites together expand "
                                "to more than %d parameter combinations",
                                i, BH_CONFIG_MAX_COMBOS);
        else if (load_suite(c, &c->suites[i], list->kids[i], i,
                            BH_CONFIG_MAX_COMBOS - used, e) != 0 ||
                 count_names(&c->suites[i], list->kids[i], i, &plugins,
                             &backends, e) != 0)
            rc = -1;
        else
            used += bh_suite_n_combos(&c->suites[i]);
    }
    bh_strset_free(&plugins);
    bh_strset_free(&backends);
    return rc;
}

void bh_config_suite_free(bh_suite *s)
{
    free(s->name);
    free(s->plugin);
    bh_config_strings_free(s->include, s->n_include);
    bh_config_strings_free(s->exclude, s->n_exclude);
    bh_config_strings_free(s->backends, s->n_backends);
    for (size_t i = 0; i < s->n_params; i++) {
        for (size_t j = 0; j < s->params[i].n_values; j++)
            bh_config_scalar_free(&s->params[i].values[j]);
        free(s->params[i].values);
        free(s->params[i].key);
    }
    free(s->params);
    bh_settings_free(&s->settings);
}

size_t bh_suite_n_combos(const bh_suite *s)
{
    size_t n = 1;

    for (size_t i = 0; i < s->n_params; i++)
        n *= s->params[i].n_values;
    return n;
}

void bh_suite_combo(const bh_suite *s, size_t k, size_t *idx)
{
    for (size_t i = s->n_params; i-- > 0;) {
        size_t nv = s->params[i].n_values;

        idx[i] = k % nv;
        k /= nv;
    }
}
