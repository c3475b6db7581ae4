// SPDX-License-Identifier: MIT
/*
 * ot_util.h -- helpers shared by the liboptim unit tests: a seeded
 * generator, a one-group fixture with double-precision mirrors of every
 * array, and the tolerance check against the reference.
 */
#ifndef OT_UTIL_H
#define OT_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "opt.h"

/* Splitmix64 step. */
uint64_t ot_next(uint64_t *state);
/* Uniform in [lo, hi). */
double ot_uniform(uint64_t *state, double lo, double hi);

/* A group of tensors with their data, and the reference's copy of it. */
typedef struct ot_fix {
    opt_hparams hp;
    opt_group *g;
    size_t count;
    size_t total;
    opt_dtype param_dtype, grad_dtype;
    int used[3];
    /* per tensor data (the group points into these) */
    float **master;
    void **param;
    void **grad;
    float **state[3];
    /* reference mirrors over the flat index space (total elements) */
    double *rp, *rg, *rs[3];
    double *mag; /* |ref value| + sum of |ref changes| of p, per element */
    double *smag[3]; /* the same for each state slot, plus the sum of the
                        gradient terms |g| + wd |p| that entered it */
    uint64_t rng;
} ot_fix;

/* A fixture of count tensors of the given sizes, p uniform in [-1, 1),
 * state at its initial value, grads zero. Fails the test on OOM. */
ot_fix *ot_fix_new(const opt_hparams *hp, size_t count, const size_t *sizes,
                   opt_dtype param_dtype, opt_dtype grad_dtype, uint64_t seed);
void ot_fix_free(ot_fix *f);

/* New gradients uniform in [lo, hi) (stored in grad_dtype; rg gets the
 * stored values). */
void ot_fix_grads(ot_fix *f, double lo, double hi);

/* Element i (flat index) of master / param / state slot s / grad. */
double ot_master(const ot_fix *f, size_t i);
double ot_param(const ot_fix *f, size_t i);
double ot_state(const ot_fix *f, int s, size_t i);

/* One reference step over each tensor with lr, gradients rg x gscale and
 * clipping as hp says; returns the clip coefficient it applied. */
double ot_fix_ref_step(ot_fix *f, double lr, double gscale);

/* Largest |x - ref| / (rtol mag + atol) over master (p) and state slots
 * (mag: |ref| plus the sum of |ref changes| over the steps so far, the
 * scale rounding errors grow with), and in mixed precision the param copy
 * against the rounded master (exact). Values <= 1 pass. */
double ot_fix_worst(const ot_fix *f, double rtol, double atol);

#endif /* OT_UTIL_H */
