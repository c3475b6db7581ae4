// SPDX-License-Identifier: MIT
/*
 * zr.h -- the optimizer plugin's multi-rank layer: MPI start-up, counting
 * collectives over MPI_COMM_WORLD, the ZeRO formulas, and the ZeRO step
 * of zero.mpi (stage 0-3 over a flat parameter space). No bhost types:
 * the plugin's benchmarks and the standalone test driver (tests/
 * test_rank_step.c, run under mpirun) share it. MPI types stay inside
 * (zr_comm.c, zr_step.c); a build without MPI links zr_none.c, whose
 * zr_start() says why and whose other functions are never reached.
 *
 * Counting: each collective call adds the bytes this rank sends in it
 * under the bandwidth-optimal (ring) algorithm of that call, from the
 * call's own element count, element size and the number of ranks n:
 * all-reduce of c elements 2 (n-1)/n c, reduce-scatter and all-gather of
 * p elements per rank (n-1) p. Open MPI may pick another algorithm (on
 * two ranks, recursive doubling sends all c once); the count is of what
 * the step asks the network to move, the quantity the ZeRO paper counts.
 */
#ifndef BH_OPTIM_ZR_H
#define BH_OPTIM_ZR_H

#include <stddef.h>
#include <stdint.h>

#include "opt.h"

/* Bytes sent by this rank through the counting collectives. */
typedef struct zr_count {
    double bytes;
    uint64_t calls;
} zr_count;

/* Starts MPI (MPI_Init_thread, FUNNELED: a rank makes every call into a
 * multi-rank benchmark from one thread, bhost/ranks.h) unless it
 * runs already, and makes sure it finalizes at exit (or when the plugin
 * unloads); fills *rank and *size of MPI_COMM_WORLD. 0, or -1 with the
 * reason in why. */
int zr_start(int *rank, int *size, char *why, size_t cap);

/* Sums count elements of dtype over all ranks: out = sum of every rank's
 * in (bf16/f16 summed in f32 and rounded per addition). 0 or -1. */
int zr_allreduce(zr_count *c, const void *in, void *out, uint64_t count, opt_dtype dtype);
/* Reduce-scatter of ranks x per_rank elements: rank r receives the sum
 * of every rank's block r in out. 0 or -1. */
int zr_reduce_scatter(zr_count *c, const void *in, void *out, uint64_t per_rank, opt_dtype dtype);
/* In-place all-gather: rank r's block r of buf (per_rank elements) goes
 * to every rank. 0 or -1. */
int zr_allgather(zr_count *c, void *buf, uint64_t per_rank, opt_dtype dtype);
/* Element-wise max (op 'M') or sum (op 'S') of n doubles over the ranks,
 * in place; untimed helper for verification. 0 or -1. */
int zr_allreduce_f64(double *x, size_t n, char op);
/* MPI_Wtime. */
double zr_now(void);

/* The ZeRO paper's per-rank volume of one step (Rajbhandari et al. 2020,
 * section 7): stage 0 (plain data parallel, all-reduce) and stages 1-2
 * 2 Psi, stage 3 3 Psi elements, each times (n-1)/n for ring algorithms,
 * times elem_bytes. */
double zr_expected_bytes(int stage, unsigned ranks, uint64_t psi, double elem_bytes);

/* A digest of bytes (a splitmix64 chain over 8-byte words, the tail
 * zero-padded). */
uint64_t zr_digest(const void *p, size_t bytes);

/* ---- zr_step.c: the ZeRO step of zero.mpi -------------------------------- */

typedef struct zr_cfg {
    uint64_t params; /* Psi, >= ranks */
    int stage;       /* 0..3 */
    opt_dtype dtype; /* F32, or BF16 gradients and parameters on the wire */
    int kind;        /* opt_kind, element-wise (not LAMB) */
    uint64_t seed;
    uint64_t grad_seed; /* the gradients' seed when not 0 (tests: a rank
                         * whose gradients no other rank expects) */
} zr_cfg;

/* Phase times of the steps since zr_create (seconds, this rank's). */
typedef struct zr_times {
    double reduce_scatter, all_gather, all_reduce, update;
    uint64_t steps;
} zr_times;

typedef struct zr_ctx zr_ctx;

/* Allocates and fills this rank's buffers (MPI started): every rank holds
 * its own full gradient (seeded per rank, as after its backward pass),
 * the full parameters (stage 3 too: the all-gathers' target), and the
 * master and optimizer state of its shard. NULL with the reason in why. */
zr_ctx *zr_create(const zr_cfg *cfg, char *why, size_t cap);
void zr_destroy(zr_ctx *z);
/* steps ZeRO steps: stage 0 all-reduces the gradients and updates every
 * parameter; stages 1-3 reduce-scatter them, update the shard, and
 * all-gather the parameters (stage 3 twice: forward and backward
 * re-gather). The last step's sampled inputs are recorded. 0 or -1. */
int zr_run(zr_ctx *z, uint64_t steps);
/* Every rank checks the last step on 256 sampled elements gathered from
 * their owners: the reduced gradient against the sum of the ranks'
 * gradients (f32 1e-6, bf16 ranks x 2^-8, relative to the sum of |g|),
 * the update against opt_ref_step in double (4e-6 relative, as the
 * plugin's verify), and its all-gathered parameters against the owners'.
 * Collective (every rank makes the same MPI call whatever it finds).
 * 0, or -1 with the first mismatch in why. */
int zr_verify(zr_ctx *z, char *why, size_t cap);
/* Digest of the full parameters this rank holds (after the all-gather). */
uint64_t zr_params_digest(const zr_ctx *z);
const zr_count *zr_counted(const zr_ctx *z);
const zr_times *zr_timed(const zr_ctx *z);
const opt_zero_plan *zr_plan(const zr_ctx *z);
/* Bytes one element takes on the wire (4 f32, 2 bf16). */
double zr_wire_bytes(const zr_ctx *z);

#endif /* BH_OPTIM_ZR_H */
