// SPDX-License-Identifier: MIT
/* The ratios: list: pairs of cases whose time the report divides, each a
 * bhost implementation over the reference a user would pick instead
 * (configs/reference.yaml). A side names a case id (it holds a '/') or a
 * suite of the config by its name.
 *
 *   ratios:
 *     - {name: sgemm 512, case: tensor-sgemm, reference: openblas-sgemm}
 */
#include "config_internal.h"

#include "bh_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ratio_keys[] = {"name", "case", "reference"};
#define N_RATIO_KEYS (sizeof(ratio_keys) / sizeof(ratio_keys[0]))

/* Reads side key of ratio map n into *out: a case id, or the name of a
 * suite of c. */
static int load_side(const bh_config *c, const bh_ynode *n, const char *key, const char *where,
                     char **out, bh_error *e)
{
    const bh_ynode *v = bh_yaml_map_get(n, key);
    char what[96];

    snprintf(what, sizeof(what), "%s.%s", where, key);
    if (!v)
        return bh_config_fail(e, n, "%s: missing required key '%s' (a case id or a suite name)",
                              where, key);
    if (bh_config_get_string(v, what, out, e) != 0)
        return -1;
    if (strchr(*out, '/'))
        return 0;
    for (size_t i = 0; i < c->n_suites; i++)
        if (c->suites[i].name && strcmp(c->suites[i].name, *out) == 0)
            return 0;
    return bh_config_fail(e, v, "%s: no suite is named '%s' (a case id holds a '/')", what, *out);
}

/* Fills r from ratio map n (number i). */
static int load_ratio(const bh_config *c, bh_ratio_spec *r, const bh_ynode *n, size_t i,
                      bh_error *e)
{
    char where[48], what[64], got[96];
    const bh_ynode *v;

    snprintf(where, sizeof(where), "ratios[%zu]", i);
    r->pos = bh_config_pos(n);
    if (n->kind != BH_YNODE_MAP)
        return bh_config_fail(e, n, "%s: expected a map with case and reference, got %s", where,
                              bh_config_got(n, got, sizeof(got)));
    if (bh_config_check_keys(n, ratio_keys, N_RATIO_KEYS, where, e) != 0 ||
        load_side(c, n, "case", where, &r->of, e) != 0 ||
        load_side(c, n, "reference", where, &r->reference, e) != 0)
        return -1;
    snprintf(what, sizeof(what), "%s.name", where);
    if ((v = bh_yaml_map_get(n, "name")) != NULL)
        return bh_config_get_string(v, what, &r->name, e);
    r->name = bh_xasprintf("%s / %s", r->of, r->reference);
    return 0;
}

int bh_config_load_ratios(bh_config *c, const bh_ynode *list, bh_error *e)
{
    char got[96];

    if (!list || bh_yaml_is_null(list))
        return 0;
    if (list->kind != BH_YNODE_SEQ)
        return bh_config_fail(e, list, "ratios: expected a list of {case, reference} maps, got %s",
                              bh_config_got(list, got, sizeof(got)));
    c->ratios = bh_xcalloc(list->n_kids ? list->n_kids : 1, sizeof(*c->ratios));
    for (size_t i = 0; i < list->n_kids; i++) {
        c->n_ratios = i + 1;
        if (load_ratio(c, &c->ratios[i], list->kids[i], i, e) != 0)
            return -1;
    }
    return 0;
}

void bh_config_ratios_free(bh_config *c)
{
    for (size_t i = 0; i < c->n_ratios; i++) {
        free(c->ratios[i].name);
        free(c->ratios[i].of);
        free(c->ratios[i].reference);
    }
    free(c->ratios);
}
