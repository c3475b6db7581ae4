// SPDX-License-Identifier: MIT
/*
 * zero_mpi.c -- optimizer-zero-mpi: a ZeRO data-parallel optimizer step
 * with real Open MPI collectives across the ranks of one mpirun, driven
 * line by line on rank 0's stdin (the optimizer plugin's zero.mpi
 * benchmark runs it under mpirun; a person can too):
 *
 *   mpirun -np 2 optimizer-zero-mpi --params 8388608 --stage 2 \
 *          --dtype f32 --optimizer adamw --seed 1
 *   -> ready ranks=2 shard=4194304 rank_memory=...
 *   run 10      -> done steps=10 rs=<ns> ag=<ns> ar=<ns> upd=<ns>
 *   verify      -> ok checked=<n> | bad <what>
 *   quit
 *
 * One step, per stage (each rank holds its own full gradient, as after
 * its backward pass): stage 0 all-reduces the gradients and every rank
 * updates everything; stages 1-3 reduce-scatter the gradients, update the
 * rank's shard of the flat parameter space (liboptim, f32 master and
 * state), and all-gather the parameters (f32, or the bf16 copies); stage 3
 * all-gathers twice (forward and backward each re-gather the partitioned
 * parameters). bf16 gradients are summed in bf16 by a user MPI_Op. The
 * phase times are the slowest rank's.
 *
 * Verification: 256 sampled elements; before the last step of each "run"
 * their owners record p and state and, after the reduction, the gradient
 * the step reads. "verify" gathers these on rank 0, holds the reduced
 * gradient to the sum of the ranks' gradients (f32: 1e-6, bf16: ranks x
 * 2^-8 relative), the step to opt_ref_step in double (4e-6 relative, as
 * the plugin's verify), and rank 0's gathered parameters to the owners'.
 */
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bh_rng.h"
#include "opt.h"

#define SAMPLES 256
#define RTOL 4e-6

typedef struct zctx {
    int rank, ranks, stage;
    opt_dtype dtype;
    opt_hparams hp;
    uint64_t params, seed;
    opt_zero_plan plan;
    uint64_t b, e;          /* this rank's owned range */
    size_t padded;          /* shard x ranks */
    void *grads;            /* padded, dtype: this rank's gradient */
    void *gred;             /* reduced gradient: shard (or padded, stage 0) */
    float *params32;        /* padded f32 parameters (dtype f32) */
    uint16_t *params16;     /* padded bf16 parameters (dtype bf16) */
    float *master;          /* bf16: f32 master of the owned range */
    float *state[3];        /* owned range */
    opt_group *g;
    MPI_Datatype mtype;
    MPI_Op sum;
    double t_rs, t_ag, t_ar, t_upd;
    uint64_t idx[SAMPLES];
    double snap[SAMPLES][5]; /* p, m, v, gred before; owned only */
    int snapped;
} zctx;

/* Prints an error on rank 0's stdout (the driver reads it) and aborts. */
static void die(const zctx *z, const char *fmt, ...)
{
    va_list ap;

    printf("error rank %d: ", z->rank);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

/* Counter-based uniform value in [lo, hi) (the plugin's generator). */
static double uni(uint64_t seed, uint64_t stream, uint64_t i, double lo, double hi)
{
    uint64_t x = seed ^ (stream * UINT64_C(0xD1B54A32D192ED03)) ^ (i * BH_RNG_GAMMA);

    return lo + (hi - lo) * bh_rng_unit(bh_rng_finalize(x));
}

/* Rank r's gradient value at i, as stored in dtype. */
static double grad_of(const zctx *z, int r, uint64_t i)
{
    double g = uni(z->seed, 100 + (uint64_t)r, i, -0.01, 0.01);

    return z->dtype == OPT_BF16 ? opt_bf16_to_f32(opt_f32_to_bf16((float)g))
                                : (double)(float)g;
}

/* MPI_Op: inout += in over bf16 values, each sum rounded to bf16. */
static void bf16_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const uint16_t *a = in;
    uint16_t *b = inout;

    (void)dt;
    for (int i = 0; i < *len; i++)
        b[i] = opt_f32_to_bf16(opt_bf16_to_f32(a[i]) + opt_bf16_to_f32(b[i]));
}

/* calloc or die. */
static void *zalloc(const zctx *z, size_t n, size_t size)
{
    void *p = calloc(n == 0 ? 1 : n, size);

    if (p == NULL)
        die(z, "out of memory (%zu x %zu)", n, size);
    return p;
}

/* Parses argv into z; exits with a usage line on error. */
static void parse(zctx *z, int argc, char **argv)
{
    int kind = OPT_ADAMW;

    z->params = 1u << 20;
    z->stage = 2;
    z->dtype = OPT_F32;
    z->seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];

        if (strcmp(k, "--params") == 0)
            z->params = strtoull(v, NULL, 10);
        else if (strcmp(k, "--stage") == 0)
            z->stage = atoi(v);
        else if (strcmp(k, "--dtype") == 0)
            z->dtype = opt_dtype_from_name(v);
        else if (strcmp(k, "--optimizer") == 0)
            kind = opt_kind_from_name(v);
        else if (strcmp(k, "--seed") == 0)
            z->seed = strtoull(v, NULL, 0);
        else
            die(z, "unknown option %s", k);
    }
    if (kind < 0 || kind == OPT_LAMB || z->stage < 0 || z->stage > 3 ||
        (z->dtype != OPT_F32 && z->dtype != OPT_BF16) ||
        z->params < (uint64_t)z->ranks)
        die(z, "usage: --params N (>= ranks) --stage 0..3 --dtype f32|bf16 "
               "--optimizer sgd|adam|adamw|adagrad|rmsprop|lion --seed S");
    opt_hparams_default((opt_kind)kind, &z->hp);
}

/* Allocates and fills this rank's buffers and its liboptim group. */
static void setup(zctx *z)
{
    size_t gb = opt_dtype_size(z->dtype), own, red;
    int used[3];
    double K = opt_state_bytes_per_param(&z->hp, z->dtype);

    opt_zero_plan_make((unsigned)z->stage, (unsigned)z->ranks, z->params,
                       (double)gb, (double)gb, K, 16, &z->plan);
    z->padded = (size_t)z->plan.shard * (size_t)z->ranks;
    if (z->stage == 0) {
        z->b = 0;
        z->e = z->params;
    } else {
        opt_zero_range(&z->plan, (unsigned)z->rank, &z->b, &z->e);
    }
    own = (size_t)(z->e - z->b);
    red = z->stage == 0 ? z->padded : (size_t)z->plan.shard;
    z->grads = zalloc(z, z->padded, gb);
    z->gred = zalloc(z, red, gb);
    if (z->dtype == OPT_F32) {
        z->params32 = zalloc(z, z->padded, 4);
    } else {
        z->params16 = zalloc(z, z->padded, 2);
        z->master = zalloc(z, own, 4);
    }
    opt_state_slots(&z->hp, used);
    for (int q = 0; q < 3; q++)
        if (used[q])
            z->state[q] = zalloc(z, own, 4);
    for (uint64_t i = 0; i < z->params; i++) {
        float p = (float)uni(z->seed, 1, i, -1, 1);

        opt_store(z->grads, z->dtype, i, grad_of(z, z->rank, i));
        if (z->dtype == OPT_F32)
            z->params32[i] = p;
        else
            z->params16[i] = opt_f32_to_bf16(p);
        if (i >= z->b && i < z->e) {
            if (z->master != NULL)
                z->master[i - z->b] = p;
            for (int q = 0; q < 3; q++)
                if (used[q])
                    z->state[q][i - z->b] = (float)opt_state_init(&z->hp, q);
        }
    }
    z->g = opt_group_create(1, &own, z->dtype, z->dtype);
    if (z->g == NULL)
        die(z, "out of memory (group)");
    z->g->master[0] = z->master != NULL ? z->master : z->params32 + z->b;
    z->g->param[0] = z->params16 != NULL ? (void *)(z->params16 + z->b) : NULL;
    z->g->grad[0] = z->gred;
    for (int q = 0; q < 3; q++)
        z->g->state[q][0] = z->state[q];
    z->mtype = z->dtype == OPT_F32 ? MPI_FLOAT : MPI_UINT16_T;
    if (z->dtype == OPT_F32)
        z->sum = MPI_SUM;
    else
        MPI_Op_create(bf16_sum, 1, &z->sum);
    for (int j = 0; j < SAMPLES; j++)
        z->idx[j] = (uint64_t)uni(z->seed, 9, (uint64_t)j, 0, (double)z->params);
}

/* Seconds since t0, added to *acc. */
static void lap(double *acc, double *t0)
{
    double t = MPI_Wtime();

    *acc += t - *t0;
    *t0 = t;
}

/* Records the owned samples' p and state (before the step) and the
 * reduced gradient the step reads. */
static void snap(zctx *z)
{
    for (int j = 0; j < SAMPLES; j++) {
        uint64_t i = z->idx[j];
        size_t o;

        if (i < z->b || i >= z->e || (z->stage == 0 && z->rank != 0))
            continue;
        o = (size_t)(i - z->b);
        z->snap[j][0] = z->g->master[0][o];
        z->snap[j][1] = z->state[0] != NULL ? z->state[0][o] : 0;
        z->snap[j][2] = z->state[1] != NULL ? z->state[1][o] : 0;
        z->snap[j][3] = opt_load(z->gred, z->dtype, z->stage == 0 ? i : o);
        z->snap[j][4] = z->state[2] != NULL ? z->state[2][o] : 0;
    }
    z->snapped = 1;
}

/* One ZeRO step; last: record the samples. */
static void step(zctx *z, int last)
{
    double t0 = MPI_Wtime();
    int shard = (int)z->plan.shard;
    void *pfull = z->dtype == OPT_F32 ? (void *)z->params32 : (void *)z->params16;

    if (z->stage == 0) {
        MPI_Allreduce(z->grads, z->gred, (int)z->padded, z->mtype, z->sum,
                      MPI_COMM_WORLD);
        lap(&z->t_ar, &t0);
    } else {
        MPI_Reduce_scatter_block(z->grads, z->gred, shard, z->mtype, z->sum,
                                 MPI_COMM_WORLD);
        lap(&z->t_rs, &t0);
    }
    if (last)
        snap(z);
    t0 = MPI_Wtime();
    opt_step(z->g, &z->hp, z->hp.lr, 1.0 / z->ranks, NULL, OPT_PATH_MULTI, NULL);
    lap(&z->t_upd, &t0);
    for (int k = 0; z->stage > 0 && k < (z->stage == 3 ? 2 : 1); k++) {
        MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, pfull, shard, z->mtype,
                      MPI_COMM_WORLD);
        lap(&z->t_ag, &t0);
    }
}

/* The verify command: gathers the samples on rank 0 and checks them;
 * rank 0 answers. */
static void verify(zctx *z)
{
    enum { F = 8 };
    double *mine = zalloc(z, SAMPLES * F, sizeof(double));
    double *all = zalloc(z, SAMPLES * F, sizeof(double));
    char bad[256] = "";

    for (int j = 0; j < SAMPLES && z->snapped; j++) {
        uint64_t i = z->idx[j];
        size_t o;

        if (i < z->b || i >= z->e || (z->stage == 0 && z->rank != 0))
            continue;
        o = (size_t)(i - z->b);
        for (int f = 0; f < 5; f++)
            mine[j * F + f] = z->snap[j][f];
        mine[j * F + 5] = z->g->master[0][o];
        mine[j * F + 6] = z->state[0] != NULL ? z->state[0][o] : 0;
        mine[j * F + 7] = z->state[1] != NULL ? z->state[1][o] : 0;
    }
    MPI_Reduce(mine, all, SAMPLES * F, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    for (int j = 0; z->rank == 0 && j < SAMPLES && bad[0] == '\0'; j++) {
        const double *r = all + j * F;
        uint64_t i = z->idx[j];
        double p = r[0], s0 = r[1], s1 = r[2], s2 = r[4], gsum = 0, gabs = 0, g;
        double tol_g = z->dtype == OPT_F32 ? 1e-6 : z->ranks * 0x1p-8;
        double gathered = z->dtype == OPT_F32 ? z->params32[i]
                                              : opt_bf16_to_f32(z->params16[i]);

        for (int q = 0; q < z->ranks; q++) {
            gsum += grad_of(z, q, i);
            gabs += fabs(grad_of(z, q, i));
        }
        if (!(fabs(r[3] - gsum) <= tol_g * gabs + 1e-30)) {
            snprintf(bad, sizeof(bad), "element %llu: reduced gradient %.9g, sum %.9g",
                     (unsigned long long)i, r[3], gsum);
            break;
        }
        g = r[3] / z->ranks;
        opt_ref_step(&z->hp, z->g->step, z->hp.lr, 1, &p, &g, &s0, &s1, &s2, -1);
        if (!(fabs(r[5] - p) <= RTOL * (fabs(r[0]) + fabs(p - r[0])) + 1e-30) ||
            !(fabs(r[6] - s0) <= RTOL * (fabs(s0) + fabs(s0 - r[1]) + fabs(g)) + 1e-30))
            snprintf(bad, sizeof(bad), "element %llu step %llu: p %.9g ref %.9g, "
                     "state %.9g ref %.9g", (unsigned long long)i,
                     (unsigned long long)z->g->step, r[5], p, r[6], s0);
        else if (z->stage > 0 &&
                 gathered != (z->dtype == OPT_F32
                                  ? r[5]
                                  : opt_bf16_to_f32(opt_f32_to_bf16((float)r[5]))))
            snprintf(bad, sizeof(bad), "element %llu: gathered parameter %.9g, "
                     "owner's %.9g", (unsigned long long)i, gathered, r[5]);
    }
    if (z->rank == 0) {
        if (!z->snapped)
            printf("bad verify before any step\n");
        else if (bad[0] != '\0')
            printf("bad %s\n", bad);
        else
            printf("ok checked=%d step=%llu\n", SAMPLES,
                   (unsigned long long)z->g->step);
        fflush(stdout);
    }
    free(mine);
    free(all);
}

/* Runs n steps and answers with the slowest rank's phase times. */
static void run(zctx *z, uint64_t n)
{
    double t[4], worst[4];

    z->t_rs = z->t_ag = z->t_ar = z->t_upd = 0;
    for (uint64_t s = 0; s < n; s++)
        step(z, s + 1 == n);
    t[0] = z->t_rs;
    t[1] = z->t_ag;
    t[2] = z->t_ar;
    t[3] = z->t_upd;
    MPI_Reduce(t, worst, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (z->rank == 0) {
        printf("done steps=%llu rs=%.0f ag=%.0f ar=%.0f upd=%.0f\n",
               (unsigned long long)n, worst[0] * 1e9, worst[1] * 1e9,
               worst[2] * 1e9, worst[3] * 1e9);
        fflush(stdout);
    }
}

/* Starts MPI, sets this rank up, then serves rank 0's stdin commands
 * until "quit" or end of input. */
int main(int argc, char **argv)
{
    zctx z;
    char line[128];

    memset(&z, 0, sizeof(z));
    /* Keep freed memory mapped: MPI's collectives allocate large temporary
     * buffers per call, and fresh pages cost a fault each (in this
     * project's VMs a 32 MB reduce-scatter spent most of its time there),
     * which no training framework's caching allocator would pay. */
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &z.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &z.ranks);
    parse(&z, argc, argv);
    setup(&z);
    MPI_Barrier(MPI_COMM_WORLD);
    if (z.rank == 0) {
        printf("ready ranks=%d shard=%llu rank_memory=%.0f\n", z.ranks,
               (unsigned long long)z.plan.shard, z.plan.mem_total);
        fflush(stdout);
    }
    for (;;) {
        uint64_t cmd[2] = {0, 0}; /* 0 quit, 1 run n, 2 verify */

        if (z.rank == 0) {
            unsigned long long n;

            if (fgets(line, sizeof(line), stdin) == NULL)
                cmd[0] = 0;
            else if (sscanf(line, "run %llu", &n) == 1)
                cmd[0] = 1, cmd[1] = n;
            else if (strncmp(line, "verify", 6) == 0)
                cmd[0] = 2;
            else
                cmd[0] = 0;
        }
        MPI_Bcast(cmd, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        if (cmd[0] == 0)
            break;
        if (cmd[0] == 1)
            run(&z, cmd[1]);
        else
            verify(&z);
    }
    if (z.dtype == OPT_BF16)
        MPI_Op_free(&z.sum);
    opt_group_destroy(z.g);
    free(z.grads);
    free(z.gred);
    free(z.params32);
    free(z.params16);
    free(z.master);
    for (int q = 0; q < 3; q++)
        free(z.state[q]);
    MPI_Finalize();
    return 0;
}
