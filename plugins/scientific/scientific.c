// SPDX-License-Identifier: MIT
/*
 * scientific.c -- entry point and benchmark list of the scientific-kernels
 * plugin.
 */
#include "scientific.h"

const bhost_host_api *bh_sci_api;

static const bhost_bench_desc *const benches[] = {
    &bh_sci_spmv,
    &bh_sci_spmm,
#ifdef BH_SCI_HAVE_FFTW
    &bh_sci_fft,
#endif
    &bh_sci_conv,
    &bh_sci_pool,
    &bh_sci_norm,
};

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_sci_api, "org.bhost.scientific", "scientific", BH_PLUGIN_VERSION,
                "Scientific kernels: sparse products (CSR SpMV, SpMM), FFT (FFTW3, radix-2)",
                bh_plugin_no_setup)
