// SPDX-License-Identifier: MIT
/*
 * op_rank.c -- what the optimizer's multi-rank benchmarks (zero.mpi,
 * dp.step) share on the plugin side: starting MPI and holding the launch
 * to the case's "ranks", the communication-volume metrics against the
 * ZeRO formulas, and the digest the host compares across ranks
 * (bhost/ranks.h).
 *
 * Contracts of the exported functions: op.h.
 */
#include "op.h"

#include <bhost/ranks.h>
#include <math.h>
#include <string.h>

#include "zr.h"

/* The host's rank table, or NULL (a host older than ABI 1.2). */
static const bhost_host_ranks *host_ranks(bhost_host *h)
{
    if (!BHOST_HAS(bhost_host_api, bh_optim_api, get_extension) ||
        bh_optim_api->get_extension == NULL)
        return NULL;
    return bh_optim_api->get_extension(h, BHOST_HOST_EXT_RANKS);
}

bhost_status bh_optim_rank_start(bhost_host *h, int64_t ranks, int *rank, int *size)
{
    const bhost_host_ranks *hr = host_ranks(h);
    bhost_rank_info info = {.struct_size = sizeof(info)};
    char why[256];
    int have_info = hr != NULL && hr->info(h, &info) == BHOST_OK;

    if (have_info && info.size > 1 && strcmp(info.launcher, "local") == 0)
        return bh_optim_fail(h, BHOST_E_UNSUPPORTED,
                             "%u ranks need an MPI launcher (mpirun or srun): "
                             "the local launcher starts them without MPI",
                             info.size);
    if (have_info && info.size != (uint64_t)ranks)
        return bh_optim_fail(h, BHOST_E_SKIP,
                             "ranks=%lld but the host started %u process(es) "
                             "(bhost run starts 'ranks' of them; a single-process "
                             "cycle cannot run this case)",
                             (long long)ranks, info.size);
    if (zr_start(rank, size, why, sizeof(why)) != 0)
        return bh_optim_fail(h, BHOST_E_UNSUPPORTED, "%s", why);
    if (*size != ranks)
        return bh_optim_fail(h, BHOST_E_INVALID,
                             "ranks=%lld but MPI_COMM_WORLD has %d processes "
                             "(launch it through bhost, which starts 'ranks' "
                             "processes)",
                             (long long)ranks, *size);
    if (have_info && (info.size != (uint32_t)*size || info.rank != (uint32_t)*rank))
        return bh_optim_fail(h, BHOST_E_INVALID, "the host sees rank %u of %u, MPI rank %d of %d",
                             info.rank, info.size, *rank, *size);
    return BHOST_OK;
}

void bh_optim_rank_volume(bhost_host *h, double measured, double expected, double allowance)
{
    double ratio = expected > 0 ? measured / expected : (measured > 0 ? INFINITY : 1);

    bh_plugin_metric_info(h, "comm.bytes_per_step", "B", measured);
    bh_plugin_metric_info(h, "comm.expected_bytes", "B", expected);
    bh_plugin_metric_info(h, "comm.bytes_ratio", "", ratio);
    bh_plugin_metric_error(h, "comm.volume_error", "", fabs(ratio - 1), allowance);
}

bhost_status bh_optim_rank_digest(bhost_host *h, uint64_t digest)
{
    const bhost_host_ranks *hr = host_ranks(h);

    return hr != NULL ? hr->report_digest(h, digest) : BHOST_OK;
}
