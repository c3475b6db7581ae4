// SPDX-License-Identifier: MIT
/*
 * selftest.c -- entry point and benchmark list of the selftest plugin.
 */
#include "selftest.h"

const bhost_host_api *bh_selftest_api;

static const bhost_bench_desc *const benches[] = {
    &bh_selftest_noop,
    &bh_selftest_spin,
    &bh_selftest_memcpy,
    &bh_selftest_device_copy,
    &bh_selftest_fixed,
};

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_selftest_api, "org.bhost.selftest", "selftest", BH_PLUGIN_VERSION,
                "Host self-checks: overhead, calibrated spin, memcpy, device copies",
                bh_plugin_no_setup)
