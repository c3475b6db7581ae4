// SPDX-License-Identifier: MIT
/* Parsing and validating the regression: section (see regress_config.h). */
#include "regress_config.h"

#include "bh_mem.h"
#include "config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the parser carries around for messages. */
typedef struct ctx {
    const cJSON *pos; /* key path -> "file:line:col", may be NULL */
    const char *file; /* fallback location */
    bh_error *e;
} ctx;

static const char *const top_keys[] = {"noise_floor", "warning", "critical",
                                       "fdr", "confidence", "method",
                                       "confirm", "confirm_runs", "drift_window",
                                       "drift_min_runs", "metrics", "overrides",
                                       "memory", "noisier_ratio", "noisier"};
static const char *const override_keys[] = {"match", "noise_floor", "warning",
                                            "critical"};
static const char *const metric_keys[] = {"direction", "ignore", "noise_floor"};
static const char *const memory_keys[] = {"rss_floor", "alloc_floor", "compare"};

void bh_regress_config_default(bh_regress_config *c)
{
    memset(c, 0, sizeof(*c));
    c->th.noise_floor = 0.01;
    c->th.warning = 0.03;
    c->th.critical = 0.10;
    c->fdr = 0.05;
    c->confidence = 0.95;
    c->method = BH_REGRESS_MWU;
    c->confirm = 1;
    c->confirm_runs = 12;
    c->drift_window = 20;
    c->drift_min_runs = 5;
    c->memory = 1;
    c->rss_floor = BH_REGRESS_RSS_FLOOR;
    c->alloc_floor = BH_REGRESS_ALLOC_FLOOR;
    c->noisier_ratio = BH_REGRESS_NOISIER_RATIO;
    c->noisier = BH_REGRESS_NOISIER_WARN;
}

void bh_regress_config_free(bh_regress_config *c)
{
    for (size_t i = 0; i < c->n_metrics; i++)
        free(c->metrics[i].name);
    free(c->metrics);
    for (size_t i = 0; i < c->n_overrides; i++)
        free(c->overrides[i].match);
    free(c->overrides);
    bh_regress_config_default(c);
}

/* Sets e to "where: regression.path: message"; returns -1. */
static int fail(const ctx *x, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(const ctx *x, const char *path, const char *fmt, ...)
{
    const cJSON *p = x->pos ? cJSON_GetObjectItemCaseSensitive(x->pos, path) : NULL;
    char msg[768];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return bh_error_set(x->e, "%s: regression%s%s: %s",
                        cJSON_IsString(p) ? p->valuestring
                        : x->file         ? x->file
                                          : "config",
                        *path ? "." : "", path, msg);
}

/* The text of a value for "got ..." (buf). */
static const char *got(const cJSON *v, char *buf, size_t n)
{
    if (cJSON_IsString(v))
        snprintf(buf, n, "'%.60s'", v->valuestring);
    else if (cJSON_IsNumber(v))
        snprintf(buf, n, "%g", v->valuedouble);
    else if (cJSON_IsBool(v))
        snprintf(buf, n, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsObject(v))
        snprintf(buf, n, "a map");
    else if (cJSON_IsArray(v))
        snprintf(buf, n, "a list");
    else
        snprintf(buf, n, "nothing");
    return buf;
}

/* Every key of o must be one of allowed; else an error with a suggestion. */
static int check_keys(const ctx *x, const cJSON *o, const char *prefix,
                      const char *const *allowed, size_t n)
{
    const cJSON *it;

    cJSON_ArrayForEach(it, o) {
        size_t i;
        char path[256];
        const char *dym;

        for (i = 0; i < n; i++)
            if (strcmp(it->string, allowed[i]) == 0)
                break;
        if (i < n)
            continue;
        if (snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "",
                     it->string) >= (int)sizeof(path))
            return fail(x, prefix, "key name too long (at most %zu bytes)", sizeof(path) - 1);
        dym = bh_did_you_mean(it->string, allowed, n);
        if (dym)
            return fail(x, path, "unknown key '%s' (did you mean '%s'?)", it->string, dym);
        {
            char list[256] = "";

            for (i = 0; i < n; i++)
                snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
                         i ? ", " : "", allowed[i]);
            return fail(x, path, "unknown key '%s' (expected one of: %s)", it->string, list);
        }
    }
    return 0;
}

/* A percentage: "2%", a string fraction "0.02" or a number in [0, 1). */
static int get_percent(const ctx *x, const cJSON *v, const char *path, double *out)
{
    char g[96];

    if (cJSON_IsNumber(v)) {
        if (v->valuedouble >= 0.0 && v->valuedouble < 1.0) {
            *out = v->valuedouble;
            return 0;
        }
        return fail(x, path,
                    "expected a percentage like 2%% or a fraction below 1 like 0.02, "
                    "got %s (write %g%% if that is meant)",
                    got(v, g, sizeof(g)), v->valuedouble);
    }
    if (cJSON_IsString(v)) {
        bh_error pe = {""};

        if (bh_parse_percent(v->valuestring, out, &pe) == 0)
            return 0;
        return fail(x, path, "%s", pe.msg);
    }
    return fail(x, path, "expected a percentage like 2%%, got %s", got(v, g, sizeof(g)));
}

/* A percentage strictly inside (lo, hi). */
static int get_fraction_in(const ctx *x, const cJSON *v, const char *path, double lo,
                           double hi, double *out)
{
    if (get_percent(x, v, path, out) != 0)
        return -1;
    if (!(*out > lo && *out < hi))
        return fail(x, path, "expected a value between %g%% and %g%% (exclusive), got %g%%",
                    lo * 100, hi * 100, *out * 100);
    return 0;
}

static int get_bool(const ctx *x, const cJSON *v, const char *path, int *out)
{
    char g[96];

    if (!cJSON_IsBool(v))
        return fail(x, path, "expected true or false, got %s", got(v, g, sizeof(g)));
    *out = cJSON_IsTrue(v);
    return 0;
}

/* Reads noise_floor, warning and critical present in o into th/set. */
static int get_thresholds(const ctx *x, const cJSON *o, const char *prefix,
                          bh_regress_thresholds *th, unsigned *set)
{
    static const char *const keys[] = {"noise_floor", "warning", "critical"};
    double *slot[] = {&th->noise_floor, &th->warning, &th->critical};

    for (unsigned k = 0; k < 3; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, keys[k]);
        char path[256];

        if (!v)
            continue;
        snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", keys[k]);
        if (get_percent(x, v, path, slot[k]) != 0)
            return -1;
        *set |= 1u << k;
    }
    return 0;
}

/* noise_floor <= warning <= critical, named where. */
static int check_order(const ctx *x, const bh_regress_thresholds *th, const char *path)
{
    if (th->warning < th->noise_floor)
        return fail(x, path,
                    "warning (%g%%) must not be below noise_floor (%g%%)",
                    th->warning * 100, th->noise_floor * 100);
    if (th->critical < th->warning)
        return fail(x, path, "critical (%g%%) must not be below warning (%g%%)",
                    th->critical * 100, th->warning * 100);
    return 0;
}

static int parse_metrics(const ctx *x, const cJSON *m, bh_regress_config *c)
{
    const cJSON *it;
    char g[96];
    size_t cap = 0;

    if (!cJSON_IsObject(m))
        return fail(x, "metrics", "expected a map of metric name -> {direction: "
                    "lower|higher, ignore: true|false, noise_floor: 1%%}, got %s",
                    got(m, g, sizeof(g)));
    cJSON_ArrayForEach(it, m) {
        bh_regress_metric_cfg mc = {NULL, 0, 0, NAN};
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(it, "direction");
        const cJSON *ig = cJSON_GetObjectItemCaseSensitive(it, "ignore");
        const cJSON *nf = cJSON_GetObjectItemCaseSensitive(it, "noise_floor");
        char path[256];

        snprintf(path, sizeof(path), "metrics.%s", it->string);
        if (!cJSON_IsObject(it))
            return fail(x, path, "expected a map like {direction: higher}, got %s",
                        got(it, g, sizeof(g)));
        if (check_keys(x, it, path, metric_keys, 3) != 0)
            return -1;
        if (d) {
            char dpath[300];

            snprintf(dpath, sizeof(dpath), "%s.direction", path);
            if (cJSON_IsString(d) && strcmp(d->valuestring, "lower") == 0)
                mc.direction = 1;
            else if (cJSON_IsString(d) && strcmp(d->valuestring, "higher") == 0)
                mc.direction = -1;
            else
                return fail(x, dpath, "expected lower or higher, got %s",
                            got(d, g, sizeof(g)));
        }
        if (ig) {
            char ipath[300];

            snprintf(ipath, sizeof(ipath), "%s.ignore", path);
            if (get_bool(x, ig, ipath, &mc.ignore) != 0)
                return -1;
        }
        if (nf) {
            char fpath[300];

            snprintf(fpath, sizeof(fpath), "%s.noise_floor", path);
            if (get_percent(x, nf, fpath, &mc.noise_floor) != 0)
                return -1;
            if (mc.noise_floor > c->th.warning)
                return fail(x, fpath, "noise_floor (%g%%) must not be above warning (%g%%)",
                            mc.noise_floor * 100, c->th.warning * 100);
        }
        mc.name = bh_xstrdup(it->string);
        BH_PUSH(c->metrics, c->n_metrics, cap, mc);
    }
    return 0;
}

/* memory: {rss_floor, alloc_floor, compare} (memory_compare.h). */
static int parse_memory(const ctx *x, const cJSON *m, bh_regress_config *c)
{
    const cJSON *v;
    char g[96];

    if (!cJSON_IsObject(m))
        return fail(x, "memory", "expected a map like {rss_floor: 10%%, alloc_floor: 0.1%%, "
                    "compare: true}, got %s", got(m, g, sizeof(g)));
    if (check_keys(x, m, "memory", memory_keys, 3) != 0)
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(m, "rss_floor")) &&
        get_fraction_in(x, v, "memory.rss_floor", 0.0, 1.0, &c->rss_floor) != 0)
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(m, "alloc_floor")) &&
        get_fraction_in(x, v, "memory.alloc_floor", 0.0, 1.0, &c->alloc_floor) != 0)
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(m, "compare")) &&
        get_bool(x, v, "memory.compare", &c->memory) != 0)
        return -1;
    return 0;
}

/* noisier_ratio: a number above 1 (at most 100); noisier: warn, fail or
 * off (variance.h). */
static int parse_noisier(const ctx *x, const cJSON *o, bh_regress_config *c)
{
    const cJSON *v;
    char g[96];

    if ((v = cJSON_GetObjectItemCaseSensitive(o, "noisier_ratio"))) {
        if (!cJSON_IsNumber(v) || !(v->valuedouble > 1.0 && v->valuedouble <= 100.0))
            return fail(x, "noisier_ratio", "expected a ratio of spreads above 1 and at most "
                        "100 such as 2.0, got %s", got(v, g, sizeof(g)));
        c->noisier_ratio = v->valuedouble;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "noisier"))) {
        static const char *const modes[] = {"warn", "fail", "off"};
        int k;

        for (k = 0; k < 3; k++)
            if (cJSON_IsString(v) && strcmp(v->valuestring, modes[k]) == 0)
                break;
        if (k == 3)
            return fail(x, "noisier", "expected warn, fail or off, got %s",
                        got(v, g, sizeof(g)));
        c->noisier = k;
    }
    return 0;
}

static int parse_overrides(const ctx *x, const cJSON *l, bh_regress_config *c)
{
    const cJSON *it;
    char g[96];
    size_t i = 0, cap = 0;

    if (!cJSON_IsArray(l))
        return fail(x, "overrides", "expected a list of {match: PATTERN, noise_floor, "
                    "warning, critical}, got %s", got(l, g, sizeof(g)));
    cJSON_ArrayForEach(it, l) {
        bh_regress_override ov;
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(it, "match");
        char path[64];
        char mpath[80];

        snprintf(path, sizeof(path), "overrides[%zu]", i);
        snprintf(mpath, sizeof(mpath), "%s.match", path);
        if (!cJSON_IsObject(it))
            return fail(x, path, "expected a map with match: and thresholds, got %s",
                        got(it, g, sizeof(g)));
        if (check_keys(x, it, path, override_keys, 4) != 0)
            return -1;
        if (!m)
            return fail(x, path, "missing required key 'match' (a glob on case ids, "
                        "e.g. \"tensor/gemm*\")");
        if (!cJSON_IsString(m) || !*m->valuestring)
            return fail(x, mpath, "expected a non-empty glob pattern, got %s",
                        got(m, g, sizeof(g)));
        memset(&ov, 0, sizeof(ov));
        ov.th = c->th;
        if (get_thresholds(x, it, path, &ov.th, &ov.set) != 0)
            return -1;
        ov.match = bh_xstrdup(m->valuestring);
        BH_PUSH(c->overrides, c->n_overrides, cap, ov);
        i++;
    }
    return 0;
}

/* Member key of o as a whole number from lo to hi into *out; *out = -1
 * when absent. 0, or -1 with the error set. */
static int get_whole(const ctx *x, const cJSON *o, const char *key, long lo, long hi, long *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    char g[96];

    *out = -1;
    if (!v)
        return 0;
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < (double)lo || v->valuedouble > (double)hi)
        return fail(x, key, "expected a whole number from %ld to %ld, got %s", lo, hi,
                    got(v, g, sizeof(g)));
    *out = (long)v->valuedouble;
    return 0;
}

static int parse_top(const ctx *x, const cJSON *o, bh_regress_config *c)
{
    const cJSON *v;
    char g[96];
    unsigned set = 0;
    long n;

    if (!cJSON_IsObject(o))
        return fail(x, "", "expected a map, got %s", got(o, g, sizeof(g)));
    if (check_keys(x, o, "", top_keys, sizeof(top_keys) / sizeof(*top_keys)) != 0)
        return -1;
    if (get_thresholds(x, o, "", &c->th, &set) != 0)
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "fdr")) &&
        get_fraction_in(x, v, "fdr", 0.0, 1.0, &c->fdr) != 0)
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "confidence")) &&
        get_fraction_in(x, v, "confidence", 0.5, 1.0, &c->confidence) != 0)
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "method"))) {
        if (cJSON_IsString(v) && strcmp(v->valuestring, "mwu") == 0)
            c->method = BH_REGRESS_MWU;
        else if (cJSON_IsString(v) && strcmp(v->valuestring, "welch") == 0)
            c->method = BH_REGRESS_WELCH;
        else
            return fail(x, "method", "expected mwu or welch, got %s", got(v, g, sizeof(g)));
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "confirm")) &&
        get_bool(x, v, "confirm", &c->confirm) != 0)
        return -1;
    if (get_whole(x, o, "confirm_runs", 4, 1000, &n) != 0)
        return -1;
    c->confirm_runs = n >= 0 ? (uint32_t)n : c->confirm_runs;
    if (get_whole(x, o, "drift_window", 0, 1000, &n) != 0)
        return -1;
    c->drift_window = n >= 0 ? (size_t)n : c->drift_window;
    if (get_whole(x, o, "drift_min_runs", 3, 1000, &n) != 0)
        return -1;
    c->drift_min_runs = n >= 0 ? (size_t)n : c->drift_min_runs;
    if (c->drift_window > 0 && c->drift_min_runs > c->drift_window)
        return fail(x, "drift_min_runs", "expected at most drift_window (%zu), got %zu",
                    c->drift_window, c->drift_min_runs);
    if (check_order(x, &c->th, "") != 0)
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "metrics")) && parse_metrics(x, v, c) != 0)
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "overrides")) &&
        parse_overrides(x, v, c) != 0)
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "memory")) && parse_memory(x, v, c) != 0)
        return -1;
    return parse_noisier(x, o, c);
}

/* Checks the order of thresholds as every override leaves them: each
 * override on its own over the globals (what a case it alone matches
 * gets). */
static int check_overrides(const ctx *x, const bh_regress_config *c)
{
    for (size_t i = 0; i < c->n_overrides; i++) {
        bh_regress_thresholds th = c->th;
        const bh_regress_override *ov = &c->overrides[i];
        char path[64];

        if (ov->set & BH_REGRESS_SET_FLOOR)
            th.noise_floor = ov->th.noise_floor;
        if (ov->set & BH_REGRESS_SET_WARNING)
            th.warning = ov->th.warning;
        if (ov->set & BH_REGRESS_SET_CRITICAL)
            th.critical = ov->th.critical;
        snprintf(path, sizeof(path), "overrides[%zu]", i);
        if (check_order(x, &th, path) != 0)
            return -1;
    }
    return 0;
}

int bh_regress_config_parse(const char *json, const char *pos_json,
                            const char *file, bh_regress_config *out,
                            bh_error *e)
{
    cJSON *o;
    cJSON *pos = pos_json ? cJSON_Parse(pos_json) : NULL;
    ctx x = {pos, file, e};
    int rc;

    bh_regress_config_default(out);
    if (!json) {
        cJSON_Delete(pos);
        return 0;
    }
    o = cJSON_Parse(json);
    if (!o) {
        cJSON_Delete(pos);
        return bh_error_set(e, "%s: regression: not valid JSON", file ? file : "config");
    }
    rc = parse_top(&x, o, out);
    if (rc == 0)
        rc = check_overrides(&x, out);
    cJSON_Delete(o);
    cJSON_Delete(pos);
    if (rc != 0)
        bh_regress_config_free(out);
    return rc;
}

void bh_regress_thresholds_for(const bh_regress_config *c, const char *case_id,
                               bh_regress_thresholds *out)
{
    *out = c->th;
    for (size_t i = 0; i < c->n_overrides; i++) {
        const bh_regress_override *ov = &c->overrides[i];

        if (!bh_glob_match(ov->match, case_id))
            continue;
        if (ov->set & BH_REGRESS_SET_FLOOR)
            out->noise_floor = ov->th.noise_floor;
        if (ov->set & BH_REGRESS_SET_WARNING)
            out->warning = ov->th.warning;
        if (ov->set & BH_REGRESS_SET_CRITICAL)
            out->critical = ov->th.critical;
    }
    /* Several overrides may combine into a disorder no single one has. */
    if (out->warning > out->critical)
        out->warning = out->critical;
    if (out->noise_floor > out->warning)
        out->noise_floor = out->warning;
}

double bh_regress_metric_floor(const bh_regress_config *c, const char *metric, int counted,
                               const bh_regress_thresholds *th)
{
    /* The names callgrind_run.h gives a counting run's metrics. */
    static const char *const counts[] = {"instructions", "l1_misses", "ll_misses"};
    const bh_regress_metric_cfg *mc = bh_regress_metric_find(c, metric);
    double f = th->noise_floor;

    if (mc && !isnan(mc->noise_floor)) {
        f = mc->noise_floor;
    } else if (counted) {
        for (size_t i = 0; i < sizeof(counts) / sizeof(*counts); i++)
            if (strcmp(metric, counts[i]) == 0)
                f = BH_REGRESS_COUNT_FLOOR;
    }
    return f > th->warning ? th->warning : f;
}

const bh_regress_metric_cfg *bh_regress_metric_find(const bh_regress_config *c,
                                                    const char *name)
{
    for (size_t i = 0; i < c->n_metrics; i++)
        if (strcmp(c->metrics[i].name, name) == 0)
            return &c->metrics[i];
    return NULL;
}
