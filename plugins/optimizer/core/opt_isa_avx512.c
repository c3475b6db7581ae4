// SPDX-License-Identifier: MIT
/*
 * opt_isa_avx512.c -- the element kernels compiled for AVX-512 (F, BW, DQ,
 * VL): defines opt_ops_avx512. Nothing here runs unless opt_isa() chose it.
 */
#define OPT_VEC_AVX512 1
#include "opt_body.h"

const opt_isa_ops opt_ops_avx512 = {
    sgd_avx512,       adam_avx512,    adagrad_avx512, rmsprop_avx512,
    lamb1_avx512,     lamb2_avx512,   lion_avx512,    sumsq_avx512,
    accum_avx512,     from_bf16_avx512, from_f16_avx512, to_bf16_avx512,
    to_f16_avx512,    triad_avx512,
};
