// SPDX-License-Identifier: MIT
/*
 * layout_sci.c -- frozen LP64 layout of bhost/sci_kernels.h, the optional
 * scientific kernel extension (added in 1.x without touching plugin.h).
 * Built like layout.c (C11, C17, C++11/17/20 through layout_sci.cpp, all
 * with -Wpadded -Werror): a changed number is an ABI break, or an append
 * that changes only a sizeof and must be deliberate.
 */
#include <bhost/ranks.h>
#include <bhost/sci_kernels.h>

#include "layout_assert.h"

BH_ASSERT(sizeof(void *) == 8, "layout table is LP64");

VALUE(BHOST_FFT_FORWARD, -1);
VALUE(BHOST_FFT_INVERSE, 1);

SIZE(bhost_spmv_args, 96);
OFFSET(bhost_spmv_args, type, 4);
OFFSET(bhost_spmv_args, index_type, 8);
OFFSET(bhost_spmv_args, reserved, 12);
OFFSET(bhost_spmv_args, rows, 16);
OFFSET(bhost_spmv_args, cols, 24);
OFFSET(bhost_spmv_args, nnz, 32);
OFFSET(bhost_spmv_args, alpha, 40);
OFFSET(bhost_spmv_args, beta, 48);
OFFSET(bhost_spmv_args, row_ptr, 56);
OFFSET(bhost_spmv_args, col_idx, 64);
OFFSET(bhost_spmv_args, values, 72);
OFFSET(bhost_spmv_args, x, 80);
OFFSET(bhost_spmv_args, y, 88);

SIZE(bhost_fft_args, 48);
OFFSET(bhost_fft_args, type, 4);
OFFSET(bhost_fft_args, n, 8);
OFFSET(bhost_fft_args, batch, 16);
OFFSET(bhost_fft_args, direction, 24);
OFFSET(bhost_fft_args, reserved, 28);
OFFSET(bhost_fft_args, in, 32);
OFFSET(bhost_fft_args, out, 40);

SIZE(bhost_conv2d_args, 128);
OFFSET(bhost_conv2d_args, type, 4);
OFFSET(bhost_conv2d_args, n, 8);
OFFSET(bhost_conv2d_args, c, 16);
OFFSET(bhost_conv2d_args, h, 24);
OFFSET(bhost_conv2d_args, w, 32);
OFFSET(bhost_conv2d_args, k, 40);
OFFSET(bhost_conv2d_args, r, 48);
OFFSET(bhost_conv2d_args, s, 56);
OFFSET(bhost_conv2d_args, stride_h, 64);
OFFSET(bhost_conv2d_args, stride_w, 72);
OFFSET(bhost_conv2d_args, pad_h, 80);
OFFSET(bhost_conv2d_args, pad_w, 88);
OFFSET(bhost_conv2d_args, groups, 96);
OFFSET(bhost_conv2d_args, in, 104);
OFFSET(bhost_conv2d_args, filter, 112);
OFFSET(bhost_conv2d_args, out, 120);

/* Every table is {struct_size, reserved, run}, like the 1.0 kernels. */
SIZE(bhost_kernel_spmv, 16);
SIZE(bhost_kernel_fft, 16);
SIZE(bhost_kernel_conv2d, 16);
OFFSET(bhost_kernel_spmv, run, 8);
OFFSET(bhost_kernel_fft, run, 8);
OFFSET(bhost_kernel_conv2d, run, 8);

/* bhost/ranks.h (1.2): multi-rank benchmarks. */
VALUE(BHOST_BENCH_MULTI_RANK, 8);
SIZE(bhost_rank_info, 320);
OFFSET(bhost_rank_info, rank, 4);
OFFSET(bhost_rank_info, size, 8);
OFFSET(bhost_rank_info, local_rank, 12);
OFFSET(bhost_rank_info, local_size, 16);
OFFSET(bhost_rank_info, node, 20);
OFFSET(bhost_rank_info, nodes, 24);
OFFSET(bhost_rank_info, reserved, 28);
OFFSET(bhost_rank_info, host, 32);
OFFSET(bhost_rank_info, launcher, 288);
SIZE(bhost_host_ranks, 32);
OFFSET(bhost_host_ranks, info, 8);
OFFSET(bhost_host_ranks, allgather, 16);
OFFSET(bhost_host_ranks, report_digest, 24);

int main(void)
{
    return 0;
}

