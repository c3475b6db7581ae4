// SPDX-License-Identifier: MIT
/*
 * bench_autotune.c -- autotune: a tunable kernel searched within a time
 * budget in setup (untimed), the timed iterations running the chosen
 * configuration.
 *   kernel gemm: the plugin's own blocked f32 gemm C = A B of size n
 *     (tn_gemm.c), one thread; the space is MC x NC x KC x micro-tile (192
 *     points); the default blocking first, then the others in a seeded
 *     random order until the budget is spent (exhaustive when it allows).
 *     FLOP 2 n^3, bytes 12 n^2 (A, B read, C written once), items n^2.
 *   kernel fftw: FFTW3's planner levels (estimate, the default, then
 *     measure, patient, exhaustive) for a complex double 1-D transform of
 *     N points, in that order, each planner given what is left of the
 *     budget (fftw_set_timelimit); wisdom is forgotten first so that each
 *     level plans afresh. FLOP 5 N log2 N, bytes 32 N, items N.
 * Each point is timed as the best of three runs after a warm one (gemm),
 * or of three batches of at least 1 ms (fftw). Metrics (informational):
 * search.space, search.tried, search.seconds, tuned.seconds,
 * default.seconds, speedup_vs_default (default over tuned) and the chosen
 * parameters (chosen.mc, .nc, .kc, .mr, .nr; or chosen.level 0-3).
 * Verified after every run against a double-precision reference:
 *   gemm: every entry for n <= 128, else 64 seeded entries and two
 *     corners, within n eps sum_k |a_ik b_kj| (gamma_n, Higham Thm 3.5);
 *   fftw: as the fft case, |X - R| / ||x||_2 within 8 eps (log2 N + 1).
 * The largest error over its bound is error.to_bound (limit 1).
 */
#include "autotune.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <time.h>

#define GEMM_FULL_CHECK 128
#define GEMM_SPOTS      64

static const char *const at_kernels[] = {"gemm", "fftw", NULL};

static const bhost_param_desc at_params[] = {
    BH_PARAM_STR("kernel", "gemm (the plugin's blocked sgemm) or fftw (FFTW3 planner levels)",
                 "gemm", at_kernels),
    BH_PARAM_I64("size", "gemm: n of an n x n x n product; fftw: points of a 1-D transform", "256",
                 2, 1 << 24),
    BH_PARAM_F64("budget", "Seconds the search may take (a point started finishes)", "2", 0, 3600),
};

static void BHOST_ABI at_destroy(void *inst);

double at_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Reads the parameters; fftw skipped without FFTW3. [instance] */
static bhost_status BHOST_ABI at_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                        void **out)
{
    at_inst *d = bh_sci_api->alloc(h, sizeof(*d), 0);
    int kernel = 0;
    int64_t n = 0;
    bhost_status st;

    (void)be;
    (void)dev;
    if (d == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "autotune: out of memory");
    memset(d, 0, sizeof(*d));
    d->h = h;
    st = bh_plugin_choice(h, "autotune: ", "kernel", at_kernels, &kernel);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, "autotune: ", "size", 2, 1 << 24, &n);
    if (st == BHOST_OK)
        st = bh_plugin_f64_in(h, "autotune: ", "budget", 0.0, 3600.0, &d->budget);
    d->fftw = kernel == 1;
    d->n = (size_t)n;
    if (st == BHOST_OK && !d->fftw && n > 8192)
        st = bh_plugin_fail(h, BHOST_E_INVALID, "autotune: gemm size %lld: expected at most 8192",
                            (long long)n);
#ifndef BH_SCI_HAVE_FFTW
    if (st == BHOST_OK && d->fftw)
        st = bh_sci_not_built(h, "autotune: kernel fftw", "FFTW3 (Debian's libfftw3-dev)");
#endif
    if (st != BHOST_OK) {
        at_destroy(d);
        return st;
    }
    *out = d;
    return BHOST_OK;
}

void at_report_search(at_inst *d)
{
    const tn_result *r = &d->res;

    bh_plugin_metric_info(d->h, "search.space", "", (double)r->space);
    bh_plugin_metric_info(d->h, "search.tried", "", (double)r->tried);
    bh_plugin_metric_info(d->h, "search.seconds", "s", r->search_s);
    bh_plugin_metric_info(d->h, "tuned.seconds", "s", r->best_s);
    bh_plugin_metric_info(d->h, "default.seconds", "s", r->default_s);
    if (r->best_s > 0.0)
        bh_plugin_metric_info(d->h, "speedup_vs_default", "", r->default_s / r->best_s);
}

/* One gemm of d by cfg. [instance] */
static void gemm_once(at_inst *d, const tn_gemm_cfg *cfg)
{
    tn_sgemm(cfg, &d->ws, d->n, d->n, d->n, d->a, d->n, d->b, d->n, d->c, d->n);
}

/* tn_time_fn for the gemm space: best of three runs after a warm one. */
static double gemm_time(void *ctx, size_t i, double budget_left)
{
    at_inst *d = ctx;
    tn_gemm_cfg cfg = tn_gemm_space_point(i);
    double best = -1.0;

    (void)budget_left;
    gemm_once(d, &cfg);
    for (int r = 0; r < 3; r++) {
        double t0 = at_now(), s;

        gemm_once(d, &cfg);
        s = at_now() - t0;
        best = best < 0.0 || s < best ? s : best;
    }
    return best;
}

/* Buffers, inputs uniform in [-1, 1) from the seed, and the search.
 * [instance] */
static bhost_status gemm_setup(at_inst *d)
{
    size_t nn = d->n * d->n;
    uint64_t s = bh_sci_api->seed(d->h);

    d->a = bh_sci_api->alloc(d->h, nn * sizeof(float), 64);
    d->b = bh_sci_api->alloc(d->h, nn * sizeof(float), 64);
    d->c = bh_sci_api->alloc(d->h, nn * sizeof(float), 64);
    if (!d->a || !d->b || !d->c || tn_gemm_ws_init(&d->ws) != 0)
        return bh_plugin_fail(d->h, BHOST_E_NOMEM, "autotune: out of memory for n = %zu", d->n);
    for (size_t i = 0; i < nn; i++) {
        d->a[i] = (float)(2.0 * bh_rng_unit(bh_rng_next(&s)) - 1.0);
        d->b[i] = (float)(2.0 * bh_rng_unit(bh_rng_next(&s)) - 1.0);
    }
    d->res = tn_search(tn_gemm_space_size(), tn_gemm_default_index(), 1, s, d->budget, gemm_time, d,
                       at_now);
    d->cfg = tn_gemm_space_point(d->res.best);
    at_report_search(d);
    bh_plugin_metric_info(d->h, "chosen.mc", "", d->cfg.mc);
    bh_plugin_metric_info(d->h, "chosen.nc", "", d->cfg.nc);
    bh_plugin_metric_info(d->h, "chosen.kc", "", d->cfg.kc);
    bh_plugin_metric_info(d->h, "chosen.mr", "", d->cfg.mr);
    bh_plugin_metric_info(d->h, "chosen.nr", "", d->cfg.nr);
    return BHOST_OK;
}

/* The search on the first call; C (or the FFT's output) set to NaN so
 * that verify sees a value never written. [instance] */
static bhost_status BHOST_ABI at_setup(void *inst, bhost_stream *strm)
{
    at_inst *d = inst;
    bhost_status st = BHOST_OK;

    (void)strm;
    if (d->fftw) {
#ifdef BH_SCI_HAVE_FFTW
        st = at_fftw_setup(d);
#endif
        return st;
    }
    if (d->a == NULL && (st = gemm_setup(d)) != BHOST_OK)
        return st;
    memset(d->c, 0xFF, d->n * d->n * sizeof(float));
    return BHOST_OK;
}

/* iterations runs of the chosen configuration. [instance] */
static bhost_status BHOST_ABI at_run(void *inst, bhost_stream *strm, uint64_t iterations)
{
    at_inst *d = inst;

    (void)strm;
    for (uint64_t i = 0; i < iterations; i++) {
#ifdef BH_SCI_HAVE_FFTW
        if (d->fftw)
            at_fftw_run(d);
        else
#endif
            gemm_once(d, &d->cfg);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* |C_ij - sum_k a_ik b_kj| over n eps sum_k |a_ik b_kj|, in double. */
static double gemm_entry_error(const at_inst *d, size_t i, size_t j)
{
    double ref = 0.0, mag = 0.0;

    for (size_t k = 0; k < d->n; k++) {
        double p = (double)d->a[i * d->n + k] * (double)d->b[k * d->n + j];

        ref += p;
        mag += fabs(p);
    }
    return fabs((double)d->c[i * d->n + j] - ref) / ((double)d->n * FLT_EPSILON * mag + DBL_MIN);
}

/* Every entry (small n) or seeded entries and corners. [instance] */
static bhost_status gemm_verify(at_inst *d)
{
    size_t n = d->n, count = n <= GEMM_FULL_CHECK ? n * n : GEMM_SPOTS + 2;
    uint64_t s = bh_sci_api->seed(d->h) ^ UINT64_C(0x2545F4914F6CDD1D);
    double worst = 0.0;

    if (d->c == NULL)
        return bh_plugin_fail(d->h, BHOST_E_VERIFY, "autotune: verify before setup");
    for (size_t q = 0; q < count; q++) {
        size_t e = n <= GEMM_FULL_CHECK ? q
                   : q == 0             ? 0
                   : q == 1             ? n * n - 1
                                        : bh_rng_next(&s) % (n * n);
        double r = gemm_entry_error(d, e / n, e % n);

        if (!(r <= 1.0))
            return bh_plugin_fail(d->h, BHOST_E_VERIFY,
                                  "autotune: gemm entry (%zu, %zu) off the reference by %.3g of "
                                  "its bound",
                                  e / n, e % n, r);
        worst = r > worst ? r : worst;
    }
    bh_plugin_metric_error(d->h, "error.to_bound", "", worst, 1.0);
    return BHOST_OK;
}

/* [instance] */
static bhost_status BHOST_ABI at_verify(void *inst)
{
    at_inst *d = inst;

#ifdef BH_SCI_HAVE_FFTW
    if (d->fftw)
        return at_fftw_verify(d);
#endif
    return gemm_verify(d);
}

/* Frees everything; fine half-built. [instance] */
static void BHOST_ABI at_destroy(void *inst)
{
    at_inst *d = inst;

#ifdef BH_SCI_HAVE_FFTW
    at_fftw_free(d);
#endif
    tn_gemm_ws_free(&d->ws);
    bh_sci_api->free(d->h, d->a);
    bh_sci_api->free(d->h, d->b);
    bh_sci_api->free(d->h, d->c);
    bh_sci_api->free(d->h, d);
}

/* gemm 2 n^3; fftw 5 N log2 N. [instance] */
static double BHOST_ABI at_flops(void *inst)
{
    const at_inst *d = inst;
    double n = (double)d->n;

    return d->fftw ? 5.0 * n * log2(n) : 2.0 * n * n * n;
}

/* gemm 12 n^2 (A, B read, C written); fftw 32 N. [instance] */
static double BHOST_ABI at_bytes(void *inst)
{
    const at_inst *d = inst;
    double n = (double)d->n;

    return d->fftw ? 32.0 * n : 12.0 * n * n;
}

/* gemm n^2 outputs; fftw N points. [instance] */
static double BHOST_ABI at_items(void *inst)
{
    const at_inst *d = inst;
    double n = (double)d->n;

    return d->fftw ? n : n * n;
}

/* A read-write stream over the counted bytes, one thread, f32 (gemm) or
 * f64 (fftw). [instance] */
static bhost_status BHOST_ABI at_profile(void *inst, bhost_work_profile *out)
{
    const at_inst *d = inst;

    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE,
                             d->fftw ? BHOST_COMPUTE_F64 : BHOST_COMPUTE_F32, 1, at_bytes(inst));
}

const bhost_bench_desc bh_sci_autotune = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "autotune",
    .summary = "A kernel tuned within a time budget (own blocked sgemm tiles, FFTW planner levels)",
    .params = at_params,
    .param_count = BH_PLUGIN_COUNT(at_params),
    .create = at_create,
    .setup = at_setup,
    .run = at_run,
    .verify = at_verify,
    .destroy = at_destroy,
    .flops_per_iter = at_flops,
    .bytes_per_iter = at_bytes,
    .items_per_iter = at_items,
    .work_profile = at_profile,
};
