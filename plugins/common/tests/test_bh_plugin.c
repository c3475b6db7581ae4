// SPDX-License-Identifier: MIT
/*
 * test_bh_plugin.c -- the shared plugin scaffolding: splitmix64 against its
 * published first outputs, the stream and the mix agreeing, the order of
 * doubles and the median, the rate record, the benchmark list and factory
 * macros, the host table check, the failure line, the parameter readers
 * and the metrics by kind (on a 1.1 and a 1.0 host table) against a stub
 * host.
 */
#include "bh_cmp.h"
#include "bh_plugin.h"
#include "bh_rng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;
static char last_error[600];
static int64_t stub_i64 = 7;

/* Records msg as the last error. */
static void BHOST_ABI stub_set_error(bhost_host *h, const char *msg)
{
    (void)h;
    snprintf(last_error, sizeof(last_error), "%s", msg);
}

/* "n" is stub_i64; anything else is missing. */
static bhost_status BHOST_ABI stub_i64_get(bhost_host *h, const char *key, int64_t *out)
{
    (void)h;
    if (strcmp(key, "n") != 0)
        return BHOST_E_INVALID;
    *out = stub_i64;
    return BHOST_OK;
}

/* "x" is NaN, "y" is 2.5; anything else is missing. */
static bhost_status BHOST_ABI stub_f64_get(bhost_host *h, const char *key, double *out)
{
    (void)h;
    if (strcmp(key, "x") != 0 && strcmp(key, "y") != 0)
        return BHOST_E_INVALID;
    *out = key[0] == 'x' ? NAN : 2.5;
    return BHOST_OK;
}

/* "s" is "hello" (length 5), truncated to cap as the host does. */
static bhost_status BHOST_ABI stub_str_get(bhost_host *h, const char *key, char *buf, uint32_t cap,
                                           uint32_t *len)
{
    (void)h;
    if (strcmp(key, "s") != 0)
        return BHOST_E_INVALID;
    snprintf(buf, cap, "%s", "hello");
    *len = 5;
    return BHOST_OK;
}

/* The last metric the stub host received and how (0 none, 1
 * report_metric, 2 report_metric_kind). */
static struct {
    int via;
    char name[32];
    bhost_metric_kind kind;
    bhost_direction direction;
    double value, limit;
} last_metric;

/* Records a metric as received through via. */
static bhost_status record_metric(int via, const char *name, bhost_metric_kind kind,
                                  bhost_direction direction, double value, double limit)
{
    last_metric.via = via;
    snprintf(last_metric.name, sizeof(last_metric.name), "%s", name);
    last_metric.kind = kind;
    last_metric.direction = direction;
    last_metric.value = value;
    last_metric.limit = limit;
    return BHOST_OK;
}

/* Records a report_metric() call. */
static bhost_status BHOST_ABI stub_metric(bhost_host *h, const char *name, const char *unit,
                                          bhost_direction direction, double value)
{
    (void)h;
    (void)unit;
    return record_metric(1, name, BHOST_METRIC_PERFORMANCE, direction, value, NAN);
}

/* Records a report_metric_kind() call. */
static bhost_status BHOST_ABI stub_metric_kind(bhost_host *h, const char *name,
                                               const char *unit, bhost_metric_kind kind,
                                               bhost_direction direction, double value,
                                               double limit)
{
    (void)h;
    (void)unit;
    return record_metric(2, name, kind, direction, value, limit);
}

/* Counts a failed check. */
static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s (last error '%s')\n", what, last_error);
        failures++;
    }
}

static const bhost_bench_desc d1 = {.struct_size = sizeof(bhost_bench_desc), .id = "one"};
static const bhost_bench_desc d2 = {.struct_size = sizeof(bhost_bench_desc), .id = "two"};
static const bhost_bench_desc *const benches[] = {&d1, &d2};
static const bhost_host_api *test_api;

BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
BH_PLUGIN_ENTRY(test_api, "org.bhost.test", "test", "1.2.3", "A test", bh_plugin_no_setup)

/* splitmix64 from seed 0: the reference outputs; next() == mix(state). */
static void test_rng(void)
{
    uint64_t s = 0;

    check(bh_rng_next(&s) == UINT64_C(0xE220A8397B1DCDAF), "splitmix64 first value");
    check(bh_rng_next(&s) == UINT64_C(0x6E789E6AA1B965F4), "splitmix64 second value");
    check(s == 2 * BH_RNG_GAMMA, "state advanced by gamma");
    check(bh_rng_mix(BH_RNG_GAMMA) == UINT64_C(0x6E789E6AA1B965F4), "mix of the state");
    check(bh_rng_unit(UINT64_MAX) < 1.0 && bh_rng_unit(0) == 0.0, "unit in [0, 1)");
}

/* Order, median, rate record. */
static void test_cmp(void)
{
    double v[] = {3, 1, 2, 4};
    double a = 1, b = 2;
    bh_rates r = {{0}, 0, 0};

    check(bh_cmp_double(&a, &b) < 0 && bh_cmp_double(&b, &a) > 0 && bh_cmp_double(&a, &a) == 0,
          "order of doubles");
    check(bh_median_sort(v, 4) == 2.5 && v[0] == 1 && v[3] == 4, "even median, sorted");
    check(bh_median_sort(v, 3) == 2, "odd median");
    check(bh_median_sort(v, 0) == 0, "empty median");
    check(bh_rates_median(&r) == 0, "no rates");
    bh_rates_add(&r, 10, 0, 5);
    bh_rates_add(&r, 10, 1, 0);
    check(r.count == 0, "empty runs not recorded");
    for (int i = 0; i < 70; i++)
        bh_rates_add(&r, i + 1, 1, 1000000000);
    check(r.count == 70 && fabs(bh_rates_median(&r) - 38.5) < 1e-9, "rates wrap at 64");
}

/* The entry, the factory and the list. */
static void test_entry(void)
{
    bhost_host_api api;
    const bhost_bench_factory *f;
    bh_plugin_list l = {{NULL}, 0};
    const bhost_bench_desc *const family[] = {&d1, &d2, NULL};

    memset(&api, 0, sizeof(api));
    api.struct_size = (uint32_t)offsetof(bhost_host_api, get_extension);
    api.set_error = stub_set_error;
    check(bhost_entry_v1.init(NULL) == BHOST_E_VERSION, "NULL table refused");
    check(bhost_entry_v1.init(&api) == BHOST_E_VERSION &&
              strcmp(last_error, "test: host API table older than 1.0") == 0,
          "old table refused with its line");
    api.struct_size = sizeof(api);
    check(bhost_entry_v1.init(&api) == BHOST_OK && test_api == &api && bh_plugin_api == &api,
          "init binds");
    check(strcmp(bhost_entry_v1.name, "test") == 0 &&
              strcmp(bhost_entry_v1.plugin_version, "1.2.3") == 0,
          "entry fields");
    f = bhost_entry_v1.get_interface(BHOST_IFACE_BENCHMARKS);
    check(f != NULL && f->count() == 2 && f->get(1) == &d2 && f->get(2) == NULL, "factory");
    check(bhost_entry_v1.get_interface("com.other/1") == NULL, "other interface");
    bh_plugin_list_add_all(&l, family);
    bh_plugin_list_add(&l, &d1);
    check(l.count == 3 && l.desc[2] == &d1, "list");
    bhost_entry_v1.deinit();
    check(test_api == NULL && bh_plugin_api == NULL, "deinit forgets");
}

/* The failure line and the parameter readers. */
static void test_params(void)
{
    bhost_host_api api;
    int64_t i;
    double x;
    char buf[8];
    const char *const choices[] = {"hi", "hello", NULL};
    const char *const others[] = {"hi", NULL};
    int c = -1;

    memset(&api, 0, sizeof(api));
    api.struct_size = sizeof(api);
    api.set_error = stub_set_error;
    api.param_i64 = stub_i64_get;
    api.param_f64 = stub_f64_get;
    api.param_str = stub_str_get;
    check(bh_plugin_bind(&api, "test") == BHOST_OK, "bind");
    check(bh_plugin_fail(NULL, BHOST_E_DEVICE, "a %d", 1) == BHOST_E_DEVICE &&
              strcmp(last_error, "a 1") == 0,
          "fail");
    check(bh_plugin_i64(NULL, "p: ", "n", 0, 10, &i) == BHOST_OK && i == 7, "i64");
    check(bh_plugin_i64(NULL, "p: ", "n", 8, 10, &i) == BHOST_E_INVALID &&
              strcmp(last_error, "p: n=7 outside [8, 10]") == 0,
          "i64 range");
    check(bh_plugin_i64(NULL, "", "m", 0, 1, &i) == BHOST_E_INVALID &&
              strcmp(last_error, "host has no I64 parameter 'm'") == 0,
          "i64 missing");
    check(bh_plugin_f64(NULL, "", "x", 0, &x) == BHOST_OK, "f64 NaN unchecked");
    check(bh_plugin_f64(NULL, "", "x", 1, &x) == BHOST_E_INVALID &&
              strcmp(last_error, "x is NaN") == 0,
          "f64 NaN");
    check(bh_plugin_str(NULL, "", "s", buf, sizeof(buf)) == BHOST_OK &&
              strcmp(buf, "hello") == 0,
          "str");
    check(bh_plugin_str(NULL, "", "s", buf, 4) == BHOST_E_INVALID &&
              strcmp(last_error, "s is longer than 3 bytes") == 0,
          "str too long");
    check(bh_plugin_f64_in(NULL, "p: ", "y", 0, 3, &x) == BHOST_OK && x == 2.5, "f64 in range");
    check(bh_plugin_f64_in(NULL, "p: ", "y", 3, 4, &x) == BHOST_E_INVALID &&
              strcmp(last_error, "p: y=2.5 outside [3, 4]") == 0,
          "f64 range");
    check(bh_plugin_f64_in(NULL, "", "x", -1e300, 1e300, &x) == BHOST_E_INVALID &&
              strcmp(last_error, "x=nan outside [-1e+300, 1e+300]") == 0,
          "f64 NaN outside every range");
    check(bh_plugin_f64_in(NULL, "", "z", 0, 1, &x) == BHOST_E_INVALID &&
              strcmp(last_error, "host has no F64 parameter 'z'") == 0,
          "f64 missing");
    check(bh_plugin_choice(NULL, "", "s", choices, &c) == BHOST_OK && c == 1, "choice");
    check(bh_plugin_choice(NULL, "p: ", "s", others, &c) == BHOST_E_INVALID &&
              strcmp(last_error, "p: s='hello' is not one of its choices") == 0,
          "choice unknown");
    check(bh_plugin_choice(NULL, "", "t", choices, &c) == BHOST_E_INVALID &&
              strcmp(last_error, "host has no STR parameter 't'") == 0,
          "choice missing");
    check(bh_plugin_cpu_threads() >= 1, "cpu threads");
    bh_plugin_unbind();
}

/* Each kind through report_metric_kind on a 1.1 table; on a 1.0 table
 * performance through report_metric and the others dropped. */
static void test_metrics(void)
{
    bhost_host_api api;

    memset(&api, 0, sizeof(api));
    api.struct_size = sizeof(api);
    api.set_error = stub_set_error;
    api.report_metric = stub_metric;
    api.report_metric_kind = stub_metric_kind;
    check(bh_plugin_bind(&api, "test") == BHOST_OK, "bind 1.1");
    bh_plugin_metric(NULL, "tokens_per_s", "1/s", BHOST_HIGHER_IS_BETTER, 5);
    check(last_metric.via == 1 && strcmp(last_metric.name, "tokens_per_s") == 0 &&
              last_metric.direction == BHOST_HIGHER_IS_BETTER && last_metric.value == 5,
          "performance metric");
    bh_plugin_metric_info(NULL, "threads", "", 4);
    check(last_metric.via == 2 && strcmp(last_metric.name, "threads") == 0 &&
              last_metric.kind == BHOST_METRIC_INFORMATIONAL && last_metric.value == 4,
          "informational metric");
    bh_plugin_metric_error(NULL, "err_to_tol", "", 0.25, 1.0);
    check(last_metric.via == 2 && last_metric.kind == BHOST_METRIC_CORRECTNESS &&
              last_metric.direction == BHOST_LOWER_IS_BETTER && last_metric.value == 0.25 &&
              last_metric.limit == 1.0,
          "correctness metric with its limit");

    api.struct_size = (uint32_t)offsetof(bhost_host_api, report_metric_kind);
    memset(&last_metric, 0, sizeof(last_metric));
    check(bh_plugin_metric_info(NULL, "threads", "", 4) == BHOST_OK && last_metric.via == 0,
          "informational dropped on 1.0");
    check(bh_plugin_metric_error(NULL, "err", "", 2, 1) == BHOST_OK && last_metric.via == 0,
          "correctness dropped on 1.0");
    bh_plugin_metric(NULL, "ms", "ms", BHOST_LOWER_IS_BETTER, 3);
    check(last_metric.via == 1 && last_metric.value == 3, "performance on 1.0");
    bh_plugin_unbind();
}

/* Every member within the host's struct_size filled, none past it, the
 * working set rounded down and 0 when unknown. */
static void test_profile(void)
{
    bhost_work_profile p;

    memset(&p, 0xAB, sizeof(p));
    p.struct_size = sizeof(p);
    check(bh_plugin_profile(&p, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_F64, 2, 24576.9) ==
                  BHOST_OK &&
              p.access == BHOST_ACCESS_READ_WRITE && p.compute == BHOST_COMPUTE_F64 &&
              p.threads == 2 && p.working_set_bytes == 24576,
          "profile filled");
    check(bh_plugin_profile(&p, BHOST_ACCESS_READ, BHOST_COMPUTE_NONE, 1, -1.0) == BHOST_OK &&
              p.working_set_bytes == 0,
          "profile unknown working set");
    memset(&p, 0xAB, sizeof(p));
    p.struct_size = (uint32_t)offsetof(bhost_work_profile, threads);
    bh_plugin_profile(&p, BHOST_ACCESS_WRITE, BHOST_COMPUTE_INT8, 3, 100);
    check(p.access == BHOST_ACCESS_WRITE && p.compute == BHOST_COMPUTE_INT8 &&
              p.threads == 0xABABABABu && p.working_set_bytes == UINT64_C(0xABABABABABABABAB),
          "profile stops at struct_size");
    check(bh_plugin_profile(NULL, BHOST_ACCESS_READ, BHOST_COMPUTE_F32, 1, 1) == BHOST_E_INVALID,
          "profile NULL");
}

int main(void)
{
    test_rng();
    test_cmp();
    test_entry();
    test_params();
    test_metrics();
    test_profile();
    if (failures == 0)
        printf("ok\n");
    return failures == 0 ? 0 : 1;
}
