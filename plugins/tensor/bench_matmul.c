// SPDX-License-Identifier: MIT
/*
 * bench_matmul.c -- matmul: C = op(A) op(B) through the backend's gemm
 * kernel (bhost.kernel.gemm/1), so it runs on any backend device with
 * BHOST_CAP_KERNEL_GEMM. Column-major as BLAS; f32 and f64 end to end,
 * bf16 and f16 inputs with f32 accumulation and output. batch > 1 runs
 * batch independent products (separate buffers) per iteration.
 *
 * Counting: FLOP = 2 m n k batch; bytes = batch (m k + k n) sizeof(in) +
 * batch m n sizeof(out) (each matrix touched once); items = batch. Work
 * profile: read-write, the class of the input type (f32, f64, bf16, f16:
 * the multiplications are of that type), the counted bytes, threads
 * unknown (the backend's).
 */
#include "tp.h"

#include <float.h>
#include <string.h>

typedef struct mm_inst {
    bh_tensor_base base; /* no pool: the backend owns its threads */
    const bhost_backend *be;
    bhost_dev *dev;
    const bhost_kernel_gemm *gemm;
    tk_dtype dtype, out_type;
    size_t m, n, k, batch, es_in, es_out;
    int ta, tb;
    bhost_buf **bufs; /* a[0..batch), b[0..batch), c[0..batch) */
    void *ha, *hb, *hc; /* host copies: all A, all B, one C */
} mm_inst;

static const char *const dtypes[] = {"f32", "f64", "bf16", "f16", NULL};

static const bhost_param_desc mm_params[] = {
    BH_PARAM_I64("m", "Rows of op(A) and C", "256", 1, 1 << 20),
    BH_PARAM_I64("n", "Columns of op(B) and C", "256", 1, 1 << 20),
    BH_PARAM_I64("k", "Inner dimension", "256", 1, 1 << 20),
    BH_PARAM_I64("batch", "Independent products per iteration", "1", 1,
                 4096),
    BH_PARAM_BOOL("trans_a", "A stored transposed (k x m)", "false"),
    BH_PARAM_BOOL("trans_b", "B stored transposed (n x k)", "false"),
    BH_PARAM_STR("dtype",
                 "Input type; bf16/f16 accumulate and store f32", "f32",
                 dtypes),
};

static void BHOST_ABI mm_destroy(void *inst);

/* Reads the parameters of the product. */
static bhost_status mm_params_read(mm_inst *d)
{
    bhost_host *h = d->base.h;
    int64_t m, n, k, batch, ta, tb;
    bhost_status st = bh_tensor_i64(h, "m", 1, 1 << 20, &m);

    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "n", 1, 1 << 20, &n);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "k", 1, 1 << 20, &k);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "batch", 1, 4096, &batch);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "trans_a", 0, 1, &ta);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "trans_b", 0, 1, &tb);
    if (st == BHOST_OK)
        st = bh_tensor_dtype(h, &d->dtype);
    if (st == BHOST_OK &&
        (double)batch * ((double)m * (double)k + (double)k * (double)n +
                         (double)m * (double)n) > 0x1p32)
        st = bh_tensor_fail(h, BHOST_E_INVALID,
                            "matmul: more than 2^32 elements in all matrices");
    d->m = (size_t)m;
    d->n = (size_t)n;
    d->k = (size_t)k;
    d->batch = (size_t)batch;
    d->ta = (int)ta;
    d->tb = (int)tb;
    return st;
}

/* Needs the backend's gemm kernel (BHOST_E_UNSUPPORTED without one).
 * Nothing left allocated on failure. [instance] */
static bhost_status BHOST_ABI mm_create(bhost_host *h, const bhost_backend *be,
                                        bhost_dev *dev, void **out)
{
    mm_inst *d;
    bhost_status st;

    if (be == NULL || dev == NULL)
        return bh_tensor_fail(h, BHOST_E_INVALID, "matmul: needs a backend device");
    if (!BHOST_HAS(bhost_backend, be, get_kernel))
        return bh_tensor_fail(h, BHOST_E_VERSION, "matmul: backend table older than 1.0");
    d = bh_tensor_alloc(h, sizeof(*d));
    if (d == NULL)
        return BHOST_E_NOMEM;
    memset(d, 0, sizeof(*d));
    d->base.h = h;
    d->be = be;
    d->dev = dev;
    d->gemm = be->get_kernel(dev, BHOST_KERNEL_GEMM);
    st = mm_params_read(d);
    if (st == BHOST_OK &&
        (d->gemm == NULL || !BHOST_HAS(bhost_kernel_gemm, d->gemm, run) ||
         d->gemm->run == NULL))
        st = bh_tensor_fail(h, BHOST_E_UNSUPPORTED,
                            "matmul: backend '%s' has no gemm kernel", be->id);
    if (st != BHOST_OK) {
        mm_destroy(d);
        return st;
    }
    d->out_type = d->dtype == TK_F64 ? TK_F64 : TK_F32;
    d->es_in = tk_dtype_size(d->dtype);
    d->es_out = tk_dtype_size(d->out_type);
    d->base.flops = 2.0 * (double)d->m * (double)d->n * (double)d->k * (double)d->batch;
    d->base.bytes = (double)d->batch *
                    (((double)d->m * (double)d->k + (double)d->k * (double)d->n) *
                         (double)d->es_in +
                     (double)d->m * (double)d->n * (double)d->es_out);
    d->base.items = (double)d->batch;
    d->base.access = BHOST_ACCESS_READ_WRITE;
    d->base.compute = d->dtype == TK_F64    ? BHOST_COMPUTE_F64
                      : d->dtype == TK_BF16 ? BHOST_COMPUTE_BF16
                      : d->dtype == TK_F16  ? BHOST_COMPUTE_F16
                                            : BHOST_COMPUTE_F32;
    *out = d;
    return BHOST_OK;
}

/* Allocates device buffers, uploads random A and B in [-1, 1) and a zero
 * C, and waits for the uploads. [instance] */
static bhost_status BHOST_ABI mm_setup(void *inst, bhost_stream *s)
{
    mm_inst *d = inst;
    size_t sa = d->m * d->k * d->es_in, sb = d->k * d->n * d->es_in;
    size_t sc = d->m * d->n * d->es_out;
    bhost_status st = BHOST_OK;

    if (d->bufs == NULL) {
        d->bufs = bh_tensor_alloc(d->base.h, 3 * d->batch * sizeof(bhost_buf *));
        d->ha = bh_tensor_alloc(d->base.h, d->batch * sa);
        d->hb = bh_tensor_alloc(d->base.h, d->batch * sb);
        d->hc = bh_tensor_alloc(d->base.h, sc);
        if (d->bufs == NULL || d->ha == NULL || d->hb == NULL || d->hc == NULL)
            return BHOST_E_NOMEM;
        memset(d->bufs, 0, 3 * d->batch * sizeof(bhost_buf *));
    }
    memset(d->hc, 0, sc);
    st = bh_tensor_random(&d->base, d->ha, d->dtype, d->batch * d->m * d->k, -1, 1, 1);
    if (st == BHOST_OK)
        st = bh_tensor_random(&d->base, d->hb, d->dtype, d->batch * d->k * d->n, -1, 1, 2);
    for (size_t b = 0; b < d->batch && st == BHOST_OK; b++) {
        size_t sizes[3] = {sa, sb, sc};
        const void *src[3] = {(const char *)d->ha + b * sa,
                              (const char *)d->hb + b * sb, d->hc};

        for (int i = 0; i < 3 && st == BHOST_OK; i++) {
            bhost_buf **buf = &d->bufs[(size_t)i * d->batch + b];

            if (*buf == NULL)
                st = d->be->alloc(d->dev, sizes[i], BHOST_MEM_DEVICE, buf);
            if (st == BHOST_OK)
                st = d->be->copy_h2d(d->dev, s, *buf, 0, src[i], sizes[i]);
        }
    }
    if (st == BHOST_OK)
        st = d->be->stream_sync(d->dev, s);
    return st;
}

/* The gemm arguments of product b. */
static bhost_gemm_args args_of(const mm_inst *d, size_t b)
{
    bhost_gemm_args g;
    bhost_dtype in = d->dtype == TK_F64    ? BHOST_DTYPE_F64
                     : d->dtype == TK_BF16 ? BHOST_DTYPE_BF16
                     : d->dtype == TK_F16  ? BHOST_DTYPE_F16
                                           : BHOST_DTYPE_F32;
    bhost_dtype out = d->dtype == TK_F64 ? BHOST_DTYPE_F64 : BHOST_DTYPE_F32;

    memset(&g, 0, sizeof(g));
    g.struct_size = sizeof(g);
    g.a_type = g.b_type = in;
    g.c_type = g.compute_type = out;
    g.trans_a = (uint32_t)d->ta;
    g.trans_b = (uint32_t)d->tb;
    g.m = d->m;
    g.n = d->n;
    g.k = d->k;
    g.lda = d->ta ? d->k : d->m;
    g.ldb = d->tb ? d->n : d->k;
    g.ldc = d->m;
    g.alpha = 1.0;
    g.beta = 0.0;
    g.a = d->bufs[b];
    g.b = d->bufs[d->batch + b];
    g.c = d->bufs[2 * d->batch + b];
    return g;
}

/* iterations of batch products, enqueued on s. [instance] */
static bhost_status BHOST_ABI mm_run(void *inst, bhost_stream *s,
                                     uint64_t iterations)
{
    mm_inst *d = inst;

    for (uint64_t i = 0; i < iterations; i++)
        for (size_t b = 0; b < d->batch; b++) {
            bhost_gemm_args g = args_of(d, b);
            bhost_status st = d->gemm->run(d->dev, s, &g);

            if (st != BHOST_OK)
                return st;
        }
    return BHOST_OK;
}

/* Reads every C back and checks it with Freivalds' test against the host
 * copies of A and B (accumulation in f64 for f64, f32 otherwise).
 * [instance] */
static bhost_status BHOST_ABI mm_verify(void *inst)
{
    mm_inst *d = inst;
    size_t sa = d->m * d->k * d->es_in, sb = d->k * d->n * d->es_in;
    size_t sc = d->m * d->n * d->es_out;
    bhost_status st = d->be->device_sync(d->dev);

    for (size_t b = 0; b < d->batch && st == BHOST_OK; b++) {
        bh_tensor_gemm_view g = {
            (const char *)d->ha + b * sa, (const char *)d->hb + b * sb, d->hc,
            d->dtype, d->out_type, d->m, d->n, d->k,
            d->ta ? d->k : d->m, d->tb ? d->n : d->k, d->m, d->ta, d->tb,
            d->dtype == TK_F64 ? DBL_EPSILON / 2 : FLT_EPSILON / 2,
            bh_tensor_api->seed(d->base.h) + b};

        st = d->be->copy_d2h(d->dev, NULL, d->hc, d->bufs[2 * d->batch + b], 0, sc);
        if (st == BHOST_OK)
            st = d->be->stream_sync(d->dev, NULL);
        if (st == BHOST_OK)
            st = bh_tensor_check_gemm(d->base.h, &g);
    }
    return st;
}

/* Frees device buffers and host copies. */
static void BHOST_ABI mm_destroy(void *inst)
{
    mm_inst *d = inst;
    bhost_host *h = d->base.h;

    for (size_t i = 0; d->bufs != NULL && i < 3 * d->batch; i++)
        if (d->bufs[i] != NULL)
            d->be->free(d->dev, d->bufs[i]);
    bh_tensor_free(h, d->bufs);
    bh_tensor_free(h, d->ha);
    bh_tensor_free(h, d->hb);
    bh_tensor_free(h, d->hc);
    bh_tensor_free(h, d);
}

const bhost_bench_desc bh_tensor_matmul = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE,
    .id = "matmul",
    .summary = "C = op(A) op(B) through the backend gemm kernel (f32, f64, "
               "bf16/f16 -> f32), batched, transposes",
    .params = mm_params,
    .param_count = sizeof(mm_params) / sizeof(mm_params[0]),
    .required_caps = BHOST_CAP_KERNEL_GEMM,
    .create = mm_create,
    .setup = mm_setup,
    .run = mm_run,
    .verify = mm_verify,
    .destroy = mm_destroy,
    .flops_per_iter = bh_tensor_flops,
    .bytes_per_iter = bh_tensor_bytes,
    .items_per_iter = bh_tensor_items,
    .work_profile = bh_tensor_profile,
};
