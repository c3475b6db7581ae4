// SPDX-License-Identifier: MIT
/*
 * coll_desc.c -- the collectives plugin's descriptors and parameters:
 * one create() per kind over the shared lifecycle of coll_bench.c.
 */
#include "coll_plugin.h"

const char *const coll_memory_names[] = {"host", "device", NULL};

#define P_RANKS(lo, hi) BH_PARAM_I64("ranks", "MPI processes of the launch", "2", lo, hi)
#define P_BYTES                                                                                    \
    BH_PARAM_I64("bytes",                                                                          \
                 "nccl-tests' size: the buffer per rank (allreduce, broadcast), the whole "        \
                 "output (allgather), input (reduce_scatter) or send buffer (alltoall)",           \
                 "1048576", 8, 2147483647.0)
#define P_DTYPE BH_PARAM_STR("dtype", "Element type: f32, f64 or i32", "f32", coll_dtype_names)
#define P_OP    BH_PARAM_STR("op", "Reduction: sum, max or min", "sum", coll_op_names)
#define P_MEMORY                                                                                   \
    BH_PARAM_STR("memory", "host, or device (NCCL or RCCL, or a CUDA- or ROCm-aware MPI)", "host", \
                 coll_memory_names)

static const bhost_param_desc reduce_params[] = {
    P_RANKS(1, COLL_MAX_RANKS), P_BYTES, P_DTYPE, P_OP, P_MEMORY,
};
static const bhost_param_desc move_params[] = {
    P_RANKS(1, COLL_MAX_RANKS),
    P_BYTES,
    P_DTYPE,
    P_MEMORY,
};
static const bhost_param_desc bcast_params[] = {
    P_RANKS(1, COLL_MAX_RANKS),
    P_BYTES,
    P_DTYPE,
    BH_PARAM_I64("root", "The rank that broadcasts", "0", 0, COLL_MAX_RANKS - 1),
    P_MEMORY,
};
static const bhost_param_desc lat_params[] = {
    P_RANKS(2, 2),
    BH_PARAM_I64("bytes", "Message size", "8", 1, 2147483647.0),
    P_MEMORY,
};
static const bhost_param_desc bw_params[] = {
    P_RANKS(2, 2),
    BH_PARAM_I64("bytes", "Message size", "1048576", 1, 2147483647.0),
    BH_PARAM_I64("window", "Non-blocking sends per iteration before the ack (osu_bw: 64)", "64", 1,
                 1024),
    P_MEMORY,
};

/* create() of kind K, named create_K. */
#define COLL_CREATE(name, kind)                                                                    \
    static bhost_status BHOST_ABI create_##name(bhost_host *h, const bhost_backend *be,            \
                                                bhost_dev *dev, void **inst)                       \
    {                                                                                              \
        (void)be;                                                                                  \
        (void)dev;                                                                                 \
        return coll_create(h, kind, inst);                                                         \
    }

/* The descriptor of one benchmark over the shared lifecycle. */
#define COLL_DESC(var, id_, summary_, params_, name)                                               \
    COLL_CREATE(name, var##_kind)                                                                  \
    const bhost_bench_desc var = {                                                                 \
        .struct_size = sizeof(bhost_bench_desc),                                                   \
        .flags = BHOST_BENCH_MULTI_RANK,                                                           \
        .id = id_,                                                                                 \
        .summary = summary_,                                                                       \
        .params = params_,                                                                         \
        .param_count = BH_PLUGIN_COUNT(params_),                                                   \
        .create = create_##name,                                                                   \
        .setup = coll_setup,                                                                       \
        .run = coll_run,                                                                           \
        .verify = coll_verify,                                                                     \
        .destroy = coll_destroy,                                                                   \
        .bytes_per_iter = coll_bytes,                                                              \
        .items_per_iter = coll_items,                                                              \
        .work_profile = coll_profile,                                                              \
    };

#define bh_coll_allreduce_kind      COLL_ALLREDUCE
#define bh_coll_allgather_kind      COLL_ALLGATHER
#define bh_coll_reduce_scatter_kind COLL_REDUCE_SCATTER
#define bh_coll_broadcast_kind      COLL_BROADCAST
#define bh_coll_alltoall_kind       COLL_ALLTOALL
#define bh_coll_p2p_latency_kind    COLL_P2P_LATENCY
#define bh_coll_p2p_bandwidth_kind  COLL_P2P_BANDWIDTH

COLL_DESC(bh_coll_allreduce, "allreduce", "MPI_Allreduce; busbw = algbw x 2(n-1)/n", reduce_params,
          allreduce)
COLL_DESC(bh_coll_allgather, "allgather", "MPI_Allgather; busbw = algbw x (n-1)/n", move_params,
          allgather)
COLL_DESC(bh_coll_reduce_scatter, "reduce_scatter",
          "MPI_Reduce_scatter_block; busbw = algbw x (n-1)/n", reduce_params, reduce_scatter)
COLL_DESC(bh_coll_broadcast, "broadcast", "MPI_Bcast from root; busbw = algbw", bcast_params,
          broadcast)
COLL_DESC(bh_coll_alltoall, "alltoall", "MPI_Alltoall; busbw = algbw x (n-1)/n", move_params,
          alltoall)
COLL_DESC(bh_coll_p2p_latency, "p2p.latency",
          "osu_latency ping-pong between ranks 0 and 1: one-way latency = round trip / 2",
          lat_params, p2p_latency)
COLL_DESC(bh_coll_p2p_bandwidth, "p2p.bandwidth",
          "osu_bw: a window of non-blocking sends 0 -> 1, then an ack", bw_params, p2p_bandwidth)
