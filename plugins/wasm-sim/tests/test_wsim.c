// SPDX-License-Identifier: MIT
/*
 * test_wsim.c -- unit tests of libwsim_core's wasm side: every kernel of
 * kern.wasm (both runtime builds) and of the 128-bit mode against the
 * native build, traps on out-of-bounds accesses (and a fault outside any
 * call still killing the process), memory.grow limits and the ceiling,
 * and the linear-memory allocator.
 */
#include "wk.h"
#include "wsim.h"

#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define U32 (1.0 / 16777216.0)

/* Deterministic floats in [lo, hi). */
static void fill(float *p, size_t n, float lo, float hi, uint32_t seed)
{
    uint32_t s = seed * 2654435761u + 1;

    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        p[i] = lo + (hi - lo) * (float)(s >> 8) / 16777216.0f;
    }
}

static void fill_i8(int8_t *p, size_t n, uint32_t seed)
{
    uint32_t s = seed * 2246822519u + 7;

    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        p[i] = (int8_t)((int)(s % 255u) - 127);
    }
}

/* Copies n bytes into a fresh block of w's memory. */
static uint32_t put(wsim_inst *w, const void *src, size_t n)
{
    uint32_t a = wsim_malloc(w, (uint32_t)n);

    assert_int_not_equal(a, 0);
    assert_int_equal(wsim_copy_in(w, a, src, n), 0);
    return a;
}

static wsim_val U(uint32_t u)
{
    wsim_val v;

    v.u = u;
    return v;
}

static wsim_val F(float f)
{
    wsim_val v;

    v.f = f;
    return v;
}

/* Every kernel through wasm2c, in both builds, equals the native build bit
 * for bit (same source, same operation order, no FMA). */
static void test_kernels_match_native(void **state)
{
    enum { M = 19, N = 23, K = 37, V = 1001 };
    float a[M * K], b[K * N], c[M * N], ref[M * N], x[V], y[V], z[V], zr[V];
    float sa[M], sb[N], sc[M], smo[M * K], smr[M * K];
    int8_t qa[M * K], qb[N * K], q[M * K], qr[M * K];
    uint16_t bh[K * N];

    (void)state;
    fill(a, M * K, -1, 1, 1);
    fill(b, K * N, -1, 1, 2);
    fill(x, V, -3, 3, 3);
    fill(y, V, -1, 1, 4);
    fill(sa, M, 1e-3f, 1e-2f, 5);
    fill(sb, N, 1e-3f, 1e-2f, 6);
    fill_i8(qa, M * K, 7);
    fill_i8(qb, N * K, 8);
    for (int i = 0; i < K * N; i++)
        bh[i] = wk_f32_to_f16(b[i]);
    for (int guard = 0; guard < 2; guard++) {
        wsim_inst *w = wsim_open(guard);
        uint32_t A = put(w, a, sizeof(a)), B = put(w, b, sizeof(b));
        uint32_t X = put(w, x, sizeof(x)), Y = put(w, y, sizeof(y));
        uint32_t SA = put(w, sa, sizeof(sa)), SB = put(w, sb, sizeof(sb));
        uint32_t QA = put(w, qa, sizeof(qa)), QB = put(w, qb, sizeof(qb));
        uint32_t BH = put(w, bh, sizeof(bh));
        uint32_t C = wsim_malloc(w, sizeof(c)), Z = wsim_malloc(w, sizeof(z));
        uint32_t Q = wsim_malloc(w, sizeof(q)), S = wsim_malloc(w, sizeof(sc));
        uint32_t SM = wsim_malloc(w, sizeof(smo));
        wsim_val r;

        wsim_val axpy[] = {U(V), F(0.75f), U(X), U(Y), U(Z)};
        assert_int_equal(wsim_call(w, WSIM_FN_AXPY, axpy, NULL), 0);
        wsim_copy_out(w, z, Z, sizeof(z));
        wk_axpy(V, 0.75f, x, y, zr);
        assert_memory_equal(z, zr, sizeof(z));

        wsim_val dot[] = {U(V), U(X), U(Y)};
        assert_int_equal(wsim_call(w, WSIM_FN_DOT, dot, &r), 0);
        assert_true(r.f == wk_dot(V, x, y));

        wsim_val gemm[] = {U(M), U(N), U(K), U(A), U(B), U(C)};
        assert_int_equal(wsim_call(w, WSIM_FN_SGEMM, gemm, NULL), 0);
        wsim_copy_out(w, c, C, sizeof(c));
        wk_sgemm(M, N, K, a, b, ref);
        assert_memory_equal(c, ref, sizeof(c));

        wsim_val hg[] = {U(M), U(N), U(K), U(A), U(BH), U(C)};
        assert_int_equal(wsim_call(w, WSIM_FN_HGEMM, hg, NULL), 0);
        wsim_copy_out(w, c, C, sizeof(c));
        wk_hgemm(M, N, K, a, bh, ref);
        assert_memory_equal(c, ref, sizeof(c));

        wsim_val sm[] = {U(M), U(K), U(A), U(SM)};
        assert_int_equal(wsim_call(w, WSIM_FN_SOFTMAX, sm, NULL), 0);
        wsim_copy_out(w, smo, SM, sizeof(smo));
        wk_softmax(M, K, a, smr);
        assert_memory_equal(smo, smr, sizeof(smo));

        wsim_val qm[] = {U(M), U(N), U(K), U(QA), U(QB), U(SA), U(SB), U(C)};
        assert_int_equal(wsim_call(w, WSIM_FN_QMATMUL, qm, NULL), 0);
        wsim_copy_out(w, c, C, sizeof(c));
        wk_qmatmul(M, N, K, qa, qb, sa, sb, ref);
        assert_memory_equal(c, ref, sizeof(c));

        wsim_val qz[] = {U(M), U(K), U(A), U(Q), U(S)};
        assert_int_equal(wsim_call(w, WSIM_FN_QUANTIZE, qz, NULL), 0);
        wsim_copy_out(w, q, Q, sizeof(q));
        wk_quantize_rows(M, K, a, qr, sa);
        wsim_copy_out(w, sc, S, sizeof(sc));
        assert_memory_equal(q, qr, sizeof(q));
        assert_memory_equal(sc, sa, sizeof(sc));
        wsim_close(w);
    }
}

/* The 128-bit mode: axpy, sgemm and qmatmul bit for bit; dot and softmax
 * within their rounding bounds. Sizes leave scalar tails. */
static void test_simd_kernels(void **state)
{
    enum { M = 9, N = 30, K = 45, V = 1003 };
    float a[M * K], b[K * N], c[M * N], ref[M * N], x[V], y[V], z[V], zr[V];
    float sm[M * K], smr[M * K], sa[M], sb[N];
    int8_t qa[M * K], qb[N * K];

    (void)state;
    fill(a, M * K, -4, 4, 11);
    fill(b, K * N, -1, 1, 12);
    fill(x, V, -1, 1, 13);
    fill(y, V, -1, 1, 14);
    fill(sa, M, 1e-3f, 1e-2f, 15);
    fill(sb, N, 1e-3f, 1e-2f, 16);
    fill_i8(qa, M * K, 17);
    fill_i8(qb, N * K, 18);
    for (int guard = 0; guard < 2; guard++) {
        wsim_inst *w = wsim_open(guard);
        uint32_t A = put(w, a, sizeof(a)), B = put(w, b, sizeof(b));
        uint32_t X = put(w, x, sizeof(x)), Y = put(w, y, sizeof(y));
        uint32_t SA = put(w, sa, sizeof(sa)), SB = put(w, sb, sizeof(sb));
        uint32_t QA = put(w, qa, sizeof(qa)), QB = put(w, qb, sizeof(qb));
        uint32_t C = wsim_malloc(w, sizeof(c)), Z = wsim_malloc(w, sizeof(z));
        uint32_t SM = wsim_malloc(w, sizeof(sm));
        double dref = 0, mag = 0;
        float d;

        assert_int_equal(wsim_simd_axpy(w, V, 0.75f, X, Y, Z), 0);
        wsim_copy_out(w, z, Z, sizeof(z));
        wk_axpy(V, 0.75f, x, y, zr);
        assert_memory_equal(z, zr, sizeof(z));

        assert_int_equal(wsim_simd_sgemm(w, M, N, K, A, B, C), 0);
        wsim_copy_out(w, c, C, sizeof(c));
        wk_sgemm(M, N, K, a, b, ref);
        assert_memory_equal(c, ref, sizeof(c));

        assert_int_equal(wsim_simd_qmatmul(w, M, N, K, QA, QB, SA, SB, C), 0);
        wsim_copy_out(w, c, C, sizeof(c));
        wk_qmatmul(M, N, K, qa, qb, sa, sb, ref);
        assert_memory_equal(c, ref, sizeof(c));

        assert_int_equal(wsim_simd_dot(w, V, X, Y, &d), 0);
        for (int i = 0; i < V; i++) {
            dref += (double)x[i] * y[i];
            mag += fabs((double)x[i] * y[i]);
        }
        assert_true(fabs(d - dref) <= (V + 2) * U32 * mag);

        assert_int_equal(wsim_simd_softmax(w, M, K, A, SM), 0);
        wsim_copy_out(w, sm, SM, sizeof(sm));
        wk_softmax(M, K, a, smr);
        for (int i = 0; i < M * K; i++)
            assert_true(fabs(sm[i] - smr[i]) <= (K + 32) * U32 * smr[i]);
        wsim_close(w);
    }
}

/* wk_expf against libm, and the half conversions. */
static void test_expf_and_half(void **state)
{
    double worst = 0;

    (void)state;
    for (float v = -87.0f; v < 88.0f; v += 0.01171875f) {
        double e = fabs(wk_expf(v) - exp(v)) / exp(v);

        worst = e > worst ? e : worst;
    }
    assert_true(worst < 4 * U32);
    assert_true(wk_expf(-100.0f) == 0.0f);
    assert_true(isinf(wk_expf(100.0f)));
    for (uint32_t h = 0; h < 65536; h++) {
        float f = wk_f16_to_f32((uint16_t)h);

        if (f != f)
            continue;
        assert_int_equal(wk_f32_to_f16(f), h);
    }
    assert_int_equal(wk_f32_to_f16(1.0f + 0x1p-11f), 0x3c00); /* tie: even */
    assert_int_equal(wk_f32_to_f16(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
    assert_int_equal(wk_f32_to_f16(65520.0f), 0x7c00);
}

/* An access past the end traps with OOB in both builds and both modes;
 * the instance keeps working; copies past the end are refused. */
static void test_oob_traps(void **state)
{
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, z[8];

    (void)state;
    for (int guard = 0; guard < 2; guard++) {
        wsim_inst *w = wsim_open(guard);
        uint32_t X = put(w, x, sizeof(x)), Z = wsim_malloc(w, sizeof(z));
        uint32_t end = wsim_memory(w).size;
        wsim_val bad[] = {U(8), F(2.0f), U(X), U(X), U(end - 8)};
        wsim_val good[] = {U(8), F(2.0f), U(X), U(X), U(Z)};
        wsim_val far[] = {U(0xFFFFFFF0u)}, r;

        assert_int_equal(wsim_call(w, WSIM_FN_AXPY, bad, NULL),
                         WSIM_TRAP_OOB);
        assert_string_equal(wsim_trap_name(w, WSIM_TRAP_OOB),
                            "Out-of-bounds access in linear memory or a "
                            "table");
        assert_int_equal(wsim_call(w, WSIM_FN_LOAD_U8, far, &r),
                         WSIM_TRAP_OOB);
        assert_int_equal(wsim_simd_axpy(w, 8, 2.0f, X, X, end - 8),
                         WSIM_TRAP_OOB);
        assert_int_equal(wsim_simd_sgemm(w, 2, 2, 2, X, X, end - 4),
                         WSIM_TRAP_OOB);
        assert_int_equal(wsim_call(w, WSIM_FN_AXPY, good, NULL), 0);
        wsim_copy_out(w, z, Z, sizeof(z));
        assert_true(z[7] == 24.0f);
        assert_int_equal(wsim_copy_in(w, end - 4, x, 8), WSIM_TRAP_OOB);
        assert_int_equal(wsim_copy_out(w, z, end, 1), WSIM_TRAP_OOB);
        assert_int_equal(wsim_copy_out(w, z, end - 4, 4), 0);
        wsim_close(w);
    }
}

/* With the guard build's handler installed, a fault outside any wasm call
 * still ends the process with SIGSEGV (it is not turned into a trap). */
static void test_fault_outside_call(void **state)
{
    pid_t pid;
    int status = 0;

    (void)state;
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        wsim_inst *w = wsim_open(1);
        volatile char *p = mmap(NULL, 4096, PROT_NONE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

        if (w == NULL || p == MAP_FAILED)
            _exit(3);
        p[0] = 1;
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGSEGV);
}

/* memory.grow: returns the old size, zero-fills, refuses growth past the
 * declared maximum with -1 and no change. */
static void test_grow_limits(void **state)
{
    (void)state;
    for (int guard = 0; guard < 2; guard++) {
        wsim_inst *w = wsim_open(guard);
        wsim_mem m = wsim_memory(w);
        uint32_t p0 = m.pages;
        wsim_val r, a;
        uint8_t byte = 1;

        assert_int_equal(m.max_pages, WSIM_MAX_PAGES);
        a.u = 0;
        assert_int_equal(wsim_call(w, WSIM_FN_GROW, &a, &r), 0);
        assert_int_equal(r.u, p0);
        a.u = 64;
        assert_int_equal(wsim_call(w, WSIM_FN_GROW, &a, &r), 0);
        assert_int_equal(r.u, p0);
        m = wsim_memory(w);
        assert_int_equal(m.pages, p0 + 64);
        assert_int_equal(m.size, (p0 + 64) * WSIM_PAGE);
        wsim_copy_out(w, &byte, m.size - 1, 1);
        assert_int_equal(byte, 0);
        a.u = WSIM_MAX_PAGES - m.pages + 1;
        assert_int_equal(wsim_call(w, WSIM_FN_GROW, &a, &r), 0);
        assert_int_equal(r.u, UINT32_MAX);
        a.u = 65536;
        assert_int_equal(wsim_call(w, WSIM_FN_GROW, &a, &r), 0);
        assert_int_equal(r.u, UINT32_MAX);
        a.u = UINT32_MAX;
        assert_int_equal(wsim_call(w, WSIM_FN_GROW, &a, &r), 0);
        assert_int_equal(r.u, UINT32_MAX);
        assert_int_equal(wsim_memory(w).pages, p0 + 64);
        wsim_close(w);
    }
}

/* The guard build grows to the ceiling for the cost of mprotect: the last
 * byte works, one more page is refused, the next address traps. */
static void test_ceiling(void **state)
{
    wsim_inst *w = wsim_open(1);
    wsim_val a[2], r;
    uint32_t end;

    (void)state;
    a[0].u = WSIM_MAX_PAGES - wsim_memory(w).pages;
    assert_int_equal(wsim_call(w, WSIM_FN_GROW, a, &r), 0);
    assert_int_not_equal(r.u, UINT32_MAX);
    assert_int_equal(wsim_memory(w).pages, WSIM_MAX_PAGES);
    a[0].u = 1;
    assert_int_equal(wsim_call(w, WSIM_FN_GROW, a, &r), 0);
    assert_int_equal(r.u, UINT32_MAX);
    end = WSIM_MAX_PAGES * WSIM_PAGE;
    a[0].u = end - 1;
    a[1].u = 0x5A;
    assert_int_equal(wsim_call(w, WSIM_FN_STORE_U8, a, NULL), 0);
    assert_int_equal(wsim_call(w, WSIM_FN_LOAD_U8, a, &r), 0);
    assert_int_equal(r.u, 0x5A);
    a[0].u = end;
    assert_int_equal(wsim_call(w, WSIM_FN_LOAD_U8, a, &r), WSIM_TRAP_OOB);
    wsim_close(w);
}

/* The allocator: the same layout in wasm and natively, consistent heap
 * after churn, coalescing, failure past the ceiling. */
static void test_allocator(void **state)
{
    static uint8_t arena[8u << 20] __attribute__((aligned(64)));
    wsim_inst *w = wsim_open(0);
    wsim_val a[2], r;

    (void)state;
    wk_heap_native(arena, sizeof(arena));
    wk_churn_reset(99);
    a[0].u = 99;
    assert_int_equal(wsim_call(w, WSIM_FN_CHURN_RESET, a, NULL), 0);
    for (int i = 0; i < 20; i++) {
        uint32_t nh = wk_churn(500, 3000);

        a[0].u = 500;
        a[1].u = 3000;
        assert_int_equal(wsim_call(w, WSIM_FN_CHURN, a, &r), 0);
        assert_int_equal(r.u, nh);
        assert_int_not_equal(nh, UINT32_MAX);
    }
    assert_int_equal(wk_heap_check(), 0);
    assert_int_equal(wsim_call(w, WSIM_FN_HEAP_CHECK, a, &r), 0);
    assert_int_equal(r.u, 0);
    for (uint32_t s = 0; s < 7; s++) {
        a[0].u = s;
        assert_int_equal(wsim_call(w, WSIM_FN_HEAP_STAT, a, &r), 0);
        assert_int_equal(r.u, wk_heap_stat(s));
    }
    /* coalescing: three neighbours freed become one free block */
    wk_churn_reset(1);
    {
        uint32_t before = wk_heap_stat(3);
        void *p = wk_malloc(100), *q = wk_malloc(200), *t = wk_malloc(300);

        assert_non_null(p);
        assert_non_null(q);
        assert_non_null(t);
        assert_int_equal((uintptr_t)p % 16, 0);
        wk_free(p);
        wk_free(t);
        wk_free(q);
        assert_int_equal(wk_heap_stat(3), before);
        assert_int_equal(wk_heap_check(), 0);
    }
    wsim_close(w);
    /* past the ceiling (guard build: growing costs no RSS): NULL and a
     * counted failure, heap intact */
    w = wsim_open(1);
    a[0].u = 0x7ff00000u;
    for (int i = 0; i < 2; i++) { /* twice 2 GiB fits under the ceiling */
        assert_int_equal(wsim_call(w, WSIM_FN_MALLOC, a, &r), 0);
        assert_int_not_equal(r.u, 0);
    }
    assert_int_equal(wsim_call(w, WSIM_FN_MALLOC, a, &r), 0);
    assert_int_equal(r.u, 0);
    a[0].u = 6;
    assert_int_equal(wsim_call(w, WSIM_FN_HEAP_STAT, a, &r), 0);
    assert_int_equal(r.u, 1);
    assert_int_equal(wsim_call(w, WSIM_FN_HEAP_CHECK, a, &r), 0);
    assert_int_equal(r.u, 0);
    wsim_close(w);
    assert_null(wk_malloc(0x80000000u));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_match_native),
        cmocka_unit_test(test_simd_kernels),
        cmocka_unit_test(test_expf_and_half),
        cmocka_unit_test(test_oob_traps),
        cmocka_unit_test(test_fault_outside_call),
        cmocka_unit_test(test_grow_limits),
        cmocka_unit_test(test_ceiling),
        cmocka_unit_test(test_allocator),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
