// SPDX-License-Identifier: MIT
/*
 * test_mem_core.c -- unit tests of libmem_core without the host: the pool
 * and the arena (blocks disjoint, aligned, reused after a free, sizes
 * rounded as documented), the trace generators (balanced, the expected
 * KV-cache and Adam-state bytes live at the peak), the replay through
 * glibc and the arena (every block written and checked), and opening an
 * allocator whose library is missing (skipped naming its package).
 */
#include "mem_alloc.h"
#include "mem_replay.h"
#include "mem_trace.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* Allocates n blocks from p, writes each whole and checks the contents,
 * the alignment and that they are distinct. */
static void fill_and_check(mem_pool *p, void **b, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        b[i] = mem_pool_alloc(p);
        assert_non_null(b[i]);
        assert_int_equal((uintptr_t)b[i] % MEM_POOL_ALIGN, 0);
        memset(b[i], (int)i + 1, p->block);
    }
    for (unsigned i = 0; i < n; i++)
        for (size_t k = 0; k < p->block; k++)
            assert_int_equal(((unsigned char *)b[i])[k], (unsigned char)(i + 1));
}

static void pool_blocks(void **state)
{
    mem_pool p;
    void *b[300];

    (void)state;
    assert_int_equal(mem_pool_init(&p, 0, 0), -1);
    assert_int_equal(mem_pool_init(&p, 100, 4096), 0);
    assert_int_equal(p.block, 112); /* rounded up to 16 */
    fill_and_check(&p, b, 300);     /* spans several slabs */
    assert_true(p.mapped >= 300 * 112);
    assert_int_equal(p.live, 300);
    mem_pool_free(&p, b[7]);
    mem_pool_free(&p, b[9]);
    assert_ptr_equal(mem_pool_alloc(&p), b[9]); /* LIFO reuse */
    assert_ptr_equal(mem_pool_alloc(&p), b[7]);
    assert_int_equal(p.live, 300);
    mem_pool_fini(&p);
    assert_int_equal(p.mapped, 0);
}

static void pool_power_of_two_alignment(void **state)
{
    mem_pool p;
    void *b[8];

    (void)state;
    assert_int_equal(mem_pool_init(&p, 4096, 0), 0);
    fill_and_check(&p, b, 8);
    for (int i = 0; i < 8; i++)
        assert_int_equal((uintptr_t)b[i] % 4096, 0);
    mem_pool_fini(&p);
    assert_int_equal(mem_pool_init(&p, (size_t)3 << 20, 0), 0); /* one block a slab */
    fill_and_check(&p, b, 2);
    assert_int_equal(p.mapped, 2 * (((size_t)3 << 20) + 4096)); /* a page of header each */
    mem_pool_fini(&p);
}

static void arena_classes(void **state)
{
    size_t size;

    (void)state;
    assert_int_equal(mem_arena_class(0, NULL), -1);
    assert_int_equal(mem_arena_class(1, &size), 0);
    assert_int_equal(size, 16);
    assert_int_equal(mem_arena_class(128, &size), 7);
    assert_int_equal(size, 128);
    assert_int_equal(mem_arena_class(129, &size), 8);
    assert_int_equal(size, 160);
    assert_int_equal(mem_arena_class(257, &size), 12);
    assert_int_equal(size, 320);
    assert_int_equal(mem_arena_class((size_t)64 << 20, &size), MEM_ARENA_CLASSES - 1);
    assert_int_equal(size, (size_t)64 << 20);
    assert_int_equal(mem_arena_class(((size_t)64 << 20) + 1, NULL), -1);
    for (size_t n = 1; n < ((size_t)1 << 22); n += n / 7 + 1) {
        int c = mem_arena_class(n, &size);

        assert_true(c >= 0 && c < MEM_ARENA_CLASSES);
        assert_true(size >= n);
        assert_true(n <= 128 ? size - n < 16 : (double)size <= 1.25 * (double)n + 1);
        assert_int_equal(size % 16, 0);
    }
}

static void arena_blocks(void **state)
{
    static const size_t sizes[] = {1, 16, 100, 3000, 65536, 1 << 20, ((size_t)64 << 20) + 5};
    mem_arena a;
    unsigned char *b[7];

    (void)state;
    mem_arena_init(&a);
    for (int i = 0; i < 7; i++) {
        b[i] = mem_arena_alloc(&a, sizes[i]);
        assert_non_null(b[i]);
        assert_int_equal((uintptr_t)b[i] % 16, 0);
        memset(b[i], i + 1, sizes[i]);
    }
    for (int i = 0; i < 7; i++)
        for (size_t k = 0; k < sizes[i]; k += 1 + sizes[i] / 997)
            assert_int_equal(b[i][k], i + 1);
    assert_true(mem_arena_mapped(&a) >= ((size_t)64 << 20) + (1 << 20));
    mem_arena_free(&a, b[3], sizes[3]);
    assert_ptr_equal(mem_arena_alloc(&a, 2900), b[3]); /* same class: reused */
    for (int i = 0; i < 7; i++)
        mem_arena_free(&a, b[i], i == 3 ? 2900 : sizes[i]);
    assert_int_equal(a.huge_mapped, 0);
    mem_arena_fini(&a);
}

static void trace_decode(void **state)
{
    mem_trace t;
    char err[256];
    uint64_t row = 768 * 4, kv = 12ull * 2 * 129 * row; /* 12 layers, K and V, 129 rows */

    (void)state;
    assert_int_equal(mem_trace_decode(&t, "gpt2", 128, 2, err, sizeof(err)), 0);
    assert_int_equal(mem_trace_check(&t, err, sizeof(err)), 0);
    /* the second step grows every cache to 130 rows, one copy at a time */
    assert_true(t.peak_live > kv + 24 * row);
    assert_true(t.peak_live < kv + 24 * row + 130 * row + (1u << 20));
    assert_int_equal(t.max_block, 130 * row); /* a grown K or V */
    mem_trace_free(&t);
    assert_int_equal(mem_trace_decode(&t, "bert-base", 128, 2, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "bert-base"));
    mem_trace_free(&t);
}

static void trace_optimizer(void **state)
{
    mem_trace t;
    char err[256];
    uint64_t per_stream = 0;

    (void)state;
    assert_int_equal(mem_trace_optimizer(&t, "gpt2", 2, 64, err, sizeof(err)), 0);
    for (size_t i = 0; i < t.count; i++)
        per_stream += t.ev[i].op == MEM_EV_ALLOC && i < 148 ? t.ev[i].bytes : 0;
    /* params, grads, m and v live together, plus the temporaries */
    assert_true(t.peak_live >= 4 * per_stream);
    assert_true(t.peak_live <= 4 * per_stream + 2 * t.max_block);
    mem_trace_free(&t);
    assert_int_equal(mem_trace_optimizer(&t, "no-such", 2, 64, err, sizeof(err)), -1);
    mem_trace_free(&t);
}

static void trace_check_rejects(void **state)
{
    mem_event ev[2] = {{MEM_EV_ALLOC, 0, 64}, {MEM_EV_FREE, 0, 32}};
    mem_trace t;
    char err[256];

    (void)state;
    memset(&t, 0, sizeof(t));
    t.ev = ev;
    t.count = 2;
    t.slots = 1;
    assert_int_equal(mem_trace_check(&t, err, sizeof(err)), -1); /* size differs */
    assert_non_null(strstr(err, "event 1"));
    t.count = 1;
    assert_int_equal(mem_trace_check(&t, err, sizeof(err)), -1); /* left live */
}

/* Replays the decode trace through kind checked, timed and measured. */
static void replay_through(int kind)
{
    mem_trace t;
    mem_lib lib;
    mem_alloc a;
    mem_replay r;
    char err[256];

    assert_int_equal(mem_trace_decode(&t, "tiny-gpt2", 16, 3, err, sizeof(err)), 0);
    assert_int_equal(mem_lib_open(&lib, kind, NULL, err, sizeof(err)), MEM_LIB_OK);
    assert_int_equal(mem_alloc_init(&a, &lib, 1, 16), 0);
    assert_int_equal(mem_replay_init(&r, &t), 0);
    assert_int_equal(mem_replay_run(&r, &a, MEM_REPLAY_MEASURED, 1), 0);
    assert_true(r.rss_start > 0 && r.rss_peak >= r.rss_start);
    assert_int_equal(mem_replay_run(&r, &a, MEM_REPLAY_TIMED, 2), 0);
    r.bytes_checked = 0;
    assert_int_equal(mem_replay_run(&r, &a, MEM_REPLAY_CHECKED, 3), 0);
    {
        uint64_t total = 0;

        for (size_t i = 0; i < t.count; i++)
            total += t.ev[i].op == MEM_EV_ALLOC ? t.ev[i].bytes : 0;
        assert_int_equal(r.bytes_checked, total); /* every block checked whole */
    }
    for (uint32_t s = 0; s < t.slots; s++)
        assert_null(r.block[s]);
    mem_replay_fini(&r);
    mem_alloc_fini(&a);
    mem_trace_free(&t);
}

static void replay_glibc(void **state)
{
    (void)state;
    replay_through(MEM_LIB_GLIBC);
}

static void replay_arena(void **state)
{
    (void)state;
    replay_through(MEM_LIB_ARENA);
}

static void missing_library(void **state)
{
    mem_lib lib;
    char err[256];

    (void)state;
    assert_int_equal(
        mem_lib_open(&lib, MEM_LIB_MIMALLOC, "/nonexistent/libmimalloc.so.2", err, sizeof(err)),
        MEM_LIB_MISSING);
    assert_non_null(strstr(err, "libmimalloc2.0"));
    assert_non_null(strstr(err, "not installed"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pool_blocks),         cmocka_unit_test(pool_power_of_two_alignment),
        cmocka_unit_test(arena_classes),       cmocka_unit_test(arena_blocks),
        cmocka_unit_test(trace_decode),        cmocka_unit_test(trace_optimizer),
        cmocka_unit_test(trace_check_rejects), cmocka_unit_test(replay_glibc),
        cmocka_unit_test(replay_arena),        cmocka_unit_test(missing_library),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
