// SPDX-License-Identifier: MIT
/*
 * tn_tune.h -- autotuning for the scientific plugin: a blocked f32 gemm of
 * the plugin's own whose blocking (MC, NC, KC cache tiles and the MR x NR
 * register micro-tile) is a point of a small search space, and the search
 * that times points within a budget. No bhost dependency: unit-tested
 * alone.
 */
#ifndef SCI_TN_TUNE_H
#define SCI_TN_TUNE_H

#include <stddef.h>
#include <stdint.h>

/* One blocking of the gemm: C (m x n) += A (m x k) B (k x n), row-major,
 * computed over KC x NC panels of B and MC x KC blocks of A, packed, by an
 * MR x NR micro-kernel. */
typedef struct tn_gemm_cfg {
    int mc, nc, kc, mr, nr;
} tn_gemm_cfg;

/* Points in the search space: every MC x NC x KC x micro-tile. */
size_t tn_gemm_space_size(void);

/* Point i (< tn_gemm_space_size()) of the space. */
tn_gemm_cfg tn_gemm_space_point(size_t i);

/* The index of the default blocking (what one would pick untuned: MC 64,
 * NC 1024, KC 256, 4x8 micro-tile). */
size_t tn_gemm_default_index(void);

/* Packing buffers for blockings up to the largest of the space. */
typedef struct tn_gemm_ws {
    float *pa, *pb;
} tn_gemm_ws;

/* 0, or -1 when memory is short (ws zeroed). */
int tn_gemm_ws_init(tn_gemm_ws *ws);
void tn_gemm_ws_free(tn_gemm_ws *ws);

/* C = A B (beta 0), row-major, leading dimensions lda, ldb, ldc, by the
 * blocking cfg (a point of the space). */
void tn_sgemm(const tn_gemm_cfg *cfg, tn_gemm_ws *ws, size_t m, size_t n, size_t k, const float *a,
              size_t lda, const float *b, size_t ldb, float *c, size_t ldc);

/* Times point i of a space: seconds of one run, or a negative value when
 * the point cannot run (it is then skipped). */
typedef double (*tn_time_fn)(void *ctx, size_t i, double budget_left);

/* The outcome of a search. */
typedef struct tn_result {
    size_t space, tried, best;
    double best_s, default_s, search_s;
} tn_result;

/* Times the default point first, then the others in a seeded random order
 * (shuffled when shuffle, else in index order), until every point is
 * tried or budget_s seconds have passed (a point started before the
 * budget runs out finishes). The fastest point wins. now() is the clock
 * in seconds (a test passes a fake one). */
tn_result tn_search(size_t space, size_t default_index, int shuffle, uint64_t seed, double budget_s,
                    tn_time_fn time_point, void *ctx, double (*now)(void));

#endif /* SCI_TN_TUNE_H */
