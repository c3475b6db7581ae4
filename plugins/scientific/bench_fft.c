// SPDX-License-Identifier: MIT
/*
 * bench_fft.c -- fft: forward FFTs of 1 to 3 dimensions, complex (c2c) or
 * real input (r2c), double or single precision, by FFTW3 (plans made with
 * FFTW_ESTIMATE or FFTW_MEASURE, the planning time a metric) or by the
 * plugin's own plain radix-2 (power-of-two complex sizes).
 *
 * Counting by the standard convention (FFTW's benchFFT): FLOP = 5 N log2 N
 * for a complex transform of N points, half that for a real one, whatever
 * the algorithm does; bytes = the input read and the output written once;
 * items = N. Work profile: a read-write stream of the arithmetic type over
 * input and output, one thread. The radix-2 works in place, so each of its
 * iterations copies the input to the output first (counted as time, which
 * is what a caller who keeps the input pays).
 *
 * Verified after every run against the direct DFT in long double
 * (ft_dft_bin): every bin for N up to 4096, else bin 0 and 8 seeded bins;
 * the largest |X - R| / ||x||_2 must stay within 8 eps (log2 N + 1) for the
 * precision's eps (metric error.to_norm).
 */
#include "scientific.h"

#include "ft_fft.h"

#include <fftw3.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FULL_CHECK_MAX 4096
#define SPOT_BINS      8
#define MAX_POINTS     (UINT64_C(1) << 28)

typedef struct ft_inst {
    bhost_host *h;
    int radix2, r2c, f32, measure;
    int rank;
    size_t dims[FT_MAX_DIMS], total, out_n; /* out_n: complex outputs */
    size_t esz;                             /* bytes of one real */
    void *in, *out;
    double *x64; /* the input in double, for the reference */
    fftw_plan plan;
    fftwf_plan planf;
    ft_radix2 r2;
} ft_inst;

static const char *const impls[] = {"fftw", "radix2", NULL};
static const char *const ft_kinds[] = {"c2c", "r2c", NULL};
static const char *const precisions[] = {"f64", "f32", NULL};
static const char *const planners[] = {"estimate", "measure", NULL};

static const bhost_param_desc fft_params[] = {
    BH_PARAM_STR("impl", "fftw (FFTW3) or radix2 (the plugin's own)", "fftw", impls),
    BH_PARAM_STR("shape", "Transform size, 1 to 3 dimensions: 4096, 512x512, 64x64x64", "4096",
                 NULL),
    BH_PARAM_STR("kind", "c2c (complex input) or r2c (real input)", "c2c", ft_kinds),
    BH_PARAM_STR("precision", "f64 or f32", "f64", precisions),
    BH_PARAM_STR("plan", "FFTW planner: estimate or measure (radix2: estimate)", "estimate",
                 planners),
};

static void BHOST_ABI ft_destroy(void *inst);

/* Parses "A[xB[xC]]" into d: each 2 to 2^28, the product at most 2^28. */
static bhost_status parse_shape(ft_inst *d, const char *s)
{
    const char *p = s;
    char *end;

    d->rank = 0;
    d->total = 1;
    while (*p) {
        unsigned long long v = strtoull(p, &end, 10);

        if (end == p || v < 2 || v > MAX_POINTS || d->rank == FT_MAX_DIMS ||
            (*end != '\0' && *end != 'x'))
            return bh_plugin_fail(d->h, BHOST_E_INVALID,
                                  "fft: shape '%s': expected 1 to 3 sizes of at least 2 joined "
                                  "by x, e.g. 512x512",
                                  s);
        d->dims[d->rank++] = (size_t)v;
        d->total *= (size_t)v;
        if (d->total > MAX_POINTS)
            return bh_plugin_fail(d->h, BHOST_E_INVALID, "fft: shape '%s': more than 2^28 points",
                                  s);
        p = *end ? end + 1 : end;
    }
    if (d->rank == 0)
        return bh_plugin_fail(d->h, BHOST_E_INVALID, "fft: shape is empty");
    return BHOST_OK;
}

/* The cases the radix-2 cannot run, as skips with the reason. */
static bhost_status radix2_fits(ft_inst *d, const char *shape)
{
    for (int a = 0; a < d->rank; a++)
        if (!ft_is_pow2(d->dims[a]))
            return bh_plugin_fail(d->h, BHOST_E_SKIP,
                                  "fft: radix2 needs power-of-two sizes, not %s", shape);
    if (d->r2c)
        return bh_plugin_fail(d->h, BHOST_E_SKIP,
                              "fft: radix2 transforms complex input only (kind: c2c)");
    if (d->measure)
        return bh_plugin_fail(d->h, BHOST_E_SKIP, "fft: radix2 has no planner (plan: estimate)");
    return BHOST_OK;
}

/* Reads the parameters. [instance] */
static bhost_status BHOST_ABI ft_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                        void **out)
{
    ft_inst *d = bh_sci_api->alloc(h, sizeof(*d), 0);
    char shape[64];
    int impl = 0, kind = 0, prec = 0, plan = 0;
    bhost_status st;

    (void)be;
    (void)dev;
    if (d == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "fft: out of memory");
    memset(d, 0, sizeof(*d));
    d->h = h;
    st = bh_plugin_choice(h, "fft: ", "impl", impls, &impl);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, "fft: ", "kind", ft_kinds, &kind);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, "fft: ", "precision", precisions, &prec);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, "fft: ", "plan", planners, &plan);
    if (st == BHOST_OK)
        st = bh_plugin_str(h, "fft: ", "shape", shape, sizeof(shape));
    d->radix2 = impl == 1;
    d->r2c = kind == 1;
    d->f32 = prec == 1;
    d->measure = plan == 1;
    d->esz = d->f32 ? sizeof(float) : sizeof(double);
    if (st == BHOST_OK)
        st = parse_shape(d, shape);
    if (st == BHOST_OK && d->radix2)
        st = radix2_fits(d, shape);
    if (st != BHOST_OK) {
        ft_destroy(d);
        return st;
    }
    d->out_n = d->r2c ? d->total / d->dims[d->rank - 1] * (d->dims[d->rank - 1] / 2 + 1) : d->total;
    *out = d;
    return BHOST_OK;
}

/* Seconds on the monotonic clock. */
static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Makes the FFTW plan over d->in and d->out (which FFTW_MEASURE
 * overwrites) and reports its time as plan_seconds. [instance] */
static bhost_status make_plan(ft_inst *d)
{
    int n[FT_MAX_DIMS];
    unsigned flags = d->measure ? FFTW_MEASURE : FFTW_ESTIMATE;
    double t0 = now_s();

    for (int a = 0; a < d->rank; a++)
        n[a] = (int)d->dims[a];
    if (d->f32)
        d->planf = d->r2c ? fftwf_plan_dft_r2c(d->rank, n, d->in, d->out, flags)
                          : fftwf_plan_dft(d->rank, n, d->in, d->out, FFTW_FORWARD, flags);
    else
        d->plan = d->r2c ? fftw_plan_dft_r2c(d->rank, n, d->in, d->out, flags)
                         : fftw_plan_dft(d->rank, n, d->in, d->out, FFTW_FORWARD, flags);
    if (!d->plan && !d->planf)
        return bh_plugin_fail(d->h, BHOST_E_INTERNAL, "fft: FFTW made no plan");
    bh_plugin_metric_info(d->h, "plan_seconds", "s", now_s() - t0);
    return BHOST_OK;
}

/* Fills the input, uniform in [-1, 1) from the run's seed, in double (for
 * the reference) and in the case's precision. [instance] */
static void fill_input(ft_inst *d)
{
    size_t reals = d->r2c ? d->total : 2 * d->total;
    uint64_t s = bh_sci_api->seed(d->h);

    for (size_t i = 0; i < reals; i++) {
        double v = 2.0 * bh_rng_unit(bh_rng_next(&s)) - 1.0;

        if (d->f32) {
            ((float *)d->in)[i] = (float)v;
            d->x64[i] = (double)(float)v; /* what the transform sees */
        } else {
            ((double *)d->in)[i] = v;
            d->x64[i] = v;
        }
    }
}

/* Buffers, the plan (first call only) and the input; the output filled
 * with NaN so that verify sees a bin never written. [instance] */
static bhost_status BHOST_ABI ft_setup(void *inst, bhost_stream *s)
{
    ft_inst *d = inst;
    size_t reals = d->r2c ? d->total : 2 * d->total;
    bhost_status st;

    (void)s;
    if (d->in == NULL) {
        d->in = bh_sci_api->alloc(d->h, reals * d->esz, 64);
        d->out = bh_sci_api->alloc(d->h, 2 * d->out_n * d->esz, 64);
        d->x64 = bh_sci_api->alloc(d->h, reals * sizeof(double), 64);
        if (!d->in || !d->out || !d->x64)
            return bh_plugin_fail(d->h, BHOST_E_NOMEM, "fft: out of memory for %zu points",
                                  d->total);
        if (d->radix2 && ft_radix2_init(&d->r2, d->rank, d->dims) != 0)
            return bh_plugin_fail(d->h, BHOST_E_NOMEM, "fft: out of memory for the twiddles");
        if (!d->radix2 && (st = make_plan(d)) != BHOST_OK)
            return st;
        fill_input(d);
    }
    memset(d->out, 0xFF, 2 * d->out_n * d->esz);
    return BHOST_OK;
}

/* iterations transforms. [instance] */
static bhost_status BHOST_ABI ft_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    ft_inst *d = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        if (d->radix2) {
            memcpy(d->out, d->in, 2 * d->total * d->esz);
            if (d->f32)
                ft_radix2_f32(&d->r2, d->out);
            else
                ft_radix2_f64(&d->r2, d->out);
        } else if (d->f32) {
            fftwf_execute(d->planf);
        } else {
            fftw_execute(d->plan);
        }
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* The multi-index of output bin b (row-major over the output's dims). */
static void bin_index(const ft_inst *d, size_t b, size_t *k)
{
    for (int a = d->rank - 1; a >= 0; a--) {
        size_t n = a == d->rank - 1 && d->r2c ? d->dims[a] / 2 + 1 : d->dims[a];

        k[a] = b % n;
        b /= n;
    }
}

/* |X[b] - DFT(x)[b]| for output bin b. */
static double bin_error(const ft_inst *d, size_t b)
{
    size_t k[FT_MAX_DIMS];
    long double re, im;
    double xr, xi;

    bin_index(d, b, k);
    ft_dft_bin(d->x64, d->r2c, d->rank, d->dims, k, &re, &im);
    xr = d->f32 ? ((const float *)d->out)[2 * b] : ((const double *)d->out)[2 * b];
    xi = d->f32 ? ((const float *)d->out)[2 * b + 1] : ((const double *)d->out)[2 * b + 1];
    return hypot(xr - (double)re, xi - (double)im);
}

/* Every bin (small transforms) or bin 0 and SPOT_BINS seeded bins against
 * the direct DFT; BHOST_E_VERIFY past the bound. [instance] */
static bhost_status BHOST_ABI ft_verify(void *inst)
{
    ft_inst *d = inst;
    size_t reals = d->r2c ? d->total : 2 * d->total, bins;
    double norm = 0.0, worst = 0.0, eps = d->f32 ? FLT_EPSILON : DBL_EPSILON;
    double limit = 8.0 * eps * (log2((double)d->total) + 1.0);
    uint64_t s = bh_sci_api->seed(d->h) ^ UINT64_C(0x2545F4914F6CDD1D);

    if (d->x64 == NULL)
        return bh_plugin_fail(d->h, BHOST_E_VERIFY, "fft: verify before setup");
    for (size_t i = 0; i < reals; i++)
        norm += d->x64[i] * d->x64[i];
    norm = sqrt(norm);
    bins = d->out_n <= FULL_CHECK_MAX ? d->out_n : SPOT_BINS + 1;
    for (size_t i = 0; i < bins; i++) {
        size_t b = d->out_n <= FULL_CHECK_MAX || i == 0 ? i : bh_rng_next(&s) % d->out_n;
        double e = bin_error(d, b) / norm;

        if (!(e <= limit))
            return bh_plugin_fail(d->h, BHOST_E_VERIFY,
                                  "fft: bin %zu is off the direct DFT by %.3g of ||x||, more "
                                  "than %.3g",
                                  b, e, limit);
        worst = e > worst ? e : worst;
    }
    bh_plugin_metric_error(d->h, "error.to_norm", "", worst, limit);
    return BHOST_OK;
}

/* Frees the plan, the buffers and the instance; fine half-built. */
static void BHOST_ABI ft_destroy(void *inst)
{
    ft_inst *d = inst;

    if (d->plan)
        fftw_destroy_plan(d->plan);
    if (d->planf)
        fftwf_destroy_plan(d->planf);
    ft_radix2_free(&d->r2);
    bh_sci_api->free(d->h, d->in);
    bh_sci_api->free(d->h, d->out);
    bh_sci_api->free(d->h, d->x64);
    bh_sci_api->free(d->h, d);
}

/* 5 N log2 N, halved for real input. [instance] */
static double BHOST_ABI ft_flops(void *inst)
{
    const ft_inst *d = inst;
    double n = (double)d->total;

    return (d->r2c ? 2.5 : 5.0) * n * log2(n);
}

/* The input read and the output written once. [instance] */
static double BHOST_ABI ft_bytes(void *inst)
{
    const ft_inst *d = inst;

    return (double)d->esz * ((d->r2c ? 1.0 : 2.0) * (double)d->total + 2.0 * (double)d->out_n);
}

/* N points. [instance] */
static double BHOST_ABI ft_items(void *inst)
{
    return (double)((const ft_inst *)inst)->total;
}

/* A read-write stream of the precision's type over input and output, one
 * thread. [instance] */
static bhost_status BHOST_ABI ft_profile(void *inst, bhost_work_profile *out)
{
    const ft_inst *d = inst;

    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE,
                             d->f32 ? BHOST_COMPUTE_F32 : BHOST_COMPUTE_F64, 1, ft_bytes(inst));
}

const bhost_bench_desc bh_sci_fft = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "fft",
    .summary = "Forward FFT, 1-3 D, complex or real input, f64 or f32: FFTW3 or a plain radix-2",
    .params = fft_params,
    .param_count = BH_PLUGIN_COUNT(fft_params),
    .create = ft_create,
    .setup = ft_setup,
    .run = ft_run,
    .verify = ft_verify,
    .destroy = ft_destroy,
    .flops_per_iter = ft_flops,
    .bytes_per_iter = ft_bytes,
    .items_per_iter = ft_items,
    .work_profile = ft_profile,
};
