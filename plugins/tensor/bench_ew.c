// SPDX-License-Identifier: MIT
/*
 * bench_ew.c -- element-wise ops ew.<op>: add, sub, mul, div, fma, relu,
 * gelu, sigmoid, tanh, exp, log, sqrt, over n contiguous elements of f32
 * or f64, as the scalar variant (plain loops without auto-vectorization,
 * libm) or the vector one (AVX-512 / AVX2 intrinsics picked at run time,
 * polynomial f32 transcendentals).
 *
 * Counting: bytes = (inputs + 1) * n * sizeof(dtype); FLOP per element:
 * add, sub, mul, div, relu, sqrt, exp, log, tanh 1; fma 2; sigmoid 3
 * (exp, add, divide); gelu 7 (x^2, multiply-add, multiply, exp, add,
 * divide); items = n. Work profile: read-write, f32 or f64 by dtype, the
 * counted bytes.
 */
#include "tp_bench.h"

#include <math.h>
#include <string.h>

typedef struct ew_inst {
    bh_tensor_base base;
    tk_op op;
    tk_dtype dtype;
    int vector;
    int arity;
    size_t n;
    void *in[3];
    void *out;
} ew_inst;

static const char *const dtypes[] = {"f32", "f64", NULL};
static const char *const variants[] = {"scalar", "vector", NULL};

static const bhost_param_desc ew_params[] = {
    BH_PARAM_I64("n", "Elements", "1048576", 1, BH_PLUGIN_I64_MAX),
    BH_PARAM_STR("dtype", "Element type", "f32", dtypes),
    BH_PARAM_STR("variant",
                 "scalar: plain loops built without auto-vectorization; "
                 "vector: explicit SIMD",
                 "vector", variants),
    BH_TENSOR_PARAM_THREADS,
};

/* FLOP per element of op (see the file comment). */
static double op_flops(tk_op op)
{
    switch (op) {
    case TK_OP_FMA:
        return 2;
    case TK_OP_SIGMOID:
        return 3;
    case TK_OP_GELU:
        return 7;
    default:
        return 1;
    }
}

/* Input range of op's operands: positive for log and sqrt, moderate for
 * exp; divisors are kept away from 0 in setup. */
static void domain(tk_op op, double *lo, double *hi)
{
    *lo = op == TK_OP_LOG || op == TK_OP_SQRT ? 1e-3 : op == TK_OP_EXP ? -20 : -8;
    *hi = op == TK_OP_LOG || op == TK_OP_SQRT ? 1e3 : op == TK_OP_EXP ? 20 : 8;
}

static void BHOST_ABI ew_destroy(void *inst);

/* Reads n, dtype, variant and threads. The vector variant has no f64
 * transcendental functions: BHOST_E_UNSUPPORTED. Nothing is left
 * allocated on failure. [instance] */
static bhost_status ew_create(bhost_host *h, tk_op op, void **out)
{
    ew_inst *e = bh_tensor_alloc(h, sizeof(*e));
    char variant[16];
    int64_t n;
    bhost_status st;

    if (e == NULL)
        return BHOST_E_NOMEM;
    memset(e, 0, sizeof(*e));
    e->base.h = h;
    e->op = op;
    e->arity = tk_op_arity(op);
    st = bh_tensor_base_init(&e->base, h);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "n", 1, (int64_t)1 << 40, &n);
    if (st == BHOST_OK)
        st = bh_tensor_dtype(h, &e->dtype);
    if (st == BHOST_OK)
        st = bh_tensor_str(h, "variant", variant, sizeof(variant));
    if (st == BHOST_OK && e->dtype != TK_F32 && e->dtype != TK_F64)
        st = bh_tensor_fail(h, BHOST_E_INVALID, "ew: dtype must be f32 or f64");
    if (st == BHOST_OK) {
        e->vector = strcmp(variant, "vector") == 0;
        if (e->vector && e->dtype == TK_F64 && tk_op_transcendental(op))
            st = bh_tensor_fail(h, BHOST_E_UNSUPPORTED,
                                "ew.%s: the vector variant has no f64 "
                                "polynomial (f32 only)", tk_op_name(op));
    }
    if (st != BHOST_OK) {
        ew_destroy(e);
        return st;
    }
    e->n = (size_t)n;
    e->base.items = (double)n;
    e->base.flops = (double)n * op_flops(op);
    e->base.bytes = (double)n * (double)tk_dtype_size(e->dtype) * (e->arity + 1);
    e->base.access = BHOST_ACCESS_READ_WRITE;
    e->base.compute = e->dtype == TK_F64 ? BHOST_COMPUTE_F64 : BHOST_COMPUTE_F32;
    *out = e;
    return BHOST_OK;
}

/* Allocates and fills the inputs from the case seed, zeroes the output
 * (from the pool's threads, placing the pages). [instance] */
static bhost_status BHOST_ABI ew_setup(void *inst, bhost_stream *s)
{
    ew_inst *e = inst;
    size_t bytes = e->n * tk_dtype_size(e->dtype);
    double lo, hi;
    bhost_status st = BHOST_OK;

    (void)s;
    domain(e->op, &lo, &hi);
    for (int i = 0; i < e->arity && st == BHOST_OK; i++) {
        int divisor = e->op == TK_OP_DIV && i == 1;

        if (e->in[i] == NULL)
            e->in[i] = bh_tensor_alloc(e->base.h, bytes);
        if (e->in[i] == NULL)
            return BHOST_E_NOMEM;
        st = bh_tensor_random(&e->base, e->in[i], e->dtype, e->n,
                              divisor ? 0.5 : lo, divisor ? 2.0 : hi,
                              (uint64_t)i + 1);
    }
    if (e->out == NULL)
        e->out = bh_tensor_alloc(e->base.h, bytes);
    if (e->out == NULL)
        return BHOST_E_NOMEM;
    if (st == BHOST_OK && tk_fill(e->out, e->dtype, e->n, 0.0, e->base.pool) != TK_OK)
        st = bh_tensor_fail(e->base.h, BHOST_E_INTERNAL, "ew: fill failed");
    return st;
}

/* iterations of out = op(inputs). [instance] */
static bhost_status BHOST_ABI ew_run(void *inst, bhost_stream *s,
                                     uint64_t iterations)
{
    ew_inst *e = inst;
    tk_ew_args x = {e->op, e->dtype, e->vector, 1, e->n, e->in[0], e->in[1],
                    e->in[2], e->out, e->n, e->n, e->n, e->n};

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        int st = tk_eltwise(&x, e->base.pool);

        if (st != TK_OK)
            return bh_tensor_fail(e->base.h, st == TK_EUNSUP ? BHOST_E_UNSUPPORTED
                                                             : BHOST_E_INTERNAL,
                                  "ew.%s: kernel refused (%d)", tk_op_name(e->op), st);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* Every output element against the double reference within the op's
 * tolerance (tk_op_err). [instance] */
static bhost_status BHOST_ABI ew_verify(void *inst)
{
    ew_inst *e = inst;

    if (e->out == NULL)
        return bh_tensor_fail(e->base.h, BHOST_E_VERIFY, "ew: verify before setup");
    for (size_t i = 0; i < e->n; i++) {
        double a = bh_tensor_get(e->in[0], e->dtype, i);
        double b = e->arity > 1 ? bh_tensor_get(e->in[1], e->dtype, i) : 0.0;
        double c = e->arity > 2 ? bh_tensor_get(e->in[2], e->dtype, i) : 0.0;
        double y = bh_tensor_get(e->out, e->dtype, i);
        double err = tk_op_err(e->op, e->dtype, e->vector, a, b, c, y);

        if (!(err <= 1.0))
            return bh_tensor_fail(e->base.h, BHOST_E_VERIFY,
                                  "ew.%s: element %zu is %.9g, reference %.9g "
                                  "(%.3g x tolerance)", tk_op_name(e->op), i, y,
                                  tk_ref_op(e->op, a, b, c), err);
    }
    return BHOST_OK;
}

/* Frees the buffers and the pool; safe on a partly created instance. */
static void BHOST_ABI ew_destroy(void *inst)
{
    ew_inst *e = inst;
    bhost_host *h = e->base.h;

    bh_tensor_base_fini(&e->base);
    for (int i = 0; i < 3; i++)
        bh_tensor_free(h, e->in[i]);
    bh_tensor_free(h, e->out);
    bh_tensor_free(h, e);
}

#define EW_BENCH(op, OPC, sum)                                                                     \
    TP_BENCH("ew", op, ew_create, OPC, ew_params, ew, bh_tensor_flops, sum)

EW_BENCH(add, TK_OP_ADD, "out = a + b")
EW_BENCH(sub, TK_OP_SUB, "out = a - b")
EW_BENCH(mul, TK_OP_MUL, "out = a * b")
EW_BENCH(div, TK_OP_DIV, "out = a / b")
EW_BENCH(fma, TK_OP_FMA, "out = a * b + c")
EW_BENCH(relu, TK_OP_RELU, "out = max(a, 0)")
EW_BENCH(gelu, TK_OP_GELU, "out = gelu(a), tanh form")
EW_BENCH(sigmoid, TK_OP_SIGMOID, "out = 1 / (1 + exp(-a))")
EW_BENCH(tanh, TK_OP_TANH, "out = tanh(a)")
EW_BENCH(exp, TK_OP_EXP, "out = exp(a)")
EW_BENCH(log, TK_OP_LOG, "out = log(a)")
EW_BENCH(sqrt, TK_OP_SQRT, "out = sqrt(a)")

const bhost_bench_desc *const bh_tensor_ew_benches[] = {
    &add_desc,     &sub_desc,  &mul_desc, &div_desc, &fma_desc, &relu_desc,
    &gelu_desc,    &sigmoid_desc, &tanh_desc, &exp_desc, &log_desc, &sqrt_desc,
    NULL,
};
