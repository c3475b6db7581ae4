// SPDX-License-Identifier: MIT
/*
 * optimizer_plugin.c -- entry point and benchmark list of the optimizer
 * plugin; owns the host API pointer (the entry is plugins/common's
 * BH_PLUGIN_ENTRY).
 */
#include "op.h"

const bhost_host_api *bh_optim_api;

static const bhost_bench_desc *const benches[] = {
    &bh_optim_step,     &bh_optim_zero, &bh_optim_zero_mpi, &bh_optim_dp_step,
    &bh_optim_schedule, &bh_optim_roof,
};

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_optim_api, "org.bhost.optimizer", "optimizer", BH_PLUGIN_VERSION,
                "Optimizer suite: fused SGD/Adam/AdamW/Adagrad/RMSprop/LAMB/Lion steps, "
                "schedulers, model-scale and ZeRO cases",
                bh_plugin_no_setup)
