// SPDX-License-Identifier: MIT
/* The regression: section, kept as JSON text for the regression engine,
 * which owns its meaning, plus where each of its values was written so the
 * engine's messages can name file:line:col. */
#include "config_internal.h"

#include "bh_json_write.h"
#include "bh_mem.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

/* A cJSON value for node n (its own tree; delete with cJSON_Delete). */
static cJSON *to_json(const bh_ynode *n)
{
    cJSON *out;
    bh_scalar s;

    if (n->kind == BH_YNODE_MAP) {
        out = cJSON_CreateObject();
        for (size_t i = 0; i < bh_yaml_map_len(n); i++)
            cJSON_AddItemToObject(out, bh_yaml_map_key(n, i)->text,
                                  to_json(bh_yaml_map_value(n, i)));
        return out;
    }
    if (n->kind == BH_YNODE_SEQ) {
        out = cJSON_CreateArray();
        for (size_t i = 0; i < n->n_kids; i++)
            cJSON_AddItemToArray(out, to_json(n->kids[i]));
        return out;
    }
    if (bh_yaml_is_null(n))
        return cJSON_CreateNull();
    bh_config_scalar_from_node(n, &s);
    switch (s.kind) {
    case BH_SCALAR_BOOL:
        out = cJSON_CreateBool((cJSON_bool)s.i);
        break;
    case BH_SCALAR_INT:
    case BH_SCALAR_FLOAT:
        /* JSON has no infinities or NaN: keep those as written. */
        out = isfinite(s.f) ? cJSON_CreateNumber(s.f)
                            : cJSON_CreateString(s.text);
        break;
    default:
        out = cJSON_CreateString(s.text);
        break;
    }
    bh_config_scalar_free(&s);
    return out;
}

/* Records "file:line:col" of n under path in pos, then recurses. */
static void add_positions(cJSON *pos, const bh_ynode *n, const char *path)
{
    char *where = bh_xasprintf("%s:%d:%d", n->file ? n->file : "?", n->line,
                               n->column);

    cJSON_AddItemToObject(pos, path, cJSON_CreateString(where));
    free(where);
    if (n->kind == BH_YNODE_MAP) {
        for (size_t i = 0; i < bh_yaml_map_len(n); i++) {
            const char *key = bh_yaml_map_key(n, i)->text;
            char *sub = *path ? bh_xasprintf("%s.%s", path, key)
                              : bh_xstrdup(key);

            add_positions(pos, bh_yaml_map_value(n, i), sub);
            free(sub);
        }
    } else if (n->kind == BH_YNODE_SEQ) {
        for (size_t i = 0; i < n->n_kids; i++) {
            char *sub = bh_xasprintf("%s[%zu]", path, i);

            add_positions(pos, n->kids[i], sub);
            free(sub);
        }
    }
}

int bh_config_regression_pos_json(const bh_ynode *n, char **out)
{
    cJSON *pos = cJSON_CreateObject();

    add_positions(pos, n, "");
    *out = bh_json_print_unformatted(pos);
    cJSON_Delete(pos);
    return *out ? 0 : -1;
}

int bh_config_regression_json(const bh_ynode *n, char **out, bh_error *e)
{
    char got[96];
    cJSON *json;

    *out = NULL;
    if (bh_yaml_is_null(n))
        return 0;
    if (n->kind != BH_YNODE_MAP)
        return bh_config_fail(e, n, "regression: expected a map, got %s",
                              bh_config_got(n, got, sizeof(got)));
    json = to_json(n);
    *out = bh_json_print_unformatted(json);
    cJSON_Delete(json);
    if (!*out)
        return bh_config_fail(e, n, "regression: cannot encode as JSON");
    return 0;
}
