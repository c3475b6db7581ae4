// SPDX-License-Identifier: MIT
/* The working-set rule: each level's working set lands on that level by
 * the host's placement rule, on this machine's caches and on made-up ones;
 * levels that cannot be told apart are refused with a reason. */
#include "test_roof.h"

#include "roof_caches.h"
#include "roof_levels.h"

#include <stdio.h>
#include <string.h>

#define KIB(x) ((uint64_t)(x) << 10)
#define MIB(x) ((uint64_t)(x) << 20)

/* Every level of t (and DRAM) for 1..max_threads threads, with 1 and 3
 * arrays: the rounded working set lands on the level it was chosen for,
 * or the level is refused. Returns the number refused. */
static unsigned check_every_level(const roof_caches *t, unsigned max_threads)
{
    unsigned refused = 0;

    for (unsigned threads = 1; threads <= max_threads; threads++) {
        for (unsigned i = 0; i <= t->n; i++) {
            unsigned level = i < t->n ? t->c[i].level : ROOF_DRAM;

            for (unsigned arrays = 1; arrays <= 3; arrays += 2) {
                uint64_t ws = 0;
                size_t n = 0;
                char why[256] = "";

                if (roof_level_working_set(t, level, threads, &ws, why, sizeof(why)) != 0) {
                    assert_true(strlen(why) > 0);
                    refused++;
                    continue;
                }
                ws = roof_round_working_set(ws, arrays, threads, &n);
                assert_true(n > 0);
                assert_int_equal(n % (8u * threads), 0);
                assert_int_equal(ws, (uint64_t)n * 8u * arrays);
                if (roof_level_of(t, ws, threads) != level)
                    fail_msg("level %u, %u threads, %u arrays: %llu bytes land on %u", level,
                             threads, arrays, (unsigned long long)ws,
                             roof_level_of(t, ws, threads));
                if (level == ROOF_DRAM)
                    assert_true(ws >= ROOF_DRAM_MIN_BYTES - 64u * 3u * threads);
            }
        }
    }
    return refused;
}

static void this_machine(void **state)
{
    roof_caches t;
    char why[256];

    (void)state;
    assert_int_equal(roof_caches_read(&t, why, sizeof(why)), 0);
    for (unsigned i = 0; i < t.n; i++) {
        assert_true(t.c[i].size_bytes > 0);
        assert_true(t.c[i].count > 0);
        if (i > 0)
            assert_true(t.c[i].level > t.c[i - 1].level);
    }
    print_message("this machine: %u cache levels, %u refused (level, threads, arrays)\n", t.n,
                  check_every_level(&t, 4));
}

/* A server: 48 KiB L1d and 2 MiB L2 per core, one 60 MiB L3. */
static void made_up_server(void **state)
{
    roof_caches t = {{{1, KIB(48), 32}, {2, MIB(2), 32}, {3, MIB(60), 1}}, 3};
    uint64_t ws;
    char why[256];

    (void)state;
    /* 30 threads and more: L2 (2 MiB x threads) holds the whole L3 */
    assert_int_equal(check_every_level(&t, 32), 3 * 2);
    /* L1: half the capacity; L3: its low end, 1.25 times the L2 below */
    assert_int_equal(roof_level_working_set(&t, 1, 4, &ws, why, sizeof(why)), 0);
    assert_int_equal(ws, KIB(96));
    assert_int_equal(roof_level_working_set(&t, 3, 1, &ws, why, sizeof(why)), 0);
    assert_int_equal(ws, KIB(2560));
    /* 32 threads: L2 holds 64 MiB, L3 60 MiB: no working set lands on L3 */
    assert_int_equal(roof_level_working_set(&t, 3, 32, &ws, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "no working set lands on L3"));
    /* 16 threads: L2 32 MiB, L3 60: half (30) would fit L2, so the middle */
    assert_int_equal(roof_level_working_set(&t, 3, 16, &ws, why, sizeof(why)), 0);
    assert_int_equal(ws, MIB(46));
    /* DRAM: twice the 32 L2s (64 MiB), which hold more than the L3 */
    assert_int_equal(roof_level_working_set(&t, ROOF_DRAM, 1, &ws, why, sizeof(why)), 0);
    assert_int_equal(ws, MIB(128));
}

/* A small machine: no L3, a 256 KiB L2; DRAM falls back to 64 MiB. */
static void made_up_no_l3(void **state)
{
    roof_caches t = {{{1, KIB(32), 2}, {2, KIB(256), 2}}, 2};
    uint64_t ws;
    char why[256];

    (void)state;
    assert_int_equal(check_every_level(&t, 4), 0);
    assert_int_equal(roof_level_working_set(&t, 3, 1, &ws, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "no L3"));
    assert_int_equal(roof_level_working_set(&t, ROOF_DRAM, 2, &ws, why, sizeof(why)), 0);
    assert_int_equal(ws, ROOF_DRAM_MIN_BYTES);
}

/* This VM's shape: 48 KiB L1d x2, 2 MiB L2 x2, one 480 MiB L3. */
static void made_up_this_vm(void **state)
{
    roof_caches t = {{{1, KIB(48), 2}, {2, MIB(2), 2}, {3, MIB(480), 1}}, 3};
    uint64_t ws;
    char why[256];

    (void)state;
    assert_int_equal(check_every_level(&t, 8), 0);
    assert_int_equal(roof_level_working_set(&t, 1, 2, &ws, why, sizeof(why)), 0);
    assert_int_equal(ws, KIB(48));
    /* more threads than cores share the cores' caches: L2 at 1.25 times
     * the two L1s */
    assert_int_equal(roof_level_working_set(&t, 2, 8, &ws, why, sizeof(why)), 0);
    assert_int_equal(ws, KIB(120));
    /* L3 at 1.25 times the two L2s, not half of the 480 MiB it reports */
    assert_int_equal(roof_level_working_set(&t, 3, 2, &ws, why, sizeof(why)), 0);
    assert_int_equal(ws, MIB(5));
    assert_int_equal(roof_level_working_set(&t, ROOF_DRAM, 2, &ws, why, sizeof(why)), 0);
    assert_int_equal(ws, MIB(960));
}

/* The placement rule itself, at its edges. */
static void level_of_edges(void **state)
{
    roof_caches t = {{{1, KIB(32), 4}, {2, MIB(1), 4}, {3, MIB(8), 1}}, 3};

    (void)state;
    assert_int_equal(roof_level_of(&t, KIB(32), 1), 1);
    assert_int_equal(roof_level_of(&t, KIB(32) + 1, 1), 2);
    assert_int_equal(roof_level_of(&t, KIB(64), 2), 1);
    assert_int_equal(roof_level_of(&t, KIB(128), 8), 1); /* capped at 4 instances */
    assert_int_equal(roof_level_of(&t, KIB(128) + 1, 8), 2);
    assert_int_equal(roof_level_of(&t, KIB(1), 0), 1); /* 0 threads counts as 1 */
    assert_int_equal(roof_level_of(&t, MIB(8), 1), 3);
    assert_int_equal(roof_level_of(&t, MIB(8) + 1, 4), ROOF_DRAM);
    assert_int_equal(roof_level_capacity(&t, 4, 1), 0);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(this_machine),   cmocka_unit_test(made_up_server),
    cmocka_unit_test(made_up_no_l3),  cmocka_unit_test(made_up_this_vm),
    cmocka_unit_test(level_of_edges),
};

size_t test_roof_levels_group(const struct CMUnitTest **out)
{
    *out = tests;
    return sizeof(tests) / sizeof(tests[0]);
}
