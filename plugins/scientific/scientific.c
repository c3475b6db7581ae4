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
    &bh_sci_dev_spmv,
    &bh_sci_dev_fft,
    &bh_sci_dev_conv2d,
#ifdef BH_SCI_HAVE_FFTW
    &bh_sci_fft,
#endif
    &bh_sci_rnn_lstm,
    &bh_sci_rnn_gru,
    &bh_sci_autotune,
    &bh_sci_conv,
    &bh_sci_pool,
    &bh_sci_norm,
};

bhost_status bh_sci_not_built(bhost_host *h, const char *what, const char *package)
{
    return bh_plugin_fail(h, BHOST_E_SKIP, "%s needs %s, not found at build time", what, package);
}

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_sci_api, "org.bhost.scientific", "scientific", BH_PLUGIN_VERSION,
                "Scientific kernels: sparse products (CSR SpMV, SpMM), FFT (FFTW3, radix-2), "
                "RNN (LSTM, GRU), autotuning",
                bh_plugin_no_setup)
