// SPDX-License-Identifier: MIT
/*
 * bench_reduce.c -- reductions reduce.<op>: sum, mean, max, argmax, var
 * (population) of an f32 tensor of a given shape, over one axis or the
 * whole tensor.
 *
 * Counting: bytes = 4 N read + the output (4 or 8 bytes per result);
 * FLOP per input element: sum, mean 1 (add), max, argmax 1 (compare),
 * var 4 (add for the mean, subtract, multiply, add); items = N. Work
 * profile: a read stream (the output is one value per reduced row), f32,
 * the counted bytes as the working set, without the single result of a
 * whole-tensor reduction.
 */
#include "tp_bench.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct red_inst {
    bh_tensor_base base;
    tk_red_op op;
    size_t outer, r, inner, total;
    float *x;
    void *out;
} red_inst;

static const char *const axes[] = {"all", "0", "1", "2", "3", "-1", NULL};

static const bhost_param_desc red_params[] = {
    BH_PARAM_STR("shape", "f32 tensor shape, e.g. 4096x4096", "1048576",
                 NULL),
    BH_PARAM_STR("axis",
                 "Axis reduced (-1 = last), or all for the whole tensor",
                 "all", axes),
    BH_TENSOR_PARAM_THREADS,
};

static void BHOST_ABI red_destroy(void *inst);

/* Splits shape around axis into outer, r, inner; BHOST_E_SKIP when the
 * axis does not exist in this shape. */
static bhost_status split_axis(red_inst *d, const char *axis, int ndim,
                               const size_t *dims)
{
    int a;

    if (strcmp(axis, "all") == 0) {
        d->outer = d->inner = 1;
        d->r = d->total;
        return BHOST_OK;
    }
    a = atoi(axis);
    if (a < 0)
        a += ndim;
    if (a < 0 || a >= ndim)
        return bh_tensor_fail(d->base.h, BHOST_E_SKIP,
                              "reduce: axis %s does not exist in a %d-D shape",
                              axis, ndim);
    d->outer = d->inner = 1;
    for (int i = 0; i < a; i++)
        d->outer *= dims[i];
    for (int i = a + 1; i < ndim; i++)
        d->inner *= dims[i];
    d->r = dims[a];
    return BHOST_OK;
}

/* Reads shape, axis and threads; nothing left allocated on failure. */
static bhost_status red_create(bhost_host *h, tk_red_op op, void **out)
{
    red_inst *d = bh_tensor_alloc(h, sizeof(*d));
    char shape[96], axis[8];
    size_t dims[TK_MAX_DIMS];
    int ndim = 0;
    bhost_status st;

    if (d == NULL)
        return BHOST_E_NOMEM;
    memset(d, 0, sizeof(*d));
    d->base.h = h;
    d->op = op;
    st = bh_tensor_base_init(&d->base, h);
    if (st == BHOST_OK)
        st = bh_tensor_str(h, "shape", shape, sizeof(shape));
    if (st == BHOST_OK)
        st = bh_tensor_str(h, "axis", axis, sizeof(axis));
    if (st == BHOST_OK)
        st = bh_tensor_shape(h, shape, &ndim, dims, &d->total);
    if (st == BHOST_OK)
        st = split_axis(d, axis, ndim, dims);
    if (st != BHOST_OK) {
        red_destroy(d);
        return st;
    }
    d->base.items = (double)d->total;
    d->base.flops = (double)d->total * (op == TK_RED_VAR ? 4 : 1);
    d->base.access = BHOST_ACCESS_READ;
    d->base.compute = BHOST_COMPUTE_F32;
    d->base.bytes = 4.0 * (double)d->total +
                    (double)(d->outer * d->inner) * (op == TK_RED_ARGMAX ? 8 : 4);
    /* the working set is the streamed data: a whole-tensor reduction's one
     * result lives in a register and one line, and would otherwise push a
     * set of exactly a cache's size (4 MiB on two 2 MiB L2s) to the next
     * level; per-row results are an array of their own and count */
    d->base.ws = d->outer * d->inner > 1 ? d->base.bytes : 4.0 * (double)d->total;
    *out = d;
    return BHOST_OK;
}

/* Input uniform in [-1, 1) from the case seed. [instance] */
static bhost_status BHOST_ABI red_setup(void *inst, bhost_stream *s)
{
    red_inst *d = inst;
    size_t nout = d->outer * d->inner;

    (void)s;
    if (d->x == NULL)
        d->x = bh_tensor_alloc(d->base.h, d->total * 4);
    if (d->out == NULL)
        d->out = bh_tensor_alloc(d->base.h, nout * 8);
    if (d->x == NULL || d->out == NULL)
        return BHOST_E_NOMEM;
    memset(d->out, 0xFF, nout * 8);
    return bh_tensor_random(&d->base, d->x, TK_F32, d->total, -1, 1, 1);
}

/* iterations of the reduction. [instance] */
static bhost_status BHOST_ABI red_run(void *inst, bhost_stream *s,
                                      uint64_t iterations)
{
    red_inst *d = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        int st = tk_reduce(d->op, d->x, d->outer, d->r, d->inner, d->out,
                           d->base.pool);

        if (st != TK_OK)
            return bh_tensor_fail(d->base.h, BHOST_E_INTERNAL,
                                  "reduce: kernel refused (%d)", st);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* Every result against a double reference: max and argmax exact, sums
 * within tk_reduce_rel_bound() of sum |x|, variance within 8 times that
 * bound. [instance] */
static bhost_status BHOST_ABI red_verify(void *inst)
{
    red_inst *d = inst;
    double bound = tk_reduce_rel_bound(d->r, d->inner);

    if (d->x == NULL)
        return bh_tensor_fail(d->base.h, BHOST_E_VERIFY, "reduce: verify before setup");
    for (size_t o = 0; o < d->outer; o++)
        for (size_t j = 0; j < d->inner; j++) {
            size_t k = o * d->inner + j;
            double sum = 0, abs_sum = 0, best = -INFINITY, m2 = 0, want, got, tol;
            size_t arg = 0;

            for (size_t t = 0; t < d->r; t++) {
                double v = d->x[(o * d->r + t) * d->inner + j];

                sum += v;
                abs_sum += fabs(v);
                if (v > best) {
                    best = v;
                    arg = t;
                }
            }
            if (d->op == TK_RED_VAR)
                for (size_t t = 0; t < d->r; t++) {
                    double dv = d->x[(o * d->r + t) * d->inner + j] - sum / (double)d->r;

                    m2 += dv * dv;
                }
            tol = bound * abs_sum + FLT_EPSILON * fabs(sum);
            switch (d->op) {
            case TK_RED_SUM:
                want = sum;
                break;
            case TK_RED_MEAN:
                want = sum / (double)d->r;
                tol /= (double)d->r;
                break;
            case TK_RED_MAX:
                want = best;
                tol = 0;
                break;
            case TK_RED_ARGMAX:
                want = (double)arg;
                tol = 0;
                break;
            default:
                want = m2 / (double)d->r;
                tol = 8 * bound * (want + bound * (abs_sum / (double)d->r) *
                                              (abs_sum / (double)d->r)) +
                      FLT_EPSILON * want;
                break;
            }
            got = d->op == TK_RED_ARGMAX ? (double)((const int64_t *)d->out)[k]
                                         : (double)((const float *)d->out)[k];
            if (!(fabs(got - want) <= tol + 1e-30))
                return bh_tensor_fail(d->base.h, BHOST_E_VERIFY,
                                      "reduce.%s: result %zu is %.9g, reference "
                                      "%.9g (tolerance %.3g)", tk_red_name(d->op),
                                      k, got, want, tol);
        }
    return BHOST_OK;
}

/* Frees the buffers and the pool. */
static void BHOST_ABI red_destroy(void *inst)
{
    red_inst *d = inst;
    bhost_host *h = d->base.h;

    bh_tensor_base_fini(&d->base);
    bh_tensor_free(h, d->x);
    bh_tensor_free(h, d->out);
    bh_tensor_free(h, d);
}

#define RED_BENCH(name, OP, sum)                                                                   \
    TP_BENCH("reduce", name, red_create, OP, red_params, red, bh_tensor_flops, sum)

RED_BENCH(sum, TK_RED_SUM, "Sum (f32, blocked, double across blocks)")
RED_BENCH(mean, TK_RED_MEAN, "Mean (f32)")
RED_BENCH(max, TK_RED_MAX, "Maximum (f32)")
RED_BENCH(argmax, TK_RED_ARGMAX, "First index of the maximum (int64)")
RED_BENCH(var, TK_RED_VAR, "Population variance (blockwise two-pass)")

const bhost_bench_desc *const bh_tensor_reduce_benches[] = {
    &sum_desc, &mean_desc, &max_desc, &argmax_desc, &var_desc, NULL,
};
