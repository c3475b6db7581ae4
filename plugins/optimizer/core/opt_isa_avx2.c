// SPDX-License-Identifier: MIT
/*
 * opt_isa_avx2.c -- the element kernels compiled for AVX2 with FMA and
 * F16C: defines opt_ops_avx2. Nothing here runs unless opt_isa() chose it.
 */
#define OPT_VEC_AVX2 1
#include "opt_body.h"

const opt_isa_ops opt_ops_avx2 = {
    sgd_avx2,       adam_avx2,      adagrad_avx2,   rmsprop_avx2,
    lamb1_avx2,     lamb2_avx2,     lion_avx2,      sumsq_avx2,
    accum_avx2,     from_bf16_avx2, from_f16_avx2,  to_bf16_avx2,
    to_f16_avx2,    triad_avx2,
};
