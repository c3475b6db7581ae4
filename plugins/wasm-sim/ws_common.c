// SPDX-License-Identifier: MIT
/*
 * ws_common.c -- helpers the wasm-sim benchmark files share: errors and
 * logs, parameters, accounted memory, seeded inputs, the toolchain note,
 * the native-ratio timing and the verification report.
 */
#include "ws.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ws_mode_names[] = {"native", "wasm-cpu", "wasm-simd", NULL};
const char *const ws_memcheck_names[] = {"explicit", "guard", NULL};
const char *const ws_toolchain_choices[] = {WS_TOOLCHAIN, NULL};

/* "wasm-sim: " and the formatted message into msg (cap bytes). */
static void format(char *msg, size_t cap, const char *fmt, va_list ap)
    WS_PRINTF(3, 0);
static void format(char *msg, size_t cap, const char *fmt, va_list ap)
{
    int n = snprintf(msg, cap, "wasm-sim: ");

    vsnprintf(msg + n, cap - (size_t)n, fmt, ap);
}

bhost_status ws_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    st = bh_plugin_vfail(h, st, "wasm-sim: ", fmt, ap);
    va_end(ap);
    return st;
}

void ws_log(bhost_host *h, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    format(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    ws_api->log(h, BHOST_LOG_INFO, msg);
}

bhost_status ws_mnk(bhost_host *h, int64_t max_nk, uint32_t *m, uint32_t *n,
                    uint32_t *k)
{
    int64_t v[3] = {1, 1, 1};
    bhost_status st = bh_plugin_i64(h, WS_PREFIX, "m", 1, 4096, &v[0]);

    if (st == BHOST_OK)
        st = bh_plugin_i64(h, WS_PREFIX, "n", 1, max_nk, &v[1]);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, WS_PREFIX, "k", 1, max_nk, &v[2]);
    *m = (uint32_t)v[0];
    *n = (uint32_t)v[1];
    *k = (uint32_t)v[2];
    return st;
}

void *ws_alloc(bhost_host *h, size_t bytes)
{
    void *p = ws_api->alloc(h, bytes ? bytes : 1, 64);

    if (p == NULL)
        ws_fail(h, BHOST_E_NOMEM, "out of memory (%zu bytes)", bytes);
    return p;
}

void *ws_zalloc(bhost_host *h, size_t bytes)
{
    void *p = ws_alloc(h, bytes);

    if (p != NULL)
        memset(p, 0, bytes);
    return p;
}

void ws_free(bhost_host *h, void *p)
{
    ws_api->free(h, p);
}

void ws_random_f32(bhost_host *h, float *out, size_t n, float lo, float hi,
                   uint64_t stream)
{
    uint64_t s = bh_rng_mix(ws_api->seed(h) ^ (stream << 48));

    for (size_t i = 0; i < n; i++) {
        double u = (double)(bh_rng_mix(s + i) >> 11) * 0x1p-53;

        out[i] = (float)(lo + (hi - lo) * u);
    }
}

void ws_random_i8(bhost_host *h, int8_t *out, size_t n, uint64_t stream)
{
    uint64_t s = bh_rng_mix(ws_api->seed(h) ^ (stream << 48));

    for (size_t i = 0; i < n; i++)
        out[i] = (int8_t)((int)(bh_rng_mix(s + i) % 255u) - 127);
}

bhost_status ws_mode(bhost_host *h, int *mode, int *guard)
{
    bhost_status st = bh_plugin_choice(h, WS_PREFIX, "mode", ws_mode_names, mode);

    if (st == BHOST_OK)
        st = bh_plugin_choice(h, WS_PREFIX, "memcheck", ws_memcheck_names, guard);
    if (st == BHOST_OK && *mode == WS_NATIVE && *guard)
        return ws_fail(h, BHOST_E_SKIP,
                       "memcheck applies to the wasm modes only (native "
                       "runs once, with memcheck: explicit)");
    return st;
}

void ws_log_toolchain(bhost_host *h, int mode, int guard)
{
    ws_log(h, "mode %s, %s runtime (WASM_RT_MEMCHECK_SIGNAL_HANDLER=%d); %s",
           ws_mode_names[mode], guard ? "guard-page" : "explicit-bounds-check",
           guard, WS_TOOLCHAIN);
}

bhost_status ws_trap(bhost_host *h, const wsim_inst *w, int code,
                     const char *what)
{
    return ws_fail(h, BHOST_E_DEVICE, "%s: wasm trap in %s memory: %s", what,
                   w->ops->name, wsim_trap_name(w, code));
}

/* Nanoseconds body takes for n iterations, or a failure. */
static bhost_status time_body(void *inst, ws_body body, int native,
                              uint64_t n, double *ns)
{
    uint64_t t0 = ws_api->now_ns(NULL);
    bhost_status st = body(inst, native, n);

    *ns = (double)(ws_api->now_ns(NULL) - t0);
    return st;
}

bhost_status ws_report_ratio(bhost_host *h, void *inst, ws_body body)
{
    enum { ROUNDS = 5 };
    double ratio[ROUNDS], mode_ns[ROUNDS], native_ns[ROUNDS], a, b;
    uint64_t n = 1;
    bhost_status st;

    /* calibrate: the slower side takes >= 2 ms */
    for (;;) {
        st = time_body(inst, body, 0, n, &a);
        if (st == BHOST_OK)
            st = time_body(inst, body, 1, n, &b);
        if (st != BHOST_OK)
            return st;
        if ((a > b ? a : b) >= 2e6 || n >= (UINT64_C(1) << 24))
            break;
        n *= 2;
    }
    for (int r = 0; r < ROUNDS; r++) {
        st = time_body(inst, body, 0, n, &a);
        if (st == BHOST_OK)
            st = time_body(inst, body, 1, n, &b);
        if (st != BHOST_OK)
            return st;
        mode_ns[r] = a / (double)n;
        native_ns[r] = b / (double)n;
        ratio[r] = b > 0 ? a / b : 0.0;
    }
    qsort(ratio, ROUNDS, sizeof(double), bh_cmp_double);
    qsort(mode_ns, ROUNDS, sizeof(double), bh_cmp_double);
    qsort(native_ns, ROUNDS, sizeof(double), bh_cmp_double);
    bh_plugin_metric(h, "ratio_to_native", "x", BHOST_LOWER_IS_BETTER, ratio[ROUNDS / 2]);
    bh_plugin_metric(h, "mode_ns", "ns", BHOST_LOWER_IS_BETTER, mode_ns[ROUNDS / 2]);
    bh_plugin_metric(h, "native_ns", "ns", BHOST_LOWER_IS_BETTER, native_ns[ROUNDS / 2]);
    return BHOST_OK;
}

bhost_status ws_report_check(bhost_host *h, const char *what, double max_err,
                             double worst_ratio, size_t worst_at,
                             int bit_exact)
{
    bh_plugin_metric_info(h, "verify.max_abs_err", "", max_err);
    /* verify fails above 1 (each element against its own tolerance). */
    bh_plugin_metric_error(h, "verify.err_to_tol", "", worst_ratio, 1.0);
    if (bit_exact >= 0)
        bh_plugin_metric_info(h, "verify.bit_exact", "", bit_exact ? 1.0 : 0.0);
    if (!(worst_ratio <= 1.0))
        return ws_fail(h, BHOST_E_VERIFY,
                       "%s: element %zu off by %.3g times its tolerance", what,
                       worst_at, worst_ratio);
    return BHOST_OK;
}
