// SPDX-License-Identifier: MIT
/*
 * zr_comm.c -- MPI start-up and the counting collectives of the
 * optimizer's multi-rank layer (see zr.h for what a call counts).
 * bf16 and f16 sums are user MPI_Ops that add in f32 and round each
 * addition, as a framework's reduced-precision all-reduce does.
 *
 * Contracts of the exported functions: zr.h.
 */
#define _GNU_SOURCE
#include "zr.h"

#include <dlfcn.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* Largest element count of one MPI call (an int). */
#define ZR_CHUNK ((uint64_t)1 << 30)

static MPI_Op sum_bf16 = MPI_OP_NULL, sum_f16 = MPI_OP_NULL;
static int started_here;

/* MPI_Op: inout += in over bf16 values, each sum rounded to bf16. */
static void add_bf16(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const uint16_t *a = in;
    uint16_t *b = inout;

    (void)dt;
    for (int i = 0; i < *len; i++)
        b[i] = opt_f32_to_bf16(opt_bf16_to_f32(a[i]) + opt_bf16_to_f32(b[i]));
}

/* MPI_Op: inout += in over f16 values, each sum rounded to f16. */
static void add_f16(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const uint16_t *a = in;
    uint16_t *b = inout;

    (void)dt;
    for (int i = 0; i < *len; i++)
        b[i] = opt_f32_to_f16(opt_f16_to_f32(a[i]) + opt_f16_to_f32(b[i]));
}

/* Finalizes MPI when this file started it, at exit or when the plugin is
 * unloaded (a rank that exits without MPI_Finalize fails its mpirun). */
__attribute__((destructor)) static void zr_stop(void)
{
    int up = 0, down = 0;

    if (!started_here)
        return;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (!up || down)
        return;
    if (sum_bf16 != MPI_OP_NULL) {
        MPI_Op_free(&sum_bf16);
        MPI_Op_free(&sum_f16);
    }
    MPI_Finalize();
}

/* Makes libmpi's symbols global: the host opens plugins RTLD_LOCAL, and
 * Open MPI's own components, opened later, resolve against them. */
static void promote_libmpi(void)
{
    int (*fn)(int *, char ***, int, int *) = MPI_Init_thread;
    void *addr;
    Dl_info info;

    memcpy(&addr, &fn, sizeof(addr)); /* a code address, for dladdr only */
    if (dladdr(addr, &info) != 0 && info.dli_fname != NULL)
        (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

int zr_start(int *rank, int *size, char *why, size_t cap)
{
    int up = 0, provided = 0;

    MPI_Initialized(&up);
    if (!up) {
        promote_libmpi();
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
            snprintf(why, cap, "MPI_Init_thread failed");
            return -1;
        }
        started_here = 1;
    }
    if (sum_bf16 == MPI_OP_NULL) {
        MPI_Op_create(add_bf16, 1, &sum_bf16);
        MPI_Op_create(add_f16, 1, &sum_f16);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return 0;
}

/* The MPI type and sum of dtype. */
static void type_of(opt_dtype dtype, MPI_Datatype *t, MPI_Op *op)
{
    *t = dtype == OPT_F32 ? MPI_FLOAT : MPI_UINT16_T;
    *op = dtype == OPT_F32 ? MPI_SUM : dtype == OPT_BF16 ? sum_bf16 : sum_f16;
}

/* Ranks of MPI_COMM_WORLD. */
static int world_size(void)
{
    int n = 1;

    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

int zr_allreduce(zr_count *c, const void *in, void *out, uint64_t count, opt_dtype dtype)
{
    MPI_Datatype t;
    MPI_Op op;
    size_t es = opt_dtype_size(dtype);
    int n = world_size();

    type_of(dtype, &t, &op);
    for (uint64_t off = 0; off < count; off += ZR_CHUNK) {
        uint64_t len = count - off < ZR_CHUNK ? count - off : ZR_CHUNK;

        if (MPI_Allreduce((const char *)in + off * es, (char *)out + off * es, (int)len, t, op,
                          MPI_COMM_WORLD) != MPI_SUCCESS)
            return -1;
        c->bytes += 2.0 * (n - 1) / n * (double)len * (double)es;
        c->calls++;
    }
    return 0;
}

int zr_reduce_scatter(zr_count *c, const void *in, void *out, uint64_t per_rank, opt_dtype dtype)
{
    MPI_Datatype t;
    MPI_Op op;
    int n = world_size();

    type_of(dtype, &t, &op);
    if (per_rank > INT_MAX ||
        MPI_Reduce_scatter_block(in, out, (int)per_rank, t, op, MPI_COMM_WORLD) != MPI_SUCCESS)
        return -1;
    c->bytes += (double)(n - 1) * (double)per_rank * (double)opt_dtype_size(dtype);
    c->calls++;
    return 0;
}

int zr_allgather(zr_count *c, void *buf, uint64_t per_rank, opt_dtype dtype)
{
    MPI_Datatype t;
    MPI_Op op;
    int n = world_size();

    type_of(dtype, &t, &op);
    if (per_rank > INT_MAX || MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int)per_rank,
                                            t, MPI_COMM_WORLD) != MPI_SUCCESS)
        return -1;
    c->bytes += (double)(n - 1) * (double)per_rank * (double)opt_dtype_size(dtype);
    c->calls++;
    return 0;
}

int zr_allreduce_f64(double *x, size_t n, char op)
{
    return MPI_Allreduce(MPI_IN_PLACE, x, (int)n, MPI_DOUBLE, op == 'M' ? MPI_MAX : MPI_SUM,
                         MPI_COMM_WORLD) == MPI_SUCCESS
               ? 0
               : -1;
}

double zr_now(void)
{
    return MPI_Wtime();
}
