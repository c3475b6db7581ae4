// SPDX-License-Identifier: MIT
/*
 * tk_body_table.h -- the tk_isa_ops table of one ISA file: every kernel of
 * the bodies included before it, under the name TK_FN(tk_ops).
 */

const tk_isa_ops TK_FN(tk_ops) = {
    .ew_f32 = ew_f32,
    .ew_f64 = ew_f64,
    .fill64 = fill64,
    .arange_f32 = arange_f32,
    .arange_f64 = arange_f64,
    .rand_f32 = rand_f32,
    .sum_f32 = sum_f32,
    .max_f32 = max_f32,
    .argmax_f32 = argmax_f32,
    .moments_f32 = moments_f32,
    .acc_add = acc_add,
    .acc_max = acc_max,
    .acc_sqdev = acc_sqdev,
    .softmax_row = softmax_row,
    .layernorm_row = layernorm_row,
    .rmsnorm_row = rmsnorm_row,
    .stream = stream_k,
    .cvt_f32_f16 = cvt_f32_f16,
    .cvt_f16_f32 = cvt_f16_f32,
    .cvt_f32_bf16 = cvt_f32_bf16,
    .cvt_bf16_f32 = cvt_bf16_f32,
    .absmax_f32 = absmax_f32,
    .quant_i8 = quant_i8,
    .dequant_i8 = dequant_i8,
};
