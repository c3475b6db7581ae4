// SPDX-License-Identifier: MIT
/*
 * coll_plugin.h -- internal interface of the collectives plugin
 * (collectives.so): the benchmarks' shared lifecycle over the core of
 * coll.h (coll_bench.c), their descriptors (coll_desc.c), the per-call
 * times behind the algbw and busbw metrics (coll_timing.c); device
 * memory is coll_gpu.h's.
 *
 * Benchmarks, all BHOST_BENCH_MULTI_RANK with an I64 `ranks`:
 *   allreduce, allgather, reduce_scatter, broadcast, alltoall  MPI
 *     collectives over MPI_COMM_WORLD, sized as nccl-tests sizes them
 *   p2p.latency    osu_latency's ping-pong between ranks 0 and 1
 *   p2p.bandwidth  osu_bw's window of non-blocking sends and an ack
 */
#ifndef BH_COLL_PLUGIN_H
#define BH_COLL_PLUGIN_H

#include <bhost/plugin.h>
#include <bhost/ranks.h>

#include "bh_plugin.h"
#include "coll.h"
#include "coll_gpu.h"

#define COLL_PREFIX "collectives: "

/* Most ranks a case takes (the timing exchange stays under the host's
 * 1 MiB allgather). */
#define COLL_MAX_RANKS 1024

/* Run() calls whose times verify() keeps (the last ones). */
#define COLL_TIMES 64

extern const bhost_host_api *bh_coll_api;

/* The `memory` choices: "host", "device", NULL. */
extern const char *const coll_memory_names[];

/* The per-iteration time of this rank's last COLL_TIMES run() calls. */
typedef struct coll_times {
    uint64_t calls;
    double ns_per_iter[COLL_TIMES]; /* call i at i % COLL_TIMES */
    uint64_t iterations[COLL_TIMES];
} coll_times;

typedef struct coll_inst {
    bhost_host *h;
    coll_case c; /* host buffers (with memory: device, their mirrors) */
    coll_times times;
    coll_gpu *gpu; /* memory: device; NULL for host memory */
} coll_inst;

/* Formats COLL_PREFIX + message, set_error(h) and returns st. */
bhost_status coll_fail(bhost_host *h, bhost_status st, const char *fmt, ...) BH_PRINTF(3, 4);

/* The lifecycle of kind k (coll_bench.c); desc.create of each benchmark
 * calls coll_create with its kind. */
bhost_status coll_create(bhost_host *h, coll_kind k, void **inst);
bhost_status BHOST_ABI coll_setup(void *inst, bhost_stream *s);
bhost_status BHOST_ABI coll_run(void *inst, bhost_stream *s, uint64_t iterations);
bhost_status BHOST_ABI coll_verify(void *inst);
void BHOST_ABI coll_destroy(void *inst);
double BHOST_ABI coll_bytes(void *inst);
double BHOST_ABI coll_items(void *inst);
bhost_status BHOST_ABI coll_profile(void *inst, bhost_work_profile *out);

/* Adds one run() call of `iterations` that took ns to t. */
void coll_times_add(coll_times *t, uint64_t iterations, uint64_t ns);

/* The time per iteration of this case: for each of the last calls made
 * with the last call's iteration count (the host's calibrated samples,
 * not its calibration calls) the maximum over ranks (exchanged through
 * the host's ranks extension when there is more than one rank), then the
 * median over those calls; 0 when no call was timed. BHOST_OK or the host's status. [verify] */
bhost_status coll_times_median(bhost_host *h, const coll_times *t, unsigned nranks, double *ns);

/* Reports algbw, busbw (GB/s), their factor and S, and for p2p.latency
 * the one-way latency, from the time per iteration ns. [verify] */
bhost_status coll_report(bhost_host *h, const coll_case *c, double ns);

extern const bhost_bench_desc bh_coll_allreduce;
extern const bhost_bench_desc bh_coll_allgather;
extern const bhost_bench_desc bh_coll_reduce_scatter;
extern const bhost_bench_desc bh_coll_broadcast;
extern const bhost_bench_desc bh_coll_alltoall;
extern const bhost_bench_desc bh_coll_p2p_latency;
extern const bhost_bench_desc bh_coll_p2p_bandwidth;

#endif /* BH_COLL_PLUGIN_H */
