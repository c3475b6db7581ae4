// SPDX-License-Identifier: MIT
/*
 * coll_driver.c -- the collectives' core run standalone under mpirun
 * (meson suite 'collectives'): every collective with every type and
 * operator, and point to point, at a few sizes, each filled, run three
 * times and checked exactly on every rank; the outputs every rank must
 * share compared by digest; then a corrupted element of one rank's
 * output, which the check must report with its index and both values;
 * and whether the MPI says it takes CUDA or ROCm device pointers, read
 * as the plugin reads it. Exit 0 when everything holds on every rank,
 * else 1 (one line per failure on stderr, naming the rank).
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "coll.h"

#include <mpi.h>

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned g_rank, g_size;

/* A case of kind k ready to run: sizes, buffers, filled. NULL buffers
 * (and 0) when the case moves nothing at these sizes. */
static int make_case(coll_case *c, coll_kind k, coll_dtype t, coll_op op, uint64_t bytes)
{
    *c = (coll_case){.kind = k,
                     .dtype = k >= COLL_P2P_LATENCY ? COLL_BYTE : t,
                     .op = op,
                     .rank = g_rank,
                     .nranks = g_size,
                     .root = g_size - 1,
                     .window = 8,
                     .seed = UINT64_C(0x5eed) + bytes};
    if (coll_sizes_of(k, c->dtype, bytes, g_size, c->window, &c->sz) != 0)
        return 0;
    c->send = coll_send_bytes(c) ? calloc(1, coll_send_bytes(c)) : NULL;
    c->recv = calloc(1, coll_recv_bytes(c));
    if (c->recv == NULL || (coll_send_bytes(c) && c->send == NULL)) {
        fprintf(stderr, "rank %u: out of memory\n", g_rank);
        exit(1);
    }
    coll_fill(c);
    return 1;
}

/* 1 when every rank passes the same digest as rank 0. */
static int digests_agree(const coll_case *c)
{
    uint64_t mine = coll_digest(c), all[64];

    if (g_size > 64)
        return 1;
    MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (unsigned r = 1; r < g_size; r++)
        if (all[r] != all[0])
            return 0;
    return 1;
}

/* Runs, checks and (where the output is shared) compares one case; the
 * number of failures on this rank. */
static int one_case(coll_kind k, coll_dtype t, coll_op op, uint64_t bytes)
{
    coll_case c;
    coll_mismatch m;
    char why[256];
    int fails = 0;

    if (!make_case(&c, k, t, op, bytes))
        return 0;
    if (coll_mpi_run(&c, 3, why, sizeof(why)) != 0) {
        fprintf(stderr, "rank %u: %s\n", g_rank, why);
        exit(1);
    }
    if (coll_check(&c, &m)) {
        fprintf(stderr, "rank %u: %s %s %s %" PRIu64 " B: element %" PRIu64 " got %g expected %g\n",
                g_rank, coll_kind_name(k), coll_dtype_names[t], coll_op_names[op], bytes, m.element,
                m.got, m.expected);
        fails++;
    }
    if ((k == COLL_ALLREDUCE || k == COLL_BROADCAST || k == COLL_ALLGATHER) && !digests_agree(&c)) {
        fprintf(stderr, "rank %u: %s %" PRIu64 " B: digests differ\n", g_rank, coll_kind_name(k),
                bytes);
        fails++;
    }
    free(c.send);
    free(c.recv);
    return fails;
}

/* Every kind, type, op and size; failures on this rank. */
static int all_cases(void)
{
    static const uint64_t sizes[] = {8, 100, 4096, 65536 + 12, 1 << 20};
    int fails = 0;

    for (int k = 0; k < COLL_KIND_COUNT; k++)
        for (int t = 0; t < 3; t++)
            for (int op = 0; op < 3; op++) {
                if ((op > 0 && !coll_kind_reduces((coll_kind)k)) ||
                    (t > 0 && k >= COLL_P2P_LATENCY))
                    continue;
                for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
                    fails += one_case((coll_kind)k, (coll_dtype)t, (coll_op)op, sizes[s]);
            }
    return fails;
}

/* A corrupted element of the last rank's allreduce output must be found
 * at its index with both values; failures on this rank. */
static int corruption_caught(void)
{
    coll_case c;
    coll_mismatch m = {0};
    char why[256];
    const uint64_t bad = 777;
    int fails = 0;

    make_case(&c, COLL_ALLREDUCE, COLL_F32, COLL_SUM, 4096);
    if (coll_mpi_run(&c, 1, why, sizeof(why)) != 0) {
        fprintf(stderr, "rank %u: %s\n", g_rank, why);
        exit(1);
    }
    if (g_rank == g_size - 1) {
        float *out = c.recv;

        out[bad] += 0.5f;
        if (!coll_check(&c, &m) || m.element != bad || m.got != m.expected + 0.5) {
            fprintf(stderr,
                    "rank %u: corrupted element %" PRIu64 " not reported (got %" PRIu64 ")\n",
                    g_rank, bad, m.element);
            fails++;
        }
    } else if (coll_check(&c, &m)) {
        fprintf(stderr, "rank %u: clean output reported at %" PRIu64 "\n", g_rank, m.element);
        fails++;
    }
    if (g_size > 1 && digests_agree(&c)) {
        fprintf(stderr, "rank %u: a corrupted rank's digest matches rank 0's\n", g_rank);
        fails++;
    }
    free(c.send);
    free(c.recv);
    return fails;
}

/* coll_mpi_device_aware() finds the MPI's own query where this process
 * (which links libmpi) sees it, answers as that query does, and says so
 * in its text; an MPI without the query is "not aware". Failures. */
static int device_awareness_read(void)
{
    static const char *const vendors[][2] = {{"CUDA", "MPIX_Query_cuda_support"},
                                             {"ROCm", "MPIX_Query_rocm_support"}};
    int fails = 0;

    for (int i = 0; i < 2; i++) {
        char what[256];
        void *sym = dlsym(RTLD_DEFAULT, vendors[i][1]);
        int (*ask)(void);
        int got = coll_mpi_device_aware(vendors[i][0], what, sizeof(what)), want = 0;

        if (sym != NULL) {
            memcpy(&ask, &sym, sizeof(sym));
            want = ask() != 0;
        }
        if (got != want || strstr(what, vendors[i][1]) == NULL ||
            (sym != NULL) != (strstr(what, " has no ") == NULL) ||
            (got == 0 && sym != NULL && strstr(what, "is not ") == NULL)) {
            fprintf(stderr, "rank %u: %s-aware: got %d (%s), the MPI's %s %s %d\n", g_rank,
                    vendors[i][0], got, what, vendors[i][1], sym ? "answers" : "is absent:", want);
            fails++;
        } else if (g_rank == 0) {
            printf("coll_driver: %s\n", what);
        }
    }
    return fails;
}

int main(int argc, char **argv)
{
    char why[256];
    int mine, total = 0;

    (void)argc;
    (void)argv;
    if (coll_mpi_init(&g_rank, &g_size, why, sizeof(why)) != 0) {
        fprintf(stderr, "coll_driver: %s\n", why);
        return 1;
    }
    mine = all_cases() + corruption_caught() + device_awareness_read();
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("coll_driver: %u ranks: %s (%d failures)\n", g_size, total ? "FAILED" : "ok", total);
    MPI_Finalize();
    return total ? 1 : 0;
}
