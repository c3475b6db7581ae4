// SPDX-License-Identifier: MIT
/* The ceilings of a run and the memory level of a working set (see
 * roof_ceilings.h). */
#include "roof_ceilings.h"

#include "bh_mem.h"
#include "result_read.h"
#include "roofline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number member, NAN when absent. */
static double num(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

    return cJSON_IsNumber(it) ? it->valuedouble : NAN;
}

/* A string member, or dflt. */
static const char *str(const cJSON *o, const char *key, const char *dflt)
{
    const cJSON *it = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

    return cJSON_IsString(it) ? it->valuestring : dflt;
}

/* The data and unified caches of the system object. */
static void load_caches(const cJSON *system, bh_roof_set *s)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(system, "caches")) {
        const char *type = str(c, "type", "");
        double level = num(c, "level"), size = num(c, "size_bytes"), count = num(c, "count");

        if (s->n_caches >= sizeof(s->caches) / sizeof(*s->caches) ||
            strcmp(type, "instruction") == 0 || !(level >= 1 && level <= 3) || !(size > 0))
            continue;
        s->caches[s->n_caches++] = (bh_roof_cache){(int)level, size, count >= 1 ? count : 1};
    }
}

/* See roof_ceilings.h. */
const char *bh_roof_level_name(int level)
{
    static const char *const names[] = {"?", "L1", "L2", "L3", "DRAM"};

    return level >= 1 && level <= BH_LEVEL_DRAM ? names[level] : "?";
}

/* See roof_ceilings.h. */
int bh_roof_level(const bh_roof_set *s, double working_set, int threads)
{
    int best = BH_LEVEL_DRAM;

    if (!(working_set > 0))
        return BH_LEVEL_DRAM;
    for (size_t i = 0; i < s->n_caches; i++) {
        const bh_roof_cache *c = &s->caches[i];
        double capacity = c->size_bytes * fmin(threads > 1 ? threads : 1, c->count);

        if (working_set <= capacity && c->level < best)
            best = c->level;
    }
    return best;
}

/* See roof_ceilings.h. */
bh_roof_profile bh_roof_profile_of(const cJSON *c)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(c, "work_profile");
    bh_roof_profile out = {0, 0, "unknown", "none", 0};
    double t;

    if (!cJSON_IsObject(p))
        return out;
    out.known = 1;
    out.working_set = fmax(num(p, "working_set_bytes"), 0);
    if (isnan(out.working_set))
        out.working_set = 0;
    out.access = str(p, "access", "unknown");
    out.compute = str(p, "compute", "none");
    t = num(p, "threads");
    out.threads = t >= 1 && t < 1e6 ? (int)t : 0;
    return out;
}

/* See roof_ceilings.h. */
void bh_roof_case_at(const cJSON *c, char *at, size_t cap)
{
    const char *backend = str(c, "backend", NULL);
    double dev = num(c, "device");

    if (backend && dev >= 0)
        snprintf(at, cap, "@%s:%.0f", backend, dev);
    else
        at[0] = '\0';
}

/* See roof_ceilings.h. */
const char *bh_roof_hierarchy_at(const char *at)
{
    return strncmp(at, "@cpu:", 5) == 0 ? "" : at;
}

/* Adds ceiling k to s, or keeps the better of it and the one of the same
 * key already there. */
static void add(bh_roof_set *s, const bh_roof_ceiling *k)
{
    for (size_t i = 0; i < s->n; i++) {
        bh_roof_ceiling *o = &s->v[i];

        if (o->kind != k->kind || o->threads != k->threads || strcmp(o->at, k->at) != 0 ||
            (k->kind == BH_CEIL_BANDWIDTH &&
             (o->level != k->level || strcmp(o->access, k->access) != 0)) ||
            (k->kind == BH_CEIL_COMPUTE && strcmp(o->compute, k->compute) != 0))
            continue;
        if (k->kind == BH_CEIL_LATENCY ? k->value < o->value : k->value > o->value)
            *o = *k;
        return;
    }
    s->v = bh_xreallocarray(s->v, s->n + 1, sizeof(*s->v));
    s->v[s->n++] = *k;
}

/* The name of ceiling k ("L2 read x2", "f32 x1", "latency @cuda:0"). */
static void name_of(bh_roof_ceiling *k)
{
    char threads[16] = "";

    if (k->threads > 0)
        snprintf(threads, sizeof(threads), " x%d", k->threads);
    if (k->kind == BH_CEIL_BANDWIDTH && *k->at)
        snprintf(k->name, sizeof(k->name), "memory %s%s %s", k->access, threads, k->at);
    else if (k->kind == BH_CEIL_BANDWIDTH)
        snprintf(k->name, sizeof(k->name), "%s %s%s", bh_roof_level_name(k->level), k->access,
                 threads);
    else if (k->kind == BH_CEIL_COMPUTE)
        snprintf(k->name, sizeof(k->name), "%s%s%s%s", k->compute, threads, *k->at ? " " : "",
                 k->at);
    else
        snprintf(k->name, sizeof(k->name), "call latency%s%s", *k->at ? " " : "", k->at);
}

/* The summary median of case c over its fastest ok run's median: the
 * factor that turns its throughput into its best run's (1 when unknown). */
static double best_run_factor(const cJSON *c)
{
    double median = num(cJSON_GetObjectItemCaseSensitive(c, "summary"), "median");
    double *m = NULL, fastest = NAN;
    size_t n = 0;

    bh_result_run_medians(c, &m, &n);
    for (size_t i = 0; i < n; i++)
        if (!(m[i] >= fastest))
            fastest = m[i];
    free(m);
    return median > 0 && fastest > 0 ? median / fastest : 1.0;
}

/* The ceilings case c measures: from its throughput when it is flagged a
 * ceiling, else from the legacy roof metrics. */
static void case_ceilings(const cJSON *c, bh_roof_set *s)
{
    const cJSON *tp = cJSON_GetObjectItemCaseSensitive(c, "throughput");
    const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(c, "metrics");
    bh_roof_profile p = bh_roof_profile_of(c);
    bh_roof_ceiling k;
    double bw = num(tp, "bytes_per_s"), fl = num(tp, "flop_per_s");

    memset(&k, 0, sizeof(k));
    bh_roof_case_at(c, k.at, sizeof(k.at));
    k.case_id = str(c, "id", "");
    k.threads = p.threads;
    k.access = strcmp(p.access, "unknown") == 0 ? "read-write" : p.access;
    k.compute = strcmp(p.compute, "none") == 0 ? "f32" : p.compute;
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "ceiling"))) {
        /* a ceiling is the best the machine did: its fastest run */
        double best = best_run_factor(c);

        bw *= best;
        fl *= best;
        if ((fl > 0 || bw > 0) && !*bh_roof_hierarchy_at(k.at))
            k.at[0] = '\0'; /* the CPU backend's device is the host */
        if (fl > 0 && strcmp(p.compute, "none") != 0) {
            /* a peak of its arithmetic (a gemm's bytes are not a stream) */
            k.kind = BH_CEIL_COMPUTE;
            k.value = fl;
        } else if (bw > 0) {
            k.kind = BH_CEIL_BANDWIDTH;
            /* a device's memory is one level, whatever the host's caches */
            k.level = *k.at ? BH_LEVEL_DRAM : bh_roof_level(s, p.working_set, p.threads);
            k.value = bw;
        } else if (fl > 0) {
            k.kind = BH_CEIL_COMPUTE; /* no profile: f32, as before */
            k.value = fl;
        } else {
            k.kind = BH_CEIL_LATENCY;
            k.value = num(cJSON_GetObjectItemCaseSensitive(c, "summary"), "median") / best;
            if (!(k.value > 0))
                return;
        }
        name_of(&k);
        add(s, &k);
        return;
    }
    /* legacy: the DRAM triad and sgemm roofs reported as metrics */
    bw = bh_result_metric_median(cJSON_GetObjectItemCaseSensitive(metrics, BH_ROOF_BANDWIDTH));
    fl = bh_result_metric_median(cJSON_GetObjectItemCaseSensitive(metrics, BH_ROOF_FLOPS));
    if (bw > 0) {
        k.kind = BH_CEIL_BANDWIDTH;
        k.level = BH_LEVEL_DRAM;
        k.access = "read-write";
        k.value = bw;
        name_of(&k);
        add(s, &k);
    }
    if (fl > 0) {
        k.kind = BH_CEIL_COMPUTE;
        k.compute = "f32";
        k.value = fl;
        name_of(&k);
        add(s, &k);
    }
}

/* See roof_ceilings.h. */
void bh_roof_set_load(const cJSON *doc, bh_roof_set *s)
{
    const cJSON *c;

    memset(s, 0, sizeof(*s));
    load_caches(cJSON_GetObjectItemCaseSensitive(doc, "system"), s);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        if (strcmp(str(c, "status", ""), "ok") == 0)
            case_ceilings(c, s);
    }
}

/* See roof_ceilings.h. */
void bh_roof_set_free(bh_roof_set *s)
{
    free(s->v);
    memset(s, 0, sizeof(*s));
}
