// SPDX-License-Identifier: MIT
/*
 * coll_bench.c -- the lifecycle every collectives benchmark shares
 * (coll_plugin.h): create reads the parameters and joins MPI, setup
 * allocates and fills (and copies to the device), run repeats the MPI
 * call (NCCL's on device memory), verify checks what this rank
 * received, reports the digest of a shared output and the bandwidth
 * metrics.
 */
#include "coll_plugin.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

bhost_status coll_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    st = bh_plugin_vfail(h, st, COLL_PREFIX, fmt, ap);
    va_end(ap);
    return st;
}

/* Reads what kind k declares into c (sizes not yet computed). */
static bhost_status read_params(bhost_host *h, coll_kind k, coll_case *c, int64_t *bytes,
                                int64_t *ranks)
{
    int dtype = 0, op = 0;
    int64_t root = 0, window = 1;
    bhost_status st = bh_plugin_i64(h, COLL_PREFIX, "ranks", 1, COLL_MAX_RANKS, ranks);

    if (st == BHOST_OK)
        st = bh_plugin_i64(h, COLL_PREFIX, "bytes", 1, INT32_MAX, bytes);
    if (st == BHOST_OK && k < COLL_P2P_LATENCY)
        st = bh_plugin_choice(h, COLL_PREFIX, "dtype", coll_dtype_names, &dtype);
    if (st == BHOST_OK && coll_kind_reduces(k))
        st = bh_plugin_choice(h, COLL_PREFIX, "op", coll_op_names, &op);
    if (st == BHOST_OK && k == COLL_BROADCAST)
        st = bh_plugin_i64(h, COLL_PREFIX, "root", 0, COLL_MAX_RANKS - 1, &root);
    if (st == BHOST_OK && k == COLL_P2P_BANDWIDTH)
        st = bh_plugin_i64(h, COLL_PREFIX, "window", 1, 1024, &window);
    c->kind = k;
    c->dtype = k < COLL_P2P_LATENCY ? (coll_dtype)dtype : COLL_BYTE;
    c->op = (coll_op)op;
    c->root = (unsigned)root;
    c->window = (unsigned)window;
    return st;
}

/* MPI joined, its world the `ranks` asked for; *device set for memory:
 * device. */
static bhost_status join(bhost_host *h, coll_case *c, int64_t ranks, int *device)
{
    char why[384];
    bhost_status st = bh_plugin_choice(h, COLL_PREFIX, "memory", coll_memory_names, device);

    if (st != BHOST_OK)
        return st;
    if (coll_mpi_init(&c->rank, &c->nranks, why, sizeof(why)) != 0)
        return coll_fail(h, BHOST_E_UNSUPPORTED, "%s", why);
    if (c->nranks != (unsigned)ranks)
        return coll_fail(h, BHOST_E_INVALID,
                         "ranks=%" PRId64 " but MPI_COMM_WORLD has %u process(es): run it "
                         "through a multi-rank launch (bhost's launcher, mpirun)",
                         ranks, c->nranks);
    if (c->kind == COLL_BROADCAST && c->root >= c->nranks)
        return coll_fail(h, BHOST_E_INVALID, "root=%u is not a rank of %u", c->root, c->nranks);
    return BHOST_OK;
}

/* This rank's place on its node: the host's rank table, else Open MPI's
 * environment, else the world's. */
static void node_place(bhost_host *h, const coll_case *c, unsigned *local, unsigned *size)
{
    const bhost_host_ranks *rx = bh_coll_api->get_extension(h, BHOST_HOST_EXT_RANKS);
    bhost_rank_info info = {.struct_size = sizeof(info)};
    const char *lr = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    const char *ls = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");

    *local = c->rank;
    *size = c->nranks;
    if (rx != NULL && rx->info(h, &info) == BHOST_OK && info.local_size > 0) {
        *local = info.local_rank;
        *size = info.local_size;
    } else if (lr != NULL && ls != NULL) {
        *local = (unsigned)atoi(lr);
        *size = (unsigned)atoi(ls);
    }
}

/* x->gpu opened for memory: device: BHOST_E_UNSUPPORTED with the reason
 * when a GPU, or both its collectives library (NCCL, RCCL) and an MPI
 * aware of its runtime, are missing. */
static bhost_status open_gpu(coll_inst *x)
{
    char why[384];
    unsigned local = 0, size = 1;

    x->gpu = bh_coll_api->alloc(x->h, sizeof(*x->gpu), 0);
    if (x->gpu == NULL)
        return coll_fail(x->h, BHOST_E_NOMEM, "no memory for the device state");
    *x->gpu = (coll_gpu){0};
    node_place(x->h, &x->c, &local, &size);
    if (coll_gpu_open(x->gpu, local, size, why, sizeof(why)) != 0)
        return coll_fail(x->h, BHOST_E_UNSUPPORTED, "%s", why);
    return BHOST_OK;
}

bhost_status coll_create(bhost_host *h, coll_kind k, void **inst)
{
    coll_case c = {0};
    int64_t bytes = 0, ranks = 0;
    int device = 0;
    coll_inst *x;
    bhost_status st = read_params(h, k, &c, &bytes, &ranks);

    if (st != BHOST_OK)
        return st;
    if (k >= COLL_P2P_LATENCY && ranks != 2)
        return coll_fail(h, BHOST_E_INVALID, "%s runs on ranks=2, not %" PRId64, coll_kind_name(k),
                         ranks);
    if (coll_sizes_of(k, c.dtype, (uint64_t)bytes, (unsigned)ranks, c.window, &c.sz) != 0)
        return coll_fail(h, BHOST_E_SKIP,
                         "%s: bytes=%" PRId64 " gives no %s element per rank on %" PRId64
                         " ranks (per-rank chunks are whole 16 bytes, as in nccl-tests)",
                         coll_kind_name(k), bytes, coll_dtype_names[c.dtype], ranks);
    st = join(h, &c, ranks, &device);
    if (st != BHOST_OK)
        return st;
    c.seed = bh_coll_api->seed(h);
    x = bh_coll_api->alloc(h, sizeof(*x), 0);
    if (x == NULL)
        return coll_fail(h, BHOST_E_NOMEM, "no memory for the instance");
    *x = (coll_inst){.h = h, .c = c};
    st = device ? open_gpu(x) : BHOST_OK;
    if (st != BHOST_OK) {
        coll_destroy(x);
        return st;
    }
    *inst = x;
    return BHOST_OK;
}

bhost_status BHOST_ABI coll_setup(void *inst, bhost_stream *s)
{
    coll_inst *x = inst;
    uint64_t sb = coll_send_bytes(&x->c), rb = coll_recv_bytes(&x->c);
    char why[384];

    (void)s;
    if (sb > 0 && x->c.send == NULL)
        x->c.send = bh_coll_api->alloc(x->h, sb, 64);
    if (x->c.recv == NULL)
        x->c.recv = bh_coll_api->alloc(x->h, rb, 64);
    if ((sb > 0 && x->c.send == NULL) || x->c.recv == NULL)
        return coll_fail(x->h, BHOST_E_NOMEM, "cannot allocate %" PRIu64 " + %" PRIu64 " bytes", sb,
                         rb);
    coll_fill(&x->c);
    if (x->gpu != NULL && coll_gpu_setup(x->gpu, &x->c, why, sizeof(why)) != 0)
        return coll_fail(x->h, BHOST_E_DEVICE, "rank %u: %s", x->c.rank, why);
    return BHOST_OK;
}

bhost_status BHOST_ABI coll_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    coll_inst *x = inst;
    char why[384];
    uint64_t t0 = bh_coll_api->now_ns(x->h);
    int rc = x->gpu != NULL ? coll_gpu_run(x->gpu, &x->c, iterations, why, sizeof(why))
                            : coll_mpi_run(&x->c, iterations, why, sizeof(why));

    (void)s;
    if (rc != 0)
        return coll_fail(x->h, BHOST_E_DEVICE, "rank %u: %s", x->c.rank, why);
    coll_times_add(&x->times, iterations, bh_coll_api->now_ns(x->h) - t0);
    return BHOST_OK;
}

/* The host's ranks extension, or NULL on a host older than ABI 1.2. */
static const bhost_host_ranks *ranks_ext(bhost_host *h)
{
    return bh_coll_api->get_extension(h, BHOST_HOST_EXT_RANKS);
}

/* 1 when every rank must hold the same output (its digest is compared). */
static int shared_output(coll_kind k)
{
    return k == COLL_ALLREDUCE || k == COLL_BROADCAST || k == COLL_ALLGATHER;
}

bhost_status BHOST_ABI coll_verify(void *inst)
{
    coll_inst *x = inst;
    const bhost_host_ranks *rx = ranks_ext(x->h);
    coll_mismatch m;
    char why[384];
    double ns = 0;
    bhost_status st = coll_times_median(x->h, &x->times, x->c.nranks, &ns);

    if (st != BHOST_OK)
        return st;
    if (x->c.recv == NULL)
        return coll_fail(x->h, BHOST_E_VERIFY, "verify before setup");
    if (x->gpu != NULL && coll_gpu_fetch(x->gpu, &x->c, why, sizeof(why)) != 0)
        return coll_fail(x->h, BHOST_E_DEVICE, "rank %u: %s", x->c.rank, why);
    if (coll_check(&x->c, &m))
        return coll_fail(
            x->h, BHOST_E_VERIFY,
            "%s: rank %u: element %" PRIu64 " of %" PRIu64 ": got %.17g, expected %.17g",
            coll_kind_name(x->c.kind), x->c.rank, m.element, x->c.sz.recv_count, m.got, m.expected);
    if (shared_output(x->c.kind) && rx != NULL) {
        st = rx->report_digest(x->h, coll_digest(&x->c));
        if (st != BHOST_OK)
            return coll_fail(x->h, st, "report_digest failed on rank %u", x->c.rank);
    }
    return coll_report(x->h, &x->c, ns);
}

void BHOST_ABI coll_destroy(void *inst)
{
    coll_inst *x = inst;

    if (x->gpu != NULL)
        coll_gpu_close(x->gpu);
    bh_coll_api->free(x->h, x->gpu);
    bh_coll_api->free(x->h, x->c.send);
    bh_coll_api->free(x->h, x->c.recv);
    bh_coll_api->free(x->h, x);
}

/* S of nccl-tests' algbw = S / t: the host's throughput is the algbw. */
double BHOST_ABI coll_bytes(void *inst)
{
    return (double)((const coll_inst *)inst)->c.sz.size_bytes;
}

/* Messages per iteration for point to point (p2p.latency: 2, so the
 * host's time per item is the one-way latency; p2p.bandwidth: the
 * window); one call for the collectives. */
double BHOST_ABI coll_items(void *inst)
{
    const coll_case *c = &((const coll_inst *)inst)->c;

    return c->kind == COLL_P2P_LATENCY ? 2.0 : c->kind == COLL_P2P_BANDWIDTH ? c->window : 1.0;
}

/* A read-write stream over what this rank's buffers hold, one thread. */
bhost_status BHOST_ABI coll_profile(void *inst, bhost_work_profile *out)
{
    const coll_case *c = &((const coll_inst *)inst)->c;

    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_NONE, 1,
                             (double)(coll_send_bytes(c) + coll_recv_bytes(c)));
}
