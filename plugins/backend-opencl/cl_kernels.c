// SPDX-License-Identifier: MIT
/*
 * cl_kernels.c -- the kernel tables gemm, axpy, reduce of the OpenCL
 * backend (plugins/common/bh_kernels.cl), and the build_stats and
 * device_index extensions (the scientific tables: cl_sci.c).
 * The device's programs (f32; f64 where the device has it) are built on
 * the first get_kernel() through the program cache; the build time and
 * cache hits are logged and reported as the case metrics
 * opencl.build_ms and opencl.cache_hits.
 */
#include "cl_internal.h"

#include <inttypes.h>
#include <string.h>

/* Builds the device's programs once; BHOST_OK when they exist. */
static bhost_status ensure_progs(bhost_dev *dev)
{
    bhost_status st = BHOST_OK;

    if (dev->progs[0].prog != NULL)
        return BHOST_OK;
    if (dev->kernels_tried)
        return bh_cl_fail(dev->h, BHOST_E_DEVICE,
                          "kernels failed to build earlier on this device");
    dev->kernels_tried = 1;
    memset(&dev->stats, 0, sizeof(dev->stats));
    st = bh_cl_build(dev, 0, BHOST_BUILD_CACHED, &dev->progs[0], &dev->stats);
    if (st == BHOST_OK && dev->phys->fp64)
        st = bh_cl_build(dev, 1, BHOST_BUILD_CACHED, &dev->progs[1],
                         &dev->stats);
    if (st != BHOST_OK) {
        bh_cl_prog_release(&dev->progs[0]);
        return st;
    }
    bh_cl_log(dev->h, BHOST_LOG_INFO,
              "built %" PRIu32 " program(s) in %.3f ms: %" PRIu32
              " cache hit(s), %" PRIu32 " miss(es); cache '%s'",
              dev->stats.programs, dev->stats.build_ns / 1e6,
              dev->stats.cache_hits, dev->stats.cache_misses,
              bh_cl_cache_dir());
    bh_cl_be.api->report_metric(dev->h, "opencl.build_ms", "ms",
                                BHOST_LOWER_IS_BETTER,
                                dev->stats.build_ns / 1e6);
    bh_be_metric_info(&bh_cl_be, dev->h, "opencl.cache_hits", "",
                      (double)dev->stats.cache_hits);
    return BHOST_OK;
}

/* Element size of the kernel dtypes (0 when unsupported); *f = 1 for F64. */
static size_t elem(const bhost_dev *dev, bhost_dtype t, int *f)
{
    *f = t == BHOST_DTYPE_F64;
    if (t == BHOST_DTYPE_F32)
        return 4;
    if (t == BHOST_DTYPE_F64 && dev->phys->fp64)
        return 8;
    return 0;
}

bhost_status bh_cl_kernel_call(bhost_dev *dev, bhost_stream *s,
                               const void *args, const char *op,
                               bhost_stream **t)
{
    bhost_status st = bh_cl_check_dev(dev, op);

    if (st == BHOST_OK)
        st = bh_be_call(&bh_cl_be, dev, dev->def, s, args, op, t);
    return st == BHOST_OK ? ensure_progs(dev) : st;
}

/* Sets the arguments (sizes[i] bytes at vals[i]) and enqueues kernel k. */
static bhost_status launch(bhost_stream *t, cl_kernel k, cl_uint nargs,
                           const size_t *sizes, const void *const *vals,
                           cl_uint dims, const size_t *global,
                           const size_t *local, const char *op)
{
    cl_int e = CL_SUCCESS;

    for (cl_uint i = 0; i < nargs && e == CL_SUCCESS; i++)
        e = bh_cl.clSetKernelArg(k, i, sizes[i], vals[i]);
    if (e == CL_SUCCESS)
        e = bh_cl.clEnqueueNDRangeKernel(t->q, k, dims, NULL, global, local, 0,
                                         NULL, NULL);
    return e == CL_SUCCESS ? BHOST_OK
                           : bh_cl_fail(t->dev->h, bh_cl_status(e),
                                        "%s: launch: %s", op,
                                        bh_cl_err_name(e));
}

bhost_status bh_cl_launch(bhost_stream *t, cl_kernel k, cl_uint nargs,
                          const size_t *sizes, const void *const *vals,
                          size_t global, size_t local, const char *op)
{
    return launch(t, k, nargs, sizes, vals, 1, &global, &local, op);
}

/* y = alpha x + y. [instance] */
static bhost_status BHOST_ABI axpy_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_axpy_args *a)
{
    bhost_stream *t;
    cl_ulong n;
    float af;
    size_t es, global, local = 256;
    int f;
    bhost_status st = bh_cl_kernel_call(dev, s, a, "axpy", &t);

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_axpy_args, a, y))
        return bh_cl_fail(dev->h, BHOST_E_INVALID, "axpy: struct too small");
    es = elem(dev, a->type, &f);
    if (es == 0 || a->n > UINT64_MAX / 8)
        return bh_cl_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "axpy: dtype %" PRId32 " unsupported (F32; F64 with "
                          "fp64)", a->type);
    st = bh_cl_check_range(dev, a->x, 0, a->n * es, "axpy", "x");
    if (st == BHOST_OK)
        st = bh_cl_check_range(dev, a->y, 0, a->n * es, "axpy", "y");
    if (st != BHOST_OK || a->n == 0)
        return st;
    n = a->n;
    af = (float)a->alpha;
    global = (size_t)((a->n + 255) / 256);
    global = (global > 4096 ? 4096 : global) * 256;
    {
        const size_t sizes[4] = {sizeof(n), es, sizeof(cl_mem), sizeof(cl_mem)};
        const void *vals[4] = {&n, f ? (const void *)&a->alpha : (const void *)&af,
                               &a->x->mem, &a->y->mem};

        return launch(t, dev->progs[f].k[BH_CL_K_AXPY], 4, sizes, vals, 1,
                      &global, &local, "axpy");
    }
}

/* result[0] = sum/min/max of x[0..n): partials per workgroup, then one
 * workgroup over the partials. [instance] */
static bhost_status BHOST_ABI reduce_run(bhost_dev *dev, bhost_stream *s,
                                         const bhost_reduce_args *a)
{
    bhost_stream *t;
    cl_ulong n;
    cl_uint op;
    size_t es, groups, global, local = 256;
    cl_int e = CL_SUCCESS;
    int f;
    bhost_status st = bh_cl_kernel_call(dev, s, a, "reduce", &t);

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_reduce_args, a, result) || a->reserved != 0)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "reduce: struct too small or reserved != 0");
    es = elem(dev, a->type, &f);
    if (es == 0 || a->n > UINT64_MAX / 8)
        return bh_cl_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "reduce: dtype %" PRId32 " unsupported", a->type);
    if (a->op < BHOST_REDUCE_SUM || a->op > BHOST_REDUCE_MAX)
        return bh_cl_fail(dev->h, BHOST_E_INVALID, "reduce: unknown op %" PRId32,
                          a->op);
    if (a->n == 0 && a->op != BHOST_REDUCE_SUM)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "reduce: min/max of zero elements");
    st = bh_cl_check_range(dev, a->x, 0, a->n * es, "reduce", "x");
    if (st == BHOST_OK)
        st = bh_cl_check_range(dev, a->result, 0, es, "reduce", "result");
    if (st != BHOST_OK)
        return st;
    groups = (size_t)((a->n + 255) / 256);
    groups = groups < 1 ? 1 : groups > BH_CL_REDUCE_GROUPS ? BH_CL_REDUCE_GROUPS
                                                            : groups;
    n = a->n;
    op = (cl_uint)a->op;
    global = groups * 256;
    if (groups > 1 && t->scratch == NULL) {
        t->scratch = bh_cl.clCreateBuffer(dev->ctx, CL_MEM_READ_WRITE,
                                          8 * BH_CL_REDUCE_GROUPS, NULL, &e);
        if (t->scratch == NULL)
            return bh_cl_fail(dev->h, bh_cl_status(e), "reduce: scratch: %s",
                              bh_cl_err_name(e));
    }
    {
        const size_t sizes[4] = {sizeof(n), sizeof(op), sizeof(cl_mem),
                                 sizeof(cl_mem)};
        cl_mem out = groups > 1 ? t->scratch : a->result->mem;
        const void *vals[4] = {&n, &op, &a->x->mem, &out};

        st = launch(t, dev->progs[f].k[BH_CL_K_REDUCE], 4, sizes, vals, 1,
                    &global, &local, "reduce");
        if (st != BHOST_OK || groups <= 1)
            return st;
        n = groups;
        global = 256;
        vals[2] = &t->scratch;
        vals[3] = &a->result->mem;
        return launch(t, dev->progs[f].k[BH_CL_K_REDUCE], 4, sizes, vals, 1,
                      &global, &local, "reduce");
    }
}

/* Checks one gemm operand: ld >= rows, 32-bit indices, inside buf. */
static bhost_status check_matrix(const bhost_dev *dev, const bhost_buf *buf,
                                 uint64_t rows, uint64_t cols, uint64_t ld,
                                 uint64_t es, const char *what)
{
    uint64_t span;

    if (ld < (rows > 1 ? rows : 1) || ld > UINT32_MAX)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "gemm: ld%s=%" PRIu64 " invalid for %" PRIu64 " rows",
                          what, ld, rows);
    span = rows == 0 || cols == 0 ? 0 : ld * (cols - 1) + rows;
    return bh_cl_check_range(dev, buf, 0, span * es, "gemm", what);
}

/* C of at most this many columns (or rows) goes to bh_gemv. */
#define GEMV_MAX 8u

/* Launches k with the arguments of bh_gemm and bh_gemv: nu <= 11 uints u,
 * alpha and beta (es bytes each), buffers a, b, c. */
static bhost_status gemm_launch(bhost_stream *t, cl_kernel k, cl_uint nu,
                                const cl_uint *u, size_t es,
                                const void *alpha, const void *beta,
                                const cl_mem *a, const cl_mem *b,
                                const cl_mem *c, cl_uint dims,
                                const size_t *global, const size_t *local)
{
    size_t sizes[16];
    const void *vals[16];

    for (cl_uint i = 0; i < nu; i++) {
        sizes[i] = sizeof(cl_uint);
        vals[i] = &u[i];
    }
    sizes[nu] = sizes[nu + 1] = es;
    vals[nu] = alpha;
    vals[nu + 1] = beta;
    sizes[nu + 2] = sizes[nu + 3] = sizes[nu + 4] = sizeof(cl_mem);
    vals[nu + 2] = a;
    vals[nu + 3] = b;
    vals[nu + 4] = c;
    return launch(t, k, nu + 5, sizes, vals, dims, global, local, "gemm");
}

/* Launches g (n or m at most GEMV_MAX) on bh_gemv: the rows of op(A)
 * times the columns of op(B), or (n larger) the rows of op(B)^T times the
 * columns of op(A)^T into C^T; alpha and beta point to es bytes. */
static bhost_status gemv_run(bhost_stream *t, const bhost_gemm_args *g,
                             int f, size_t es, const void *alpha,
                             const void *beta)
{
    cl_uint lda = (cl_uint)g->lda, ldb = (cl_uint)g->ldb, u[9];
    const cl_mem *mm = &g->a->mem, *xm = &g->b->mem;
    size_t global, local = 64;
    uint64_t rows;

    if (g->n <= GEMV_MAX) { /* M = op(A), X = op(B) */
        rows = g->m;
        u[1] = (cl_uint)g->n;
        u[3] = g->trans_a ? lda : 1; /* mr, ml */
        u[4] = g->trans_a ? 1 : lda;
        u[5] = g->trans_b ? ldb : 1; /* xl, xv */
        u[6] = g->trans_b ? 1 : ldb;
        u[7] = 1; /* cr, cv */
        u[8] = (cl_uint)g->ldc;
    } else { /* M = op(B)^T, X = op(A)^T, C^T */
        mm = &g->b->mem;
        xm = &g->a->mem;
        rows = g->n;
        u[1] = (cl_uint)g->m;
        u[3] = g->trans_b ? 1 : ldb;
        u[4] = g->trans_b ? ldb : 1;
        u[5] = g->trans_a ? 1 : lda;
        u[6] = g->trans_a ? lda : 1;
        u[7] = (cl_uint)g->ldc;
        u[8] = 1;
    }
    u[0] = (cl_uint)rows;
    u[2] = (cl_uint)g->k;
    /* 4 rows per work-group of 64 summing rows, else one per work-item */
    global = (size_t)(u[4] == 1 ? (rows + 3) / 4 * 64 : (rows + 63) / 64 * 64);
    return gemm_launch(t, t->dev->progs[f].k[BH_CL_K_GEMV], 9, u, es, alpha,
                       beta, mm, xm, &g->c->mem, 1, &global, &local);
}

/* C = alpha op(A) op(B) + beta C, all F32 or all F64: 16 x 16 tiles, or
 * bh_gemv for a C of at most GEMV_MAX columns or rows. [instance] */
static bhost_status BHOST_ABI gemm_run(bhost_dev *dev, bhost_stream *s,
                                       const bhost_gemm_args *g)
{
    bhost_stream *t;
    cl_uint u[8];
    float al, be;
    const void *alpha, *beta;
    size_t es, global[2], local[2] = {16, 16};
    int f;
    bhost_status st = bh_cl_kernel_call(dev, s, g, "gemm", &t);

    if (st != BHOST_OK)
        return st;
    if (!BHOST_HAS(bhost_gemm_args, g, c) || g->reserved != 0)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "gemm: struct too small or reserved != 0");
    es = elem(dev, g->c_type, &f);
    if (es == 0 || g->a_type != g->c_type || g->b_type != g->c_type ||
        g->compute_type != g->c_type)
        return bh_cl_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: dtypes a=%" PRId32 " b=%" PRId32 " c=%" PRId32
                          " compute=%" PRId32 " unsupported (all F32, or all "
                          "F64 with fp64)",
                          g->a_type, g->b_type, g->c_type, g->compute_type);
    if (g->trans_a > 1 || g->trans_b > 1)
        return bh_cl_fail(dev->h, BHOST_E_INVALID,
                          "gemm: trans flags must be 0 or 1");
    if (g->m > UINT32_MAX - 16 || g->n > UINT32_MAX - 16 || g->k > UINT32_MAX)
        return bh_cl_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "gemm: dimensions of 2^32 or more");
    st = bh_be_check_gemm_operands(&bh_cl_be, dev, g, es, es, check_matrix);
    if (st != BHOST_OK || g->m == 0 || g->n == 0)
        return st;
    al = (float)g->alpha;
    be = (float)g->beta;
    alpha = f ? (const void *)&g->alpha : (const void *)&al;
    beta = f ? (const void *)&g->beta : (const void *)&be;
    if (g->n <= GEMV_MAX || g->m <= GEMV_MAX)
        return gemv_run(t, g, f, es, alpha, beta);
    u[0] = (cl_uint)g->m;
    u[1] = (cl_uint)g->n;
    u[2] = (cl_uint)g->k;
    u[3] = (cl_uint)g->lda;
    u[4] = (cl_uint)g->ldb;
    u[5] = (cl_uint)g->ldc;
    u[6] = g->trans_a;
    u[7] = g->trans_b;
    global[0] = (size_t)((g->m + 15) / 16 * 16);
    global[1] = (size_t)((g->n + 15) / 16 * 16);
    return gemm_launch(t, dev->progs[f].k[BH_CL_K_GEMM], 8, u, es, alpha, beta,
                       &g->a->mem, &g->b->mem, &g->c->mem, 2, global, local);
}

/* build_stats.build: the programs again, COLD (unique define, no cache)
 * or CACHED (program binaries on disk); the result is dropped. */
static bhost_status BHOST_ABI build(bhost_dev *dev, uint32_t mode,
                                    bhost_build_stats *out)
{
    bhost_build_stats stats;
    bh_cl_prog p;
    bhost_status st = bh_be_check_stats(&bh_cl_be, dev, out, mode);

    if (st != BHOST_OK)
        return st;
    memset(&stats, 0, sizeof(stats));
    for (int f = 0; f < (dev->phys->fp64 ? 2 : 1) && st == BHOST_OK; f++) {
        st = bh_cl_build(dev, f, mode, &p, &stats);
        if (st == BHOST_OK)
            bh_cl_prog_release(&p);
    }
    if (st == BHOST_OK)
        bh_be_copy_sized(out, &stats, sizeof(stats));
    return st;
}

/* build_stats.last: the device's own build (0 programs before it). */
static bhost_status BHOST_ABI last(bhost_dev *dev, bhost_build_stats *out)
{
    bhost_status st = bh_be_check_stats(&bh_cl_be, dev, out, BHOST_BUILD_COLD);

    if (st == BHOST_OK)
        bh_be_copy_sized(out, &dev->stats, sizeof(dev->stats));
    return st;
}

static uint32_t BHOST_ABI index_of(bhost_dev *dev)
{
    return bh_cl_check_dev(dev, "device_index") == BHOST_OK ? dev->index : 0;
}

static const bhost_kernel_gemm gemm_table = {sizeof(bhost_kernel_gemm), 0,
                                             gemm_run};
static const bhost_kernel_axpy axpy_table = {sizeof(bhost_kernel_axpy), 0,
                                             axpy_run};
static const bhost_kernel_reduce reduce_table = {sizeof(bhost_kernel_reduce), 0,
                                                 reduce_run};
static const bhost_ext_build_stats build_table = {
    sizeof(bhost_ext_build_stats), 0, build, last};
static const bhost_ext_device_index index_table = {
    sizeof(bhost_ext_device_index), 0, index_of};
static const bh_be_tables tables = {&gemm_table, &axpy_table, &reduce_table,
                                    &build_table, &index_table};

const void *bh_cl_kernel(bhost_dev *dev, const char *id)
{
    int kernel;
    const void *t = bh_be_find_table(&tables, id, &kernel);

    if (t == NULL && (t = bh_be_find_sci(&bh_cl_sci_tables, id)) != NULL)
        kernel = 1;
    if (!kernel)
        return t;
    if (dev->phys->max_wg < 256)
        return NULL; /* the kernels need 256-wide workgroups */
    if (ensure_progs(dev) != BHOST_OK) {
        bh_cl_log(dev->h, BHOST_LOG_ERROR, "kernels unavailable: build failed");
        return NULL;
    }
    return t;
}
