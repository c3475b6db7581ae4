// SPDX-License-Identifier: MIT
/*
 * bh_be_kernels.c -- what the backends' kernel tables share: the lookup of
 * a table by id, the build_stats argument checks, and the argument checks
 * of axpy, reduce and gemm operands where backends word them alike.
 */
#define _POSIX_C_SOURCE 200809L
#include <bhost/backend_helper.h>

#include <inttypes.h>
#include <string.h>
#include <time.h>

const void *bh_be_find_table(const bh_be_tables *t, const char *id,
                             int *kernel)
{
    *kernel = 0;
    if (strcmp(id, BHOST_EXT_BUILD_STATS) == 0)
        return t->build_stats;
    if (strcmp(id, BHOST_EXT_DEVICE_INDEX) == 0)
        return t->device_index;
    *kernel = 1;
    if (strcmp(id, BHOST_KERNEL_GEMM) == 0)
        return t->gemm;
    if (strcmp(id, BHOST_KERNEL_AXPY) == 0)
        return t->axpy;
    if (strcmp(id, BHOST_KERNEL_REDUCE) == 0)
        return t->reduce;
    *kernel = 0;
    return NULL;
}

bhost_status bh_be_check_stats(const bh_be *be, const bhost_dev *dev,
                               const bhost_build_stats *out, uint32_t mode)
{
    bhost_status st = bh_be_check_dev(be, dev, "build_stats");

    if (st != BHOST_OK)
        return st;
    if (out == NULL || out->struct_size < sizeof(uint32_t) ||
        mode > BHOST_BUILD_CACHED)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                          "build_stats: bad arguments");
    return BHOST_OK;
}

uint64_t bh_be_span(uint64_t rows, uint64_t cols, uint64_t ld, uint64_t es)
{
    if (ld < (rows > 1 ? rows : 1))
        return UINT64_MAX;
    return rows == 0 || cols == 0 ? 0 : (ld * (cols - 1) + rows) * es;
}

bhost_status bh_be_check_gemm_spans(const bh_be *be, const bhost_dev *dev,
                                    const bhost_gemm_args *g, uint64_t ein,
                                    uint64_t eout)
{
    bhost_status st = bh_be_check_range(
        be, dev, g->a, 0,
        bh_be_span(g->trans_a ? g->k : g->m, g->trans_a ? g->m : g->k, g->lda,
                   ein),
        "gemm", "a");

    if (st == BHOST_OK)
        st = bh_be_check_range(be, dev, g->b, 0,
                               bh_be_span(g->trans_b ? g->n : g->k,
                                          g->trans_b ? g->k : g->n, g->ldb,
                                          ein),
                               "gemm", "b");
    if (st == BHOST_OK)
        st = bh_be_check_range(be, dev, g->c, 0,
                               bh_be_span(g->m, g->n, g->ldc, eout), "gemm",
                               "c");
    return st;
}

bhost_status bh_be_check_gemm_operands(const bh_be *be, const bhost_dev *dev,
                                       const bhost_gemm_args *g, uint64_t ein,
                                       uint64_t eout, bh_be_matrix_check check)
{
    bhost_status st = check(dev, g->a, g->trans_a ? g->k : g->m,
                            g->trans_a ? g->m : g->k, g->lda, ein, "a");

    if (st == BHOST_OK)
        st = check(dev, g->b, g->trans_b ? g->n : g->k,
                   g->trans_b ? g->k : g->n, g->ldb, ein, "b");
    if (st == BHOST_OK)
        st = check(dev, g->c, g->m, g->n, g->ldc, eout, "c");
    if (st == BHOST_OK && (g->c == g->a || g->c == g->b))
        st = bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                        "gemm: c must not alias a or b");
    return st;
}

bhost_status bh_be_check_axpy(const bh_be *be, const bhost_dev *dev,
                              const bhost_axpy_args *a, uint64_t es,
                              const char *types)
{
    bhost_status st;

    if (!BHOST_HAS(bhost_axpy_args, a, y) || es == 0 || a->n > UINT64_MAX / 8)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_UNSUPPORTED,
                          "axpy: dtype %" PRId32 " unsupported%s", a->type,
                          types);
    st = bh_be_check_range(be, dev, a->x, 0, a->n * es, "axpy", "x");
    if (st == BHOST_OK)
        st = bh_be_check_range(be, dev, a->y, 0, a->n * es, "axpy", "y");
    return st;
}

bhost_status bh_be_check_reduce(const bh_be *be, const bhost_dev *dev,
                                const bhost_reduce_args *a, uint64_t es,
                                const char *types)
{
    bhost_status st;

    if (!BHOST_HAS(bhost_reduce_args, a, result) || a->reserved != 0 ||
        es == 0 || a->n > UINT64_MAX / 8)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_UNSUPPORTED,
                          "reduce: dtype %" PRId32 " unsupported%s", a->type,
                          types);
    if (a->op < BHOST_REDUCE_SUM || a->op > BHOST_REDUCE_MAX ||
        (a->n == 0 && a->op != BHOST_REDUCE_SUM))
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                          "reduce: unknown op or min/max of nothing");
    st = bh_be_check_range(be, dev, a->x, 0, a->n * es, "reduce", "x");
    if (st == BHOST_OK)
        st = bh_be_check_range(be, dev, a->result, 0, es, "reduce", "result");
    return st;
}

uint64_t bh_be_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}
