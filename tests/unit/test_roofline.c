// SPDX-License-Identifier: MIT
/* Hierarchical roofline placement (host/results/roofline.c): every case
 * is held against the ceiling of its memory level, access kind, compute
 * class, threads and device measured in the same run; fractions above
 * 1.05 are flagged; fixed per-call costs make a case latency-bound. */
#include "result_view.h"
#include "roofline.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* A ceiling case: flagged, with its profile and one throughput. */
#define CEIL(id, ws, access, compute, threads, key, value)                                       \
    "{\"id\":\"" id "\",\"status\":\"ok\",\"ceiling\":true,\"summary\":{\"median\":100},"         \
    "\"work_profile\":{\"working_set_bytes\":" #ws ",\"access\":\"" access "\",\"compute\":\""    \
    compute "\",\"threads\":" #threads "},\"throughput\":{\"" key "\":" #value "}}"

/* A case with a profile and a throughput. */
#define CASE(id, ws, access, compute, threads, tp)                                                \
    "{\"id\":\"" id "\",\"status\":\"ok\",\"summary\":{\"median\":1000},"                          \
    "\"work_profile\":{\"working_set_bytes\":" #ws ",\"access\":\"" access "\",\"compute\":\""    \
    compute "\",\"threads\":" #threads "},\"throughput\":{" tp "}}"

static const char doc_text[] =
    "{\"system\":{\"caches\":["
    " {\"level\":1,\"type\":\"data\",\"size_bytes\":49152,\"count\":2},"
    " {\"level\":1,\"type\":\"instruction\",\"size_bytes\":65536,\"count\":2},"
    " {\"level\":2,\"type\":\"unified\",\"size_bytes\":2097152,\"count\":2},"
    " {\"level\":3,\"type\":\"unified\",\"size_bytes\":503316480,\"count\":1}]},"
    " \"cases\":["
    CEIL("roof/bw[l1r1]", 24576, "read", "none", 1, "bytes_per_s", 1e11) ","
    CEIL("roof/bw[l1r1b]", 24576, "read", "none", 1, "bytes_per_s", 9e10) ","
    CEIL("roof/bw[l2r1]", 1048576, "read", "none", 1, "bytes_per_s", 5e10) ","
    CEIL("roof/bw[dram-r2]", 1e9, "read", "none", 2, "bytes_per_s", 1.2e10) ","
    CEIL("roof/bw[dram-t2]", 1e9, "read-write", "none", 2, "bytes_per_s", 1e10) ","
    CEIL("roof/peak[f32]", 0, "unknown", "f32", 1, "flop_per_s", 1e11) ","
    CEIL("roof/peak[i8]", 0, "unknown", "int8", 1, "flop_per_s", 4e11) ","
    /* a device's launch latency: a ceiling without work */
    "{\"id\":\"accel/launch@gpu:0\",\"backend\":\"gpu\",\"device\":0,\"status\":\"ok\","
    " \"ceiling\":true,\"summary\":{\"median\":5000}},"
    /* a device gemm: bytes and FLOPs, a compute class: a compute ceiling */
    "{\"id\":\"accel/gemm@gpu:0\",\"backend\":\"gpu\",\"device\":0,\"status\":\"ok\","
    " \"ceiling\":true,\"work_profile\":{\"working_set_bytes\":1e6,\"access\":\"read-write\","
    " \"compute\":\"f32\",\"threads\":0},\"throughput\":{\"bytes_per_s\":1e11,"
    " \"flop_per_s\":5e13},\"summary\":{\"median\":2e6}},"
    "{\"id\":\"accel/copy@gpu:0\",\"backend\":\"gpu\",\"device\":0,\"status\":\"ok\","
    " \"ceiling\":true,\"work_profile\":{\"working_set_bytes\":1e9,\"access\":\"read-write\","
    " \"compute\":\"none\",\"threads\":0},\"throughput\":{\"bytes_per_s\":1e12},"
    " \"summary\":{\"median\":2e6}},"
    CASE("t/small", 16384, "read", "none", 1, "\"bytes_per_s\":9e10") ","
    CASE("t/l2", 1000000, "read", "none", 1, "\"bytes_per_s\":6e10") ","
    CASE("t/decode", 6e8, "read", "f32", 2, "\"bytes_per_s\":1.08e10,\"flop_per_s\":5e9") ","
    CASE("t/q8", 1e6, "read", "int8", 1, "\"bytes_per_s\":1e9,\"flop_per_s\":2e11") ","
    CASE("t/bf16", 1e6, "read", "bf16", 1, "\"flop_per_s\":2e10") ","
    "{\"id\":\"t/legacy\",\"status\":\"ok\",\"summary\":{\"median\":10},"
    " \"throughput\":{\"bytes_per_s\":5e9}},"
    "{\"id\":\"accel/axpy[n=16]@gpu:0\",\"backend\":\"gpu\",\"device\":0,\"status\":\"ok\","
    " \"summary\":{\"median\":6000},\"work_profile\":{\"working_set_bytes\":192,"
    " \"access\":\"read-write\",\"compute\":\"f32\",\"threads\":0},"
    " \"throughput\":{\"bytes_per_s\":3.2e7}},"
    "{\"id\":\"t/failed\",\"status\":\"failed\",\"ceiling\":true,"
    " \"throughput\":{\"bytes_per_s\":1e15}}]}";

static cJSON *doc;

/* The roofline object of case id. */
static const cJSON *roof_of(const char *id)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases"))
        if (strcmp(cJSON_GetObjectItemCaseSensitive(c, "id")->valuestring, id) == 0)
            return cJSON_GetObjectItemCaseSensitive(c, "roofline");
    fail_msg("no case %s", id);
    return NULL;
}

static const char *s_of(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsString(it) ? it->valuestring : NULL;
}

static double n_of(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(it) ? it->valuedouble : NAN;
}

static int setup(void **state)
{
    (void)state;
    doc = cJSON_Parse(doc_text);
    if (!doc)
        return -1;
    bh_roofline_apply(doc);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    cJSON_Delete(doc);
    return 0;
}

/* The roofs list every ceiling once (the best of two of one key), and the
 * failed case measures none. */
static void test_ceilings_listed(void **state)
{
    const cJSON *roofs = cJSON_GetObjectItemCaseSensitive(doc, "roofs");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(roofs, "ceilings");
    const cJSON *k;
    int l1 = 0;

    (void)state;
    assert_int_equal(cJSON_GetArraySize(list), 9);
    cJSON_ArrayForEach(k, list) {
        if (strcmp(s_of(k, "name"), "L1 read x1") == 0) {
            l1++;
            assert_true(n_of(k, "value") == 1e11);
            assert_string_equal(s_of(k, "case"), "roof/bw[l1r1]");
        }
    }
    assert_int_equal(l1, 1);
    /* the legacy figures: the best host DRAM bandwidth and f32 peak */
    assert_true(n_of(roofs, "bandwidth_bytes_per_s") == 1.2e10);
    assert_true(n_of(roofs, "flops_per_s") == 1e11);
}

/* The working set picks the level: a 16 KiB read against L1, 1 MB
 * against L2, 600 MB (beyond the 480 MiB L3) on two threads against
 * DRAM read. */
static void test_level_and_access(void **state)
{
    const cJSON *r;

    (void)state;
    r = roof_of("t/small");
    assert_string_equal(s_of(r, "level"), "L1");
    assert_string_equal(s_of(r, "memory_ceiling"), "L1 read x1");
    assert_true(fabs(n_of(r, "fraction") - 0.9) < 1e-12);
    r = roof_of("t/l2");
    assert_string_equal(s_of(r, "memory_ceiling"), "L2 read x1");
    /* decode reads its weights: the read ceiling, not the triad */
    r = roof_of("t/decode");
    assert_string_equal(s_of(r, "level"), "DRAM");
    assert_string_equal(s_of(r, "memory_ceiling"), "DRAM read x2");
    assert_string_equal(s_of(r, "bound"), "memory");
    assert_true(fabs(n_of(r, "fraction") - 0.9) < 1e-12);
    assert_null(cJSON_GetObjectItemCaseSensitive(r, "above_ceiling"));
}

/* int8 operations are held against the int8 ceiling, never f32; a class
 * the run has no ceiling for gets none. */
static void test_compute_class(void **state)
{
    const cJSON *r;

    (void)state;
    r = roof_of("t/q8");
    assert_string_equal(s_of(r, "compute_ceiling"), "int8 x1");
    assert_null(roof_of("t/bf16"));
}

/* A fraction above 1.05 of the chosen ceiling is flagged: L2 data at
 * 60 GB/s against a 50 GB/s L2 ceiling. */
static void test_above_ceiling_flagged(void **state)
{
    const cJSON *r = roof_of("t/l2");

    (void)state;
    assert_true(n_of(r, "fraction") > 1.05);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "above_ceiling")));
    assert_non_null(strstr(s_of(r, "warning"), "above its ceiling"));
}

/* Without a profile a case is held against the DRAM read-write ceiling. */
static void test_no_profile(void **state)
{
    const cJSON *r = roof_of("t/legacy");

    (void)state;
    assert_string_equal(s_of(r, "memory_ceiling"), "DRAM read-write x2");
    assert_null(s_of(r, "level"));
    assert_true(fabs(n_of(r, "fraction") - 0.5) < 1e-12);
}

/* A tiny device kernel whose ideal time is under the launch latency is
 * latency-bound, held against its own device's ceilings only. */
static void test_latency_bound(void **state)
{
    const cJSON *r = roof_of("accel/axpy[n=16]@gpu:0");

    (void)state;
    assert_string_equal(s_of(r, "memory_ceiling"), "memory read-write @gpu:0");
    assert_string_equal(s_of(r, "bound"), "latency");
    /* the device gemm is the device's f32 peak, not a bandwidth */
    assert_string_equal(s_of(roof_of("accel/gemm@gpu:0"), "compute_ceiling"), "f32 @gpu:0");
    assert_string_equal(s_of(roof_of("accel/gemm@gpu:0"), "memory_ceiling"),
                        "memory read-write @gpu:0");
    assert_true(n_of(r, "latency_floor_ns") == 5000);
}

/* The typed reader gives the placement and the ceilings as fields. */
static void test_view_fields(void **state)
{
    bh_result_view v;
    const bh_rv_case *c;
    bh_rv_ceiling k;
    size_t latency = 0;

    (void)state;
    bh_result_view_load(doc, &v);
    c = bh_result_view_find(&v, "t/l2");
    assert_non_null(c);
    assert_string_equal(c->roof.level, "L2");
    assert_string_equal(c->roof.memory_ceiling, "L2 read x1");
    assert_null(c->roof.compute_ceiling);
    assert_true(c->roof.above);
    assert_false(bh_result_view_find(&v, "t/small")->roof.above);
    assert_int_equal(v.roofs.n_ceilings, 9);
    for (size_t i = 0; i < v.roofs.n_ceilings; i++) {
        k = bh_rv_roofs_ceiling(&v.roofs, i);
        if (strcmp(k.kind, "latency") == 0) {
            latency++;
            assert_string_equal(k.at, "@gpu:0");
            assert_true(k.value == 5000);
            assert_string_equal(k.unit, "ns");
        }
    }
    assert_int_equal(latency, 1);
    k = bh_rv_roofs_ceiling(&v.roofs, 99);
    assert_string_equal(k.name, "?");
    bh_result_view_free(&v);
}

/* A run of two threads can always do what one does: a 2-thread case is
 * held against the better of the 1- and 2-thread ceilings; a ceiling is
 * its fastest run; a case is never held against a slower level. */
static void test_threads_best_run_and_levels(void **state)
{
    static const char text[] =
        "{\"system\":{\"caches\":[{\"level\":1,\"type\":\"data\",\"size_bytes\":49152,"
        "\"count\":2}]},\"cases\":["
        CEIL("r/x1", 1e9, "read", "none", 1, "bytes_per_s", 1.2e10) ","
        CEIL("r/x2", 1e9, "read", "none", 2, "bytes_per_s", 1e10) ","
        /* median 100 ns; its fastest run 50 ns: the ceiling is twice its
         * median throughput */
        "{\"id\":\"r/peak\",\"status\":\"ok\",\"ceiling\":true,\"summary\":{\"median\":100},"
        " \"work_profile\":{\"working_set_bytes\":0,\"access\":\"unknown\",\"compute\":\"f64\","
        " \"threads\":1},\"throughput\":{\"flop_per_s\":1e9},\"runs\":["
        "  {\"status\":\"ok\",\"samples\":[[1,100]]},{\"status\":\"ok\",\"samples\":[[2,100]]},"
        "  {\"status\":\"failed\",\"samples\":[[1,1]]}]},"
        CASE("t/two", 1e9, "read", "none", 2, "\"bytes_per_s\":1.1e10") ","
        CASE("t/one", 1e9, "read", "none", 1, "\"bytes_per_s\":6e9") ","
        CASE("t/f64", 0, "unknown", "f64", 1, "\"flop_per_s\":1e9") ","
        CASE("t/l1", 1024, "read", "none", 1, "\"bytes_per_s\":1e9") "]}";
    cJSON *saved = doc;
    const cJSON *r;

    (void)state;
    doc = cJSON_Parse(text);
    assert_non_null(doc);
    bh_roofline_apply(doc);
    r = roof_of("t/two");
    assert_string_equal(s_of(r, "memory_ceiling"), "DRAM read x1");
    assert_null(cJSON_GetObjectItemCaseSensitive(r, "above_ceiling"));
    /* a 1-thread case is never held against a 2-thread ceiling */
    assert_string_equal(s_of(roof_of("t/one"), "memory_ceiling"), "DRAM read x1");
    assert_true(fabs(n_of(roof_of("t/f64"), "fraction") - 0.5) < 1e-12);
    /* only DRAM ceilings: an L1 case gets none rather than a slower one */
    assert_null(roof_of("t/l1"));
    cJSON_Delete(doc);
    doc = saved;
}

/* The CPU backend's device is the host: its cases and its bandwidth and
 * compute ceilings use the host's levels; its launch latency stays its
 * own. */
static void test_cpu_backend_is_the_host(void **state)
{
    static const char text[] =
        "{\"system\":{\"caches\":[{\"level\":1,\"type\":\"data\",\"size_bytes\":49152,"
        "\"count\":2}]},\"cases\":["
        CEIL("r/dram", 1e9, "read", "none", 2, "bytes_per_s", 1e10) ","
        "{\"id\":\"a/copy@cpu:0\",\"backend\":\"cpu\",\"device\":0,\"status\":\"ok\","
        " \"ceiling\":true,\"work_profile\":{\"working_set_bytes\":1024,\"access\":\"read-write\","
        " \"compute\":\"none\",\"threads\":0},\"throughput\":{\"bytes_per_s\":7e10},"
        " \"summary\":{\"median\":100}},"
        "{\"id\":\"i/decode@cpu:0\",\"backend\":\"cpu\",\"device\":0,\"status\":\"ok\","
        " \"summary\":{\"median\":1e6},\"work_profile\":{\"working_set_bytes\":1e9,"
        " \"access\":\"read\",\"compute\":\"f32\",\"threads\":2},"
        " \"throughput\":{\"bytes_per_s\":9e9}}]}";
    cJSON *saved = doc;
    const cJSON *r;

    (void)state;
    doc = cJSON_Parse(text);
    assert_non_null(doc);
    bh_roofline_apply(doc);
    r = roof_of("i/decode@cpu:0");
    /* the host's DRAM read ceiling, not the device's 1 KiB copy */
    assert_string_equal(s_of(r, "memory_ceiling"), "DRAM read x2");
    assert_string_equal(s_of(r, "level"), "DRAM");
    assert_true(fabs(n_of(r, "fraction") - 0.9) < 1e-12);
    /* the device's copy became the host's L1 read-write ceiling */
    assert_string_equal(s_of(roof_of("a/copy@cpu:0"), "memory_ceiling"), "L1 read-write");
    cJSON_Delete(doc);
    doc = saved;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ceilings_listed),   cmocka_unit_test(test_level_and_access),
        cmocka_unit_test(test_compute_class),     cmocka_unit_test(test_above_ceiling_flagged),
        cmocka_unit_test(test_no_profile),        cmocka_unit_test(test_latency_bound),
        cmocka_unit_test(test_view_fields),
        cmocka_unit_test(test_threads_best_run_and_levels),
        cmocka_unit_test(test_cpu_backend_is_the_host),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
