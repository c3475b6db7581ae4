// SPDX-License-Identifier: MIT
/* One-benchmark runs: the operand, the checks with "did you mean", the
 * config (see run_case.h). */
#define _GNU_SOURCE
#include "run_case.h"

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "cli.h"
#include "ipc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Most parameters one request may give. */
#define MAX_PARAMS 64
/* Most names listed when none is close to a wrong one. */
#define MAX_LISTED 12

int bh_run_case_is_spec(const char *arg)
{
    struct stat st;
    size_t n = strlen(arg);

    if (stat(arg, &st) == 0)
        return 0;
    return !(n >= 5 && strcmp(arg + n - 5, ".yaml") == 0) &&
           !(n >= 4 && strcmp(arg + n - 4, ".yml") == 0);
}

/* A parsed request: its strings point into buf (a copy of the operand)
 * and into the -p arguments. */
typedef struct request {
    bh_case_request r;
    char *buf;
    const char *keys[MAX_PARAMS];
    const char *values[MAX_PARAMS];
    const char *backend[1];
} request;

/* Adds "KEY=VALUE" text (split in place at '='); -1 after printing. */
static int add_pair(request *q, char *text, const char *spec)
{
    char *eq = strchr(text, '=');

    if (!eq || eq == text) {
        bh_cli_error("run: '%s' in %s: expected KEY=VALUE, e.g. work=2000", text, spec);
        return -1;
    }
    if (q->r.n_params == MAX_PARAMS) {
        bh_cli_error("run: %s: more than %d parameters", spec, MAX_PARAMS);
        return -1;
    }
    *eq = '\0';
    q->keys[q->r.n_params] = text;
    q->values[q->r.n_params++] = eq + 1;
    return 0;
}

/* Splits the bracket list "K=V,K=V" in place; a piece without '=' belongs
 * to the value before it ("cpus=0,2" keeps its comma). */
static int add_bracket(request *q, char *list, const char *spec)
{
    char *piece = list;

    while (piece && *piece) {
        char *next = strchr(piece, ',');

        while (next) {
            char *after = strchr(next + 1, ',');
            size_t len = after ? (size_t)(after - next - 1) : strlen(next + 1);

            if (memchr(next + 1, '=', len))
                break;
            next = after; /* a piece of the value: keep its comma */
        }
        if (next)
            *next++ = '\0';
        if (add_pair(q, piece, spec) != 0)
            return -1;
        piece = next;
    }
    return 0;
}

/* Parses the operand into q; -1 after printing. */
static int parse_spec(request *q, const char *spec)
{
    char *slash, *open, *at;

    q->buf = bh_xstrdup(spec);
    q->r.text = spec;
    q->r.device = -1;
    slash = strchr(q->buf, '/');
    if (!slash || slash == q->buf || !slash[1]) {
        bh_cli_error("run: '%s' is neither a config file nor a benchmark PLUGIN/BENCH, e.g. "
                     "selftest/spin (bhost list shows them)", spec);
        return -1;
    }
    *slash = '\0';
    q->r.plugin = q->buf;
    q->r.bench = slash + 1;
    at = strchr(slash + 1, '@');
    open = strchr(slash + 1, '[');
    if (open && at && at < open)
        open = NULL;
    if (at) {
        char *colon = strchr(at + 1, ':');

        *at = '\0';
        if (colon) {
            char *end = NULL;
            long d = strtol(colon + 1, &end, 10);

            if (end == colon + 1 || *end || d < 0 || d > 1023) {
                bh_cli_error("run: '%s': expected @BACKEND:DEVICE with a device index from 0 "
                             "to 1023, e.g. @cpu:0", spec);
                return -1;
            }
            *colon = '\0';
            q->r.device = (int)d;
        }
        if (!at[1]) {
            bh_cli_error("run: '%s': expected a backend name after '@', e.g. @cpu", spec);
            return -1;
        }
        q->backend[0] = at + 1;
        q->r.backends = q->backend;
        q->r.n_backends = 1;
    }
    if (open) {
        char *close = strrchr(open, ']');

        if (!close || close[1]) {
            bh_cli_error("run: '%s': expected PLUGIN/BENCH[KEY=VALUE,...] with the ']' last "
                         "(before any @BACKEND)", spec);
            return -1;
        }
        *open = '\0';
        *close = '\0';
        if (add_bracket(q, open + 1, spec) != 0)
            return -1;
    }
    if (!*q->r.bench) {
        bh_cli_error("run: '%s': expected a benchmark id after '/', e.g. selftest/spin", spec);
        return -1;
    }
    return 0;
}

bh_config *bh_run_case_config(const char *spec, char *const *params, size_t n_params,
                              const char *const *backends, size_t n_backends)
{
    request q;
    bh_config *cfg = NULL;
    char **copies = bh_xcalloc(n_params ? n_params : 1, sizeof(*copies));
    const char **named = bh_xcalloc(n_backends ? n_backends : 1, sizeof(*named));
    bh_error e = {""};
    size_t i;

    memset(&q, 0, sizeof(q));
    if (parse_spec(&q, spec) != 0)
        goto done;
    for (i = 0; i < n_params; i++) {
        copies[i] = bh_xstrdup(params[i]);
        if (add_pair(&q, copies[i], "-p") != 0)
            goto done;
    }
    q.r.keys = q.keys;
    q.r.values = q.values;
    if (!q.r.n_backends) {
        /* --backend none (the host cases) names no backend for a device */
        for (i = 0; i < n_backends; i++)
            if (strcmp(backends[i], "none") != 0)
                named[q.r.n_backends++] = backends[i];
        q.r.backends = named;
    }
    cfg = bh_config_for_case(&q.r, &e);
    if (!cfg)
        bh_cli_error("run: %s", e.msg);
done:
    for (i = 0; i < n_params; i++)
        free(copies[i]);
    free(copies);
    free(named);
    free(q.buf);
    return cfg;
}

/* Appends " (did you mean 'X'?)" for the candidate closest to word, else
 * "; WHAT: a, b, c" (at most MAX_LISTED, then "..."), to b. */
static void hint(bh_strbuf *b, const char *word, const char *const *names, size_t n,
                 const char *what)
{
    const char *close = bh_did_you_mean(word, names, n);

    if (close) {
        bh_strbuf_printf(b, " (did you mean '%s'?)", close);
        return;
    }
    if (n == 0) {
        bh_strbuf_printf(b, "; it has no %s", what);
        return;
    }
    bh_strbuf_printf(b, "; its %s: ", what);
    for (size_t i = 0; i < n && i < MAX_LISTED; i++)
        bh_strbuf_printf(b, "%s%s", i ? ", " : "", names[i]);
    if (n > MAX_LISTED)
        bh_strbuf_puts(b, ", ...");
}

/* The values of key in each element of array (at most cap) into names. */
static size_t names_of(const cJSON *array, const char *key, const char **names, size_t cap)
{
    const cJSON *it;
    size_t n = 0;

    cJSON_ArrayForEach(it, array) {
        if (n < cap && bh_json_str(it, key, NULL))
            names[n++] = bh_json_str(it, key, NULL);
    }
    return n;
}

/* Prints the one-line error in b, frees it and returns -1. */
static int fail(bh_strbuf *b)
{
    bh_cli_error("%s", bh_strbuf_str(b));
    bh_strbuf_free(b);
    return -1;
}

int bh_run_case_check(const bh_config *cfg, bh_catalog *cat)
{
    const bh_suite *s = &cfg->suites[0];
    const bh_catalog_entry *en = bh_catalog_get(cat, s->plugin);
    const cJSON *bench;
    const cJSON *params;
    const char **names;
    size_t cap, n;
    bh_strbuf b = BH_STRBUF_INIT;

    if (!en->path) {
        char *close = bh_catalog_suggest(cat, s->plugin);

        bh_strbuf_printf(&b, "run: no plugin '%s' on the plugin path", s->plugin);
        if (close)
            bh_strbuf_printf(&b, " (did you mean '%s'?)", close);
        else
            bh_strbuf_puts(&b, " (bhost list shows the plugins)");
        free(close);
        return fail(&b);
    }
    if (!en->info)
        return 0; /* it fails to load: its case says why */
    bench = bh_catalog_bench(en->info, s->include[0]);
    if (!bench) {
        const cJSON *all = cJSON_GetObjectItemCaseSensitive(en->info, "benchmarks");

        cap = (size_t)cJSON_GetArraySize(all) + 1;
        names = bh_xcalloc(cap, sizeof(*names));
        n = names_of(all, "id", names, cap);
        bh_strbuf_printf(&b, "run: plugin '%s' has no benchmark '%s'", s->plugin, s->include[0]);
        hint(&b, s->include[0], names, n, "benchmarks");
        free(names);
        return fail(&b);
    }
    params = cJSON_GetObjectItemCaseSensitive(bench, "params");
    cap = (size_t)cJSON_GetArraySize(params) + 1;
    names = bh_xcalloc(cap, sizeof(*names));
    n = names_of(params, "key", names, cap);
    for (size_t i = 0; i < s->n_params; i++) {
        size_t k = 0;

        while (k < n && strcmp(names[k], s->params[i].key) != 0)
            k++;
        if (k == n) {
            bh_strbuf_printf(&b, "run: %s/%s has no parameter '%s'", s->plugin, s->include[0],
                             s->params[i].key);
            hint(&b, s->params[i].key, names, n, "parameters");
            free(names);
            return fail(&b);
        }
    }
    free(names);
    return 0;
}

const char *bh_run_case_message(const bh_config *cfg, const char *msg)
{
    size_t n = strlen(cfg->path);

    if (strncmp(msg, cfg->path, n) == 0 && strncmp(msg + n, ":1:1: ", 6) == 0)
        return msg + n + 6;
    return msg;
}
