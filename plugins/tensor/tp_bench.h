// SPDX-License-Identifier: MIT
/*
 * tp_bench.h -- what the tensor plugin's op families (bench_ew.c,
 * bench_norm.c, bench_reduce.c, bench_quant.c, bench_manip.c,
 * bench_create.c) share to declare a benchmark: one macro per descriptor
 * and its create() wrapper, so each family lists only what differs.
 */
#ifndef BH_TENSOR_TP_BENCH_H
#define BH_TENSOR_TP_BENCH_H

#include "tp.h"

/* Defines create_<name>, which returns make(h, arg, inst) (the tensor ops
 * run on the CPU: backend and device are unused), and <name>_desc, the
 * descriptor "<group>.<name>" with summary sum, the parameters of the
 * array params_, the instance functions pre##_setup, _run, _verify and
 * _destroy, flops_per_iter flops (NULL: none counted) and bh_tensor_bytes,
 * bh_tensor_items and the work profile bh_tensor_profile (make sets the
 * base's access and compute). */
#define TP_BENCH(group, name, make, arg, params_, pre, flops, sum)                                \
    static bhost_status BHOST_ABI create_##name(bhost_host *h, const bhost_backend *be,          \
                                                bhost_dev *dev, void **inst)                       \
    {                                                                                              \
        (void)be;                                                                                  \
        (void)dev;                                                                                 \
        return make(h, arg, inst);                                                                 \
    }                                                                                              \
    static const bhost_bench_desc name##_desc = {                                                  \
        .struct_size = sizeof(bhost_bench_desc),                                                   \
        .id = group "." #name,                                                                     \
        .summary = sum,                                                                            \
        .params = params_,                                                                         \
        .param_count = sizeof(params_) / sizeof(params_[0]),                                       \
        .create = create_##name,                                                                   \
        .setup = pre##_setup,                                                                      \
        .run = pre##_run,                                                                          \
        .verify = pre##_verify,                                                                    \
        .destroy = pre##_destroy,                                                                  \
        .flops_per_iter = flops,                                                                   \
        .bytes_per_iter = bh_tensor_bytes,                                                         \
        .items_per_iter = bh_tensor_items,                                                         \
        .work_profile = bh_tensor_profile,                                                         \
    };

#endif /* BH_TENSOR_TP_BENCH_H */
