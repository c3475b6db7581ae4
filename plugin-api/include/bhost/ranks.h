// SPDX-License-Identifier: MIT
/*
 * bhost/ranks.h -- multi-rank benchmarks: one case run by N processes of
 * one launch (mpirun, srun, or bhost's own local launch).
 *
 * A benchmark opts in with BHOST_BENCH_MULTI_RANK in its descriptor's
 * flags and MUST declare an I64 parameter named "ranks" (its default and
 * range say which counts it accepts; min == max fixes it). The host then
 * starts that many processes of the worker through the configured
 * launcher, every one running the same lifecycle (create, setup, run,
 * verify, destroy) on the same parameters. The host makes every timed
 * call collective: before each call all ranks meet at a barrier, each
 * rank times its own call, and the sample is the maximum over ranks
 * (every rank's own times are kept in the result). Rank 0's result is
 * the case's; any other rank's failure, crash or hang becomes the case's
 * status, naming the rank, and every rank is killed.
 *
 * The host's side of this is the extension table below, found with
 * api->get_extension(h, BHOST_HOST_EXT_RANKS). It is served in every
 * case (a case of one rank sees rank 0 of 1), and is NULL on a host older
 * than ABI 1.2. The benchmark's own communication (MPI, NCCL, a socket of
 * its own) is its business: the host neither links nor initialises MPI.
 * A plugin that uses MPI calls MPI_Init (or MPI_Init_thread) in create()
 * or setup() and MAY leave MPI_Finalize to process exit; the host's
 * barrier does not go through MPI.
 *
 * Threads: in a rank, the host makes every call into a multi-rank
 * benchmark (create through destroy) from one thread, the one that called
 * the plugin's init, and starts no thread of its own: MPI_THREAD_SINGLE
 * is enough for a plugin that starts none either, MPI_THREAD_FUNNELED
 * for one whose threads compute but do not call MPI. A higher level costs
 * on every message (Open MPI 4.1.4, 8 B one way: 245-261 ns at SINGLE,
 * 297-406 ns at FUNNELED, 296-331 ns at SERIALIZED).
 *
 * Same rules as bhost/plugin.h: fixed-width integers, struct_size first
 * (set by the CALLER for bhost_rank_info, by the host for the table),
 * growth only at the end.
 */
#ifndef BHOST_RANKS_H
#define BHOST_RANKS_H

#include <bhost/plugin.h>

#define BHOST_HOST_EXT_RANKS "bhost.host.ranks/1"

/* Where this process stands in the launch. */
typedef struct bhost_rank_info {
    uint32_t struct_size; /* set by the CALLER */
    uint32_t rank;        /* 0 .. size-1 */
    uint32_t size;        /* ranks in the launch */
    uint32_t local_rank;  /* 0 .. local_size-1, among the ranks of this node */
    uint32_t local_size;  /* ranks on this node */
    uint32_t node;        /* index of this node, 0 .. nodes-1 */
    uint32_t nodes;       /* nodes of the launch */
    uint32_t reserved;
    char host[256];       /* this node's host name */
    char launcher[32];    /* "mpirun", "srun", "local" */
} bhost_rank_info;

typedef struct bhost_host_ranks {
    uint32_t struct_size; /* set by the host */
    uint32_t reserved;
    /* [instance] Fills *out (out->struct_size set by the caller). */
    bhost_status(BHOST_ABI *info)(bhost_host *h, bhost_rank_info *out);
    /* [instance] Collective over all ranks, through the host (not MPI):
     * every rank passes 'bytes' bytes (the same count on every rank, at
     * most 1 MiB) and receives size * bytes in out, rank r's at
     * r * bytes. A barrier as well. Every rank MUST make the same
     * sequence of calls: a rank that does not arrive fails the case at
     * its deadline. BHOST_E_INVALID when the ranks' counts differ,
     * BHOST_E_DEVICE when a rank is gone. Untimed: call it from create(),
     * setup() or verify(), never from run(). */
    bhost_status(BHOST_ABI *allgather)(bhost_host *h, const void *in,
                                       uint32_t bytes, void *out);
    /* [instance] A digest of this rank's result for the last run(), for
     * benchmarks whose output must be the same on every rank (an
     * allreduce, a broadcast): the host compares the ranks' digests and
     * makes the case "invalid" naming the first rank that differs from
     * rank 0. Call it from verify(); a rank that never calls it is not
     * compared. */
    bhost_status(BHOST_ABI *report_digest)(bhost_host *h, uint64_t digest);
} bhost_host_ranks;

#endif /* BHOST_RANKS_H */
