// SPDX-License-Identifier: MIT
#include "plan.h"

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "bh_strset.h"
#include "ipc.h"
#include "param_range.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A typed parameter value during expansion. */
typedef struct pvalue {
    char type[8];     /* "i64", "f64", "str", "bool" */
    int64_t i;
    double f;
    const char *s;    /* borrowed */
} pvalue;

/* One axis of a benchmark's parameter space. */
typedef struct axis {
    const char *key;
    int explicit_;    /* came from the config, so it shows in the id */
    pvalue *values;
    size_t n;
} axis;

static int err_at(bh_error *e, const bh_srcpos *p, const char *msg)
{
    return bh_error_set(e, "%s:%d:%d: %s", p->file ? p->file : "?", p->line,
                        p->column, msg);
}

static bh_case *new_case(bh_plan *plan, size_t suite, const char *plugin)
{
    bh_case c;

    memset(&c, 0, sizeof(c));
    c.suite = suite;
    c.plugin = bh_xstrdup(plugin);
    c.device = -1;
    BH_PUSH(plan->cases, plan->n, plan->cap, c);
    return &plan->cases[plan->n - 1];
}

/* Adds a case that will not run, with its status and reason, and returns
 * it. One with the id of an earlier case that will not run is dropped when
 * the plan is complete (see check_ids). */
static bh_case *add_unrunnable(bh_plan *plan, const bh_suite *s, size_t si,
                               const char *id, bh_status st, const char *why)
{
    bh_case *c = new_case(plan, si, s->plugin);

    c->id = bh_xstrdup(id);
    c->pre_status = st;
    c->pre_reason = bh_xstrdup(why);
    bh_settings_copy(&c->settings, &s->settings);
    return c;
}

/* True when id passes the suite's include and exclude patterns. */
static int selected(const bh_suite *s, const char *id)
{
    int in = s->n_include == 0;

    for (size_t i = 0; i < s->n_include && !in; i++)
        in = bh_glob_match(s->include[i], id);
    for (size_t i = 0; i < s->n_exclude && in; i++)
        if (bh_glob_match(s->exclude[i], id))
            in = 0;
    return in;
}

/* The integer value of an I64 parameter's scalar: a YAML integer, or a
 * size with a unit as settings take it (1M, 4KiB, 2GiB: bh_parse_size)
 * that fits int64_t. 0, or -1 when it is neither. */
static int i64_value(const bh_scalar *sc, int64_t *out)
{
    uint64_t bytes;

    if (sc->kind == BH_SCALAR_INT) {
        *out = sc->i;
        return 0;
    }
    if (sc->kind != BH_SCALAR_STR || bh_parse_size(sc->text, &bytes, NULL) != 0 ||
        bytes > (uint64_t)INT64_MAX)
        return -1;
    *out = (int64_t)bytes;
    return 0;
}

/* Converts a config scalar to the declared type, checking choices and
 * range; 0 or -1 with e at the scalar's position. */
static int convert(const bh_scalar *sc, const cJSON *pd, pvalue *out,
                   bh_error *e)
{
    const char *type = bh_json_str(pd, "type", "");
    const char *key = bh_json_str(pd, "key", "?");
    char msg[512];
    const cJSON *choices = cJSON_GetObjectItemCaseSensitive(pd, "choices");

    memset(out, 0, sizeof(*out));
    snprintf(out->type, sizeof(out->type), "%s", type);
    if (strcmp(type, "i64") == 0) {
        if (i64_value(sc, &out->i) != 0) {
            snprintf(msg, sizeof(msg), "parameter '%s' expects an integer, "
                     "got '%s' (sizes such as 4KiB or 1M are integers too)",
                     key, sc->text);
            return err_at(e, &sc->pos, msg);
        }
        out->f = (double)out->i;
    } else if (strcmp(type, "f64") == 0) {
        if (sc->kind != BH_SCALAR_INT && sc->kind != BH_SCALAR_FLOAT) {
            snprintf(msg, sizeof(msg), "parameter '%s' expects a number, "
                     "got '%s'", key, sc->text);
            return err_at(e, &sc->pos, msg);
        }
        out->f = sc->kind == BH_SCALAR_INT ? (double)sc->i : sc->f;
    } else if (strcmp(type, "bool") == 0) {
        if (sc->kind != BH_SCALAR_BOOL) {
            snprintf(msg, sizeof(msg), "parameter '%s' expects true or "
                     "false, got '%s'", key, sc->text);
            return err_at(e, &sc->pos, msg);
        }
        out->i = sc->i;
    } else if (strcmp(type, "str") == 0) {
        out->s = sc->text;
    } else {
        snprintf(msg, sizeof(msg), "parameter '%s' has an unknown type in "
                 "the plugin", key);
        return err_at(e, &sc->pos, msg);
    }
    if (choices && out->s) {
        const cJSON *ch;
        bh_strbuf list = BH_STRBUF_INIT;
        int ok = 0;

        cJSON_ArrayForEach(ch, choices) {
            if (cJSON_IsString(ch) && strcmp(ch->valuestring, out->s) == 0)
                ok = 1;
            bh_strbuf_printf(&list, "%s%s", list.len ? ", " : "",
                             cJSON_IsString(ch) ? ch->valuestring : "?");
        }
        if (!ok) {
            snprintf(msg, sizeof(msg), "parameter '%s' must be one of: %s; "
                     "got '%s'", key, bh_strbuf_str(&list), out->s);
            bh_strbuf_free(&list);
            return err_at(e, &sc->pos, msg);
        }
        bh_strbuf_free(&list);
    }
    if (cJSON_GetObjectItemCaseSensitive(pd, "min") &&
        (strcmp(type, "i64") == 0 || strcmp(type, "f64") == 0)) {
        double lo = bh_json_num(pd, "min", 0), hi = bh_json_num(pd, "max", 0);
        char range[96];

        if (out->f < lo || out->f > hi) {
            bh_param_range_text(pd, range, sizeof(range));
            snprintf(msg, sizeof(msg), "parameter '%s' must be %s%s, got %s", key,
                     range[0] == '[' ? "within " : "", range, sc->text);
            return err_at(e, &sc->pos, msg);
        }
    }
    return 0;
}

/* Reads a plugin's textual default as a scalar the way YAML would. */
static void default_scalar(const char *text, bh_scalar *sc)
{
    char *end = NULL;

    memset(sc, 0, sizeof(*sc));
    sc->text = (char *)text;
    sc->kind = BH_SCALAR_STR;
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
        sc->kind = BH_SCALAR_BOOL;
        sc->i = text[0] == 't';
        return;
    }
    errno = 0;
    sc->i = strtoll(text, &end, 10);
    if (*text && end && *end == '\0' && errno == 0) {
        sc->kind = BH_SCALAR_INT;
        sc->f = (double)sc->i;
        return;
    }
    sc->f = strtod(text, &end);
    if (*text && end && *end == '\0')
        sc->kind = BH_SCALAR_FLOAT;
}

/* Builds the axes of benchmark b from the suite's params and defaults. */
static int build_axes(const bh_suite *s, const cJSON *b, axis **out,
                      size_t *n_out, bh_error *e)
{
    const cJSON *pds = cJSON_GetObjectItemCaseSensitive(b, "params");
    size_t n = (size_t)cJSON_GetArraySize(pds);
    axis *axes = bh_xcalloc(n ? n : 1, sizeof(*axes));
    const cJSON *pd;
    size_t k = 0;

    cJSON_ArrayForEach(pd, pds) {
        const char *key = bh_json_str(pd, "key", "");
        const bh_param_axis *given = NULL;
        axis *a = &axes[k++];

        a->key = key;
        for (size_t i = 0; i < s->n_params; i++)
            if (strcmp(s->params[i].key, key) == 0)
                given = &s->params[i];
        if (given) {
            a->explicit_ = !given->hidden;
            a->n = given->n_values;
            a->values = bh_xcalloc(a->n, sizeof(pvalue));
            for (size_t v = 0; v < a->n; v++)
                if (convert(&given->values[v], pd, &a->values[v], e) != 0)
                    goto fail;
        } else {
            const char *dflt = bh_json_str(pd, "default", NULL);
            bh_scalar sc;
            char msg[256];

            if (!dflt) {
                snprintf(msg, sizeof(msg),
                         "benchmark '%s' requires parameter '%s'",
                         bh_json_str(b, "id", "?"), key);
                err_at(e, &s->pos, msg);
                goto fail;
            }
            default_scalar(dflt, &sc);
            sc.pos = s->pos;
            a->n = 1;
            a->values = bh_xcalloc(1, sizeof(pvalue));
            if (convert(&sc, pd, &a->values[0], e) != 0) {
                bh_error_prefix(e, "plugin default of '%s' is invalid", key);
                goto fail;
            }
        }
    }
    *out = axes;
    *n_out = k;
    return 0;
fail:
    for (size_t i = 0; i < n; i++)
        free(axes[i].values);
    free(axes);
    return -1;
}

static void free_axes(axis *axes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(axes[i].values);
    free(axes);
}

/* Appends the value in the id form and adds it to the two JSON maps. */
static void emit_value(const axis *a, const pvalue *v, bh_strbuf *id,
                       cJSON *typed, cJSON *plain)
{
    cJSON *t = cJSON_CreateObject();
    char num[32];

    cJSON_AddStringToObject(t, "type", v->type);
    if (strcmp(v->type, "i64") == 0) {
        snprintf(num, sizeof(num), "%lld", (long long)v->i);
        cJSON_AddStringToObject(t, "value", num);
        cJSON_AddNumberToObject(plain, a->key, (double)v->i);
    } else if (strcmp(v->type, "f64") == 0) {
        snprintf(num, sizeof(num), "%.17g", v->f);
        cJSON_AddNumberToObject(t, "value", v->f);
        cJSON_AddNumberToObject(plain, a->key, v->f);
        snprintf(num, sizeof(num), "%g", v->f);
    } else if (strcmp(v->type, "bool") == 0) {
        snprintf(num, sizeof(num), "%s", v->i ? "true" : "false");
        cJSON_AddBoolToObject(t, "value", v->i != 0);
        cJSON_AddBoolToObject(plain, a->key, v->i != 0);
    } else {
        cJSON_AddStringToObject(t, "value", v->s);
        cJSON_AddStringToObject(plain, a->key, v->s);
    }
    cJSON_AddItemToObject(typed, a->key, t);
    if (a->explicit_)
        bh_strbuf_printf(id, "%s%s=%s", id->len ? "," : "", a->key,
                         v->s && strcmp(v->type, "str") == 0 ? v->s : num);
}

/* Parses a capability mask written as "0x..." by describe. */
static uint64_t caps_of(const cJSON *o, const char *key)
{
    return strtoull(bh_json_str(o, key, "0"), NULL, 16);
}

/* The processes a case of benchmark b runs on: its "ranks" parameter for
 * a multi-rank benchmark (bhost/ranks.h), else 0. */
static uint32_t ranks_of(const cJSON *b, const cJSON *typed)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(typed, "ranks");
    const char *v = bh_json_str(p, "value", "1");

    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "multi_rank")))
        return 0;
    return (uint32_t)strtoul(v, NULL, 10);
}

/* Adds the cases of one parameter point: one host case, or one per
 * backend device. */
static void add_point(bh_plan *plan, const bh_config *cfg, const bh_suite *s,
                      size_t si, bh_catalog *cat, const char *pname,
                      const char *ppath, const cJSON *b, const char *base_id,
                      cJSON *typed, cJSON *plain)
{
    const char *bid = bh_json_str(b, "id", "?");
    bh_case *c;

    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "needs_device"))) {
        c = new_case(plan, si, pname);
        c->id = bh_xstrdup(base_id);
        c->plugin_path = bh_xstrdup(ppath);
        c->bench = bh_xstrdup(bid);
        c->params = cJSON_Duplicate(typed, 1);
        c->params_plain = cJSON_Duplicate(plain, 1);
        bh_settings_copy(&c->settings, &s->settings);
        c->ranks = ranks_of(b, typed);
        return;
    }
    size_t nb = s->n_backends ? s->n_backends : cfg->n_backends;
    if (nb == 0) {
        add_unrunnable(plan, s, si, base_id, BH_ST_SKIPPED,
                       "needs a device backend and the config names none "
                       "(add a backends: section)");
        return;
    }
    for (size_t k = 0; k < nb; k++) {
        const char *bname = s->n_backends ? s->backends[k]
                                          : cfg->backends[k].name;
        const bh_backend_req *req = NULL;
        char *plugin_name = bh_xasprintf("backend-%s", bname);
        const bh_catalog_entry *be = bh_catalog_get(cat, plugin_name);
        const cJSON *bi = be->info ? cJSON_GetObjectItemCaseSensitive(
                                         be->info, "backend")
                                   : NULL;
        int count = (int)bh_json_num(bi, "device_count", 0);
        char *id0 = bh_xasprintf("%s@%s", base_id, bname);

        free(plugin_name);
        for (size_t r = 0; r < cfg->n_backends; r++)
            if (strcmp(cfg->backends[r].name, bname) == 0)
                req = &cfg->backends[r];
        if (!bi || count <= 0) {
            char *why = bh_xasprintf(
                "backend '%s' unavailable: %s", bname,
                be->error ? be->error
                          : bh_json_str(bi, "reason", "no backend interface"));
            bh_case *u = add_unrunnable(plan, s, si, id0,
                                        req && req->required ? BH_ST_FAILED
                                                             : BH_ST_SKIPPED,
                                        why);

            /* a backend that describes itself with no device is what this
             * machine lacks; a plugin file that is missing was not built */
            if (u && u->pre_status == BH_ST_SKIPPED)
                u->skip_cause = !be->path ? "not-built"
                                : bi && be->status == BH_ST_OK ? "no-device"
                                                               : NULL;
            free(why);
            free(id0);
            continue;
        }
        for (int d = 0; d < count; d++) {
            const cJSON *dev = cJSON_GetArrayItem(
                cJSON_GetObjectItemCaseSensitive(bi, "devices"), d);
            uint64_t need = caps_of(b, "required_caps");
            uint64_t have = caps_of(dev, "caps");
            int wanted = !req || req->all_devices;

            for (size_t x = 0; req && x < req->n_devices; x++)
                if ((int)req->devices[x] == d)
                    wanted = 1;
            if (!wanted)
                continue;
            c = new_case(plan, si, pname);
            c->id = bh_xasprintf("%s:%d", id0, d);
            c->plugin_path = bh_xstrdup(ppath);
            c->bench = bh_xstrdup(bid);
            c->params = cJSON_Duplicate(typed, 1);
            c->params_plain = cJSON_Duplicate(plain, 1);
            c->backend = bh_xstrdup(bname);
            c->backend_path = bh_xstrdup(be->path);
            c->device = d;
            bh_settings_copy(&c->settings, &s->settings);
        c->ranks = ranks_of(b, typed);
            if ((need & have) != need) {
                c->pre_status = BH_ST_UNSUPPORTED;
                c->skip_cause = "no-device";
                c->pre_reason = bh_xasprintf(
                    "device %s:%d lacks required capabilities 0x%llx", bname,
                    d, (unsigned long long)(need & ~have));
            }
        }
        free(id0);
    }
}

/* Expands the cartesian product of the axes of one benchmark. */
static void expand(bh_plan *plan, const bh_config *cfg, const bh_suite *s,
                   size_t si, bh_catalog *cat, const char *pname,
                   const char *ppath, const cJSON *b, axis *axes, size_t na)
{
    size_t *idx = bh_xcalloc(na ? na : 1, sizeof(size_t));

    for (;;) {
        bh_strbuf params = BH_STRBUF_INIT;
        cJSON *typed = cJSON_CreateObject();
        cJSON *plain = cJSON_CreateObject();
        char *id;
        size_t k;

        for (size_t i = 0; i < na; i++)
            emit_value(&axes[i], &axes[i].values[idx[i]], &params, typed,
                       plain);
        id = params.len ? bh_xasprintf("%s/%s[%s]", pname,
                                       bh_json_str(b, "id", "?"),
                                       bh_strbuf_str(&params))
                        : bh_xasprintf("%s/%s", pname,
                                       bh_json_str(b, "id", "?"));
        add_point(plan, cfg, s, si, cat, pname, ppath, b, id, typed, plain);
        free(id);
        bh_strbuf_free(&params);
        cJSON_Delete(typed);
        cJSON_Delete(plain);
        for (k = na; k > 0; k--) {
            if (++idx[k - 1] < axes[k - 1].n)
                break;
            idx[k - 1] = 0;
        }
        if (k == 0)
            break;
    }
    free(idx);
}

/* Checks that every configured parameter exists in some selected
 * benchmark, suggesting the closest declared name. */
static int check_param_keys(const bh_suite *s, const cJSON *info,
                            bh_error *e)
{
    for (size_t i = 0; i < s->n_params; i++) {
        const char *known[256];
        size_t nk = 0;
        int found = 0;
        const cJSON *b;
        char msg[512];
        const char *hint;

        cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(info,
                                                               "benchmarks")) {
            const cJSON *pd;

            if (!selected(s, bh_json_str(b, "id", "")))
                continue;
            cJSON_ArrayForEach(pd, cJSON_GetObjectItemCaseSensitive(b,
                                                                   "params")) {
                const char *key = bh_json_str(pd, "key", "");
                if (strcmp(key, s->params[i].key) == 0)
                    found = 1;
                if (nk < 256)
                    known[nk++] = key;
            }
        }
        if (found)
            continue;
        hint = bh_did_you_mean(s->params[i].key, known, nk);
        snprintf(msg, sizeof(msg),
                 "no selected benchmark of plugin '%s' has a parameter "
                 "'%s'%s%s%s",
                 s->plugin, s->params[i].key, hint ? " (did you mean '" : "",
                 hint ? hint : "", hint ? "'?)" : "");
        return err_at(e, &s->params[i].pos, msg);
    }
    return 0;
}

/* Orders two C strings for qsort. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A benchmark id the plugin's description declares more than once (the
 * first in sorted order), or NULL. Borrowed from info. */
static const char *duplicate_bench_id(const cJSON *info)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(info, "benchmarks");
    size_t n = 0, cap = (size_t)cJSON_GetArraySize(list);
    const char **ids = bh_xcalloc(cap ? cap : 1, sizeof(*ids));
    const char *dup = NULL;
    const cJSON *b;

    cJSON_ArrayForEach(b, list) {
        const char *id = bh_json_str(b, "id", NULL);

        if (id && n < cap)
            ids[n++] = id;
    }
    qsort(ids, n, sizeof(*ids), cmp_str);
    for (size_t i = 1; i < n && !dup; i++)
        if (strcmp(ids[i - 1], ids[i]) == 0)
            dup = ids[i];
    free(ids);
    return dup;
}

/* Expands one suite whose plugin described itself. */
static int plan_suite(bh_plan *plan, const bh_config *cfg, size_t si,
                      bh_catalog *cat, const bh_catalog_entry *en,
                      bh_error *e)
{
    const bh_suite *s = &cfg->suites[si];
    const char *pname = bh_json_str(en->info, "name", s->plugin);
    const cJSON *b;
    size_t matched = 0;
    const char *dup = duplicate_bench_id(en->info);

    if (dup) {
        /* the plugin is wrong, not the config: its cases fail, the rest runs */
        char *id = bh_xasprintf("%s/*", pname);
        char *why = bh_xasprintf("%s: describe: the plugin declares the benchmark id '%s' more "
                                 "than once (ids must be unique)", en->path, dup);

        add_unrunnable(plan, s, si, id, BH_ST_FAILED, why);
        free(id);
        free(why);
        return 0;
    }
    if (check_param_keys(s, en->info, e) != 0)
        return -1;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(en->info,
                                                           "benchmarks")) {
        const char *bid = bh_json_str(b, "id", NULL);
        axis *axes;
        size_t na;

        if (!bid || bh_json_str(b, "error", NULL)) {
            char *id = bh_xasprintf("%s/%s", pname, bid ? bid : "?");
            add_unrunnable(plan, s, si, id, BH_ST_FAILED,
                           bh_json_str(b, "error", "malformed descriptor"));
            free(id);
            continue;
        }
        if (!selected(s, bid))
            continue;
        matched++;
        if (build_axes(s, b, &axes, &na, e) != 0)
            return -1;
        expand(plan, cfg, s, si, cat, pname, en->path, b, axes, na);
        free_axes(axes, na);
    }
    for (size_t i = 0; i < s->n_include; i++) {
        int hit = 0;
        char msg[512];

        cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(en->info,
                                                               "benchmarks"))
            if (bh_glob_match(s->include[i], bh_json_str(b, "id", "")))
                hit = 1;
        if (!hit) {
            snprintf(msg, sizeof(msg), "include pattern '%s' matches no "
                     "benchmark of plugin '%s'", s->include[i], pname);
            return err_at(e, &s->pos, msg);
        }
    }
    (void)matched;
    return 0;
}

/* The plugin reference of a suite: a relative path is taken relative to
 * the file that declared it (free() the result). */
static char *plugin_ref(const bh_suite *s)
{
    const char *slash;

    if (!strchr(s->plugin, '/') || s->plugin[0] == '/' || !s->plugin_pos.file)
        return bh_xstrdup(s->plugin);
    slash = strrchr(s->plugin_pos.file, '/');
    if (!slash)
        return bh_xstrdup(s->plugin);
    return bh_xasprintf("%.*s/%s", (int)(slash - s->plugin_pos.file),
                        s->plugin_pos.file, s->plugin);
}

/* Describes every plugin cfg names (its suites' plugins and the backend
 * plugins) at once, several describe workers at a time, before the plan
 * asks for them one by one. The config's timeout governs the describe
 * workers too: the longest of its suites' timeouts. */
static void prefetch_plugins(const bh_config *cfg, bh_catalog *cat)
{
    size_t n = 0, cap = cfg->n_suites + cfg->n_backends;
    char **names = bh_xcalloc(cap ? cap : 1, sizeof(*names));

    if (cfg->n_suites > 0)
        cat->timeout_ns = cfg->suites[0].settings.timeout_ns;
    for (size_t si = 1; si < cfg->n_suites; si++)
        if (cat->timeout_ns && (cfg->suites[si].settings.timeout_ns == 0 ||
                                cfg->suites[si].settings.timeout_ns > cat->timeout_ns))
            cat->timeout_ns = cfg->suites[si].settings.timeout_ns;

    for (size_t si = 0; si < cfg->n_suites; si++)
        names[n++] = plugin_ref(&cfg->suites[si]);
    for (size_t b = 0; b < cfg->n_backends; b++)
        names[n++] = bh_xasprintf("backend-%s", cfg->backends[b].name);
    bh_catalog_prefetch(cat, names, n);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* The error of a suite whose plugin file does not exist: where the config
 * names it, the search path, and the closest plugin name found there. */
static void missing_plugin(bh_catalog *cat, const bh_suite *s,
                           const bh_catalog_entry *en, bh_error *e)
{
    char *hint = bh_catalog_suggest(cat, s->plugin);
    char *msg = bh_xasprintf("%s%s%s%s", en->error, hint ? " (did you mean '" : "",
                             hint ? hint : "", hint ? "'?)" : "");

    err_at(e, &s->plugin_pos, msg);
    free(msg);
    free(hint);
}

/* Makes the case ids unique, in one hash pass: a case from
 * add_unrunnable (no benchmark) whose id an earlier case that will not run
 * has already is dropped (two suites naming the same missing plugin report
 * it once); any other repeat is an error at the suite of the first repeat
 * of the earliest id that has one. 0 or -1 with e set. */
static int check_ids(bh_plan *plan, const bh_config *cfg, bh_error *e)
{
    bh_strset ids = BH_STRSET_INIT;
    size_t n = plan->n ? plan->n : 1, dropped = 0;
    size_t *repeat = bh_xcalloc(n, sizeof(*repeat)); /* first kept repeat + 1 */
    unsigned char *unrunnable = bh_xcalloc(n, 1);    /* of the id's first case */
    unsigned char *keep = bh_xcalloc(n, 1);
    int rc = 0;

    for (size_t i = 0; i < plan->n; i++) {
        const bh_case *c = &plan->cases[i];
        size_t first;

        keep[i] = 1;
        if (bh_strset_add(&ids, c->id, i, &first)) {
            unrunnable[i] = c->pre_status != BH_ST_OK;
            continue;
        }
        if (!c->bench && c->pre_status != BH_ST_OK && unrunnable[first]) {
            keep[i] = 0;
            dropped++;
            continue;
        }
        if (!repeat[first])
            repeat[first] = i + 1;
        unrunnable[first] |= c->pre_status != BH_ST_OK;
    }
    for (size_t i = 0; i < plan->n && rc == 0; i++) {
        if (repeat[i]) {
            const bh_case *c = &plan->cases[repeat[i] - 1];
            char msg[512];

            snprintf(msg, sizeof(msg), "case '%s' is produced twice "
                     "(by this suite and an earlier one)", c->id);
            rc = err_at(e, &cfg->suites[c->suite].pos, msg);
        }
    }
    bh_strset_free(&ids);
    if (rc == 0 && dropped)
        bh_plan_keep(plan, keep);
    free(repeat);
    free(unrunnable);
    free(keep);
    return rc;
}

int bh_plan_build(const bh_config *cfg, bh_catalog *cat, bh_plan *plan,
                  bh_error *e)
{
    memset(plan, 0, sizeof(*plan));
    prefetch_plugins(cfg, cat);
    for (size_t si = 0; si < cfg->n_suites; si++) {
        const bh_suite *s = &cfg->suites[si];
        char *ref = plugin_ref(s);
        const bh_catalog_entry *en = bh_catalog_get(cat, ref);

        free(ref);
        if (!en->path) {
            missing_plugin(cat, s, en, e);
            bh_plan_free(plan);
            return -1;
        }
        if (en->status != BH_ST_OK) {
            char *id = bh_xasprintf("%s/*", s->plugin);
            add_unrunnable(plan, s, si, id, en->status, en->error);
            free(id);
            continue;
        }
        if (plan_suite(plan, cfg, si, cat, en, e) != 0) {
            bh_plan_free(plan);
            return -1;
        }
    }
    if (check_ids(plan, cfg, e) != 0) {
        bh_plan_free(plan);
        return -1;
    }
    return 0;
}

/* Releases everything one case owns. */
static void case_free(bh_case *c)
{
    {

        free(c->id);
        free(c->plugin);
        free(c->plugin_path);
        free(c->bench);
        cJSON_Delete(c->params);
        cJSON_Delete(c->params_plain);
        free(c->backend);
        free(c->backend_path);
        bh_settings_free(&c->settings);
        free(c->pre_reason);
        for (uint32_t r = 0; r < c->n_runs; r++) {
            free(c->runs[r].message);
            free(c->runs[r].warning);
            cJSON_Delete(c->runs[r].samples);
            cJSON_Delete(c->runs[r].result);
            free(c->runs[r].log);
        }
        free(c->runs);
        free(c->message);
    }
}

void bh_plan_free(bh_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++)
        case_free(&plan->cases[i]);
    free(plan->cases);
    memset(plan, 0, sizeof(*plan));
}

int bh_plan_id_matches(const char *pattern, const char *id)
{
    return strpbrk(pattern, "*?[") ? bh_glob_match(pattern, id) : strstr(id, pattern) != NULL;
}

void bh_plan_filter(bh_plan *plan, char *const *patterns, size_t n)
{
    size_t kept = 0;

    if (n == 0)
        return;
    for (size_t i = 0; i < plan->n; i++) {
        int keep = 0;

        for (size_t k = 0; k < n && !keep; k++)
            keep = bh_plan_id_matches(patterns[k], plan->cases[i].id);
        if (keep)
            plan->cases[kept++] = plan->cases[i];
        else
            case_free(&plan->cases[i]);
    }
    plan->n = kept;
}

void bh_plan_keep(bh_plan *plan, const unsigned char *keep)
{
    size_t kept = 0;

    for (size_t i = 0; i < plan->n; i++) {
        if (keep[i])
            plan->cases[kept++] = plan->cases[i];
        else
            case_free(&plan->cases[i]);
    }
    plan->n = kept;
}
