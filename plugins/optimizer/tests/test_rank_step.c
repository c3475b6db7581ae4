// SPDX-License-Identifier: MIT
/*
 * test_rank_step.c -- the optimizer's multi-rank step code (rank/zr.h)
 * standalone under mpirun (meson runs it with -np 2 and -np 4): every
 * ZeRO stage in f32 and bf16 and a few optimizers, each checked on every
 * rank against the double reference (zr_verify), the ranks' parameter
 * digests compared, and the bytes counted per step held to the ZeRO
 * formula (and to the exact sum of the calls' ring volumes); then a rank
 * whose gradients differ from what the others expect must fail the check
 * on every rank. Prints "ok" lines; exits non-zero on the first failure
 * (MPI_Abort, so no rank is left waiting).
 */
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "zr.h"

static int rank, size;

/* Reports a failure and aborts every rank. */
static void fail(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "rank %d: FAIL: ", rank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The bytes the calls of one step send, as zr.h counts them. */
static double calls_volume(const zr_cfg *c, const opt_zero_plan *p)
{
    double es = (double)opt_dtype_size(c->dtype), per = (double)p->shard * es;

    if (c->stage == 0)
        return 2.0 * (size - 1) / size * (double)p->shard * size * es;
    return (size - 1) * per * (c->stage == 3 ? 3 : 2);
}

/* Every rank's digest must equal rank 0's. */
static void same_digest(uint64_t mine, const char *what)
{
    uint64_t all[256];

    if (size > 256)
        fail("too many ranks for the test (%d)", size);
    MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int r = 1; r < size; r++)
        if (all[r] != all[0])
            fail("%s: rank %d's parameters differ from rank 0's", what, r);
}

/* One configuration: two runs (3 and 2 steps), verify, digest, volume. */
static void one(int stage, opt_dtype dtype, const char *kind, uint64_t params)
{
    zr_cfg c = {params, stage, dtype, opt_kind_from_name(kind), 42, 0};
    char why[256], what[96];
    zr_ctx *z = zr_create(&c, why, sizeof(why));
    double got, want, formula;

    snprintf(what, sizeof(what), "stage %d %s %s params %llu", stage,
             dtype == OPT_F32 ? "f32" : "bf16", kind, (unsigned long long)params);
    if (z == NULL)
        fail("%s: create: %s", what, why);
    if (zr_run(z, 3) != 0 || zr_run(z, 2) != 0)
        fail("%s: run failed", what);
    if (zr_verify(z, why, sizeof(why)) != 0)
        fail("%s: verify: %s", what, why);
    same_digest(zr_params_digest(z), what);
    got = zr_counted(z)->bytes / (double)zr_timed(z)->steps;
    want = calls_volume(&c, zr_plan(z));
    formula = zr_expected_bytes(stage, (unsigned)size, params, zr_wire_bytes(z));
    if (fabs(got - want) > 1e-9 * want)
        fail("%s: counted %.0f B per step, the calls send %.0f", what, got, want);
    if (got < formula - 1e-6 || got > formula * (1 + 16.0 * size / (double)params) + 1e-6)
        fail("%s: counted %.0f B per step, formula %.0f", what, got, formula);
    if (rank == 0)
        printf("ok %s: %.0f B per step, formula %.0f (ratio %.6f)\n", what, got, formula,
               formula > 0 ? got / formula : 1.0);
    zr_destroy(z);
}

/* A rank with another gradient seed sends gradients no other rank
 * expects: every rank's check must fail on the reduced gradient. */
static void mismatch(void)
{
    zr_cfg c = {4099, 2, OPT_F32, opt_kind_from_name("adamw"), 42, 0};
    char why[256] = "";
    zr_ctx *z;
    int bad, all_bad = 0;

    if (size < 2)
        return;
    if (rank == size - 1)
        c.grad_seed = 43;
    z = zr_create(&c, why, sizeof(why));
    if (z == NULL || zr_run(z, 2) != 0)
        fail("mismatch: setup failed: %s", why);
    bad = zr_verify(z, why, sizeof(why)) != 0 && strstr(why, "reduced gradient") != NULL;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_bad)
        fail("mismatch: a rank did not report the wrong gradient (%s)", why);
    if (rank == 0)
        printf("ok mismatch found on every rank: %s\n", why);
    zr_destroy(z);
}

int main(void)
{
    char why[256];
    static const char *const kinds[] = {"sgd", "lion", "adagrad"};

    if (zr_start(&rank, &size, why, sizeof(why)) != 0) {
        fprintf(stderr, "FAIL: %s\n", why);
        return 1;
    }
    if (zr_expected_bytes(3, 4, 1000, 4) != 9000 || zr_expected_bytes(0, 2, 1000, 2) != 2000 ||
        zr_expected_bytes(2, 1, 1000, 4) != 0)
        fail("zr_expected_bytes disagrees with the ZeRO formulas");
    for (int stage = 0; stage <= 3; stage++) {
        one(stage, OPT_F32, "adamw", 100003);
        one(stage, OPT_BF16, "adamw", 65536);
    }
    for (int k = 0; k < 3; k++)
        one(2, OPT_F32, kinds[k], 777);
    one(3, OPT_F32, "adam", (uint64_t)size); /* one element per rank */
    mismatch();
    if (rank == 0)
        printf("ok all on %d ranks\n", size);
    return 0;
}
