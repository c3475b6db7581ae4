// SPDX-License-Identifier: MIT
/*
 * bench_manip.c -- data movement manip.<op>: transpose (2-D, tiled),
 * permute (N-D), reshape (view: strides only; copy: of a transposed
 * tensor, which no view can reshape), slice (every step-th row and
 * column), concat (parts tensors along axis 0 or 1), gather (rows of a
 * table by random indices). Any element type; values are compared as
 * bytes.
 *
 * Counting: bytes = elements read + elements written, times the element
 * size, except: slice counts the cache lines its strided reads touch
 * (whole rows when step * size < 64 B), gather adds its 8-byte indices,
 * reshape view moves nothing (0 bytes, 1 item). items = elements written.
 * Work profile: read-write, no arithmetic class, the counted bytes.
 */
#include "tp_bench.h"

#include <stdlib.h>
#include <string.h>

#include "manip.h"

static const char *const all_types[] = {"f32", "f64", "f16", "bf16", "i8",
                                        "i32", "i64", NULL};
static const char *const modes[] = {"view", "copy", NULL};

#define DTYPE BH_PARAM_STR("dtype", "Element type", "f32", all_types)
#define ROWS(d) BH_PARAM_I64("rows", "Rows", d, 1, BH_PLUGIN_I64_MAX)
#define COLS(d) BH_PARAM_I64("cols", "Columns", d, 1, BH_PLUGIN_I64_MAX)

static const bhost_param_desc transpose_params[] = {
    ROWS("1024"), COLS("1024"), DTYPE, BH_TENSOR_PARAM_THREADS};
static const bhost_param_desc permute_params[] = {
    BH_PARAM_STR("shape", "Source shape, e.g. 64x128x256", "64x128x256",
                 NULL),
    BH_PARAM_STR("perm",
                 "Destination axis d takes source axis perm[d], e.g. 2,0,1",
                 "2,0,1", NULL),
    DTYPE, BH_TENSOR_PARAM_THREADS};
static const bhost_param_desc reshape_params[] = {
    ROWS("1024"), COLS("1024"),
    BH_PARAM_STR("mode",
                 "view: reshape a contiguous tensor (strides only); copy: "
                 "flatten a transposed one (materialized)",
                 "view", modes),
    DTYPE, BH_TENSOR_PARAM_THREADS};
static const bhost_param_desc slice_params[] = {
    ROWS("2048"), COLS("2048"),
    BH_PARAM_I64("step", "Step along both axes", "2", 1, 1 << 20), DTYPE,
    BH_TENSOR_PARAM_THREADS};
static const bhost_param_desc concat_params[] = {
    ROWS("1024"), COLS("1024"),
    BH_PARAM_I64("parts", "Tensors concatenated (each rows x cols)", "4",
                 2, 64),
    BH_PARAM_I64("axis", "0: stack rows; 1: join columns", "1", 0, 1),
    DTYPE, BH_TENSOR_PARAM_THREADS};
static const bhost_param_desc gather_params[] = {
    ROWS("8192"), COLS("1024"),
    BH_PARAM_I64("indices", "Rows gathered (uniform random indices)",
                 "4096", 1, BH_PLUGIN_I64_MAX),
    DTYPE, BH_TENSOR_PARAM_THREADS};

/* iterations of the op. [instance] */
static bhost_status BHOST_ABI manip_run(void *inst, bhost_stream *s,
                                        uint64_t iterations)
{
    bh_tensor_manip *m = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        int st = bh_tensor_manip_once(m);

        if (st != TK_OK)
            return bh_tensor_fail(m->base.h, BHOST_E_INTERNAL,
                                  "manip: kernel refused (%d)", st);
        bhost_clobber_memory();
    }
    return BHOST_OK;
}

/* Frees the buffers and the pool. */
static void BHOST_ABI manip_destroy(void *inst)
{
    bh_tensor_manip *m = inst;
    bhost_host *h = m->base.h;

    bh_tensor_base_fini(&m->base);
    bh_tensor_free(h, m->in);
    bh_tensor_free(h, m->out);
    bh_tensor_free(h, m->idx);
    bh_tensor_free(h, m);
}

/* Creates an instance of kind: reads the parameters, sets the sizes and
 * counts; nothing left allocated on failure. [instance] */
static bhost_status manip_create(bhost_host *h, int kind, void **out)
{
    bh_tensor_manip *m = bh_tensor_alloc(h, sizeof(*m));
    bhost_status st;

    if (m == NULL)
        return BHOST_E_NOMEM;
    memset(m, 0, sizeof(*m));
    m->base.h = h;
    m->kind = kind;
    st = bh_tensor_base_init(&m->base, h);
    if (st == BHOST_OK)
        st = bh_tensor_dtype(h, &m->dtype);
    if (st == BHOST_OK)
        st = bh_tensor_manip_params(m);
    if (st != BHOST_OK) {
        manip_destroy(m);
        return st;
    }
    *out = m;
    return BHOST_OK;
}

/* Allocates the buffers, fills the input with random bits (and the
 * gather indices) from the case seed. [instance] */
static bhost_status BHOST_ABI manip_setup(void *inst, bhost_stream *s)
{
    bh_tensor_manip *m = inst;
    size_t in_bytes = m->in_elems * m->es, words = (in_bytes + 3) / 4;
    bhost_status st;

    (void)s;
    if (m->in == NULL)
        m->in = bh_tensor_alloc(m->base.h, words * 4);
    if (m->out == NULL)
        m->out = bh_tensor_alloc(m->base.h, m->out_elems * m->es);
    if (m->in == NULL || m->out == NULL)
        return BHOST_E_NOMEM;
    st = bh_tensor_random(&m->base, m->in, TK_F32, words, -1e30, 1e30, 1);
    if (st == BHOST_OK && tk_fill(m->out, TK_I8, m->out_elems * m->es, 0,
                                  m->base.pool) != TK_OK)
        st = bh_tensor_fail(m->base.h, BHOST_E_INTERNAL, "manip: fill failed");
    if (st == BHOST_OK && m->kind == BH_MANIP_GATHER) {
        if (m->idx == NULL)
            m->idx = bh_tensor_alloc(m->base.h, m->nidx * sizeof(int64_t));
        if (m->idx == NULL)
            return BHOST_E_NOMEM;
        for (size_t i = 0; i < m->nidx; i++)
            m->idx[i] = (int64_t)(tk_rand_at(bh_tensor_api->seed(m->base.h) ^ 7, i) *
                                  (double)m->rows);
    }
    return st;
}

/* Compares the output with the definition of the op. [instance] */
static bhost_status BHOST_ABI manip_verify(void *inst)
{
    bh_tensor_manip *m = inst;

    if (m->in == NULL)
        return bh_tensor_fail(m->base.h, BHOST_E_VERIFY, "manip: verify before setup");
    return bh_tensor_manip_verify(m);
}

#define MANIP_BENCH(name, KIND, params_, sum)                                                      \
    TP_BENCH("manip", name, manip_create, KIND, params_, manip, NULL, sum)

MANIP_BENCH(transpose, BH_MANIP_TRANSPOSE, transpose_params,
            "2-D transpose in cache tiles")
MANIP_BENCH(permute, BH_MANIP_PERMUTE, permute_params,
            "N-D permute (tiled when the innermost axis moves)")
MANIP_BENCH(reshape, BH_MANIP_RESHAPE, reshape_params,
            "Reshape: a view (strides) or a copy (of a transposed tensor)")
MANIP_BENCH(slice, BH_MANIP_SLICE, slice_params,
            "Strided slice [::step, ::step] into a contiguous tensor")
MANIP_BENCH(concat, BH_MANIP_CONCAT, concat_params,
            "Concatenation of parts tensors along axis 0 or 1")
MANIP_BENCH(gather, BH_MANIP_GATHER, gather_params,
            "Row gather (embedding lookup) by random indices")

const bhost_bench_desc *const bh_tensor_manip_benches[] = {
    &transpose_desc, &permute_desc, &reshape_desc, &slice_desc,
    &concat_desc,    &gather_desc,  NULL,
};
