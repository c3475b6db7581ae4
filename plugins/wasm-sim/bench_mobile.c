// SPDX-License-Identifier: MIT
/*
 * bench_mobile.c -- the mobile simulation, on one layer y = x W:
 *   mobile.level    one optimization level (f32, f16 weights, int8) under a
 *                   profile: at most the profile's threads, skipped when
 *                   the level's working set exceeds the profile's, every
 *                   run paced to max(host time / core speed, traffic /
 *                   bandwidth); reports its error against the exact f32
 *                   product;
 *   mobile.adapt    device adaptation: measures the three levels under the
 *                   profile in setup (optionally against the sustained,
 *                   throttled throughput of the thermal model), picks the
 *                   most accurate one within latency_budget_ms, reports the
 *                   choice and runs it;
 *   mobile.thermal  burst throughput of a level under the profile (the
 *                   host-timed runs) and the deterministic thermal model's
 *                   timeline for the profile, level and seed: time to
 *                   throttle, sustained and throttled throughput.
 * Counting: flops 2mnk, bytes the level's traffic (weights once, x, y),
 * items m (rows, i.e. tokens). The int8 level's operations are int8
 * multiply-adds (held against the int8 ceiling); f16 weights are widened
 * to f32 before the multiply. Work profile: a read stream over the
 * weights, the level's working set (mob_layer_bytes), the threads it runs
 * on.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "ws.h"

#include "mob.h"
#include "wk.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U32 (1.0 / 16777216.0)
#define MIB (1024.0 * 1024.0)
#define RATES 64

enum { P_LEVEL, P_ADAPT, P_THERMAL };

static const char *const level_names[] = {"f32", "f16", "int8", NULL};

typedef struct pinst {
    bhost_host *h;
    int kind, level;
    const mob_profile *prof;
    unsigned threads;
    uint32_t m, n, k;
    float *x, *w;      /* inputs, f32 */
    mob_layer layer;   /* the level that runs */
    mob_pool *pool;
    double budget_ms;
    int sustained;
    mob_thermal thermal;
    double rate[RATES]; /* flops/s of the last run() calls */
    uint32_t n_rates;
} pinst;

#define PARAM_PROFILE                                                          \
    BH_PARAM_STR("profile", "Device profile: phone-big, phone-little or "      \
                            "tablet", "phone-big", mob_profile_names)
#define PARAM_SHAPE                                                            \
    BH_PARAM_I64("m", "Rows of x (tokens per call)", "16", 1, 4096),           \
        BH_PARAM_I64("n", "Output features", "1024", 1, 16384),                \
        BH_PARAM_I64("k", "Input features", "1024", 1, 16384)

static const bhost_param_desc level_params[] = {
    PARAM_PROFILE,
    BH_PARAM_STR("level", "Optimization level: f32, f16 (weights) or int8",
                 "f32", level_names),
    PARAM_SHAPE,
};
static const bhost_param_desc adapt_params[] = {
    PARAM_PROFILE,
    BH_PARAM_F64("latency_budget_ms", "Latency budget of one call, ms", "10",
                 0.001, 1e6),
    BH_PARAM_BOOL("sustained", "Plan for the sustained (throttled) "
                               "throughput of the thermal model", "false"),
    PARAM_SHAPE,
};
static const bhost_param_desc thermal_params[] = {
    PARAM_PROFILE,
    BH_PARAM_STR("level", "Optimization level: f32, f16 (weights) or int8",
                 "f32", level_names),
    BH_PARAM_F64("horizon_s", "Simulated seconds of sustained load", "300",
                 1, 86400),
    PARAM_SHAPE,
};

static void BHOST_ABI p_destroy(void *inst);

/* CPUs this process may use: BHOST_CPU_THREADS, else online CPUs. */
static unsigned host_threads(void)
{
    const char *env = getenv("BHOST_CPU_THREADS");
    long n = env ? strtol(env, NULL, 10) : 0;

    if (n <= 0)
        n = 1;
    if (env == NULL) {
        cpu_set_t set;

        if (sched_getaffinity(0, sizeof(set), &set) == 0)
            n = CPU_COUNT(&set);
    }
    return n > 0 ? (unsigned)n : 1u;
}

static bhost_status read_params(pinst *d)
{
    int prof = 0, lvl = 0;
    int64_t b = 0;
    bhost_status st = bh_plugin_choice(d->h, WS_PREFIX, "profile", mob_profile_names, &prof);

    if (st == BHOST_OK && d->kind != P_ADAPT)
        st = bh_plugin_choice(d->h, WS_PREFIX, "level", level_names, &lvl);
    if (st == BHOST_OK)
        st = ws_mnk(d->h, 16384, &d->m, &d->n, &d->k);
    if (st == BHOST_OK && d->kind == P_ADAPT)
        st = bh_plugin_f64_in(d->h, WS_PREFIX, "latency_budget_ms", 0.001, 1e6, &d->budget_ms);
    if (st == BHOST_OK && d->kind == P_ADAPT)
        st = bh_plugin_i64(d->h, WS_PREFIX, "sustained", 0, 1, &b);
    if (st == BHOST_OK && d->kind == P_THERMAL)
        st = bh_plugin_f64_in(d->h, WS_PREFIX, "horizon_s", 1, 86400, &d->thermal.horizon_s);
    if (st != BHOST_OK)
        return st;
    d->prof = mob_profile_find(mob_profile_names[prof]);
    d->level = lvl;
    d->sustained = (int)b;
    return BHOST_OK;
}

static bhost_status p_create(bhost_host *h, const bhost_backend *be,
                             bhost_dev *dev, int kind, void **out)
{
    pinst *d = ws_zalloc(h, sizeof(*d));
    unsigned avail = host_threads();
    uint64_t ws;
    bhost_status st;

    (void)be;
    (void)dev;
    if (d == NULL)
        return BHOST_E_NOMEM;
    d->h = h;
    d->kind = kind;
    st = read_params(d);
    if (st == BHOST_OK && kind != P_ADAPT) {
        ws = mob_layer_bytes(d->level, d->m, d->n, d->k);
        if (ws > d->prof->working_set)
            st = ws_fail(h, BHOST_E_SKIP,
                         "%s: working set %.1f MiB exceeds the profile's "
                         "%.0f MiB", mob_level_name(d->level), ws / MIB,
                         d->prof->working_set / MIB);
    }
    if (st != BHOST_OK) {
        p_destroy(d);
        return st;
    }
    d->threads = d->prof->threads < avail ? d->prof->threads : avail;
    bh_plugin_metric_info(h, "threads", "", d->threads);
    *out = d;
    return BHOST_OK;
}

/* One run of the layer paced to the profile; the paced ns in *ns. */
static void paced_runs(pinst *d, mob_layer *l, uint64_t iters, uint64_t *ns)
{
    double traffic = mob_layer_traffic(l->level, l->m, l->n, l->k);
    uint64_t t0 = mob_now_ns(), real;

    for (uint64_t i = 0; i < iters; i++) {
        mob_layer_run(l, d->pool);
        bhost_clobber_memory();
    }
    real = mob_now_ns() - t0;
    mob_sleep_until(t0 + (uint64_t)mob_paced_ns(d->prof, (double)real,
                                                (double)iters * traffic));
    *ns = mob_now_ns() - t0;
}

/* Median paced latency of one call at level, ms (5 calls after one). */
static bhost_status measure_level(pinst *d, int level, double *ms)
{
    mob_layer l;
    double t[5];
    uint64_t ns;

    if (mob_layer_init(&l, level, d->m, d->n, d->k, d->x, d->w) != 0)
        return ws_fail(d->h, BHOST_E_NOMEM, "adapt: out of memory");
    paced_runs(d, &l, 1, &ns);
    for (int i = 0; i < 5; i++) {
        paced_runs(d, &l, 1, &ns);
        t[i] = (double)ns / 1e6;
    }
    mob_layer_free(&l);
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double s = t[j];

            t[j] = t[j - 1];
            t[j - 1] = s;
        }
    *ms = t[2];
    return BHOST_OK;
}

/* Sustained share of burst throughput for level under the profile. */
static double sustained_share(pinst *d, int level)
{
    mob_thermal t;

    memset(&t, 0, sizeof(t));
    t.energy = mob_level_energy(level);
    t.horizon_s = 300.0;
    t.seed = ws_api->seed(d->h);
    return mob_thermal_run(d->prof, &t) == 0 ? t.sustained : 1.0;
}

/* Measures every level that fits and picks one (mobile.adapt). */
static bhost_status adapt(pinst *d)
{
    double lat[MOB_LEVELS] = {0, 0, 0};
    int fits[MOB_LEVELS], met = 0, pick;
    char name[48];
    bhost_status st = BHOST_OK;

    for (int i = 0; i < MOB_LEVELS && st == BHOST_OK; i++) {
        fits[i] = mob_layer_bytes(i, d->m, d->n, d->k) <=
                  d->prof->working_set;
        if (!fits[i])
            continue;
        st = measure_level(d, i, &lat[i]);
        if (d->sustained)
            lat[i] /= sustained_share(d, i);
        snprintf(name, sizeof(name), "adapt.latency_ms.%s",
                 mob_level_name(i));
        bh_plugin_metric(d->h, name, "ms", BHOST_LOWER_IS_BETTER, lat[i]);
    }
    if (st != BHOST_OK)
        return st;
    pick = mob_adapt_pick(lat, fits, d->budget_ms, &met);
    if (pick < 0)
        return ws_fail(d->h, BHOST_E_SKIP,
                       "adapt: no level fits the profile's working set");
    d->level = pick;
    bh_plugin_metric_info(d->h, "adapt.level", "", pick);
    bh_plugin_metric_info(d->h, "adapt.budget_met", "", met);
    ws_log(d->h,
           "adapt (%s, budget %.3g ms%s): chose %s at %.3g ms%s; f32 %.3g "
           "ms, f16 %.3g ms, int8 %.3g ms (0 = does not fit)",
           d->prof->name, d->budget_ms,
           d->sustained ? ", sustained throughput" : "", mob_level_name(pick),
           lat[pick], met ? "" : " (no level meets the budget: fastest)",
           lat[0], lat[1], lat[2]);
    return BHOST_OK;
}

/* Logs the first governor changes of the timeline. */
static void log_timeline(pinst *d)
{
    char buf[700];
    size_t len = 0;
    uint32_t shown = d->thermal.n_events < 12 ? d->thermal.n_events : 12;

    for (uint32_t i = 0; i < shown && len < sizeof(buf) - 40; i++) {
        const mob_event *e = &d->thermal.events[i];

        len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %.2fs:%.2f",
                                e->step * 0.01, mob_duty(e->to));
    }
    buf[len] = 0;
    ws_log(d->h, "thermal %s %s seed %llu: %u governor changes, hash %llu;%s%s",
           d->prof->name, mob_level_name(d->level),
           (unsigned long long)d->thermal.seed, d->thermal.n_events,
           (unsigned long long)d->thermal.hash, shown ? " first (t:duty)" : "",
           buf);
}

static bhost_status BHOST_ABI p_setup(void *inst, bhost_stream *s)
{
    pinst *d = inst;
    size_t mk = (size_t)d->m * d->k, kn = (size_t)d->k * d->n;
    bhost_status st = BHOST_OK;

    (void)s;
    if (d->x != NULL)
        return BHOST_OK;
    d->x = ws_alloc(d->h, mk * sizeof(float));
    d->w = ws_alloc(d->h, kn * sizeof(float));
    if (d->x == NULL || d->w == NULL)
        return BHOST_E_NOMEM;
    ws_random_f32(d->h, d->x, mk, -1.0f, 1.0f, 1);
    ws_random_f32(d->h, d->w, kn, -0.05f, 0.05f, 2);
    if (d->threads > 1 && (d->pool = mob_pool_new(d->threads)) == NULL)
        return ws_fail(d->h, BHOST_E_NOMEM, "cannot start %u threads",
                       d->threads);
    if (d->kind == P_ADAPT)
        st = adapt(d);
    if (st == BHOST_OK && d->kind == P_THERMAL) {
        d->thermal.energy = mob_level_energy(d->level);
        d->thermal.seed = ws_api->seed(d->h);
        if (mob_thermal_run(d->prof, &d->thermal) != 0)
            return ws_fail(d->h, BHOST_E_INVALID, "thermal: bad horizon");
        log_timeline(d);
    }
    if (st == BHOST_OK &&
        mob_layer_init(&d->layer, d->level, d->m, d->n, d->k, d->x, d->w) != 0)
        st = ws_fail(d->h, BHOST_E_NOMEM, "layer: out of memory");
    return st;
}

static bhost_status BHOST_ABI p_run(void *inst, bhost_stream *s,
                                    uint64_t iterations)
{
    pinst *d = inst;
    uint64_t ns = 0;

    (void)s;
    paced_runs(d, &d->layer, iterations, &ns);
    if (ns > 0)
        d->rate[d->n_rates++ % RATES] = 2.0 * d->m * d->n * (double)d->k *
                                        (double)iterations / (double)ns * 1e9;
    return BHOST_OK;
}

/* Error of the layer's y against the exact product and its level's bound:
 * f32 rounding; f16 adds 2^-11 relative per weight (2^-25 absolute for
 * subnormal halves); int8 adds half a quantization step of x and of W per
 * term. */
static bhost_status check_layer(pinst *d)
{
    const mob_layer *l = &d->layer;
    double max_err = 0, worst = 0, sq = 0, ref_sq = 0;
    size_t at = 0;

    for (size_t i = 0; i < l->m; i++)
        for (size_t j = 0; j < l->n; j++) {
            double ref = 0, mag = 0, q = 0, xabs = 0, tol, e;

            for (size_t p = 0; p < l->k; p++) {
                double xv = d->x[i * l->k + p], wv = d->w[p * l->n + j];

                ref += xv * wv;
                mag += fabs(xv * wv);
                xabs += fabs(xv);
                if (l->level == MOB_INT8)
                    q += 0.51 * (fabs(xv) * l->ws[j] + fabs(wv) * l->xs[i]) +
                         0.26 * l->xs[i] * l->ws[j];
            }
            tol = 4 * (l->k + 2) * U32 * mag + q +
                  (l->level == MOB_F16 ? 0x1p-11 * mag + 0x1p-25 * xabs
                                       : 0.0) + 1e-30;
            e = fabs(l->y[i * l->n + j] - ref);
            sq += e * e;
            ref_sq += ref * ref;
            if (e > max_err)
                max_err = e;
            if (e / tol > worst || e != e) {
                worst = e / tol;
                at = i * l->n + j;
            }
        }
    bh_plugin_metric_info(d->h, "level.rel_rms_err", "", ref_sq > 0 ? sqrt(sq / ref_sq) : 0.0);
    bh_plugin_metric_info(d->h, "level.weights_bytes", "B",
                          (double)l->k * l->n *
                              (l->level == MOB_F32   ? 4
                               : l->level == MOB_F16 ? 2
                                                     : 1));
    bh_plugin_metric_info(d->h, "level.working_set_bytes", "B",
                          (double)mob_layer_bytes(l->level, l->m, l->n, l->k));
    return ws_report_check(d->h, mob_level_name(l->level), max_err, worst, at,
                           -1);
}

/* Thermal metrics: the timeline summary and throughputs from the median
 * burst rate of the runs. */
static void report_thermal(pinst *d)
{
    const mob_thermal *t = &d->thermal;
    uint32_t n = d->n_rates < RATES ? d->n_rates : RATES;
    double burst = 0;

    if (n > 0) {
        double r[RATES];

        memcpy(r, d->rate, n * sizeof(double));
        qsort(r, n, sizeof(double), bh_cmp_double);
        burst = r[n / 2];
    }
    bh_plugin_metric_info(d->h, "thermal.throttled", "", t->time_to_throttle_s >= 0 ? 1.0 : 0.0);
    if (t->time_to_throttle_s >= 0)
        bh_plugin_metric_info(d->h, "thermal.time_to_throttle_s", "s", t->time_to_throttle_s);
    bh_plugin_metric_info(d->h, "thermal.sustained_fraction", "", t->sustained);
    bh_plugin_metric_info(d->h, "thermal.throttled_fraction", "", t->throttled);
    bh_plugin_metric_info(d->h, "thermal.min_duty", "", t->min_duty);
    bh_plugin_metric_info(d->h, "thermal.events", "", t->n_events);
    bh_plugin_metric_info(d->h, "thermal.timeline_hash", "", (double)t->hash);
    bh_plugin_metric_info(d->h, "thermal.peak_heat_j", "J", t->peak_heat_j);
    bh_plugin_metric(d->h, "thermal.burst_gflops", "GFLOP/s", BHOST_HIGHER_IS_BETTER, burst / 1e9);
    bh_plugin_metric(d->h, "thermal.sustained_gflops", "GFLOP/s", BHOST_HIGHER_IS_BETTER,
                     burst * t->sustained / 1e9);
    bh_plugin_metric(d->h, "thermal.throttled_gflops", "GFLOP/s", BHOST_HIGHER_IS_BETTER,
                     burst * t->throttled / 1e9);
}

static bhost_status BHOST_ABI p_verify(void *inst)
{
    pinst *d = inst;
    bhost_status st = check_layer(d);

    if (st == BHOST_OK && d->kind == P_THERMAL)
        report_thermal(d);
    return st;
}

static void BHOST_ABI p_destroy(void *inst)
{
    pinst *d = inst;

    if (d == NULL)
        return;
    mob_pool_free(d->pool);
    mob_layer_free(&d->layer);
    ws_free(d->h, d->x);
    ws_free(d->h, d->w);
    ws_free(d->h, d);
}

static double BHOST_ABI p_flops(void *inst)
{
    pinst *d = inst;

    return 2.0 * d->m * d->n * (double)d->k;
}

static double BHOST_ABI p_bytes(void *inst)
{
    pinst *d = inst;

    return mob_layer_traffic(d->level, d->m, d->n, d->k);
}

static double BHOST_ABI p_items(void *inst)
{
    return ((pinst *)inst)->m;
}

/* See the counting note at the top. [instance] */
static bhost_status BHOST_ABI p_profile(void *inst, bhost_work_profile *out)
{
    const pinst *d = inst;

    return bh_plugin_profile(out, BHOST_ACCESS_READ,
                             d->level == MOB_INT8 ? BHOST_COMPUTE_INT8 : BHOST_COMPUTE_F32,
                             d->threads, (double)mob_layer_bytes(d->level, d->m, d->n, d->k));
}

WS_CREATE(create_level, p_create, P_LEVEL)
WS_CREATE(create_adapt, p_create, P_ADAPT)
WS_CREATE(create_thermal, p_create, P_THERMAL)

WS_DESC(level_desc, "mobile.level", 0u,
        "One layer at an optimization level (f32, f16, int8) under a device "
        "profile", level_params, create_level, p);
WS_DESC(adapt_desc, "mobile.adapt", 0u,
        "Picks the level for a latency budget under a profile and runs it",
        adapt_params, create_adapt, p);
WS_DESC(thermal_desc, "mobile.thermal", 0u,
        "Burst vs sustained throughput under the profile's deterministic "
        "thermal model", thermal_params, create_thermal, p);

const bhost_bench_desc *const ws_mobile_benches[] = {
    &level_desc, &adapt_desc, &thermal_desc, NULL,
};
