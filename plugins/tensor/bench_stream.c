// SPDX-License-Identifier: MIT
/*
 * bench_stream.c -- STREAM copy, scale, add, triad (f64) over the thread
 * pool, and roof.bandwidth: triad at a DRAM size on all threads, which
 * reports its figure as the metric roof.bandwidth_bytes_per_s.
 *
 * Counting (STREAM's convention): copy and scale move 16 B per element,
 * add and triad 24 B; scale and add do 1 FLOP per element, triad 2, copy
 * none. Work profile: read-write over the arrays the kernel touches (the
 * counted bytes), f64 (copy: no arithmetic), the pool's threads.
 * roof.bandwidth is a ceiling (BHOST_BENCH_CEILING): its triad rate is the
 * run's read-write bandwidth at the level of its working set (DRAM when
 * the arrays exceed the caches, as the default is sized to); it still
 * reports roof.bandwidth_bytes_per_s for readers older than ceilings.
 */
#include "tp.h"

#include <string.h>

/* Values of a, b, c after setup; every kernel's output is then constant. */
#define A0 1.0
#define B0 2.0
#define C0 0.5
#define S 3.0

typedef struct stream_inst {
    bh_tensor_base base;
    tk_stream_kind kind;
    int roof;
    size_t n;
    double *a, *b, *c;
    bh_tensor_rates rates;
} stream_inst;

static const bhost_param_desc stream_params[] = {
    BH_PARAM_I64("elements", "Doubles per array (3 arrays)", "4194304",
                 1, 1 << 30),
    BH_TENSOR_PARAM_THREADS,
};

static const bhost_param_desc roof_params[] = {
    BH_PARAM_I64("elements",
                 "Doubles per array (3 arrays); keep each array >= 4x "
                 "the last-level cache",
                 "20971520", 1, 1 << 30),
    BH_TENSOR_PARAM_THREADS,
};

static void BHOST_ABI stream_destroy(void *inst);

/* Reads the parameters and sets the work per iteration; nothing is left
 * allocated on failure (the host calls destroy only after a successful
 * create). */
static bhost_status create_kind(bhost_host *h, tk_stream_kind kind, int roof,
                                void **out)
{
    stream_inst *s = bh_tensor_alloc(h, sizeof(*s));
    int64_t n;
    bhost_status st;

    if (s == NULL)
        return BHOST_E_NOMEM;
    memset(s, 0, sizeof(*s));
    s->base.h = h;
    s->kind = kind;
    s->roof = roof;
    st = bh_tensor_base_init(&s->base, h);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "elements", 1, 1 << 30, &n);
    if (st != BHOST_OK) {
        stream_destroy(s);
        return st;
    }
    *out = s;
    s->n = (size_t)n;
    s->base.items = (double)n;
    s->base.bytes = (double)n * 8.0 *
                    (kind == TK_STREAM_ADD || kind == TK_STREAM_TRIAD ? 3 : 2);
    s->base.flops = (double)n * (kind == TK_STREAM_TRIAD ? 2 : 1);
    s->base.access = BHOST_ACCESS_READ_WRITE;
    s->base.compute = kind == TK_STREAM_COPY ? BHOST_COMPUTE_NONE : BHOST_COMPUTE_F64;
    return BHOST_OK;
}

#define STREAM_CREATE(fn, kind, roof)                                          \
    static bhost_status BHOST_ABI fn(bhost_host *h, const bhost_backend *be,   \
                                     bhost_dev *dev, void **inst)              \
    {                                                                          \
        (void)be;                                                              \
        (void)dev;                                                             \
        return create_kind(h, kind, roof, inst);                               \
    }
STREAM_CREATE(create_copy, TK_STREAM_COPY, 0)
STREAM_CREATE(create_scale, TK_STREAM_SCALE, 0)
STREAM_CREATE(create_add, TK_STREAM_ADD, 0)
STREAM_CREATE(create_triad, TK_STREAM_TRIAD, 0)
STREAM_CREATE(create_roof, TK_STREAM_TRIAD, 1)

/* Allocates the arrays and sets them to A0, B0, C0 from the threads that
 * will stream them (first touch places the pages). [instance] */
static bhost_status BHOST_ABI stream_setup(void *inst, bhost_stream *strm)
{
    stream_inst *s = inst;
    size_t bytes = s->n * sizeof(double);

    (void)strm;
    if (s->a == NULL)
        s->a = bh_tensor_alloc(s->base.h, bytes);
    if (s->b == NULL)
        s->b = bh_tensor_alloc(s->base.h, bytes);
    if (s->c == NULL)
        s->c = bh_tensor_alloc(s->base.h, bytes);
    if (s->a == NULL || s->b == NULL || s->c == NULL)
        return BHOST_E_NOMEM;
    if (tk_fill(s->a, TK_F64, s->n, A0, s->base.pool) != TK_OK ||
        tk_fill(s->b, TK_F64, s->n, B0, s->base.pool) != TK_OK ||
        tk_fill(s->c, TK_F64, s->n, C0, s->base.pool) != TK_OK)
        return bh_tensor_fail(s->base.h, BHOST_E_INTERNAL, "stream: fill failed");
    return BHOST_OK;
}

/* iterations of the kernel; the roof also records the call's rate. */
static bhost_status BHOST_ABI stream_run(void *inst, bhost_stream *strm,
                                         uint64_t iterations)
{
    stream_inst *s = inst;
    uint64_t t0 = s->roof ? bh_tensor_api->now_ns(s->base.h) : 0;

    (void)strm;
    for (uint64_t i = 0; i < iterations; i++) {
        if (tk_stream(s->kind, s->a, s->b, s->c, s->n, S, s->base.pool) != TK_OK)
            return bh_tensor_fail(s->base.h, BHOST_E_INTERNAL,
                                  "stream: kernel rejected its arguments");
        bhost_clobber_memory();
    }
    if (s->roof)
        bh_rates_add(&s->rates, s->base.bytes, iterations,
                     bh_tensor_api->now_ns(s->base.h) - t0);
    return BHOST_OK;
}

/* The output array of the kernel must hold its one expected value
 * everywhere; the roof then reports its bandwidth. [instance] */
static bhost_status BHOST_ABI stream_verify(void *inst)
{
    stream_inst *s = inst;
    const double *out;
    double want;

    switch (s->kind) {
    case TK_STREAM_COPY:
        out = s->c;
        want = A0;
        break;
    case TK_STREAM_SCALE:
        out = s->b;
        want = S * C0;
        break;
    case TK_STREAM_ADD:
        out = s->c;
        want = A0 + B0;
        break;
    default:
        out = s->a;
        want = B0 + S * C0;
        break;
    }
    if (out == NULL)
        return bh_tensor_fail(s->base.h, BHOST_E_VERIFY, "stream: verify before setup");
    for (size_t i = 0; i < s->n; i++)
        if (out[i] != want)
            return bh_tensor_fail(s->base.h, BHOST_E_VERIFY,
                                  "stream: element %zu is %.17g, expected %.17g",
                                  i, out[i], want);
    if (s->roof)
        bh_plugin_metric(s->base.h, "roof.bandwidth_bytes_per_s", "B/s", BHOST_HIGHER_IS_BETTER,
                         bh_rates_median(&s->rates));
    return BHOST_OK;
}

/* Frees the arrays, stops the pool. [instance] */
static void BHOST_ABI stream_destroy(void *inst)
{
    stream_inst *s = inst;
    bhost_host *h = s->base.h;

    bh_tensor_base_fini(&s->base);
    bh_tensor_free(h, s->a);
    bh_tensor_free(h, s->b);
    bh_tensor_free(h, s->c);
    bh_tensor_free(h, s);
}

#define STREAM_DESC(name, id_, sum, createfn, params_, flopsfn)                \
    static const bhost_bench_desc name = {                                     \
        .struct_size = sizeof(bhost_bench_desc),                               \
        .id = id_,                                                             \
        .summary = sum,                                                        \
        .params = params_,                                                     \
        .param_count = 2,                                                      \
        .create = createfn,                                                    \
        .setup = stream_setup,                                                 \
        .run = stream_run,                                                     \
        .verify = stream_verify,                                               \
        .destroy = stream_destroy,                                             \
        .flops_per_iter = flopsfn,                                             \
        .bytes_per_iter = bh_tensor_bytes,                                     \
        .items_per_iter = bh_tensor_items,                                     \
        .work_profile = bh_tensor_profile,                                     \
    }

STREAM_DESC(copy_desc, "stream.copy", "STREAM copy c = a (f64, 16 B/elem)",
            create_copy, stream_params, NULL);
STREAM_DESC(scale_desc, "stream.scale", "STREAM scale b = s c (f64, 16 B/elem)",
            create_scale, stream_params, bh_tensor_flops);
STREAM_DESC(add_desc, "stream.add", "STREAM add c = a + b (f64, 24 B/elem)",
            create_add, stream_params, bh_tensor_flops);
STREAM_DESC(triad_desc, "stream.triad", "STREAM triad a = b + s c (f64, 24 B/elem)",
            create_triad, stream_params, bh_tensor_flops);

const bhost_bench_desc bh_tensor_roof_bandwidth = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_CEILING,
    .id = "roof.bandwidth",
    .summary = "Bandwidth roof: STREAM triad at a DRAM size on all threads; "
               "metric roof.bandwidth_bytes_per_s",
    .params = roof_params,
    .param_count = 2,
    .create = create_roof,
    .setup = stream_setup,
    .run = stream_run,
    .verify = stream_verify,
    .destroy = stream_destroy,
    .flops_per_iter = bh_tensor_flops,
    .bytes_per_iter = bh_tensor_bytes,
    .items_per_iter = bh_tensor_items,
    .work_profile = bh_tensor_profile,
};

const bhost_bench_desc *const bh_tensor_stream_benches[] = {
    &copy_desc, &scale_desc, &add_desc, &triad_desc, NULL,
};
