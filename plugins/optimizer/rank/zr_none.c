// SPDX-License-Identifier: MIT
/*
 * zr_none.c -- the multi-rank layer of a build without MPI: zr_start()
 * says so (the benchmarks become "unsupported" with that reason), and
 * nothing past it is reached; the rest fail or return nothing.
 *
 * Contracts of the exported functions: zr.h.
 */
#include "zr.h"

#include <stdio.h>

#define ZR_NO_MPI                                                                                  \
    "built without MPI: install libopenmpi-dev and openmpi-bin, then "                             \
    "reconfigure"

int zr_start(int *rank, int *size, char *why, size_t cap)
{
    *rank = 0;
    *size = 1;
    snprintf(why, cap, "%s", ZR_NO_MPI);
    return -1;
}

int zr_allreduce(zr_count *c, const void *in, void *out, uint64_t count, opt_dtype dtype)
{
    (void)c, (void)in, (void)out, (void)count, (void)dtype;
    return -1;
}

int zr_reduce_scatter(zr_count *c, const void *in, void *out, uint64_t per_rank, opt_dtype dtype)
{
    (void)c, (void)in, (void)out, (void)per_rank, (void)dtype;
    return -1;
}

int zr_allgather(zr_count *c, void *buf, uint64_t per_rank, opt_dtype dtype)
{
    (void)c, (void)buf, (void)per_rank, (void)dtype;
    return -1;
}

int zr_allreduce_f64(double *x, size_t n, char op)
{
    (void)x, (void)n, (void)op;
    return -1;
}

double zr_now(void)
{
    return 0;
}

zr_ctx *zr_create(const zr_cfg *cfg, char *why, size_t cap)
{
    (void)cfg;
    snprintf(why, cap, "%s", ZR_NO_MPI);
    return NULL;
}

void zr_destroy(zr_ctx *z)
{
    (void)z;
}

int zr_run(zr_ctx *z, uint64_t steps)
{
    (void)z, (void)steps;
    return -1;
}

int zr_verify(zr_ctx *z, char *why, size_t cap)
{
    (void)z;
    snprintf(why, cap, "%s", ZR_NO_MPI);
    return -1;
}

uint64_t zr_params_digest(const zr_ctx *z)
{
    (void)z;
    return 0;
}

const zr_count *zr_counted(const zr_ctx *z)
{
    (void)z;
    return NULL;
}

const zr_times *zr_timed(const zr_ctx *z)
{
    (void)z;
    return NULL;
}

const opt_zero_plan *zr_plan(const zr_ctx *z)
{
    (void)z;
    return NULL;
}

double zr_wire_bytes(const zr_ctx *z)
{
    (void)z;
    return 0;
}
