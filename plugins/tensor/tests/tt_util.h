// SPDX-License-Identifier: MIT
/*
 * tt_util.h -- helpers shared by the libtensor_kernels unit tests: a
 * deterministic generator independent of the library, ISA iteration, and
 * the test groups each file provides to tt_main.c.
 */
#ifndef TT_UTIL_H
#define TT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tensor_kernels.h"

/* xorshift64* state for test data; never 0. */
typedef struct tt_rng {
    uint64_t s;
} tt_rng;

/* Seeds r (any value). */
void tt_seed(tt_rng *r, uint64_t seed);
/* Uniform double in [lo, hi). */
double tt_uniform(tt_rng *r, double lo, double hi);
/* Uniform integer in [0, n). */
uint64_t tt_below(tt_rng *r, uint64_t n);
/* n floats uniform in [lo, hi). */
void tt_fill_f32(tt_rng *r, float *x, size_t n, double lo, double hi);

/* Calls fn(level, ctx) for every ISA level this CPU runs (portable first),
 * with the library capped at that level, then removes the cap. */
void tt_each_isa(void (*fn)(int level, void *ctx), void *ctx);

/* calloc that fails the test instead of returning NULL. */
void *tt_alloc(size_t bytes);

/* Odd sizes that hit every tail of 1-, 8- and 16-lane vectors. */
extern const size_t tt_sizes[];
extern const size_t tt_nsizes;

/* The test groups (each returns cmocka's failure count). */
int tt_group_ew(void);
int tt_group_create(void);
int tt_group_reduce(void);
int tt_group_norm(void);
int tt_group_manip(void);
int tt_group_quant(void);
int tt_group_gemm(void);
int tt_group_misc(void);

#endif /* TT_UTIL_H */
