// SPDX-License-Identifier: MIT
/*
 * bench_pool.c -- pool: max, average and adaptive average pooling, f32,
 * NCHW or NHWC, by the plugin's loops or oneDNN (max and average; an
 * adaptive case runs on oneDNN as an average with window = stride =
 * size / out when out divides the size, else it is skipped: oneDNN 2.6
 * has no adaptive pooling). Defaults: ResNet-50's 3x3/2 max pooling of
 * 64 x 112 x 112.
 *
 * Counting: FLOP = one compare or add per input of every window (windows
 * clipped at the edges, counted exactly), plus a division per output for
 * the averages; bytes = the input read and the output written once;
 * items = images. Work profile: read-write f32 on the case's threads (a
 * pooling layer is a stream). Threads: the plugin's loops split output
 * planes (NCHW) or rows (NHWC) over its pool; oneDNN's OpenMP runtime
 * runs on `threads`.
 *
 * Verified against the double-precision window of each output
 * (cv_ref_pool): max exactly, the average within 2 (L + 1) u sum |x| / L
 * for L inputs (all outputs up to LY_FULL_CHECK, else 4096 seeded ones).
 */
#include "layer_adapt.h"

#include <string.h>

#define MAX_ELEMS (UINT64_C(1) << 28)

typedef struct pool_inst {
    ly_base b; /* first */
    int onednn;
    cv_pool_kind kind;
    float *in, *out;
#ifdef BH_SCI_CONV_DNNL
    cv_dnnl *dnnl;
#endif
} pool_inst;

static const char *const impls[] = {"own", "onednn", NULL};
static const char *const kinds[] = {"max", "avg", "adaptive", NULL};

static const bhost_param_desc pool_params[] = {
    BH_PARAM_STR("impl", "own (the plugin's loops) or onednn", "own", impls),
    BH_PARAM_STR("kind", "max, avg (padding excluded) or adaptive (average to out x out)", "max",
                 kinds),
    BH_PARAM_I64("channels", "Channels (C)", "64", 1, 65536),
    BH_PARAM_I64("size", "Input height and width", "112", 1, 65536),
    BH_PARAM_I64("batch", "Images (N)", "1", 1, 4096),
    BH_PARAM_I64("window", "Window height and width (max, avg)", "3", 1, 64),
    BH_PARAM_I64("stride", "Stride (max, avg)", "2", 1, 64),
    BH_PARAM_I64("pad", "Padding on each side, less than window (max, avg)", "1", 0, 63),
    BH_PARAM_I64("out", "Output height and width (adaptive)", "1", 1, 65536),
    LY_PARAMS,
};

static void BHOST_ABI pool_destroy(void *inst);

/* The pooling's shape (k = groups = c) from the parameters. */
static bhost_status read_shape(pool_inst *d)
{
    const char *const keys[] = {"channels", "size", "batch", "window", "stride", "pad", "out"};
    const int64_t lo[] = {1, 1, 1, 1, 1, 0, 1}, hi[] = {65536, 65536, 4096, 64, 64, 63, 65536};
    int64_t v[7];
    bhost_status st = BHOST_OK;

    for (int i = 0; i < 7 && st == BHOST_OK; i++)
        st = bh_plugin_i64(d->b.h, "pool: ", keys[i], lo[i], hi[i], &v[i]);
    if (st != BHOST_OK)
        return st;
    if (d->kind == CV_POOL_ADAPTIVE)
        v[3] = 1, v[4] = 1, v[5] = 0;
    d->b.sh = (cv_shape){(int)v[2], (int)v[0], (int)v[1], (int)v[1], (int)v[0], (int)v[3],
                         (int)v[3], (int)v[4], (int)v[5], (int)v[0], 0,         0};
    if (cv_shape_finish(&d->b.sh) != 0 || (d->kind == CV_POOL_ADAPTIVE && v[6] > v[1]) ||
        cv_in_elems(&d->b.sh) > MAX_ELEMS)
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID,
                              "pool: no valid pooling of size %d with window %d, stride %d, pad "
                              "%d, out %d (pad < window <= size + 2 pad, out <= size, at most "
                              "2^28 inputs)",
                              (int)v[1], (int)v[3], (int)v[4], (int)v[5], (int)v[6]);
    if (d->kind == CV_POOL_ADAPTIVE)
        d->b.sh.p = d->b.sh.q = (int)v[6];
    return BHOST_OK;
}

/* oneDNN's equivalent of an adaptive case: an average with window =
 * stride = size / out, or a skip. [instance] */
static bhost_status adaptive_as_avg(pool_inst *d, cv_shape *sh)
{
    *sh = d->b.sh;
    if (d->kind != CV_POOL_ADAPTIVE)
        return BHOST_OK;
    if (d->b.sh.h % d->b.sh.p != 0)
        return bh_plugin_fail(d->b.h, BHOST_E_SKIP,
                              "pool: oneDNN 2.6 has no adaptive pooling, and out %d does not "
                              "divide size %d (an average with a fixed window)",
                              d->b.sh.p, d->b.sh.h);
    sh->r = sh->s = sh->stride = d->b.sh.h / d->b.sh.p;
    return BHOST_OK;
}

/* The implementation (skipped with the package name when not built),
 * kind and shape. */
static bhost_status read_pool(void *inst)
{
    pool_inst *d = inst;
    int kind = 0;
    cv_shape eq;
    bhost_status st = bh_plugin_choice(d->b.h, "pool: ", "impl", impls, &d->onednn);

    if (st == BHOST_OK)
        st = bh_plugin_choice(d->b.h, "pool: ", "kind", kinds, &kind);
    d->kind = kind == 0 ? CV_POOL_MAX : kind == 1 ? CV_POOL_AVG : CV_POOL_ADAPTIVE;
    d->b.own_threads = !d->onednn;
#ifndef BH_SCI_CONV_DNNL
    if (st == BHOST_OK && d->onednn)
        st = bh_plugin_fail(d->b.h, BHOST_E_SKIP,
                            "pool: onednn needs oneDNN (Debian's libdnnl-dev) at build time");
#endif
    if (st == BHOST_OK)
        st = read_shape(d);
    if (st == BHOST_OK && d->onednn)
        st = adaptive_as_avg(d, &eq);
    return st;
}

/* Reads the parameters. [instance] */
static bhost_status BHOST_ABI pool_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **out)
{
    (void)be;
    (void)dev;
    return ly_create(h, sizeof(pool_inst), "pool: ", read_pool, pool_destroy, out);
}

/* Buffers and input (first call); the output filled with NaN. [instance] */
static bhost_status BHOST_ABI pool_setup(void *inst, bhost_stream *s)
{
    pool_inst *d = inst;
    size_t out_bytes = cv_out_elems(&d->b.sh) * sizeof(float);

    (void)s;
    if (d->in == NULL) {
        d->in = ly_alloc(&d->b, cv_in_elems(&d->b.sh));
        d->out = ly_alloc(&d->b, cv_out_elems(&d->b.sh));
        if (!d->in || !d->out)
            return bh_plugin_fail(d->b.h, BHOST_E_NOMEM, "pool: out of memory");
        ly_fill(d->b.h, d->in, cv_in_elems(&d->b.sh), 3, -1.0f, 1.0f);
#ifdef BH_SCI_CONV_DNNL
        if (d->onednn) {
            cv_dnnl_bufs bufs = {.in = d->in, .out = d->out};
            cv_shape eq;
            bhost_status st = adaptive_as_avg(d, &eq);

            if (st == BHOST_OK)
                st = ly_dnnl_create(&d->b, &d->dnnl,
                                    d->kind == CV_POOL_MAX ? CV_DNNL_POOL_MAX : CV_DNNL_POOL_AVG,
                                    &eq, 0.0f, &bufs);
            if (st != BHOST_OK)
                return st;
        }
#endif
    }
    memset(d->out, 0xFF, out_bytes);
    return BHOST_OK;
}

/* A range of the plugin's pooling units. */
static void pool_range(void *arg, size_t u0, size_t u1)
{
    const pool_inst *d = arg;

    cv_pool(&d->b.sh, d->b.layout, d->kind, d->in, d->out, u0, u1);
}

/* One pooling by the case's implementation. [instance] */
static bhost_status pool_once(void *inst)
{
    pool_inst *d = inst;

#ifdef BH_SCI_CONV_DNNL
    if (d->onednn)
        return ly_dnnl_run(&d->b, d->dnnl);
#endif
    ly_parallel(&d->b, cv_pool_units(&d->b.sh, d->b.layout), pool_range, d);
    return BHOST_OK;
}

/* iterations poolings. [instance] */
static bhost_status BHOST_ABI pool_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    (void)s;
    return ly_run(inst, iterations, pool_once);
}

/* The double-precision reference of output i. */
static double pool_ref(void *arg, size_t i, double *bound)
{
    const pool_inst *d = arg;
    int n, c, p, q;

    ly_unflat(d->b.layout, d->b.sh.c, d->b.sh.p, d->b.sh.q, i, &n, &c, &p, &q);
    return cv_ref_pool(&d->b.sh, d->b.layout, d->kind, d->in, n, c, p, q, bound);
}

/* Outputs against pool_ref. [instance] */
static bhost_status BHOST_ABI pool_verify(void *inst)
{
    pool_inst *d = inst;

    return ly_verify(&d->b, d->out, cv_out_elems(&d->b.sh), pool_ref, d);
}

static void BHOST_ABI pool_destroy(void *inst)
{
    pool_inst *d = inst;

#ifdef BH_SCI_CONV_DNNL
    cv_dnnl_destroy(d->dnnl);
#endif
    ly_fini(&d->b);
    bh_sci_api->free(d->b.h, d->in);
    bh_sci_api->free(d->b.h, d->out);
    bh_sci_api->free(d->b.h, d);
}

/* Inputs read by the windows along one axis: sum of the window sizes. */
static double window_sum(const cv_shape *sh, cv_pool_kind kind, int in, int out, int r)
{
    double sum = 0.0;

    for (int o = 0; o < out; o++) {
        int lo, hi;

        cv_pool_window(sh, kind, o, in, out, r, &lo, &hi);
        sum += hi - lo;
    }
    return sum;
}

/* A compare or add per window input, a division per average. [instance] */
static double BHOST_ABI pool_flops(void *inst)
{
    const pool_inst *d = inst;
    const cv_shape *sh = &d->b.sh;
    double planes = (double)sh->n * sh->c;

    return planes * window_sum(sh, d->kind, sh->h, sh->p, sh->r) *
               window_sum(sh, d->kind, sh->w, sh->q, sh->s) +
           (d->kind == CV_POOL_MAX ? 0.0 : (double)cv_out_elems(sh));
}

/* Input and output once, f32. [instance] */
static double BHOST_ABI pool_bytes(void *inst)
{
    const cv_shape *sh = &((const ly_base *)inst)->sh;

    return 4.0 * (double)(cv_in_elems(sh) + cv_out_elems(sh));
}

static bhost_status BHOST_ABI pool_profile(void *inst, bhost_work_profile *out)
{
    return ly_profile(inst, out, pool_bytes(inst));
}

const bhost_bench_desc bh_sci_pool = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "pool",
    .summary = "Max, average and adaptive average pooling, f32, NCHW or NHWC: own loops, oneDNN",
    .params = pool_params,
    .param_count = BH_PLUGIN_COUNT(pool_params),
    .create = pool_create,
    .setup = pool_setup,
    .run = pool_run,
    .verify = pool_verify,
    .destroy = pool_destroy,
    .flops_per_iter = pool_flops,
    .bytes_per_iter = pool_bytes,
    .items_per_iter = ly_items,
    .work_profile = pool_profile,
};
