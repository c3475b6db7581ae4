// SPDX-License-Identifier: MIT
/*
 * ws.h -- internal interface of the wasm-sim plugin: a thin adapter from
 * the bhost.benchmarks/1 ABI to libwsim_core (core/wsim.h: the wasm2c
 * module, the 128-bit mode, copies; core/mob.h: the mobile simulation).
 * Each bench_*.c file serves one family and exports its descriptors.
 *
 * Every case that compares a mode with native code reports, from verify()
 * (untimed, after its output was checked): ratio_to_native (time of the
 * mode / time of the native build of the same C source, measured
 * alternately in the same process, median of 5 rounds), mode_ns and
 * native_ns (per iteration).
 */
#ifndef BH_WASM_SIM_WS_H
#define BH_WASM_SIM_WS_H

#include <bhost/plugin.h>

#include "bh_cmp.h"
#include "bh_plugin.h"
#include "bh_rng.h"
#include "wsim.h"
#include "wsim_build.h"

#if defined(__GNUC__) || defined(__clang__)
#define WS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define WS_PRINTF(fmt, args)
#endif

/* The host API from init(); valid until deinit() returns. */
extern const bhost_host_api *ws_api;

/* Formats a message prefixed "wasm-sim: ", hands it to set_error(h, ...)
 * and returns st. [any-thread] */
bhost_status ws_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
    WS_PRINTF(3, 4);

/* Logs an INFO line prefixed "wasm-sim: ". [any-thread] */
void ws_log(bhost_host *h, const char *fmt, ...) WS_PRINTF(2, 3);

/* The prefix of wasm-sim's messages, for plugins/common's parameter
 * readers (bh_plugin_i64, bh_plugin_f64_in, bh_plugin_choice). */
#define WS_PREFIX "wasm-sim: "

/* Parameters m (<= 4096), n and k (<= max_nk) of a matrix shape. */
bhost_status ws_mnk(bhost_host *h, int64_t max_nk, uint32_t *m, uint32_t *n, uint32_t *k);
/* Accounted, 64-byte aligned memory (>= 1 byte); NULL after set_error. */
void *ws_alloc(bhost_host *h, size_t bytes);
/* ws_alloc, zero-filled. */
void *ws_zalloc(bhost_host *h, size_t bytes);
void ws_free(bhost_host *h, void *p);

/* n floats uniform in [lo, hi) from the case seed and stream. */
void ws_random_f32(bhost_host *h, float *out, size_t n, float lo, float hi,
                   uint64_t stream);
/* n int8 uniform in [-127, 127] from the case seed and stream. */
void ws_random_i8(bhost_host *h, int8_t *out, size_t n, uint64_t stream);

/* Modes of the kernel benchmarks. */
enum { WS_NATIVE = 0, WS_WASM_CPU = 1, WS_WASM_SIMD = 2 };
extern const char *const ws_mode_names[];   /* native wasm-cpu wasm-simd */
extern const char *const ws_memcheck_names[]; /* explicit guard */

/* The toolchain that built this plugin's wasm, in one line: the clang
 * version and flags for kern.wasm, the wasm2c version, the compiler and
 * flags of the generated C and of the native kernels, and the wasm-simd
 * note. It is the default (and only choice) of the STR parameter
 * "toolchain" of every benchmark that runs wasm code, so that each case's
 * params in the result record it (a config may pin it: another build is
 * then refused). */
#define WS_TOOLCHAIN                                                           \
    "kern.wasm: " WSIM_WASM_CC " " WSIM_WASM_FLAGS "; wasm2c "                 \
    WSIM_WASM2C_VERSION " with its runtime (explicit or guard build); "        \
    "generated C and native kernels: " WSIM_HOST_CC " " WSIM_NATIVE_FLAGS      \
    "; wasm-simd: native 128-bit vectors (" WSIM_SIMD_FLAGS ") in the "        \
    "bounds-checked linear memory, since Debian's wasm2c "                     \
    WSIM_WASM2C_VERSION " refuses SIMD modules"
extern const char *const ws_toolchain_choices[];

/* Reads "mode" and "memcheck" (WS_*; guard 0/1); native with guard is
 * skipped (the memcheck does not apply to it). */
bhost_status ws_mode(bhost_host *h, int *mode, int *guard);

/* One line naming the toolchain, the flags, the runtime build and the
 * SIMD note: logged by every case that runs wasm code. */
void ws_log_toolchain(bhost_host *h, int mode, int guard);

/* A trap as a failure: "<what>: wasm trap in <mode> (<memcheck>): <text>",
 * BHOST_E_DEVICE. */
bhost_status ws_trap(bhost_host *h, const wsim_inst *w, int code,
                     const char *what);

/* Runs iters iterations of the mode (native = 0) or of the native build
 * (native = 1); BHOST_OK or a failure after set_error. */
typedef bhost_status (*ws_body)(void *inst, int native, uint64_t iters);

/* Times body(inst, 0, n) and body(inst, 1, n) alternately, 5 rounds, n
 * calibrated so that the slower side takes >= 2 ms; reports
 * ratio_to_native, mode_ns and native_ns. */
bhost_status ws_report_ratio(bhost_host *h, void *inst, ws_body body);

/* Reports verify.max_abs_err, verify.err_to_tol and, when bit_exact >= 0,
 * verify.bit_exact; a worst err/tol above 1 is BHOST_E_VERIFY naming the
 * element. */
bhost_status ws_report_check(bhost_host *h, const char *what, double max_err,
                             double worst_ratio, size_t worst_at,
                             int bit_exact);

/* Common parameter descriptors. */
#define WS_PARAM_MODE                                                          \
    BH_PARAM_STR("mode",                                                       \
                 "native (the C source built natively), wasm-cpu (scalar "     \
                 "wasm via wasm2c) or wasm-simd (128-bit vectors in the "      \
                 "linear memory)",                                             \
                 "wasm-cpu", ws_mode_names)
#define WS_PARAM_TOOLCHAIN                                                     \
    BH_PARAM_STR("toolchain",                                                  \
                 "Toolchain this build of the plugin used (recorded in the "   \
                 "result; a config may pin it)",                               \
                 WS_TOOLCHAIN, ws_toolchain_choices)
#define WS_PARAM_MEMCHECK                                                      \
    BH_PARAM_STR("memcheck",                                                   \
                 "Linear-memory bounds checks: explicit (a compare per "       \
                 "access) or guard (guard pages and a SIGSEGV handler)",       \
                 "explicit", ws_memcheck_names)

/* A create() forwarding to fn(h, be, dev, kind, out). */
#define WS_CREATE(name, fn, kind)                                              \
    static bhost_status BHOST_ABI name(bhost_host *h, const bhost_backend *be, \
                                       bhost_dev *dev, void **out)             \
    {                                                                          \
        return fn(h, be, dev, kind, out);                                      \
    }

/* A descriptor whose lifecycle and work functions are pfx##_setup, _run,
 * _verify, _destroy, _flops, _bytes, _items and _profile (the work
 * profile, ABI 1.1). */
#define WS_DESC(var, id_, flags_, summary_, params_, create_, pfx)             \
    static const bhost_bench_desc var = {                                      \
        .struct_size = sizeof(bhost_bench_desc),                               \
        .flags = (flags_),                                                     \
        .id = (id_),                                                           \
        .summary = (summary_),                                                 \
        .params = (params_),                                                   \
        .param_count = sizeof(params_) / sizeof(*(params_)),                   \
        .create = create_,                                                     \
        .setup = pfx##_setup,                                                  \
        .run = pfx##_run,                                                      \
        .verify = pfx##_verify,                                                \
        .destroy = pfx##_destroy,                                              \
        .flops_per_iter = pfx##_flops,                                         \
        .bytes_per_iter = pfx##_bytes,                                         \
        .items_per_iter = pfx##_items,                                         \
        .work_profile = pfx##_profile,                                         \
    }

/* The benchmark families. */
extern const bhost_bench_desc *const ws_kernel_benches[];
extern const bhost_bench_desc *const ws_webgpu_benches[];
extern const bhost_bench_desc *const ws_mem_benches[];
extern const bhost_bench_desc *const ws_mobile_benches[];

#endif /* BH_WASM_SIM_WS_H */
