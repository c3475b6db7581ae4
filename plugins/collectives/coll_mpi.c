// SPDX-License-Identifier: MIT
/*
 * coll_mpi.c -- the MPI side of the collectives: initialisation and one
 * call per collective, repeated (contracts in coll.h). Point to point
 * follows the OSU micro-benchmarks: osu_latency's ping-pong between ranks
 * 0 and 1 (one iteration = one round trip), osu_bw's window of
 * non-blocking sends from 0 to 1 closed by a 4-byte ack from 1.
 */
#define _GNU_SOURCE
#include "coll.h"

#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define P2P_TAG    7
#define ACK_TAG    8
#define ACK_BYTES  4
#define MAX_WINDOW 1024

/* -1 with "what: <MPI's error string>" in why when rc is not MPI_SUCCESS. */
static int mpi_ok(int rc, const char *what, char *why, size_t cap)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;

    if (rc == MPI_SUCCESS)
        return 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof(text), "error %d", rc);
    snprintf(why, cap, "%s: %s", what, text);
    return -1;
}

/* Finalizes MPI at process exit when nobody has (registered by
 * coll_mpi_init when it initialised MPI): mpirun counts a rank that exits
 * without MPI_Finalize as failed. */
static void finalize_at_exit(void)
{
    int done = 0;

    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

/* A new reference to the library that holds MPI_Init_thread, opened
 * with RTLD_NOW | RTLD_NOLOAD | extra (NULL if it cannot be found). */
static void *libmpi_handle(int extra)
{
    int (*init)(int *, char ***, int, int *) = MPI_Init_thread;
    Dl_info where;
    void *code;

    memcpy(&code, &init, sizeof(code));
    if (dladdr(code, &where) == 0 || where.dli_fname == NULL)
        return NULL;
    return dlopen(where.dli_fname, RTLD_NOW | RTLD_NOLOAD | extra);
}

/* Re-opens libmpi RTLD_GLOBAL: the host loads plugins RTLD_LOCAL, and the
 * components Open MPI loads in MPI_Init resolve their symbols against
 * libmpi's. */
static void libmpi_global(void)
{
    (void)libmpi_handle(RTLD_GLOBAL);
}

int coll_mpi_device_aware(const char *vendor, char *what, size_t cap)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], query[40];
    int len = 0, rocm = strcmp(vendor, "ROCm") == 0, aware = 0;
    void *mpi = libmpi_handle(0), *sym = NULL;
    int (*ask)(void);

    if (MPI_Get_library_version(lib, &len) != MPI_SUCCESS)
        snprintf(lib, sizeof(lib), "this MPI");
    lib[strcspn(lib, ",\n")] = '\0';
    snprintf(query, sizeof(query), "MPIX_Query_%s_support", rocm ? "rocm" : "cuda");
    if (mpi != NULL)
        sym = dlsym(mpi, query);
    if (sym == NULL) {
        snprintf(what, cap, "%.120s has no %s", lib, query);
    } else {
        memcpy(&ask, &sym, sizeof(sym));
        aware = ask() != 0;
        snprintf(what, cap, "%.120s is %s%s-aware (%s)", lib, aware ? "" : "not ", vendor, query);
    }
    if (mpi != NULL)
        dlclose(mpi); /* the reference RTLD_NOLOAD took; libmpi stays */
    return aware;
}

int coll_mpi_init(unsigned *rank, unsigned *size, char *why, size_t cap)
{
    int inited = 0, finalized = 0, provided = 0, r = 0, n = 0;

    MPI_Finalized(&finalized);
    if (finalized) {
        snprintf(why, cap, "MPI was finalized in this process");
        return -1;
    }
    MPI_Initialized(&inited);
    if (!inited) {
        libmpi_global();
        if (mpi_ok(MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided), "MPI_Init_thread",
                   why, cap) != 0)
            return -1;
        atexit(finalize_at_exit);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (mpi_ok(MPI_Comm_rank(MPI_COMM_WORLD, &r), "MPI_Comm_rank", why, cap) != 0 ||
        mpi_ok(MPI_Comm_size(MPI_COMM_WORLD, &n), "MPI_Comm_size", why, cap) != 0)
        return -1;
    *rank = (unsigned)r;
    *size = (unsigned)n;
    return 0;
}

static MPI_Datatype mpi_type(coll_dtype t)
{
    return t == COLL_F32   ? MPI_FLOAT
           : t == COLL_F64 ? MPI_DOUBLE
           : t == COLL_I32 ? MPI_INT
                           : MPI_BYTE;
}

static MPI_Op mpi_op(coll_op op)
{
    return op == COLL_SUM ? MPI_SUM : op == COLL_MAX ? MPI_MAX : MPI_MIN;
}

/* One collective call of c (not point to point). */
static int one_collective(coll_case *c)
{
    MPI_Datatype t = mpi_type(c->dtype);
    int n = (int)c->sz.param_count;

    switch (c->kind) {
    case COLL_ALLREDUCE:
        return MPI_Allreduce(c->send, c->recv, n, t, mpi_op(c->op), MPI_COMM_WORLD);
    case COLL_ALLGATHER:
        return MPI_Allgather(c->send, n, t, c->recv, n, t, MPI_COMM_WORLD);
    case COLL_REDUCE_SCATTER:
        return MPI_Reduce_scatter_block(c->send, c->recv, n, t, mpi_op(c->op), MPI_COMM_WORLD);
    case COLL_BROADCAST:
        return MPI_Bcast(c->recv, n, t, (int)c->root, MPI_COMM_WORLD);
    case COLL_ALLTOALL:
        return MPI_Alltoall(c->send, n, t, c->recv, n, t, MPI_COMM_WORLD);
    default:
        return MPI_ERR_OTHER;
    }
}

/* One osu_latency round trip: 0 sends and waits for 1's reply. */
static int one_ping_pong(coll_case *c)
{
    int n = (int)c->sz.param_count, rc = MPI_SUCCESS;

    if (c->rank == 0) {
        rc = MPI_Send(c->send, n, MPI_BYTE, 1, P2P_TAG, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(c->recv, n, MPI_BYTE, 1, P2P_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (c->rank == 1) {
        rc = MPI_Recv(c->recv, n, MPI_BYTE, 0, P2P_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Send(c->send, n, MPI_BYTE, 0, P2P_TAG, MPI_COMM_WORLD);
    }
    return rc;
}

/* One osu_bw window: `window` Isends 0 -> 1 (Irecvs on 1), then 1's ack. */
static int one_window(coll_case *c)
{
    MPI_Request req[MAX_WINDOW];
    char ack[ACK_BYTES] = {0};
    int n = (int)c->sz.param_count, rc = MPI_SUCCESS;
    unsigned w = c->window < MAX_WINDOW ? c->window : MAX_WINDOW;

    if (c->rank > 1)
        return MPI_SUCCESS;
    for (unsigned i = 0; i < w && rc == MPI_SUCCESS; i++)
        rc = c->rank == 0 ? MPI_Isend(c->send, n, MPI_BYTE, 1, P2P_TAG, MPI_COMM_WORLD, &req[i])
                          : MPI_Irecv(c->recv, n, MPI_BYTE, 0, P2P_TAG, MPI_COMM_WORLD, &req[i]);
    if (rc == MPI_SUCCESS)
        rc = MPI_Waitall((int)w, req, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS)
        return rc;
    if (c->rank == 0)
        return MPI_Recv(ack, ACK_BYTES, MPI_BYTE, 1, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return MPI_Send(ack, ACK_BYTES, MPI_BYTE, 0, ACK_TAG, MPI_COMM_WORLD);
}

int coll_mpi_run(coll_case *c, uint64_t iterations, char *why, size_t cap)
{
    for (uint64_t i = 0; i < iterations; i++) {
        int rc = c->kind == COLL_P2P_LATENCY     ? one_ping_pong(c)
                 : c->kind == COLL_P2P_BANDWIDTH ? one_window(c)
                                                 : one_collective(c);

        if (mpi_ok(rc, coll_kind_name(c->kind), why, cap) != 0)
            return -1;
    }
    return 0;
}
