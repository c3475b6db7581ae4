// SPDX-License-Identifier: MIT
/*
 * test_coll_sizes.c -- unit tests of the collectives' core without MPI:
 * nccl-tests' size and count rules and bandwidth factors, the input
 * pattern, and the exact check against collectives done by hand over the
 * ranks' inputs (allreduce, reduce_scatter, alltoall), including a
 * wrong element it must report.
 */
#include "coll.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void test_sizes(void)
{
    coll_sizes s;

    CHECK(coll_sizes_of(COLL_ALLREDUCE, COLL_F32, 64u << 20, 2, 0, &s) == 0);
    CHECK(s.count == 16u << 20 && s.param_count == s.count && s.size_bytes == 64u << 20);
    CHECK(coll_sizes_of(COLL_BROADCAST, COLL_F64, 12, 4, 0, &s) == 0);
    CHECK(s.count == 1 && s.size_bytes == 8); /* bytes below a whole element dropped */
    /* allgather: chunk = count / n rounded down to 16 bytes (4 f32) */
    CHECK(coll_sizes_of(COLL_ALLGATHER, COLL_F32, 100, 2, 0, &s) == 0);
    CHECK(s.count == 25 && s.param_count == 12 && s.send_count == 12 && s.recv_count == 24);
    CHECK(s.size_bytes == 96);
    CHECK(coll_sizes_of(COLL_ALLGATHER, COLL_F64, 8, 2, 0, &s) == -1);
    CHECK(coll_sizes_of(COLL_REDUCE_SCATTER, COLL_I32, 1u << 20, 4, 0, &s) == 0);
    CHECK(s.param_count == 65536 && s.send_count == 262144 && s.recv_count == 65536);
    CHECK(s.size_bytes == 1u << 20);
    CHECK(coll_sizes_of(COLL_ALLTOALL, COLL_F64, 1000, 3, 0, &s) == 0);
    CHECK(s.param_count == 40 && s.send_count == 120 && s.recv_count == 120);
    CHECK(s.size_bytes == 960);
    CHECK(coll_sizes_of(COLL_P2P_BANDWIDTH, COLL_BYTE, 1024, 2, 64, &s) == 0);
    CHECK(s.size_bytes == 65536 && s.param_count == 1024);
    CHECK(coll_sizes_of(COLL_P2P_LATENCY, COLL_BYTE, 8, 2, 64, &s) == 0 && s.size_bytes == 8);
}

static void test_factors(void)
{
    CHECK(coll_busbw_factor(COLL_ALLREDUCE, 2) == 1.0);
    CHECK(coll_busbw_factor(COLL_ALLREDUCE, 4) == 1.5);
    CHECK(coll_busbw_factor(COLL_ALLREDUCE, 1) == 0.0);
    CHECK(coll_busbw_factor(COLL_ALLGATHER, 4) == 0.75);
    CHECK(coll_busbw_factor(COLL_REDUCE_SCATTER, 2) == 0.5);
    CHECK(coll_busbw_factor(COLL_ALLTOALL, 8) == 0.875);
    CHECK(coll_busbw_factor(COLL_BROADCAST, 8) == 1.0);
    CHECK(coll_busbw_factor(COLL_P2P_LATENCY, 2) == 1.0);
    CHECK(fabs(coll_algbw_gbs(1000000000u, 0.5) - 2.0) < 1e-12);
    CHECK(coll_algbw_gbs(100, 0.0) == 0.0);
    CHECK(strcmp(coll_kind_name(COLL_REDUCE_SCATTER), "reduce_scatter") == 0);
}

static void test_values(void)
{
    int seen_neg = 0, seen_pos = 0;

    for (uint64_t i = 0; i < 10000; i++) {
        int32_t s = coll_value(42, 3, i, 1), l = coll_value(42, 3, i, 0);

        CHECK(s >= -8 && s <= 8);
        CHECK(l >= -(1 << 20) && l < (1 << 20));
        seen_neg |= s < 0;
        seen_pos |= s > 0;
    }
    CHECK(seen_neg && seen_pos);
    CHECK(coll_value(42, 3, 5, 0) == coll_value(42, 3, 5, 0));
    CHECK(coll_value(42, 3, 5, 0) != coll_value(42, 2, 5, 0));
    CHECK(coll_value(42, 3, 5, 0) != coll_value(43, 3, 5, 0));
}

/* Rank r's filled case of kind k on n ranks (buffers malloc'ed). */
static coll_case rank_case(coll_kind k, coll_op op, unsigned r, unsigned n, uint64_t bytes)
{
    coll_case c = {.kind = k, .dtype = COLL_F32, .op = op, .rank = r, .nranks = n, .seed = 9};

    CHECK(coll_sizes_of(k, c.dtype, bytes, n, 0, &c.sz) == 0);
    c.send = malloc(coll_send_bytes(&c));
    c.recv = malloc(coll_recv_bytes(&c));
    coll_fill(&c);
    return c;
}

static void free_cases(coll_case *c, unsigned n)
{
    for (unsigned r = 0; r < n; r++) {
        free(c[r].send);
        free(c[r].recv);
    }
}

/* allreduce (max) and reduce_scatter (sum) on 3 ranks done by hand. */
static void test_check_reductions(void)
{
    coll_case c[3];
    coll_mismatch m;

    for (unsigned r = 0; r < 3; r++)
        c[r] = rank_case(COLL_ALLREDUCE, COLL_MAX, r, 3, 4096);
    CHECK(coll_check(&c[1], &m) == 1); /* not run yet: the prefill fails */
    for (unsigned r = 0; r < 3; r++)
        for (uint64_t i = 0; i < c[r].sz.recv_count; i++) {
            float v = -100;

            for (unsigned q = 0; q < 3; q++)
                v = fmaxf(v, ((float *)c[q].send)[i]);
            ((float *)c[r].recv)[i] = v;
        }
    CHECK(coll_check(&c[0], &m) == 0 && coll_check(&c[2], &m) == 0);
    CHECK(coll_digest(&c[0]) == coll_digest(&c[2]));
    ((float *)c[2].recv)[17] += 1.0f;
    CHECK(coll_check(&c[2], &m) == 1 && m.element == 17 && m.got == m.expected + 1.0);
    CHECK(coll_digest(&c[0]) != coll_digest(&c[2]));
    free_cases(c, 3);

    for (unsigned r = 0; r < 3; r++)
        c[r] = rank_case(COLL_REDUCE_SCATTER, COLL_SUM, r, 3, 4096);
    for (unsigned r = 0; r < 3; r++)
        for (uint64_t k = 0; k < c[r].sz.recv_count; k++) {
            float v = 0;

            for (unsigned q = 0; q < 3; q++)
                v += ((float *)c[q].send)[r * c[r].sz.param_count + k];
            ((float *)c[r].recv)[k] = v;
        }
    for (unsigned r = 0; r < 3; r++)
        CHECK(coll_check(&c[r], &m) == 0);
    free_cases(c, 3);
}

/* alltoall on 3 ranks by hand: block j of rank r's output is block r of
 * rank j's input. */
static void test_check_alltoall(void)
{
    coll_case c[3];
    coll_mismatch m;
    uint64_t chunk;

    for (unsigned r = 0; r < 3; r++)
        c[r] = rank_case(COLL_ALLTOALL, COLL_SUM, r, 3, 3000);
    chunk = c[0].sz.param_count;
    for (unsigned r = 0; r < 3; r++)
        for (unsigned j = 0; j < 3; j++)
            memcpy((float *)c[r].recv + j * chunk, (float *)c[j].send + r * chunk,
                   chunk * sizeof(float));
    for (unsigned r = 0; r < 3; r++)
        CHECK(coll_check(&c[r], &m) == 0);
    /* blocks swapped: found at the first element of block 0 */
    memcpy(c[1].recv, (float *)c[2].send + chunk, chunk * sizeof(float));
    CHECK(coll_check(&c[1], &m) == 1 && m.element == 0);
    free_cases(c, 3);
}

int main(void)
{
    test_sizes();
    test_factors();
    test_values();
    test_check_reductions();
    test_check_alltoall();
    if (failures) {
        fprintf(stderr, "test_coll_sizes: %d failures\n", failures);
        return 1;
    }
    printf("test_coll_sizes: ok\n");
    return 0;
}
