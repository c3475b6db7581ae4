// SPDX-License-Identifier: MIT
/* The in-memory config of a one-benchmark run (bhost run PLUGIN/BENCH):
 * the suite a config file with that plugin, include and params would
 * give, with the built-in defaults (see bh_config_for_case in config.h). */
#include "config_internal.h"

#include "bh_mem.h"
#include "bh_sha256.h"
#include "bh_strbuf.h"

#include <stdlib.h>
#include <string.h>

/* Types value as a plain YAML scalar would be (12 -> INT, true -> BOOL,
 * 1.5 -> FLOAT, else STR), positioned at the request's text. */
static void typed_value(const char *value, const char *origin, bh_scalar *out)
{
    bh_ynode n;

    memset(&n, 0, sizeof(n));
    n.kind = BH_YNODE_SCALAR;
    n.file = origin;
    n.line = 1;
    n.column = 1;
    n.text = (char *)value;
    bh_config_scalar_from_node(&n, out);
}

/* Adds value to the axis of key in s (a new axis on the key's first use,
 * so that a key given twice is a list, as in a config). */
static void add_param(bh_suite *s, const char *key, const char *value, const char *origin)
{
    bh_param_axis *a = NULL;

    for (size_t i = 0; i < s->n_params && !a; i++)
        if (strcmp(s->params[i].key, key) == 0)
            a = &s->params[i];
    if (!a) {
        s->params = bh_xreallocarray(s->params, s->n_params + 1, sizeof(*s->params));
        a = &s->params[s->n_params++];
        memset(a, 0, sizeof(*a));
        a->key = bh_xstrdup(key);
        a->pos = (bh_srcpos){origin, 1, 1};
    }
    a->values = bh_xreallocarray(a->values, a->n_values + 1, sizeof(*a->values));
    typed_value(value, origin, &a->values[a->n_values++]);
}

/* The request in one canonical line, hashed as the config's hash, so that
 * two runs of the same benchmark and parameters compare like two runs of
 * one config file. */
static char *canonical(const bh_case_request *r)
{
    bh_strbuf b = BH_STRBUF_INIT;
    char *text;

    bh_strbuf_printf(&b, "bhost run %s/%s[", r->plugin, r->bench);
    for (size_t i = 0; i < r->n_params; i++)
        bh_strbuf_printf(&b, "%s%s=%s", i ? "," : "", r->keys[i], r->values[i]);
    bh_strbuf_puts(&b, "]");
    for (size_t i = 0; i < r->n_backends; i++)
        bh_strbuf_printf(&b, "%s%s", i ? "," : "@", r->backends[i]);
    if (r->device >= 0)
        bh_strbuf_printf(&b, ":%d", r->device);
    text = bh_strbuf_detach(&b);
    bh_strbuf_free(&b);
    return text;
}

/* The backends section: the request's, else cpu; none required. */
static void add_backends(bh_config *c, const bh_case_request *r)
{
    size_t n = r->n_backends ? r->n_backends : 1;

    c->backends = bh_xcalloc(n, sizeof(*c->backends));
    c->n_backends = n;
    for (size_t i = 0; i < n; i++) {
        bh_backend_req *b = &c->backends[i];

        b->name = bh_xstrdup(r->n_backends ? r->backends[i] : "cpu");
        b->all_devices = r->device < 0;
        b->pos = (bh_srcpos){c->path, 1, 1};
        if (r->device >= 0) {
            b->devices = bh_xcalloc(1, sizeof(*b->devices));
            b->devices[0] = (uint32_t)r->device;
            b->n_devices = 1;
        }
    }
}

bh_config *bh_config_for_case(const bh_case_request *r, bh_error *e)
{
    bh_config *c;
    bh_suite *s;
    char *line;
    char hex[65];

    if (!bh_config_name_ok(r->plugin, "._-") || r->plugin[0] == '.' || !*r->bench) {
        bh_error_set(e, "'%s': expected PLUGIN/BENCH with a plugin name of a-z, 0-9, '.', "
                        "'_' or '-' (bhost list shows them)", r->text);
        return NULL;
    }
    c = bh_xcalloc(1, sizeof(*c));
    c->path = bh_xstrdup(r->text);
    c->dir = bh_xstrdup(".");
    c->name = bh_xstrdup(r->plugin);
    line = canonical(r);
    bh_sha256_hex(line, strlen(line), hex);
    free(line);
    c->hash = bh_xstrdup(hex);
    bh_settings_default(&c->defaults);
    add_backends(c, r);
    c->suites = bh_xcalloc(1, sizeof(*c->suites));
    c->n_suites = 1;
    s = &c->suites[0];
    s->plugin = bh_xstrdup(r->plugin);
    s->plugin_pos = (bh_srcpos){c->path, 1, 1};
    s->pos = s->plugin_pos;
    s->include = bh_xcalloc(1, sizeof(*s->include));
    s->include[0] = bh_xstrdup(r->bench);
    s->n_include = 1;
    for (size_t i = 0; i < r->n_params; i++)
        add_param(s, r->keys[i], r->values[i], c->path);
    bh_settings_copy(&s->settings, &c->defaults);
    return c;
}
