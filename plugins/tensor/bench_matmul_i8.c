// SPDX-License-Identifier: MIT
/*
 * bench_matmul_i8.c -- matmul.int8: C (int32) = op(A) op(B) with int8
 * operands on the library's blocked kernel (AVX-512 VNNI when available),
 * B packed once in setup (weights), A packed in every iteration; and
 * quant.matmul: y = x W^T with x quantized per row to int8 in every
 * iteration and W int8 per channel, reporting its error against the f32
 * product (quant.max_abs_err, quant.rel_rms_err).
 *
 * Counting: flops_per_iter counts integer multiply-adds as 2 operations:
 * 2 m n k. bytes: int8 m k + k n + int32 m n; quant.matmul: f32 x (4 m k),
 * int8 W (n k), f32 y (4 m n). items = m n. The operations are int8
 * multiply-adds (quant.matmul's too: x is quantized to int8 before the
 * product), held against the int8 ceiling, never the f32 one. Work
 * profile: read-write, int8, the counted bytes, the pool's threads.
 */
#include "tp.h"

#include <math.h>
#include <string.h>

/* quant.matmul's bound on the relative RMS error against f32. */
#define I8_REL_RMS_LIMIT 0.05

typedef struct i8_inst {
    bh_tensor_base base;
    int quant;          /* quant.matmul */
    size_t m, n, k;
    int ta, tb;
    int8_t *a, *b;      /* int8 operands (quant: xq, W int8) */
    int32_t *c;
    float *x, *w, *y, *xs, *ws; /* quant.matmul */
    tk_i8_packed packed;
    void *work;
} i8_inst;

static const bhost_param_desc i8_params[] = {
    BH_PARAM_I64("m", "Rows of op(A) and C", "512", 1, 1 << 16),
    BH_PARAM_I64("n", "Columns of op(B) and C", "512", 1, 1 << 16),
    BH_PARAM_I64("k", "Inner dimension (< 2^17)", "512", 1, 131071),
    BH_PARAM_BOOL("trans_a", "A stored transposed (k x m)", "false"),
    BH_PARAM_BOOL("trans_b", "B stored transposed (n x k)", "false"),
    BH_TENSOR_PARAM_THREADS,
};
static const bhost_param_desc q_params[] = {
    BH_PARAM_I64("m", "Rows of x (tokens)", "256", 1, 1 << 16),
    BH_PARAM_I64("n", "Rows of W (output features)", "1024", 1, 1 << 16),
    BH_PARAM_I64("k", "Input features (< 2^17)", "1024", 1, 131071),
    BH_TENSOR_PARAM_THREADS,
};

static void BHOST_ABI i8_destroy(void *inst);

/* Reads the parameters; nothing left allocated on failure. */
static bhost_status i8_create(bhost_host *h, int quant, void **out)
{
    i8_inst *d = bh_tensor_alloc(h, sizeof(*d));
    int64_t m, n, k, ta = 0, tb = 1;
    bhost_status st;

    if (d == NULL)
        return BHOST_E_NOMEM;
    memset(d, 0, sizeof(*d));
    d->base.h = h;
    d->quant = quant;
    st = bh_tensor_base_init(&d->base, h);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "m", 1, 1 << 16, &m);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "n", 1, 1 << 16, &n);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "k", 1, 131071, &k);
    if (st == BHOST_OK && !quant)
        st = bh_tensor_i64(h, "trans_a", 0, 1, &ta);
    if (st == BHOST_OK && !quant)
        st = bh_tensor_i64(h, "trans_b", 0, 1, &tb);
    if (st != BHOST_OK) {
        i8_destroy(d);
        return st;
    }
    d->m = (size_t)m;
    d->n = (size_t)n;
    d->k = (size_t)k;
    d->ta = (int)ta;
    d->tb = (int)tb;
    d->base.flops = 2.0 * (double)m * (double)n * (double)k;
    d->base.bytes = quant ? 4.0 * (double)m * (double)k + (double)n * (double)k +
                                4.0 * (double)m * (double)n
                          : (double)m * (double)k + (double)k * (double)n +
                                4.0 * (double)m * (double)n;
    d->base.items = (double)m * (double)n;
    d->base.access = BHOST_ACCESS_READ_WRITE;
    d->base.compute = BHOST_COMPUTE_INT8;
    *out = d;
    return BHOST_OK;
}

/* Uniform int8 in [-128, 127] from the case seed. */
static bhost_status random_i8(i8_inst *d, int8_t *dst, size_t n, uint64_t stream)
{
    uint64_t seed = bh_tensor_api->seed(d->base.h) ^ (stream << 40);

    for (size_t i = 0; i < n; i++)
        dst[i] = (int8_t)(int)floor(tk_rand_at(seed, i) * 256.0 - 128.0);
    return BHOST_OK;
}

/* Allocates, fills and packs the operands. [instance] */
static bhost_status BHOST_ABI i8_setup(void *inst, bhost_stream *s)
{
    i8_inst *d = inst;
    size_t mk = d->m * d->k, nk = d->n * d->k, mn = d->m * d->n;
    bhost_status st = BHOST_OK;
    int tk;

    (void)s;
    tk_i8_packed_free(&d->packed);
    if (d->a == NULL) {
        d->a = bh_tensor_alloc(d->base.h, mk);
        d->b = bh_tensor_alloc(d->base.h, nk);
        d->c = bh_tensor_alloc(d->base.h, mn * 4);
        d->work = bh_tensor_alloc(d->base.h, tk_matmul_i8_work(d->m, d->k));
        if (d->a == NULL || d->b == NULL || d->c == NULL || d->work == NULL)
            return BHOST_E_NOMEM;
        if (d->quant) {
            d->x = bh_tensor_alloc(d->base.h, mk * 4);
            d->w = bh_tensor_alloc(d->base.h, nk * 4);
            d->y = bh_tensor_alloc(d->base.h, mn * 4);
            d->xs = bh_tensor_alloc(d->base.h, d->m * 4);
            d->ws = bh_tensor_alloc(d->base.h, d->n * 4);
            if (!d->x || !d->w || !d->y || !d->xs || !d->ws)
                return BHOST_E_NOMEM;
        }
    }
    memset(d->c, 0, mn * 4);
    if (d->quant) {
        memset(d->y, 0, mn * 4);
        st = bh_tensor_random(&d->base, d->x, TK_F32, mk, -1, 1, 1);
        if (st == BHOST_OK)
            st = bh_tensor_random(&d->base, d->w, TK_F32, nk, -0.5, 0.5, 2);
        if (st == BHOST_OK &&
            tk_quantize_i8(d->w, d->b, d->ws, d->n, d->k, 1, d->base.pool) != TK_OK)
            st = bh_tensor_fail(d->base.h, BHOST_E_INTERNAL, "quant.matmul: quantize failed");
    } else {
        st = random_i8(d, d->a, mk, 1);
        if (st == BHOST_OK)
            st = random_i8(d, d->b, nk, 2);
    }
    if (st != BHOST_OK)
        return st;
    tk = tk_i8_pack(d->b, d->k, d->n, d->tb ? d->k : d->n, d->tb, &d->packed);
    if (tk != TK_OK)
        return bh_tensor_fail(d->base.h, tk == TK_ENOMEM ? BHOST_E_NOMEM : BHOST_E_INVALID,
                              "matmul.int8: cannot pack B (%d)", tk);
    return BHOST_OK;
}

/* iterations of the product. [instance] */
static bhost_status BHOST_ABI i8_run(void *inst, bhost_stream *s,
                                     uint64_t iterations)
{
    i8_inst *d = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        int st = d->quant
                     ? tk_qmatmul(d->x, d->m, &d->packed, d->ws, d->a, d->xs, d->c,
                                  d->y, d->work, d->base.pool)
                     : tk_matmul_i8(d->a, d->ta ? d->m : d->k, d->ta, d->m,
                                    &d->packed, d->c, d->n, d->work, d->base.pool);

        if (st != TK_OK)
            return bh_tensor_fail(d->base.h, BHOST_E_INTERNAL,
                                  "matmul.int8: kernel refused (%d)", st);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* op(A)(i, p) and op(B)(p, j) of the row-major operands. */
static int a_at(const i8_inst *d, size_t i, size_t p)
{
    return d->ta ? d->a[p * d->m + i] : d->a[i * d->k + p];
}
static int b_at(const i8_inst *d, size_t p, size_t j)
{
    return d->tb ? d->b[j * d->k + p] : d->b[p * d->n + j];
}

/* Exact Freivalds test in int64: C r == op(A) (op(B) r) for two random
 * r in [-8, 8]^n. No rounding is involved, so a wrong row fails unless a
 * draw happens to cancel its error (probability <= 1/17 per draw).
 * O(mn + nk + mk). */
static bhost_status check_exact(i8_inst *d)
{
    size_t m = d->m, n = d->n, k = d->k;
    uint64_t seed = bh_tensor_api->seed(d->base.h);
    int64_t *r = bh_tensor_alloc(d->base.h, 2 * n * sizeof(int64_t));
    int64_t *t = bh_tensor_alloc(d->base.h, 2 * k * sizeof(int64_t));
    bhost_status st = BHOST_OK;

    if (r == NULL || t == NULL) {
        st = BHOST_E_NOMEM;
        goto done;
    }
    for (size_t u = 0; u < 2; u++) {
        for (size_t j = 0; j < n; j++)
            r[u * n + j] = (int64_t)floor(tk_rand_at(seed + u, j) * 17.0) - 8;
        for (size_t p = 0; p < k; p++) {
            int64_t acc = 0;

            for (size_t j = 0; j < n; j++)
                acc += (int64_t)b_at(d, p, j) * r[u * n + j];
            t[u * k + p] = acc;
        }
    }
    for (size_t i = 0; i < m && st == BHOST_OK; i++)
        for (size_t u = 0; u < 2; u++) {
            int64_t lhs = 0, rhs = 0;

            for (size_t j = 0; j < n; j++)
                lhs += (int64_t)d->c[i * n + j] * r[u * n + j];
            for (size_t p = 0; p < k; p++)
                rhs += (int64_t)a_at(d, i, p) * t[u * k + p];
            if (lhs != rhs) {
                st = bh_tensor_fail(d->base.h, BHOST_E_VERIFY,
                                    "matmul.int8: row %zu of C fails the exact "
                                    "check", i);
                break;
            }
        }
done:
    bh_tensor_free(d->base.h, r);
    bh_tensor_free(d->base.h, t);
    return st;
}

/* quant.matmul: x's per-row quantization exact, y = acc * xs * ws exact,
 * then the error against the f32 product over up to 64 evenly spaced
 * rows, reported as metrics (and a sanity bound: relative RMS < 0.05). */
static bhost_status check_quant(i8_inst *d)
{
    size_t m = d->m, n = d->n, k = d->k, step = m > 64 ? m / 64 : 1;
    double max_err = 0, err2 = 0, ref2 = 0, rel;

    for (size_t i = 0; i < m; i++) {
        float amax = 0, sc;

        for (size_t p = 0; p < k; p++)
            amax = fabsf(d->x[i * k + p]) > amax ? fabsf(d->x[i * k + p]) : amax;
        sc = amax > 0 ? amax / 127.0f : 1.0f;
        if (d->xs[i] != sc)
            return bh_tensor_fail(d->base.h, BHOST_E_VERIFY,
                                  "quant.matmul: row %zu scale %.9g, expected %.9g",
                                  i, (double)d->xs[i], (double)sc);
        for (size_t p = 0; p < k; p++) {
            float q = nearbyintf(d->x[i * k + p] / sc);

            if (d->a[i * k + p] != (int8_t)(q > 127 ? 127 : q < -127 ? -127 : q))
                return bh_tensor_fail(d->base.h, BHOST_E_VERIFY,
                                      "quant.matmul: x[%zu,%zu] quantized wrong", i, p);
        }
        for (size_t j = 0; j < n; j++)
            if (d->y[i * n + j] != (float)d->c[i * n + j] * (d->xs[i] * d->ws[j]))
                return bh_tensor_fail(d->base.h, BHOST_E_VERIFY,
                                      "quant.matmul: y[%zu,%zu] is not its scaled "
                                      "integer product", i, j);
    }
    for (size_t i = 0; i < m; i += step)
        for (size_t j = 0; j < n; j++) {
            double ref = 0, e;

            for (size_t p = 0; p < k; p++)
                ref += (double)d->x[i * k + p] * d->w[j * k + p];
            e = fabs(d->y[i * n + j] - ref);
            max_err = e > max_err ? e : max_err;
            err2 += e * e;
            ref2 += ref * ref;
        }
    rel = ref2 > 0 ? sqrt(err2 / ref2) : 0;
    /* The relative RMS error is held to the bound verify applies below. */
    bh_plugin_metric_info(d->base.h, "quant.max_abs_err", "", max_err);
    bh_plugin_metric_error(d->base.h, "quant.rel_rms_err", "", rel, I8_REL_RMS_LIMIT);
    if (!(rel < I8_REL_RMS_LIMIT))
        return bh_tensor_fail(d->base.h, BHOST_E_VERIFY,
                              "quant.matmul: relative RMS error %.3g vs f32", rel);
    return BHOST_OK;
}

/* The int8 product exactly, and for quant.matmul its quantization and
 * scaling exactly plus the error metrics. [instance] */
static bhost_status BHOST_ABI i8_verify(void *inst)
{
    i8_inst *d = inst;
    bhost_status st;

    if (d->c == NULL)
        return bh_tensor_fail(d->base.h, BHOST_E_VERIFY, "matmul.int8: verify before setup");
    st = check_exact(d);
    if (st == BHOST_OK && d->quant)
        st = check_quant(d);
    return st;
}

/* Frees everything; safe on a partly set instance. */
static void BHOST_ABI i8_destroy(void *inst)
{
    i8_inst *d = inst;
    bhost_host *h = d->base.h;

    bh_tensor_base_fini(&d->base);
    tk_i8_packed_free(&d->packed);
    bh_tensor_free(h, d->a);
    bh_tensor_free(h, d->b);
    bh_tensor_free(h, d->c);
    bh_tensor_free(h, d->work);
    bh_tensor_free(h, d->x);
    bh_tensor_free(h, d->w);
    bh_tensor_free(h, d->y);
    bh_tensor_free(h, d->xs);
    bh_tensor_free(h, d->ws);
    bh_tensor_free(h, d);
}

/* matmul.int8 and quant.matmul instances. [instance] */
static bhost_status BHOST_ABI create_i8(bhost_host *h, const bhost_backend *be,
                                        bhost_dev *dev, void **inst)
{
    (void)be;
    (void)dev;
    return i8_create(h, 0, inst);
}
static bhost_status BHOST_ABI create_q(bhost_host *h, const bhost_backend *be,
                                       bhost_dev *dev, void **inst)
{
    (void)be;
    (void)dev;
    return i8_create(h, 1, inst);
}

const bhost_bench_desc bh_tensor_matmul_int8 = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "matmul.int8",
    .summary = "int8 x int8 -> int32 blocked matmul (AVX-512 VNNI when "
               "available), B prepacked",
    .params = i8_params,
    .param_count = sizeof(i8_params) / sizeof(i8_params[0]),
    .create = create_i8,
    .setup = i8_setup,
    .run = i8_run,
    .verify = i8_verify,
    .destroy = i8_destroy,
    .flops_per_iter = bh_tensor_flops,
    .bytes_per_iter = bh_tensor_bytes,
    .items_per_iter = bh_tensor_items,
    .work_profile = bh_tensor_profile,
};

const bhost_bench_desc bh_tensor_qmatmul = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "quant.matmul",
    .summary = "y = x W^T: x quantized per row to int8 each iteration, W int8 "
               "per channel; error vs f32 as metrics",
    .params = q_params,
    .param_count = sizeof(q_params) / sizeof(q_params[0]),
    .create = create_q,
    .setup = i8_setup,
    .run = i8_run,
    .verify = i8_verify,
    .destroy = i8_destroy,
    .flops_per_iter = bh_tensor_flops,
    .bytes_per_iter = bh_tensor_bytes,
    .items_per_iter = bh_tensor_items,
    .work_profile = bh_tensor_profile,
};
