// SPDX-License-Identifier: MIT
/*
 * autotune.h -- the autotune case's instance, shared by its adapter
 * (bench_autotune.c: parameters, the gemm kernel, counting) and its FFTW
 * kernel (bench_autotune_fftw.c, built when FFTW3 is found).
 */
#ifndef SCI_AUTOTUNE_H
#define SCI_AUTOTUNE_H

#include "scientific.h"

#include "tn_tune.h"

typedef struct at_inst {
    bhost_host *h;
    int fftw;      /* kernel: 0 gemm, 1 fftw */
    size_t n;      /* gemm: n x n x n; fftw: N points */
    double budget; /* seconds of search */
    tn_result res;
    /* gemm */
    float *a, *b, *c;
    tn_gemm_ws ws;
    tn_gemm_cfg cfg;
    /* fftw: complex double in and out, the input in double for the
     * reference, the plan of each planner level (the chosen one kept) */
    double *in, *out;
    void *plans[4];
} at_inst;

/* Seconds on the monotonic clock. */
double at_now(void);

/* Metrics common to both kernels: the space, points tried, seconds the
 * search took, tuned and default seconds per run and their ratio.
 * [instance] */
void at_report_search(at_inst *d);

/* FFTW (bench_autotune_fftw.c): buffers, search over the planner levels,
 * one execution of the chosen plan, the check against the direct DFT and
 * the cleanup. [instance] */
bhost_status at_fftw_setup(at_inst *d);
void at_fftw_run(at_inst *d);
bhost_status at_fftw_verify(at_inst *d);
void at_fftw_free(at_inst *d);

#endif /* SCI_AUTOTUNE_H */
