// SPDX-License-Identifier: MIT
#include "config_internal.h"

#include "bh_mem.h"
#include "bh_strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bh_config_fail(bh_error *e, const bh_ynode *n, const char *fmt, ...)
{
    char msg[900];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return bh_error_set(e, "%s:%d:%d: %s", n->file, n->line, n->column, msg);
}

const char *bh_config_got(const bh_ynode *n, char *buf, size_t size)
{
    if (!n || bh_yaml_is_null(n) || n->kind != BH_YNODE_SCALAR)
        snprintf(buf, size, "%s", bh_yaml_kind_name(n));
    else if (strlen(n->text) > 60)
        snprintf(buf, size, "'%.57s...'", n->text);
    else
        snprintf(buf, size, "'%s'", n->text);
    return buf;
}

int bh_config_check_keys(const bh_ynode *map, const char *const *allowed,
                         size_t n_allowed, const char *where, bh_error *e)
{
    for (size_t i = 0; i < bh_yaml_map_len(map); i++) {
        const bh_ynode *key = bh_yaml_map_key(map, i);
        const char *hint;
        bh_strbuf list = BH_STRBUF_INIT;
        int rc;
        size_t j;

        for (j = 0; j < n_allowed; j++)
            if (strcmp(key->text, allowed[j]) == 0)
                break;
        if (j < n_allowed)
            continue;
        hint = bh_did_you_mean(key->text, allowed, n_allowed);
        if (hint) {
            bh_strbuf_printf(&list, "did you mean '%s'?", hint);
        } else {
            bh_strbuf_puts(&list, "expected one of: ");
            for (j = 0; j < n_allowed; j++)
                bh_strbuf_printf(&list, "%s%s", j ? ", " : "", allowed[j]);
        }
        if (where)
            rc = bh_config_fail(e, key, "unknown key '%s' in %s (%s)",
                                key->text, where, bh_strbuf_str(&list));
        else
            rc = bh_config_fail(e, key, "unknown top-level key '%s' (%s)",
                                key->text, bh_strbuf_str(&list));
        bh_strbuf_free(&list);
        return rc;
    }
    return 0;
}

int bh_config_expect_map(const bh_ynode *n, const char *what, bh_error *e)
{
    char got[96];

    if (!n || bh_yaml_is_null(n) || n->kind == BH_YNODE_MAP)
        return 0;
    return bh_config_fail(e, n, "%s: expected a map, got %s", what,
                          bh_config_got(n, got, sizeof(got)));
}

int bh_config_get_string(const bh_ynode *n, const char *what, char **out,
                         bh_error *e)
{
    char got[96];

    if (n->kind != BH_YNODE_SCALAR || bh_yaml_is_null(n) || !n->text[0])
        return bh_config_fail(e, n, "%s: expected a non-empty string, got %s",
                              what, bh_config_got(n, got, sizeof(got)));
    *out = bh_xstrdup(n->text);
    return 0;
}

int bh_config_get_bool(const bh_ynode *n, const char *what, int *out,
                       bh_error *e)
{
    char got[96];
    bh_scalar s;

    if (n->kind == BH_YNODE_SCALAR) {
        bh_config_scalar_from_node(n, &s);
        bh_config_scalar_free(&s);
        if (s.kind == BH_SCALAR_BOOL) {
            *out = (int)s.i;
            return 0;
        }
    }
    return bh_config_fail(e, n, "%s: expected true or false, got %s", what,
                          bh_config_got(n, got, sizeof(got)));
}

void bh_config_strings_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

int bh_config_get_strings(const bh_ynode *n, const char *what, char ***out,
                          size_t *n_out, bh_error *e)
{
    char **v = NULL;
    size_t count = 0, cap = 0;
    char got[96];

    *out = NULL;
    *n_out = 0;
    if (bh_yaml_is_null(n))
        return 0;
    if (n->kind == BH_YNODE_MAP)
        return bh_config_fail(e, n,
                              "%s: expected a string or a list of strings, "
                              "got a map",
                              what);
    if (n->kind == BH_YNODE_SCALAR) {
        char *s;

        if (bh_config_get_string(n, what, &s, e) != 0)
            return -1;
        BH_PUSH(v, count, cap, s);
    }
    for (size_t i = 0; n->kind == BH_YNODE_SEQ && i < n->n_kids; i++) {
        const bh_ynode *item = n->kids[i];

        if (item->kind != BH_YNODE_SCALAR || bh_yaml_is_null(item) ||
            !item->text[0]) {
            bh_config_strings_free(v, count);
            return bh_config_fail(e, item,
                                  "%s[%zu]: expected a non-empty string, "
                                  "got %s",
                                  what, i,
                                  bh_config_got(item, got, sizeof(got)));
        }
        BH_PUSH(v, count, cap, bh_xstrdup(item->text));
    }
    *out = v;
    *n_out = count;
    return 0;
}

/* True when s is a YAML 1.2 core-schema integer: [-+]?[0-9]+. */
static int looks_int(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

/* True when s is a YAML 1.2 core-schema float (not .inf or .nan):
 * [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
static int looks_float(const char *s)
{
    int digits = 0;

    if (*s == '-' || *s == '+')
        s++;
    for (; *s >= '0' && *s <= '9'; s++)
        digits++;
    if (*s == '.') {
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits++;
    }
    if (!digits)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '-' || *s == '+')
            s++;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

/* Sets out->f for .inf/.nan spellings; returns 1 when text is one. */
static int special_float(const char *t, double *f)
{
    const char *u = (*t == '-' || *t == '+') ? t + 1 : t;

    if (strcmp(u, ".inf") == 0 || strcmp(u, ".Inf") == 0 ||
        strcmp(u, ".INF") == 0) {
        *f = *t == '-' ? -HUGE_VAL : HUGE_VAL;
        return 1;
    }
    if (u == t && (strcmp(t, ".nan") == 0 || strcmp(t, ".NaN") == 0 ||
                   strcmp(t, ".NAN") == 0)) {
        *f = NAN;
        return 1;
    }
    return 0;
}

void bh_config_scalar_from_node(const bh_ynode *n, bh_scalar *out)
{
    const char *t = n->text;

    memset(out, 0, sizeof(*out));
    out->kind = BH_SCALAR_STR;
    out->text = bh_xstrdup(t);
    out->pos = bh_config_pos(n);
    if (n->quoted)
        return;
    if (strcmp(t, "true") == 0 || strcmp(t, "True") == 0 ||
        strcmp(t, "TRUE") == 0 || strcmp(t, "false") == 0 ||
        strcmp(t, "False") == 0 || strcmp(t, "FALSE") == 0) {
        out->kind = BH_SCALAR_BOOL;
        out->i = t[0] == 't' || t[0] == 'T';
        out->f = (double)out->i;
        return;
    }
    if (looks_int(t)) {
        errno = 0;
        long long v = strtoll(t, NULL, 10);

        if (errno == 0) {
            out->kind = BH_SCALAR_INT;
            out->i = v;
            out->f = (double)v;
            return;
        }
        /* Too large for int64: keep it as a number all the same. */
    }
    if (looks_float(t) || special_float(t, &out->f)) {
        out->kind = BH_SCALAR_FLOAT;
        if (looks_float(t))
            out->f = strtod(t, NULL);
    }
}

void bh_config_scalar_free(bh_scalar *s)
{
    free(s->text);
    s->text = NULL;
}

int bh_config_name_ok(const char *s, const char *extra)
{
    if (!*s)
        return 0;
    for (; *s; s++) {
        if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9'))
            continue;
        if (!strchr(extra, *s))
            return 0;
    }
    return 1;
}

bh_srcpos bh_config_pos(const bh_ynode *n)
{
    bh_srcpos p = {n->file, n->line, n->column};

    return p;
}
