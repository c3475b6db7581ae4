// SPDX-License-Identifier: MIT
/*
 * layout.c -- frozen LP64 layout of every struct in bhost/plugin.h.
 *
 * Built as C11 and C17 here and, through layout.cpp, as C++11/17/20, all with
 * -Wpadded -Werror, so implicit padding in the header also fails the build.
 * The numbers are literals on purpose: a change to any of them is an ABI
 * break (or an append, which changes only a sizeof) and must be deliberate.
 * Appending a field: update that struct's SIZE line and add an OFFSET line.
 *
 * It is also compiled against the frozen header tests/abi/headers/1.0, so
 * every assert here must hold for the 1.0 release too: when a minor
 * appends a field, guard its new SIZE and OFFSET lines with
 * #if BHOST_ABI_MINOR >= <that minor> and keep the 1.0 SIZE in the #else.
 */
#include <bhost/plugin.h>

#include "layout_assert.h"

/* The table below is for LP64 targets only (meson builds it only there). */
BH_ASSERT(sizeof(void *) == 8, "layout table is LP64");

/* Scalar typedefs are fixed-width. */
SIZE(bhost_status, 4);
SIZE(bhost_dtype, 4);
SIZE(bhost_log_level, 4);
SIZE(bhost_direction, 4);
SIZE(bhost_param_type, 4);
SIZE(bhost_reduce_op, 4);
SIZE(bhost_caps, 8);

/* Values are never reused: freeze them. */
VALUE(BHOST_ABI_MAJOR, 1);
VALUE(BHOST_ENTRY_SIZE_1_0, 72);
VALUE(BHOST_OK, 0);
VALUE(BHOST_E_INVALID, -1);
VALUE(BHOST_E_NOMEM, -2);
VALUE(BHOST_E_UNSUPPORTED, -3);
VALUE(BHOST_E_VERSION, -4);
VALUE(BHOST_E_DEVICE, -5);
VALUE(BHOST_E_INTERNAL, -6);
VALUE(BHOST_E_VERIFY, -7);
VALUE(BHOST_E_SKIP, -8);
VALUE(BHOST_DTYPE_F32, 1);
VALUE(BHOST_DTYPE_F64, 2);
VALUE(BHOST_DTYPE_F16, 3);
VALUE(BHOST_DTYPE_BF16, 4);
VALUE(BHOST_DTYPE_I8, 5);
VALUE(BHOST_DTYPE_I32, 6);
VALUE(BHOST_DTYPE_U8, 7);
VALUE(BHOST_DTYPE_I64, 8);
VALUE(BHOST_LOG_DEBUG, 0);
VALUE(BHOST_LOG_INFO, 1);
VALUE(BHOST_LOG_WARN, 2);
VALUE(BHOST_LOG_ERROR, 3);
VALUE(BHOST_LOWER_IS_BETTER, 1);
VALUE(BHOST_HIGHER_IS_BETTER, 2);
VALUE(BHOST_PARAM_I64, 1);
VALUE(BHOST_PARAM_F64, 2);
VALUE(BHOST_PARAM_STR, 3);
VALUE(BHOST_PARAM_BOOL, 4);
VALUE(BHOST_REDUCE_SUM, 1);
VALUE(BHOST_REDUCE_MIN, 2);
VALUE(BHOST_REDUCE_MAX, 3);
VALUE(BHOST_CAP_F64, UINT64_C(0x1));
VALUE(BHOST_CAP_F16, UINT64_C(0x2));
VALUE(BHOST_CAP_BF16, UINT64_C(0x4));
VALUE(BHOST_CAP_I8, UINT64_C(0x8));
VALUE(BHOST_CAP_UNIFIED_MEM, UINT64_C(0x10));
VALUE(BHOST_CAP_EVENT_TIMING, UINT64_C(0x20));
VALUE(BHOST_CAP_PINNED_HOST, UINT64_C(0x40));
VALUE(BHOST_CAP_KERNEL_GEMM, UINT64_C(0x10000));
VALUE(BHOST_CAP_KERNEL_AXPY, UINT64_C(0x20000));
VALUE(BHOST_CAP_KERNEL_REDUCE, UINT64_C(0x40000));
VALUE(BHOST_CAPS_KNOWN, UINT64_C(0x7007F));
VALUE(BHOST_MEM_DEVICE, 0u);
VALUE(BHOST_MEM_HOST_PINNED, 1u);
VALUE(BHOST_MEM_HOST_VISIBLE, 2u);
VALUE(BHOST_BENCH_NEEDS_DEVICE, 1u);
VALUE(BHOST_BENCH_MANUAL_TIMING, 2u);

/* bhost_host_api */
#if BHOST_ABI_MINOR >= 1
SIZE(bhost_host_api, 120);
OFFSET(bhost_host_api, report_metric_kind, 112);
#else
SIZE(bhost_host_api, 112);
#endif
OFFSET(bhost_host_api, struct_size, 0);
OFFSET(bhost_host_api, abi_minor, 4);
OFFSET(bhost_host_api, host_version, 8);
OFFSET(bhost_host_api, log, 16);
OFFSET(bhost_host_api, set_error, 24);
OFFSET(bhost_host_api, alloc, 32);
OFFSET(bhost_host_api, free, 40);
OFFSET(bhost_host_api, now_ns, 48);
OFFSET(bhost_host_api, param_i64, 56);
OFFSET(bhost_host_api, param_f64, 64);
OFFSET(bhost_host_api, param_str, 72);
OFFSET(bhost_host_api, report_metric, 80);
OFFSET(bhost_host_api, set_iteration_time_ns, 88);
OFFSET(bhost_host_api, seed, 96);
OFFSET(bhost_host_api, get_extension, 104);

/* bhost_entry */
SIZE(bhost_entry, 72);
OFFSET(bhost_entry, struct_size, 0);
OFFSET(bhost_entry, abi_major, 4);
OFFSET(bhost_entry, abi_minor, 8);
OFFSET(bhost_entry, flags, 12);
OFFSET(bhost_entry, plugin_id, 16);
OFFSET(bhost_entry, name, 24);
OFFSET(bhost_entry, plugin_version, 32);
OFFSET(bhost_entry, summary, 40);
OFFSET(bhost_entry, init, 48);
OFFSET(bhost_entry, deinit, 56);
OFFSET(bhost_entry, get_interface, 64);

/* bhost_device_info */
SIZE(bhost_device_info, 488);
OFFSET(bhost_device_info, struct_size, 0);
OFFSET(bhost_device_info, compute_units, 4);
OFFSET(bhost_device_info, name, 8);
OFFSET(bhost_device_info, vendor, 264);
OFFSET(bhost_device_info, driver_version, 328);
OFFSET(bhost_device_info, runtime_version, 392);
OFFSET(bhost_device_info, global_mem_bytes, 456);
OFFSET(bhost_device_info, caps, 464);
OFFSET(bhost_device_info, timer_resolution_ns, 472);
OFFSET(bhost_device_info, clock_mhz, 480);

/* bhost_backend */
SIZE(bhost_backend, 168);
OFFSET(bhost_backend, struct_size, 0);
OFFSET(bhost_backend, reserved, 4);
OFFSET(bhost_backend, id, 8);
OFFSET(bhost_backend, device_count, 16);
OFFSET(bhost_backend, device_info, 24);
OFFSET(bhost_backend, open, 32);
OFFSET(bhost_backend, close, 40);
OFFSET(bhost_backend, alloc, 48);
OFFSET(bhost_backend, free, 56);
OFFSET(bhost_backend, map, 64);
OFFSET(bhost_backend, copy_h2d, 72);
OFFSET(bhost_backend, copy_d2h, 80);
OFFSET(bhost_backend, copy_d2d, 88);
OFFSET(bhost_backend, stream_create, 96);
OFFSET(bhost_backend, stream_destroy, 104);
OFFSET(bhost_backend, stream_sync, 112);
OFFSET(bhost_backend, device_sync, 120);
OFFSET(bhost_backend, event_create, 128);
OFFSET(bhost_backend, event_destroy, 136);
OFFSET(bhost_backend, event_record, 144);
OFFSET(bhost_backend, event_elapsed_ns, 152);
OFFSET(bhost_backend, get_kernel, 160);

/* bhost_gemm_args */
SIZE(bhost_gemm_args, 120);
OFFSET(bhost_gemm_args, struct_size, 0);
OFFSET(bhost_gemm_args, a_type, 4);
OFFSET(bhost_gemm_args, b_type, 8);
OFFSET(bhost_gemm_args, c_type, 12);
OFFSET(bhost_gemm_args, compute_type, 16);
OFFSET(bhost_gemm_args, trans_a, 20);
OFFSET(bhost_gemm_args, trans_b, 24);
OFFSET(bhost_gemm_args, reserved, 28);
OFFSET(bhost_gemm_args, m, 32);
OFFSET(bhost_gemm_args, n, 40);
OFFSET(bhost_gemm_args, k, 48);
OFFSET(bhost_gemm_args, lda, 56);
OFFSET(bhost_gemm_args, ldb, 64);
OFFSET(bhost_gemm_args, ldc, 72);
OFFSET(bhost_gemm_args, alpha, 80);
OFFSET(bhost_gemm_args, beta, 88);
OFFSET(bhost_gemm_args, a, 96);
OFFSET(bhost_gemm_args, b, 104);
OFFSET(bhost_gemm_args, c, 112);

/* bhost_axpy_args */
SIZE(bhost_axpy_args, 40);
OFFSET(bhost_axpy_args, struct_size, 0);
OFFSET(bhost_axpy_args, type, 4);
OFFSET(bhost_axpy_args, n, 8);
OFFSET(bhost_axpy_args, alpha, 16);
OFFSET(bhost_axpy_args, x, 24);
OFFSET(bhost_axpy_args, y, 32);

/* bhost_reduce_args */
SIZE(bhost_reduce_args, 40);
OFFSET(bhost_reduce_args, struct_size, 0);
OFFSET(bhost_reduce_args, type, 4);
OFFSET(bhost_reduce_args, op, 8);
OFFSET(bhost_reduce_args, reserved, 12);
OFFSET(bhost_reduce_args, n, 16);
OFFSET(bhost_reduce_args, x, 24);
OFFSET(bhost_reduce_args, result, 32);

/* bhost_kernel_gemm */
SIZE(bhost_kernel_gemm, 16);
OFFSET(bhost_kernel_gemm, struct_size, 0);
OFFSET(bhost_kernel_gemm, reserved, 4);
OFFSET(bhost_kernel_gemm, run, 8);

/* bhost_kernel_axpy */
SIZE(bhost_kernel_axpy, 16);
OFFSET(bhost_kernel_axpy, struct_size, 0);
OFFSET(bhost_kernel_axpy, reserved, 4);
OFFSET(bhost_kernel_axpy, run, 8);

/* bhost_kernel_reduce */
SIZE(bhost_kernel_reduce, 16);
OFFSET(bhost_kernel_reduce, struct_size, 0);
OFFSET(bhost_kernel_reduce, reserved, 4);
OFFSET(bhost_kernel_reduce, run, 8);

/* bhost_param_desc */
SIZE(bhost_param_desc, 56);
OFFSET(bhost_param_desc, struct_size, 0);
OFFSET(bhost_param_desc, type, 4);
OFFSET(bhost_param_desc, key, 8);
OFFSET(bhost_param_desc, summary, 16);
OFFSET(bhost_param_desc, default_value, 24);
OFFSET(bhost_param_desc, choices, 32);
OFFSET(bhost_param_desc, min, 40);
OFFSET(bhost_param_desc, max, 48);

/* bhost_bench_desc */
#if BHOST_ABI_MINOR >= 1
SIZE(bhost_bench_desc, 120);
OFFSET(bhost_bench_desc, work_profile, 112);
#else
SIZE(bhost_bench_desc, 112);
#endif
OFFSET(bhost_bench_desc, struct_size, 0);
OFFSET(bhost_bench_desc, flags, 4);
OFFSET(bhost_bench_desc, id, 8);
OFFSET(bhost_bench_desc, summary, 16);
OFFSET(bhost_bench_desc, params, 24);
OFFSET(bhost_bench_desc, param_count, 32);
OFFSET(bhost_bench_desc, reserved, 36);
OFFSET(bhost_bench_desc, required_caps, 40);
OFFSET(bhost_bench_desc, create, 48);
OFFSET(bhost_bench_desc, setup, 56);
OFFSET(bhost_bench_desc, run, 64);
OFFSET(bhost_bench_desc, verify, 72);
OFFSET(bhost_bench_desc, destroy, 80);
OFFSET(bhost_bench_desc, flops_per_iter, 88);
OFFSET(bhost_bench_desc, bytes_per_iter, 96);
OFFSET(bhost_bench_desc, items_per_iter, 104);

#if BHOST_ABI_MINOR >= 1
/* bhost_work_profile (1.1) */
SIZE(bhost_work_profile, 24);
OFFSET(bhost_work_profile, struct_size, 0);
OFFSET(bhost_work_profile, access, 4);
OFFSET(bhost_work_profile, compute, 8);
OFFSET(bhost_work_profile, threads, 12);
OFFSET(bhost_work_profile, working_set_bytes, 16);
SIZE(bhost_metric_kind, 4);
SIZE(bhost_access, 4);
SIZE(bhost_compute, 4);
VALUE(BHOST_METRIC_PERFORMANCE, 1);
VALUE(BHOST_METRIC_INFORMATIONAL, 2);
VALUE(BHOST_METRIC_CORRECTNESS, 3);
VALUE(BHOST_ACCESS_READ, 1);
VALUE(BHOST_ACCESS_WRITE, 2);
VALUE(BHOST_ACCESS_READ_WRITE, 3);
VALUE(BHOST_COMPUTE_F64, 1);
VALUE(BHOST_COMPUTE_F32, 2);
VALUE(BHOST_COMPUTE_F16, 3);
VALUE(BHOST_COMPUTE_BF16, 4);
VALUE(BHOST_COMPUTE_INT8, 5);
VALUE(BHOST_BENCH_CEILING, 4u);
#endif

/* bhost_bench_factory */
SIZE(bhost_bench_factory, 24);
OFFSET(bhost_bench_factory, struct_size, 0);
OFFSET(bhost_bench_factory, reserved, 4);
OFFSET(bhost_bench_factory, count, 8);
OFFSET(bhost_bench_factory, get, 16);

/* A program, so that each language standard is also a registered test. */
int main(void)
{
    return 0;
}
