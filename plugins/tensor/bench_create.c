// SPDX-License-Identifier: MIT
/*
 * bench_create.c -- creation ops create.<op>: zeros, ones, full, arange,
 * rand (uniform, counter-based, seeded from the case seed) and randn
 * (Box-Muller over the same draws), n elements of a dtype.
 *
 * Counting: bytes = n * sizeof(dtype) written; items = n; no FLOP count
 * (rand's hashing is integer work, randn's transcendental work is not
 * what these measure). Work profile: a write stream of the counted bytes,
 * no arithmetic class.
 */
#include "tp_bench.h"

#include <math.h>
#include <string.h>

enum { K_ZEROS, K_ONES, K_FULL, K_ARANGE, K_RAND, K_RANDN };

typedef struct create_inst {
    bh_tensor_base base;
    int kind;
    tk_dtype dtype;
    size_t n;
    double value; /* full */
    uint64_t seed;
    void *out;
} create_inst;

static const char *const all_types[] = {"f32", "f64", "f16", "bf16", "i8",
                                        "i32", "i64", NULL};
static const char *const arange_types[] = {"f32", "f64", "i32", "i64", NULL};
static const char *const rand_types[] = {"f32", "f64", NULL};

#define N_PARAM BH_PARAM_I64("n", "Elements", "1048576", 1, 4294967295.0)

static const bhost_param_desc fill_params[] = {
    N_PARAM,
    BH_PARAM_STR("dtype", "Element type", "f32", all_types),
    BH_TENSOR_PARAM_THREADS,
};
static const bhost_param_desc full_params[] = {
    N_PARAM,
    BH_PARAM_STR("dtype", "Element type", "f32", all_types),
    BH_TENSOR_PARAM_THREADS,
    {.struct_size = sizeof(bhost_param_desc),
     .type = BHOST_PARAM_F64,
     .key = "value",
     .summary = "Fill value (rounded or saturated to dtype)",
     .default_value = "3.5",
     .min = 1,
     .max = 0},
};
static const bhost_param_desc arange_params[] = {
    N_PARAM,
    BH_PARAM_STR("dtype", "Element type", "f32", arange_types),
    BH_TENSOR_PARAM_THREADS,
};
static const bhost_param_desc rand_params[] = {
    N_PARAM,
    BH_PARAM_STR("dtype", "Element type", "f32", rand_types),
    BH_TENSOR_PARAM_THREADS,
};

static void BHOST_ABI create_destroy(void *inst);

/* Reads n, dtype, threads (and value for full); nothing left allocated on
 * failure. [instance] */
static bhost_status make(bhost_host *h, int kind, void **out)
{
    create_inst *c = bh_tensor_alloc(h, sizeof(*c));
    int64_t n;
    bhost_status st;

    if (c == NULL)
        return BHOST_E_NOMEM;
    memset(c, 0, sizeof(*c));
    c->base.h = h;
    c->kind = kind;
    c->value = kind == K_ONES ? 1.0 : 0.0;
    st = bh_tensor_base_init(&c->base, h);
    if (st == BHOST_OK)
        st = bh_tensor_i64(h, "n", 1, UINT32_MAX, &n);
    if (st == BHOST_OK)
        st = bh_tensor_dtype(h, &c->dtype);
    if (st == BHOST_OK && kind == K_FULL)
        st = bh_tensor_f64(h, "value", &c->value);
    if (st != BHOST_OK) {
        create_destroy(c);
        return st;
    }
    c->n = (size_t)n;
    c->seed = bh_tensor_api->seed(h);
    c->base.items = (double)n;
    c->base.bytes = (double)n * (double)tk_dtype_size(c->dtype);
    c->base.access = BHOST_ACCESS_WRITE;
    c->base.compute = BHOST_COMPUTE_NONE;
    *out = c;
    return BHOST_OK;
}

/* Allocates the output and fills it with a value no op produces
 * everywhere (so verify sees that run wrote it). [instance] */
static bhost_status BHOST_ABI create_setup(void *inst, bhost_stream *s)
{
    create_inst *c = inst;

    (void)s;
    if (c->out == NULL)
        c->out = bh_tensor_alloc(c->base.h, c->n * tk_dtype_size(c->dtype));
    if (c->out == NULL)
        return BHOST_E_NOMEM;
    if (tk_fill(c->out, c->dtype, c->n, 7.0, c->base.pool) != TK_OK)
        return bh_tensor_fail(c->base.h, BHOST_E_INTERNAL, "create: fill failed");
    return BHOST_OK;
}

/* iterations of the creation op. [instance] */
static bhost_status BHOST_ABI create_run(void *inst, bhost_stream *s,
                                         uint64_t iterations)
{
    create_inst *c = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        int st;

        switch (c->kind) {
        case K_ARANGE:
            st = tk_arange(c->out, c->dtype, c->n, -1.5, 0.25, c->base.pool);
            break;
        case K_RAND:
            st = tk_rand_uniform(c->out, c->dtype, c->n, c->seed, 0.0, 1.0,
                                 c->base.pool);
            break;
        case K_RANDN:
            st = tk_rand_normal(c->out, c->dtype, c->n, c->seed, 0.0, 1.0,
                                c->base.pool);
            break;
        default:
            st = tk_fill(c->out, c->dtype, c->n, c->value, c->base.pool);
            break;
        }
        if (st != TK_OK)
            return bh_tensor_fail(c->base.h, BHOST_E_INTERNAL,
                                  "create: kernel refused (%d)", st);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* Element i's expected value (the draws recomputed from tk_rand_at). */
static double expected(const create_inst *c, size_t i)
{
    double u1, u2, r;

    switch (c->kind) {
    case K_ARANGE:
        return -1.5 + 0.25 * (double)i;
    case K_RAND:
        return tk_rand_at(c->seed, i);
    case K_RANDN:
        u1 = tk_rand_at(c->seed, i & ~(size_t)1);
        u2 = tk_rand_at(c->seed, i | 1);
        r = sqrt(-2.0 * log(1.0 - u1));
        return i & 1 ? r * sin(2.0 * M_PI * u2) : r * cos(2.0 * M_PI * u2);
    default:
        return c->value;
    }
}

/* Every element against its expected value (rounded to the dtype; draws
 * within 2 ulp of f32); the draws' mean and variance within 6 sigma of
 * their distribution's. [instance] */
static bhost_status BHOST_ABI create_verify(void *inst)
{
    create_inst *c = inst;
    unsigned char want[8];
    size_t es = tk_dtype_size(c->dtype);
    double sum = 0.0, sq = 0.0, n = (double)c->n, m, v, em, ev;

    if (c->out == NULL)
        return bh_tensor_fail(c->base.h, BHOST_E_VERIFY, "create: verify before setup");
    tk_fill(want, c->dtype, 1, c->value, NULL);
    for (size_t i = 0; i < c->n; i++) {
        double y = bh_tensor_get(c->out, c->dtype, i), ref = expected(c, i);
        int ok;

        if (c->kind <= K_FULL) /* exact: the fill pattern */
            ok = memcmp((const char *)c->out + i * es, want, es) == 0;
        else if (c->dtype == TK_I32 || c->dtype == TK_I64)
            ok = y == nearbyint(ref);
        else
            ok = fabs(y - ref) <= 2.4e-7 * (fabs(ref) + 1.0);
        if (!ok)
            return bh_tensor_fail(c->base.h, BHOST_E_VERIFY,
                                  "create: element %zu is %.9g, expected %.9g", i,
                                  y, ref);
        sum += y;
        sq += y * y;
    }
    if (c->kind != K_RAND && c->kind != K_RANDN)
        return BHOST_OK;
    m = sum / n;
    v = sq / n - m * m;
    em = c->kind == K_RAND ? 0.5 : 0.0;
    ev = c->kind == K_RAND ? 1.0 / 12.0 : 1.0;
    if (fabs(m - em) > 6.0 * sqrt(ev / n) + 1e-12 ||
        (c->n >= 1000 && fabs(v - ev) > 6.0 * ev * sqrt(2.0 / n) + 0.002))
        return bh_tensor_fail(c->base.h, BHOST_E_VERIFY,
                              "create: draws have mean %.6g, variance %.6g "
                              "(expected %.6g, %.6g)", m, v, em, ev);
    return BHOST_OK;
}

/* Frees the output and the pool. */
static void BHOST_ABI create_destroy(void *inst)
{
    create_inst *c = inst;
    bhost_host *h = c->base.h;

    bh_tensor_base_fini(&c->base);
    bh_tensor_free(h, c->out);
    bh_tensor_free(h, c);
}

#define CREATE_BENCH(name, KIND, params_, sum)                                                     \
    TP_BENCH("create", name, make, KIND, params_, create, NULL, sum)

CREATE_BENCH(zeros, K_ZEROS, fill_params, "Tensor of zeros")
CREATE_BENCH(ones, K_ONES, fill_params, "Tensor of ones")
CREATE_BENCH(full, K_FULL, full_params, "Tensor filled with value")
CREATE_BENCH(arange, K_ARANGE, arange_params, "-1.5 + 0.25 i")
CREATE_BENCH(rand, K_RAND, rand_params, "Uniform [0, 1) from the case seed")
CREATE_BENCH(randn, K_RANDN, rand_params, "Standard normal from the case seed")

const bhost_bench_desc *const bh_tensor_create_benches[] = {
    &zeros_desc, &ones_desc, &arange_desc, &full_desc, &rand_desc, &randn_desc,
    NULL,
};
