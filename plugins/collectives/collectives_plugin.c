// SPDX-License-Identifier: MIT
/*
 * collectives_plugin.c -- entry point and benchmark list of the
 * collectives plugin (coll_plugin.h).
 */
#include "coll_plugin.h"

const bhost_host_api *bh_coll_api;

static const bhost_bench_desc *const benches[] = {
    &bh_coll_allreduce, &bh_coll_allgather,   &bh_coll_reduce_scatter, &bh_coll_broadcast,
    &bh_coll_alltoall,  &bh_coll_p2p_latency, &bh_coll_p2p_bandwidth,
};

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(bh_coll_api, "org.bhost.collectives", "collectives", BH_PLUGIN_VERSION,
                "MPI collectives (allreduce, allgather, reduce_scatter, broadcast, alltoall) "
                "and point to point, as nccl-tests and the OSU benchmarks measure them",
                bh_plugin_no_setup)
