// SPDX-License-Identifier: MIT
/*
 * selftest.h -- internal interface of the selftest plugin.
 *
 * The plugin's benchmarks measure the host itself (noop), a calibrated CPU
 * load (spin), host memory bandwidth (memcpy) and a backend's device copies
 * (device_copy). Each benchmark lives in its own file and exports one
 * descriptor; selftest.c lists them and owns the host API pointer.
 */
#ifndef BH_SELFTEST_H
#define BH_SELFTEST_H

#include <bhost/plugin.h>

#if defined(__GNUC__) || defined(__clang__)
#define BH_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define BH_PRINTF(fmt, args)
#endif

/* Largest integer a double holds exactly: the upper bound of I64 params that
 * have only a lower bound (the ABI expresses ranges as min <= max). */
#define BH_SELFTEST_I64_MAX 9007199254740992.0

/* The host API from init(); valid until deinit() returns. */
extern const bhost_host_api *bh_selftest_api;

extern const bhost_bench_desc bh_selftest_noop;
extern const bhost_bench_desc bh_selftest_spin;
extern const bhost_bench_desc bh_selftest_memcpy;
extern const bhost_bench_desc bh_selftest_device_copy;

/* Formats a message, hands it to set_error(h, ...) and returns st. h may be
 * NULL. [any-thread] */
bhost_status bh_selftest_fail(bhost_host *h, bhost_status st, const char *fmt,
                              ...) BH_PRINTF(3, 4);

/* Reads the I64 parameter key of case h into *out. Returns BHOST_OK, or the
 * host's status after set_error() when the host cannot supply it. [instance] */
bhost_status bh_selftest_param_i64(bhost_host *h, const char *key,
                                   int64_t *out);

/* As bh_selftest_param_i64() for an F64 parameter. [instance] */
bhost_status bh_selftest_param_f64(bhost_host *h, const char *key,
                                   double *out);

/* Splitmix64 step: a well-mixed 64-bit value from *state, never a fixed
 * point. Advances *state. [any-thread] */
uint64_t bh_selftest_mix(uint64_t *state);

#endif /* BH_SELFTEST_H */
