// SPDX-License-Identifier: MIT
/* Budgets (expect:): a map from a key (time, a throughput or a metric
 * name) to a comparison and a target, e.g. {time: "< 10us", gflops:
 * "> 100", bytes_per_second: ">= 20 GB/s"} (config_internal.h). */
#include "config_internal.h"

#include "bh_mem.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How the value of a key is written. */
typedef enum value_kind {
    VALUE_DURATION, /* time: "< 10us" */
    VALUE_RATE,     /* bytes per second: ">= 20 GB/s" */
    VALUE_FLOPS,    /* FLOP per second: "> 100 GFLOP/s", "> 1e11" */
    VALUE_NUMBER    /* a metric in its own unit: "> 100", "< 2.5 ms" */
} value_kind;

/* A key as written, its canonical name, how its value is written and what
 * a bare number is multiplied by (gflops: 1e9). */
typedef struct key_alias {
    const char *written;
    const char *key;
    value_kind kind;
    double mult;
} key_alias;

static const key_alias aliases[] = {
    {"time", "time", VALUE_DURATION, 1},
    {"flop_per_s", "flop_per_s", VALUE_FLOPS, 1},
    {"flops", "flop_per_s", VALUE_FLOPS, 1},
    {"gflops", "flop_per_s", VALUE_NUMBER, 1e9},
    {"bytes_per_s", "bytes_per_s", VALUE_RATE, 1},
    {"bytes_per_second", "bytes_per_s", VALUE_RATE, 1},
    {"items_per_s", "items_per_s", VALUE_NUMBER, 1},
    {"items_per_second", "items_per_s", VALUE_NUMBER, 1},
};
#define N_ALIASES (sizeof(aliases) / sizeof(aliases[0]))

/* Longest value text read (a budget is a few characters). */
#define MAX_VALUE 64

const char *bh_expect_op_text(int op)
{
    static const char *const ops[] = {"<", "<=", ">", ">="};

    return op >= 0 && op <= BH_EXPECT_GE ? ops[op] : "?";
}

/* The alias of key as written; a metric name (VALUE_NUMBER) otherwise. */
static key_alias lookup(const char *written)
{
    for (size_t i = 0; i < N_ALIASES; i++)
        if (strcmp(aliases[i].written, written) == 0)
            return aliases[i];
    return (key_alias){written, written, VALUE_NUMBER, 1};
}

/* What a value of kind k looks like, for "expected ...". */
static const char *expected_text(value_kind k)
{
    switch (k) {
    case VALUE_DURATION:
        return "\"< DURATION\" or \"> DURATION\" (also <=, >=; a duration such as 10us)";
    case VALUE_RATE:
        return "\"> SIZE/s\" or \"< SIZE/s\" (also <=, >=; a size such as 20GB or 4GiB)";
    case VALUE_FLOPS:
        return "\"> NUMBER\" or \"< NUMBER\" (also <=, >=; FLOP/s, with k, M, G, T or P)";
    case VALUE_NUMBER:
        break;
    }
    return "\"> NUMBER\" or \"< NUMBER\" (also <=, >=; in the metric's unit)";
}

/* Reads the operator at the start of t into *op; returns the text after
 * it (spaces skipped), or NULL when t starts with none. */
static const char *read_op(const char *t, int *op)
{
    while (*t == ' ')
        t++;
    if (t[0] == '<' || t[0] == '>') {
        int eq = t[1] == '=';

        *op = t[0] == '<' ? (eq ? BH_EXPECT_LE : BH_EXPECT_LT) : (eq ? BH_EXPECT_GE : BH_EXPECT_GT);
        t += 1 + eq;
        while (*t == ' ')
            t++;
        return t;
    }
    return NULL;
}

/* Copies t into buf without spaces; -1 when it does not fit. */
static int squeeze(const char *t, char *buf, size_t cap)
{
    size_t n = 0;

    for (; *t; t++) {
        if (*t == ' ')
            continue;
        if (n + 1 >= cap)
            return -1;
        buf[n++] = *t;
    }
    buf[n] = '\0';
    return 0;
}

/* A finite decimal number at the start of t (no hex, inf or nan) into *v;
 * the rest of t in *rest. -1 when t does not start with one. */
static int read_number(const char *t, double *v, const char **rest)
{
    char *end;

    if (!(isdigit((unsigned char)*t) || *t == '.' || *t == '-' || *t == '+'))
        return -1;
    if (strchr(t, 'x') || strchr(t, 'X'))
        return -1;
    *v = strtod(t, &end);
    if (end == t || !isfinite(*v))
        return -1;
    *rest = end;
    return 0;
}

/* FLOP/s: a number with an optional k, M, G, T or P and an optional
 * "FLOP/s", "flop/s" or "FLOPS". */
static int read_flops(const char *t, double *v)
{
    static const char *const units[] = {"", "FLOP/s", "flop/s", "FLOPS", "flops"};
    const char *rest;
    double mult = 1;

    if (read_number(t, v, &rest) != 0)
        return -1;
    switch (*rest) {
    case 'k':
    case 'K':
        mult = 1e3;
        break;
    case 'M':
        mult = 1e6;
        break;
    case 'G':
        mult = 1e9;
        break;
    case 'T':
        mult = 1e12;
        break;
    case 'P':
        mult = 1e15;
        break;
    default:
        break;
    }
    if (mult != 1)
        rest++;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(rest, units[i]) == 0) {
            *v *= mult;
            return 0;
        }
    return -1;
}

/* The target of value text t (after the operator) of kind k into *v. */
static int read_target(const char *t, value_kind k, double mult, double *v)
{
    char buf[MAX_VALUE];
    bh_error ignored = {""};
    const char *rest;
    uint64_t u;
    size_t n;

    if (squeeze(t, buf, sizeof(buf)) != 0 || !*buf)
        return -1;
    switch (k) {
    case VALUE_DURATION:
        if (bh_parse_duration(buf, &u, &ignored) != 0)
            return -1;
        *v = (double)u;
        return 0;
    case VALUE_RATE:
        n = strlen(buf);
        if (n > 2 && strcmp(buf + n - 2, "/s") == 0)
            buf[n - 2] = '\0';
        if (bh_parse_size(buf, &u, &ignored) != 0)
            return -1;
        *v = (double)u;
        return 0;
    case VALUE_FLOPS:
        return read_flops(buf, v);
    case VALUE_NUMBER:
        /* a number, then the metric's unit if the writer wants it there
           ("> 100 tokens/s"): words, not another number */
        if (read_number(buf, v, &rest) != 0 || isdigit((unsigned char)*rest) || *rest == '.')
            return -1;
        *v *= mult;
        return 0;
    }
    return -1;
}

/* Puts x into s, replacing the budget of the same key. */
static void put(bh_settings *s, bh_expect *x)
{
    for (size_t i = 0; i < s->n_expect; i++)
        if (strcmp(s->expect[i].key, x->key) == 0) {
            free(s->expect[i].key);
            free(s->expect[i].name);
            free(s->expect[i].text);
            s->expect[i] = *x;
            return;
        }
    s->expect = bh_xreallocarray(s->expect, s->n_expect + 1, sizeof(*s->expect));
    s->expect[s->n_expect++] = *x;
}

int bh_config_expect_apply(bh_settings *s, const bh_ynode *map, const char *where, bh_error *e)
{
    char what[160], got[96];

    snprintf(what, sizeof(what), "%s.expect", where);
    if (bh_config_expect_map(map, what, e) != 0)
        return -1;
    if (!map || bh_yaml_is_null(map))
        return 0;
    for (size_t i = 0; i < bh_yaml_map_len(map); i++) {
        const bh_ynode *k = bh_yaml_map_key(map, i);
        const bh_ynode *v = bh_yaml_map_value(map, i);
        key_alias a = lookup(k->text);
        bh_expect x;
        const char *rest = NULL;

        memset(&x, 0, sizeof(x));
        if (!bh_config_name_ok(k->text, "_."))
            return bh_config_fail(e, k,
                                  "%s: key '%s' must be time, a throughput "
                                  "(flop_per_s, gflops, bytes_per_s, items_per_s) or a "
                                  "metric name of [a-z0-9_.]",
                                  what, k->text);
        if (v->kind == BH_YNODE_SCALAR && !bh_yaml_is_null(v))
            rest = read_op(v->text, &x.op);
        if (!rest || read_target(rest, a.kind, a.mult, &x.target) != 0) {
            if (v->kind == BH_YNODE_SCALAR && !bh_yaml_is_null(v))
                snprintf(got, sizeof(got), "\"%.60s\"", v->text);
            else
                bh_config_got(v, got, sizeof(got));
            return bh_config_fail(e, v, "%s.%s: expected %s, got %s", what, k->text,
                                  expected_text(a.kind), got);
        }
        x.key = bh_xstrdup(a.key);
        x.name = bh_xstrdup(k->text);
        x.text = bh_xstrdup(v->text);
        x.pos = bh_config_pos(v);
        put(s, &x);
    }
    return 0;
}

void bh_config_expect_copy(bh_settings *dst, const bh_settings *src)
{
    dst->expect = NULL;
    dst->n_expect = 0;
    if (!src->n_expect)
        return;
    dst->expect = bh_xcalloc(src->n_expect, sizeof(*dst->expect));
    for (size_t i = 0; i < src->n_expect; i++) {
        dst->expect[i] = src->expect[i];
        dst->expect[i].key = bh_xstrdup(src->expect[i].key);
        dst->expect[i].name = bh_xstrdup(src->expect[i].name);
        dst->expect[i].text = bh_xstrdup(src->expect[i].text);
    }
    dst->n_expect = src->n_expect;
}

void bh_config_expect_free(bh_settings *s)
{
    for (size_t i = 0; i < s->n_expect; i++) {
        free(s->expect[i].key);
        free(s->expect[i].name);
        free(s->expect[i].text);
    }
    free(s->expect);
    s->expect = NULL;
    s->n_expect = 0;
}
