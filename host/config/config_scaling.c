// SPDX-License-Identifier: MIT
/* The scaling: lists: which numeric parameter of a suite is a scaling
 * axis, how its ideal is defined and below which parallel efficiency a
 * point is flagged (docs/scaling.md). A suite's own list replaces the
 * top level's; a top-level entry applies to every suite whose params:
 * sweep its axis.
 *
 *   scaling:
 *     - {axis: threads, mode: strong, min_efficiency: 0.8}
 */
#include "config_internal.h"

#include "bh_mem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const scaling_keys[] = {"axis", "mode", "min_efficiency", "rate"};
#define N_SCALING_KEYS (sizeof(scaling_keys) / sizeof(scaling_keys[0]))

static const char *const mode_names[] = {"strong", "weak", "throughput"};
#define N_MODES (sizeof(mode_names) / sizeof(mode_names[0]))

static const char *const rate_names[] = {"items_per_s", "flop_per_s", "bytes_per_s"};
#define N_RATES (sizeof(rate_names) / sizeof(rate_names[0]))

/* One entry as read, before it is bound to suites. */
typedef struct entry {
    const bh_ynode *axis_node;
    bh_scaling_spec spec; /* suite unset; strings owned */
} entry;

const char *bh_scaling_mode_name(int mode)
{
    return mode >= 0 && (size_t)mode < N_MODES ? mode_names[mode] : "?";
}

/* The index of word in names[0..n), else -1 with e naming what and the
 * choices (a did-you-mean when one is close). */
static int pick(const bh_ynode *v, const char *what, const char *const *names, size_t n,
                bh_error *e)
{
    const char *hint;

    for (size_t i = 0; i < n; i++)
        if (v->kind == BH_YNODE_SCALAR && strcmp(v->text, names[i]) == 0)
            return (int)i;
    hint = v->kind == BH_YNODE_SCALAR ? bh_did_you_mean(v->text, names, n) : NULL;
    if (hint)
        return bh_config_fail(e, v, "%s: expected one of %s, %s%s%s, got '%s' (did you mean '%s'?)",
                              what, names[0], names[1], n > 2 ? ", " : "", n > 2 ? names[2] : "",
                              v->text, hint);
    return bh_config_fail(e, v, "%s: expected one of %s, %s%s%s, got %s", what, names[0], names[1],
                          n > 2 ? ", " : "", n > 2 ? names[2] : "",
                          v->kind == BH_YNODE_SCALAR ? v->text : bh_yaml_kind_name(v));
}

/* min_efficiency: a fraction or a percentage in (0, 1]. */
static int load_threshold(const bh_ynode *v, const char *where, double *out, bh_error *e)
{
    bh_error pe = {0};
    char got[96];

    if (v->kind != BH_YNODE_SCALAR || bh_parse_percent(v->text, out, &pe) != 0 || !(*out > 0))
        return bh_config_fail(e, v,
                              "%s.min_efficiency: expected an efficiency in (0, 1] such as "
                              "0.8 or 80%%, got %s",
                              where, bh_config_got(v, got, sizeof(got)));
    return 0;
}

/* Fills en from map n; where names it ("scaling[0]"). */
static int load_entry(entry *en, const bh_ynode *n, const char *where, bh_error *e)
{
    char what[96], got[96];
    const bh_ynode *v;
    int k;

    memset(en, 0, sizeof(*en));
    en->spec.min_efficiency = BH_SCALING_MIN_EFFICIENCY;
    en->spec.pos = bh_config_pos(n);
    if (n->kind != BH_YNODE_MAP)
        return bh_config_fail(e, n,
                              "%s: expected a map such as {axis: threads, mode: strong}, got %s",
                              where, bh_config_got(n, got, sizeof(got)));
    if (bh_config_check_keys(n, scaling_keys, N_SCALING_KEYS, where, e) != 0)
        return -1;
    snprintf(what, sizeof(what), "%s.axis", where);
    if (!(en->axis_node = bh_yaml_map_get(n, "axis")))
        return bh_config_fail(e, n, "%s: missing required key 'axis' (a numeric parameter)", where);
    if (bh_config_get_string(en->axis_node, what, &en->spec.axis, e) != 0)
        return -1;
    snprintf(what, sizeof(what), "%s.mode", where);
    if ((v = bh_yaml_map_get(n, "mode")) != NULL) {
        if ((k = pick(v, what, mode_names, N_MODES, e)) < 0)
            return -1;
        en->spec.mode = k;
    }
    if ((v = bh_yaml_map_get(n, "min_efficiency")) != NULL &&
        load_threshold(v, where, &en->spec.min_efficiency, e) != 0)
        return -1;
    if ((v = bh_yaml_map_get(n, "rate")) == NULL)
        return 0;
    snprintf(what, sizeof(what), "%s.rate", where);
    if (en->spec.mode != BH_SCALING_THROUGHPUT)
        return bh_config_fail(e, v, "%s: expected only with mode: throughput", what);
    if ((k = pick(v, what, rate_names, N_RATES, e)) < 0)
        return -1;
    en->spec.rate = bh_xstrdup(rate_names[k]);
    return 0;
}

/* The params axis of s named key, or NULL. */
static const bh_param_axis *find_axis(const bh_suite *s, const char *key)
{
    for (size_t i = 0; i < s->n_params; i++)
        if (!s->params[i].hidden && strcmp(s->params[i].key, key) == 0)
            return &s->params[i];
    return NULL;
}

/* Checks that every value of axis a (of suite i) is a positive number. */
static int check_numeric(const bh_param_axis *a, size_t i, bh_error *e)
{
    for (size_t j = 0; j < a->n_values; j++) {
        const bh_scalar *v = &a->values[j];

        if ((v->kind == BH_SCALAR_INT || v->kind == BH_SCALAR_FLOAT) && v->f > 0)
            continue;
        return bh_error_set(e,
                            "%s:%d:%d: suites[%zu].params.%s[%zu]: expected a positive number "
                            "(it is a scaling axis), got '%s'",
                            v->pos.file, v->pos.line, v->pos.column, i, a->key, j, v->text);
    }
    return 0;
}

/* "one of: a, b" or "it has none" for the params of s, into buf. */
static const char *axis_choices(const bh_suite *s, char *buf, size_t cap)
{
    size_t used = 0;

    snprintf(buf, cap, "it has none");
    for (size_t i = 0; i < s->n_params && used < cap; i++)
        if (!s->params[i].hidden)
            used += (size_t)snprintf(buf + used, cap - used, "%s%s",
                                     used ? ", " : "one of: ", s->params[i].key);
    return buf;
}

/* Appends a copy of en for suite i to c->scaling. */
static void add_spec(bh_config *c, const entry *en, size_t i)
{
    bh_scaling_spec *s;

    c->scaling = bh_xreallocarray(c->scaling, c->n_scaling + 1, sizeof(*c->scaling));
    s = &c->scaling[c->n_scaling++];
    *s = en->spec;
    s->suite = i;
    s->axis = bh_xstrdup(en->spec.axis);
    s->rate = en->spec.rate ? bh_xstrdup(en->spec.rate) : NULL;
}

/* Binds en to suite i, whose params sweep it as axis a: once per suite
 * and axis, over positive numbers. */
static int bind_one(bh_config *c, const entry *en, const bh_param_axis *a, size_t i,
                    const char *where, bh_error *e)
{
    for (size_t k = 0; k < c->n_scaling; k++)
        if (c->scaling[k].suite == i && strcmp(c->scaling[k].axis, en->spec.axis) == 0)
            return bh_config_fail(e, en->axis_node, "%s.axis: '%s' is listed twice", where,
                                  en->spec.axis);
    if (check_numeric(a, i, e) != 0)
        return -1;
    add_spec(c, en, i);
    return 0;
}

/* Binds entry en of suite i's own list (where: "suites[i].scaling[j]"). */
static int bind_suite(bh_config *c, const entry *en, size_t i, const char *where, bh_error *e)
{
    const bh_param_axis *a = find_axis(&c->suites[i], en->spec.axis);
    char choices[256];

    if (!a)
        return bh_config_fail(e, en->axis_node,
                              "%s.axis: expected a parameter swept in the suite's params (%s), "
                              "got '%s'",
                              where, axis_choices(&c->suites[i], choices, sizeof(choices)),
                              en->spec.axis);
    return bind_one(c, en, a, i, where, e);
}

/* Binds top-level entry en to every suite without its own scaling: whose
 * params sweep its axis; at least one must. */
static int bind_top(bh_config *c, const entry *en, const bh_ynode *suites, const char *where,
                    bh_error *e)
{
    size_t bound = 0;

    for (size_t i = 0; i < c->n_suites; i++) {
        const bh_param_axis *a = find_axis(&c->suites[i], en->spec.axis);

        if (!a || bh_yaml_map_get(suites->kids[i], "scaling"))
            continue;
        if (bind_one(c, en, a, i, where, e) != 0)
            return -1;
        bound++;
    }
    if (bound == 0 && c->n_suites > 0)
        return bh_config_fail(e, en->axis_node,
                              "%s.axis: expected a parameter that a suite's params sweep, got "
                              "'%s' (no suite has it)",
                              where, en->spec.axis);
    return 0;
}

/* Reads one scaling: list (prefix: "scaling" or "suites[i].scaling") and
 * binds its entries: to suite suite, or (suite == SIZE_MAX) to every
 * suite that sweeps the axis. */
static int load_list(bh_config *c, const bh_ynode *list, const bh_ynode *suites, size_t suite,
                     const char *prefix, bh_error *e)
{
    char where[64], got[96];
    int rc = 0;

    if (bh_yaml_is_null(list))
        return 0;
    if (list->kind != BH_YNODE_SEQ)
        return bh_config_fail(e, list,
                              "%s: expected a list of {axis, mode, min_efficiency} maps, got %s",
                              prefix, bh_config_got(list, got, sizeof(got)));
    for (size_t j = 0; j < list->n_kids && rc == 0; j++) {
        entry en;

        snprintf(where, sizeof(where), "%s[%zu]", prefix, j);
        rc = load_entry(&en, list->kids[j], where, e);
        if (rc == 0)
            rc = suite == SIZE_MAX ? bind_top(c, &en, suites, where, e)
                                   : bind_suite(c, &en, suite, where, e);
        free(en.spec.axis);
        free(en.spec.rate);
    }
    return rc;
}

int bh_config_load_scaling(bh_config *c, const bh_ynode *root, bh_error *e)
{
    const bh_ynode *suites = bh_yaml_map_get(root, "suites");
    char prefix[48];

    for (size_t i = 0; suites && suites->kind == BH_YNODE_SEQ && i < c->n_suites; i++) {
        const bh_ynode *list = bh_yaml_map_get(suites->kids[i], "scaling");

        snprintf(prefix, sizeof(prefix), "suites[%zu].scaling", i);
        if (list && load_list(c, list, suites, i, prefix, e) != 0)
            return -1;
    }
    if (!bh_yaml_map_get(root, "scaling"))
        return 0;
    return load_list(c, bh_yaml_map_get(root, "scaling"), suites, SIZE_MAX, "scaling", e);
}

void bh_config_scaling_free(bh_config *c)
{
    for (size_t i = 0; i < c->n_scaling; i++) {
        free(c->scaling[i].axis);
        free(c->scaling[i].rate);
    }
    free(c->scaling);
}
