// SPDX-License-Identifier: MIT
/* Unit tests for the flame graphs of bhost run --profile
 * (host/supervisor/flame.c, flame_callgrind.c, flame_perf.c, massif_out.c,
 * profile_run.c's tool names): trees rebuilt from callgrind's call pairs
 * (compressed names, one name in two objects, a callee shared by two
 * callers, recursion), folded perf script samples, massif's peak tree,
 * the SVG's escaping, and malformed input refused with file and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "flame.h"
#include "massif_out.h"
#include "profile_run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The node reached from the root by the names of path (NULL-terminated),
 * or 0 when there is none. */
static size_t node_at(const bh_flame *f, const char *const *path)
{
    size_t at = 0;

    for (; *path; path++) {
        size_t c;

        for (c = f->nodes[at].first_child; c; c = f->nodes[c].next_sibling)
            if (strcmp(f->nodes[c].name, *path) == 0)
                break;
        if (!c)
            return 0;
        at = c;
    }
    return at;
}

/* The value at path; fails when there is no such frame. */
static double value_at(const bh_flame *f, const char *const *path)
{
    size_t n = node_at(f, path);

    if (!n)
        fail_msg("no frame %s...", path[0]);
    return f->nodes[n].value;
}

/* main calls work twice and helper once; helper calls work once and
 * itself (recursion); "(below main)" of two objects stays two frames. */
static const char callgrind_text[] = "version: 1\n"
                                     "positions: line\n"
                                     "events: Ir Dr\n"
                                     "fn=(1) (below main)\n"
                                     "5 1\n"
                                     "cfn=(2) (below main)\n"
                                     "calls=1 0\n"
                                     "0 1001\n"
                                     "fn=(2)\n"
                                     "1 1\n"
                                     "cfn=(3) main\n"
                                     "calls=1 0\n"
                                     "0 1000\n"
                                     "fn=(3)\n"
                                     "+2 100 7\n"
                                     "cfn=(4) work\n"
                                     "calls=2 0\n"
                                     "* 600\n"
                                     "cfn=(5) helper\n"
                                     "calls=1 0\n"
                                     "-1 300\n"
                                     "fn=(5)\n"
                                     "0 100\n"
                                     "cfn=(4)\n"
                                     "calls=1 0\n"
                                     "0 200\n"
                                     "cfn=(5)\n"
                                     "calls=1 0\n"
                                     "0 50\n"
                                     "fn=(4)\n"
                                     "0 800\n"
                                     "totals: 1002\n";

static void test_callgrind_tree(void **state)
{
    bh_flame f;
    bh_error e = {""};
    const char *const top[] = {"(below main)", NULL};
    const char *const inner[] = {"(below main)", "(below main)", "main", NULL};
    const char *const w1[] = {"(below main)", "(below main)", "main", "work", NULL};
    const char *const h[] = {"(below main)", "(below main)", "main", "helper", NULL};
    const char *const w2[] = {"(below main)", "(below main)", "main", "helper", "work", NULL};
    const char *const rec[] = {"(below main)", "(below main)", "main", "helper", "helper", NULL};

    (void)state;
    bh_flame_init(&f);
    assert_int_equal(
        bh_flame_from_callgrind(callgrind_text, strlen(callgrind_text), "cg.out", &f, &e), 0);
    /* the root: the one function no call reached, with all it called */
    assert_true(f.nodes[0].value == 1002);
    assert_true(value_at(&f, top) == 1002);
    assert_true(value_at(&f, inner) == 1000);
    assert_true(value_at(&f, w1) == 600);
    /* helper's inclusive cost counts its own and work's, not the
       recursive call back into itself (which is not drawn again) */
    assert_true(value_at(&f, h) == 300);
    assert_true(fabs(value_at(&f, w2) - 300.0 * 200.0 / 300.0) < 1e-9);
    assert_int_equal(node_at(&f, rec), 0);
    bh_flame_free(&f);
}

static void test_callgrind_errors(void **state)
{
    bh_flame f;
    bh_error e = {""};
    static const char undefined[] = "events: Ir\nfn=(1) a\n1 5\ncfn=(9)\ncalls=1 0\n0 3\n";
    static const char no_events[] = "fn=(1) a\n1 5\n";
    static const char no_cost[] = "events: Ir\nfn=(1) a\ncfn=(2) b\ncalls=1 0\n";

    (void)state;
    bh_flame_init(&f);
    assert_int_equal(bh_flame_from_callgrind(undefined, strlen(undefined), "cg.out", &f, &e), -1);
    assert_string_equal(e.msg, "cg.out:4: function id (9) used before it was named");
    assert_int_equal(bh_flame_from_callgrind(no_events, strlen(no_events), "cg.out", &f, &e), -1);
    assert_string_equal(e.msg, "cg.out:2: a cost line before an events: line with Ir");
    assert_int_equal(bh_flame_from_callgrind(no_cost, strlen(no_cost), "cg.out", &f, &e), -1);
    assert_string_equal(e.msg, "cg.out:4: calls= without its cost line");
    bh_flame_free(&f);
}

static void test_perf_script(void **state)
{
    static const char text[] = "bhost-worker 4242 100.000001:     250000 cpu-clock: \n"
                               "\t    7f0000001000 spin_run+0x20 (/build/plugins/selftest.so)\n"
                               "\t    55000000a000 call_run+0x1c (/build/host/cli/bhost-worker)\n"
                               "\t    55000000b000 main+0x40 (/build/host/cli/bhost-worker)\n"
                               "\n"
                               "bhost-worker 4242 100.000251:     250000 cpu-clock: \n"
                               "\t    7f0000001010 spin_run+0x30 (/build/plugins/selftest.so)\n"
                               "\t    55000000a000 call_run+0x1c (/build/host/cli/bhost-worker)\n"
                               "\t    55000000b000 main+0x40 (/build/host/cli/bhost-worker)\n"
                               "\n"
                               "bhost-worker 4242 100.000501:     250000 cpu-clock: \n"
                               "\t    7f0000009999 [unknown] (/usr/lib/libc.so.6)\n"
                               "\t    7f000000aaaa [unknown] ([unknown])\n";
    const char *const spin[] = {"bhost-worker", "main", "call_run", "spin_run", NULL};
    const char *const unk[] = {"bhost-worker", "[unknown]", "[libc.so.6]", NULL};
    bh_flame f;
    bh_error e = {""};

    (void)state;
    bh_flame_init(&f);
    assert_int_equal(bh_flame_from_perf_script(text, strlen(text), "script", &f, &e), 0);
    assert_true(f.nodes[0].value == 3);
    assert_true(value_at(&f, spin) == 2);
    assert_true(value_at(&f, unk) == 1);
    assert_int_equal(bh_flame_from_perf_script("\n\n", 2, "script", &f, &e), -1);
    assert_string_equal(e.msg, "script: no samples in perf script's output");
    bh_flame_free(&f);
}

static void test_massif_peak(void **state)
{
    static const char text[] =
        "desc: --massif-out-file=ms.out\n"
        "cmd: ./w\n"
        "time_unit: i\n"
        "#-----------\n"
        "snapshot=0\n"
        "#-----------\n"
        "time=0\n"
        "mem_heap_B=0\n"
        "mem_heap_extra_B=0\n"
        "mem_stacks_B=0\n"
        "heap_tree=empty\n"
        "#-----------\n"
        "snapshot=1\n"
        "#-----------\n"
        "time=500\n"
        "mem_heap_B=3000\n"
        "mem_heap_extra_B=24\n"
        "mem_stacks_B=0\n"
        "heap_tree=peak\n"
        "n2: 3000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
        " n1: 2000 0x1000: grow (a.c:3)\n"
        "  n0: 2000 0x2000: main (m.c:4)\n"
        " n0: 1000 0x3000: main (m.c:9)\n"
        "#-----------\n"
        "snapshot=2\n"
        "#-----------\n"
        "time=900\n"
        "mem_heap_B=5000\n"
        "mem_heap_extra_B=8\n"
        "mem_stacks_B=0\n"
        "heap_tree=empty\n";
    const char *const grow[] = {"heap allocation functions", "grow", "main", NULL};
    const char *const direct[] = {"heap allocation functions", "main", NULL};
    bh_massif_peak pk;
    bh_flame f;
    bh_error e = {""};

    (void)state;
    bh_flame_init(&f);
    /* the marked peak wins over a later, bigger snapshot without a tree
       (massif marks the peak it kept detailed) */
    assert_int_equal(bh_massif_parse(text, strlen(text), "ms.out", &pk, &f, &e), 0);
    assert_int_equal(pk.snapshot, 1);
    assert_int_equal(pk.snapshots, 3);
    assert_true(pk.has_tree);
    assert_true(pk.heap_bytes == 3000 && pk.extra_bytes == 24);
    assert_true(value_at(&f, grow) == 2000);
    assert_true(value_at(&f, direct) == 1000);
    assert_int_equal(bh_massif_parse("snapshot=0\nmem_heap_B=x\n", 24, "ms.out", &pk, NULL, &e),
                     -1);
    assert_string_equal(e.msg, "ms.out:2: expected a number after '='");
    assert_int_equal(bh_massif_parse("desc: x\n", 8, "ms.out", &pk, NULL, &e), -1);
    assert_string_equal(e.msg, "ms.out: no snapshot with mem_heap_B (not a massif output "
                               "file?)");
    bh_flame_free(&f);
}

static void test_svg(void **state)
{
    const char *const a[] = {"std::vector<int>::push_back&", NULL};
    const char *const b[] = {"tiny", NULL};
    bh_flame f;
    bh_strbuf s = BH_STRBUF_INIT;

    (void)state;
    bh_flame_init(&f);
    bh_flame_add_stack(&f, a, 1, 1e6);
    bh_flame_add_stack(&f, b, 1, 1); /* a thousandth of a pixel: left out */
    bh_flame_svg(&f, "t<1>", "Ir", &s);
    assert_non_null(strstr(s.data, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(s.data, "<title>std::vector&lt;int&gt;::push_back&amp; ("));
    assert_non_null(strstr(s.data, "t&lt;1&gt;"));
    assert_null(strstr(s.data, "tiny"));
    assert_null(strstr(s.data, "<int>"));
    assert_int_equal(bh_flame_depth(&f), 1);
    bh_strbuf_free(&s);
    bh_flame_free(&f);
}

static void test_tool_names(void **state)
{
    (void)state;
    assert_int_equal(bh_prof_tool_parse("callgrind"), BH_PROF_CALLGRIND);
    assert_int_equal(bh_prof_tool_parse("rocprofv"), BH_PROF_ROCPROF);
    assert_int_equal(bh_prof_tool_parse("rocprofv3"), BH_PROF_ROCPROF);
    assert_int_equal(bh_prof_tool_parse("gprof"), -1);
    assert_string_equal(bh_prof_tool_name(BH_PROF_MASSIF), "massif");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_callgrind_tree),
        cmocka_unit_test(test_callgrind_errors),
        cmocka_unit_test(test_perf_script),
        cmocka_unit_test(test_massif_peak),
        cmocka_unit_test(test_svg),
        cmocka_unit_test(test_tool_names),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
