// SPDX-License-Identifier: MIT
/*
 * selftest.h -- internal interface of the selftest plugin.
 *
 * The plugin's benchmarks measure the host itself (noop), a calibrated CPU
 * load (spin), host memory bandwidth (memcpy) and a backend's device copies
 * (device_copy), and a self-timed wait of fixed length for the host's
 * statistics tests (fixed). Each benchmark lives in its own file and exports one
 * descriptor; selftest.c lists them and owns the host API pointer. The
 * failure line, parameter readers and splitmix64 are the shared ones of
 * plugins/common.
 */
#ifndef BH_SELFTEST_H
#define BH_SELFTEST_H

#include <bhost/plugin.h>

#include "bh_plugin.h"
#include "bh_rng.h"

/* The host API from init(); valid until deinit() returns. */
extern const bhost_host_api *bh_selftest_api;

extern const bhost_bench_desc bh_selftest_noop;
extern const bhost_bench_desc bh_selftest_spin;
extern const bhost_bench_desc bh_selftest_memcpy;
extern const bhost_bench_desc bh_selftest_device_copy;
extern const bhost_bench_desc bh_selftest_fixed;

/* The work profile of a benchmark that touches nothing worth a ceiling:
 * no memory stream, no arithmetic of a ceiling's class, one thread (noop,
 * spin, fixed). [instance] */
bhost_status BHOST_ABI bh_selftest_nothing_profile(void *inst, bhost_work_profile *out);

#endif /* BH_SELFTEST_H */
