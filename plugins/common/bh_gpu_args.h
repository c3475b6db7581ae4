// SPDX-License-Identifier: MIT
/*
 * bh_gpu_args.h -- what the CUDA and HIP backends share to launch their
 * own kernels (kernels.cu, kernels.hip: the same signatures): element
 * sizes, and the argument arrays and grid sizes of axpy, reduce and the
 * 16 x 16 tiled gemm. Header-only and inline, compiled into each backend:
 * include it after the backend's own struct bhost_buf, whose device
 * pointer is the member ptr.
 */
#ifndef BH_GPU_ARGS_H
#define BH_GPU_ARGS_H

#include <bhost/plugin.h>

#include <stdint.h>

/* Threads per block of axpy and reduce; most blocks of an axpy grid. */
#define BH_GPU_BLOCK 256u
#define BH_GPU_MAX_BLOCKS 65536u

/* Element size of F32/F64 (0 for others); *f64 set. */
static inline uint64_t bh_gpu_elem(bhost_dtype t, int *f64)
{
    *f64 = t == BHOST_DTYPE_F64;
    return t == BHOST_DTYPE_F32 ? 4 : t == BHOST_DTYPE_F64 ? 8 : 0;
}

/* The arguments of bh_axpy_f32/f64 (n, alpha, x, y) and its grid; args
 * point into the pack and into a, which must outlive the launch. */
typedef struct bh_gpu_axpy_pack {
    unsigned long long n;
    float alpha32;
    unsigned blocks; /* grid x: one thread an element, at most 65536 */
    void *args[4];
} bh_gpu_axpy_pack;

/* Fills p for a (F64 when f64, else F32). */
static inline void bh_gpu_axpy_pack_init(bh_gpu_axpy_pack *p, const bhost_axpy_args *a, int f64)
{
    uint64_t blocks = (a->n + BH_GPU_BLOCK - 1) / BH_GPU_BLOCK;

    p->n = a->n;
    p->alpha32 = (float)a->alpha;
    p->blocks = (unsigned)(blocks > BH_GPU_MAX_BLOCKS ? BH_GPU_MAX_BLOCKS : blocks);
    p->args[0] = &p->n;
    p->args[1] = f64 ? (void *)&a->alpha : (void *)&p->alpha32;
    p->args[2] = (void *)&a->x->ptr;
    p->args[3] = (void *)&a->y->ptr;
}

/* Blocks of the first reduce pass over n elements: 1 to max_groups. */
static inline uint64_t bh_gpu_reduce_groups(uint64_t n, uint64_t max_groups)
{
    uint64_t groups = (n + BH_GPU_BLOCK - 1) / BH_GPU_BLOCK;

    return groups < 1 ? 1 : groups > max_groups ? max_groups : groups;
}

/* The arguments of bh_gemm_f32/f64 (m, n, k, lda, ldb, ldc, trans_a,
 * trans_b, alpha, beta, a, b, c) and its grid of 16 x 16 blocks; args
 * point into the pack and into g, which must outlive the launch. */
typedef struct bh_gpu_gemm_pack {
    unsigned u[8];
    float alpha32, beta32;
    unsigned grid_x, grid_y;
    void *args[13];
} bh_gpu_gemm_pack;

/* Fills p for g (dimensions checked to fit unsigned by the caller; F64
 * when f64, else F32). */
static inline void bh_gpu_gemm_pack_init(bh_gpu_gemm_pack *p, const bhost_gemm_args *g, int f64)
{
    p->u[0] = (unsigned)g->m;
    p->u[1] = (unsigned)g->n;
    p->u[2] = (unsigned)g->k;
    p->u[3] = (unsigned)g->lda;
    p->u[4] = (unsigned)g->ldb;
    p->u[5] = (unsigned)g->ldc;
    p->u[6] = g->trans_a;
    p->u[7] = g->trans_b;
    p->alpha32 = (float)g->alpha;
    p->beta32 = (float)g->beta;
    p->grid_x = (unsigned)((g->m + 15) / 16);
    p->grid_y = (unsigned)((g->n + 15) / 16);
    for (int i = 0; i < 8; i++)
        p->args[i] = &p->u[i];
    p->args[8] = f64 ? (void *)&g->alpha : (void *)&p->alpha32;
    p->args[9] = f64 ? (void *)&g->beta : (void *)&p->beta32;
    p->args[10] = (void *)&g->a->ptr;
    p->args[11] = (void *)&g->b->ptr;
    p->args[12] = (void *)&g->c->ptr;
}

#endif /* BH_GPU_ARGS_H */
