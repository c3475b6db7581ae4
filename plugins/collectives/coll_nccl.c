// SPDX-License-Identifier: MIT
/*
 * coll_nccl.c -- the collectives through NCCL or RCCL on device buffers:
 * libnccl.so.2 or librccl.so.1 loaded with dlopen (their entry points by
 * NCCL's names, which RCCL keeps, and the enums as both number them), the communicator joined with
 * rank 0's unique id sent over MPI, and one NCCL call per iteration as nccl-tests makes it
 * (alltoall and point to point as grouped ncclSend/ncclRecv). Contracts
 * in coll_gpu.h.
 */
#include "coll_gpu.h"

#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>

/* NCCL's numbers of the types and operators used here (nccl.h). */
enum { NCCL_UINT8 = 1, NCCL_INT32 = 2, NCCL_FLOAT32 = 7, NCCL_FLOAT64 = 8 };
enum { NCCL_SUM = 0, NCCL_MAX = 2, NCCL_MIN = 3 };

#define ACK_BYTES 4

int coll_nccl_load(coll_nccl *n, const char *soname, const char *name, char *why, size_t cap)
{
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    const char *err;
    const coll_sym syms[] = {
        {"ncclGetUniqueId", &n->get_unique_id},
        {"ncclCommInitRank", &n->comm_init_rank},
        {"ncclCommDestroy", &n->comm_destroy},
        {"ncclAllReduce", &n->all_reduce},
        {"ncclAllGather", &n->all_gather},
        {"ncclReduceScatter", &n->reduce_scatter},
        {"ncclBroadcast", &n->broadcast},
        {"ncclSend", &n->send},
        {"ncclRecv", &n->recv},
        {"ncclGroupStart", &n->group_start},
        {"ncclGroupEnd", &n->group_end},
        {"ncclGetErrorString", &n->error_text},
    };

    if (lib == NULL) {
        err = dlerror();
        snprintf(why, cap, "%s", err != NULL ? err : "not found");
        return -1;
    }
    n->name = name;
    return coll_dlsyms(lib, soname, syms, sizeof(syms) / sizeof(syms[0]), why, cap);
}

/* coll_lib_ok() with NCCL's error text. */
#define nccl_ok(n, rc, what, why, cap) coll_lib_ok((n)->error_text, (rc), (what), (why), (cap))

int coll_nccl_connect(const coll_nccl *n, unsigned rank, unsigned size, void **comm, char *why,
                      size_t cap)
{
    coll_nccl_id id = {{0}};

    if (rank == 0 && nccl_ok(n, n->get_unique_id(&id), "ncclGetUniqueId", why, cap) != 0)
        return -1; /* the other ranks then fail at their deadline in MPI_Bcast */
    if (MPI_Bcast(&id, (int)sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
        snprintf(why, cap, "MPI_Bcast of NCCL's unique id failed");
        return -1;
    }
    return nccl_ok(n, n->comm_init_rank(comm, (int)size, id, (int)rank), "ncclCommInitRank", why,
                   cap);
}

static int nccl_type(coll_dtype t)
{
    return t == COLL_F32   ? NCCL_FLOAT32
           : t == COLL_F64 ? NCCL_FLOAT64
           : t == COLL_I32 ? NCCL_INT32
                           : NCCL_UINT8;
}

static int nccl_op(coll_op op)
{
    return op == COLL_SUM ? NCCL_SUM : op == COLL_MAX ? NCCL_MAX : NCCL_MIN;
}

/* alltoall: chunk j of send to rank j, rank j's chunk into block j. */
static int alltoall(const coll_nccl *n, void *comm, void *s, const coll_case *c)
{
    size_t chunk = (size_t)c->sz.param_count, bytes = chunk * coll_dtype_size(c->dtype);
    int t = nccl_type(c->dtype), rc = n->group_start();

    for (unsigned j = 0; rc == 0 && j < c->nranks; j++) {
        rc = n->send((const char *)c->send + j * bytes, chunk, t, (int)j, comm, s);
        if (rc == 0)
            rc = n->recv((char *)c->recv + j * bytes, chunk, t, (int)j, comm, s);
    }
    return n->group_end() == 0 ? rc : -1;
}

/* One osu_latency round trip between ranks 0 and 1, stream-ordered. */
static int ping_pong(const coll_nccl *n, void *comm, void *s, const coll_case *c)
{
    size_t bytes = (size_t)c->sz.param_count;
    int rc = 0;

    if (c->rank == 0) {
        rc = n->send(c->send, bytes, NCCL_UINT8, 1, comm, s);
        if (rc == 0)
            rc = n->recv(c->recv, bytes, NCCL_UINT8, 1, comm, s);
    } else if (c->rank == 1) {
        rc = n->recv(c->recv, bytes, NCCL_UINT8, 0, comm, s);
        if (rc == 0)
            rc = n->send(c->send, bytes, NCCL_UINT8, 0, comm, s);
    }
    return rc;
}

/* One osu_bw window 0 -> 1 (grouped), then the ack 1 -> 0 (into rank 0's
 * unused receive buffer, from rank 1's unused send buffer). */
static int window(const coll_nccl *n, void *comm, void *s, const coll_case *c)
{
    size_t bytes = (size_t)c->sz.param_count, ack = bytes < ACK_BYTES ? bytes : ACK_BYTES;
    int rc;

    if (c->rank > 1)
        return 0;
    rc = n->group_start();
    for (unsigned i = 0; rc == 0 && i < c->window; i++)
        rc = c->rank == 0 ? n->send(c->send, bytes, NCCL_UINT8, 1, comm, s)
                          : n->recv(c->recv, bytes, NCCL_UINT8, 0, comm, s);
    if (n->group_end() != 0 || rc != 0)
        return rc != 0 ? rc : -1;
    return c->rank == 0 ? n->recv(c->recv, ack, NCCL_UINT8, 1, comm, s)
                        : n->send(c->send, ack, NCCL_UINT8, 0, comm, s);
}

/* One NCCL call (or group) of c on stream s. */
static int one_call(const coll_nccl *n, void *comm, void *s, const coll_case *c)
{
    size_t count = (size_t)c->sz.param_count;
    int t = nccl_type(c->dtype);

    switch (c->kind) {
    case COLL_ALLREDUCE:
        return n->all_reduce(c->send, c->recv, count, t, nccl_op(c->op), comm, s);
    case COLL_ALLGATHER:
        return n->all_gather(c->send, c->recv, count, t, comm, s);
    case COLL_REDUCE_SCATTER:
        return n->reduce_scatter(c->send, c->recv, count, t, nccl_op(c->op), comm, s);
    case COLL_BROADCAST:
        return n->broadcast(c->recv, c->recv, count, t, (int)c->root, comm, s);
    case COLL_ALLTOALL:
        return alltoall(n, comm, s, c);
    case COLL_P2P_LATENCY:
        return ping_pong(n, comm, s, c);
    default:
        return window(n, comm, s, c);
    }
}

int coll_nccl_run(const coll_nccl *n, void *comm, void *stream, const coll_case *dev,
                  uint64_t iterations, char *why, size_t cap)
{
    for (uint64_t i = 0; i < iterations; i++) {
        int rc = one_call(n, comm, stream, dev);

        if (rc != 0) {
            snprintf(why, cap, "%s %s: %s", n->name, coll_kind_name(dev->kind),
                     rc > 0 ? n->error_text(rc) : "ncclGroupEnd failed");
            return -1;
        }
    }
    return 0;
}
