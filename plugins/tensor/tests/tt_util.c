// SPDX-License-Identifier: MIT
/*
 * tt_util.c -- the shared test helpers and main(): runs every group.
 */
#include "tt_util.h"

#include <stdlib.h>

const size_t tt_sizes[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 63, 65,
                           100, 127, 129, 255, 257, 1000, 4099};
const size_t tt_nsizes = sizeof(tt_sizes) / sizeof(tt_sizes[0]);

void tt_seed(tt_rng *r, uint64_t seed)
{
    r->s = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
    if (r->s == 0)
        r->s = 1;
}

/* Next 64 random bits. */
static uint64_t next(tt_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * UINT64_C(0x2545F4914F6CDD1D);
}

double tt_uniform(tt_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)(next(r) >> 11) * 0x1p-53;
}

uint64_t tt_below(tt_rng *r, uint64_t n)
{
    return n == 0 ? 0 : next(r) % n;
}

void tt_fill_f32(tt_rng *r, float *x, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (float)tt_uniform(r, lo, hi);
}

void tt_each_isa(void (*fn)(int level, void *ctx), void *ctx)
{
    for (int level = TK_ISA_PORTABLE; level <= tk_isa_detected(); level++) {
        tk_isa_limit(level);
        fn(level, ctx);
    }
    tk_isa_limit(-1);
}

void *tt_alloc(size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);

    assert_non_null(p);
    return p;
}

int main(void)
{
    int failed = 0;

    failed += tt_group_ew();
    failed += tt_group_create();
    failed += tt_group_reduce();
    failed += tt_group_norm();
    failed += tt_group_manip();
    failed += tt_group_quant();
    failed += tt_group_gemm();
    failed += tt_group_misc();
    return failed != 0;
}
