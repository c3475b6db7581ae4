// SPDX-License-Identifier: MIT
/* Integration tests of the counters and energy meters around the timed
 * samples (docs/measurement.md): the real bhost binary runs selftest/noop.
 * On a machine without a hardware PMU (this test checks with its own
 * perf_event_open call) the case carries counters.status "unsupported"
 * with perf_event_open's reason, the console says so once, and the run
 * still exits 0; the software events are counted where the kernel has
 * them; energy is unsupported with its reasons without RAPL, and read
 * from a powercap tree of real files given in $BHOST_POWERCAP_ROOT, whose
 * counters stand still: too short a window for the counter's refresh, or
 * a long one without energy, is recorded with its reason and no metric;
 * counters: off and --counters off record nothing; a bad value is an
 * error. No assertion on timings. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "itest_util.h"
#include "sysinfo.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A noop config: 2 runs of 3 samples of sample_time; extra goes into
 * defaults. */
static void write_config(const char *file, const char *sample_time, const char *extra)
{
    char text[1024];

    snprintf(text, sizeof(text),
             "schema: 1\n"
             "name: ctr\n"
             "defaults: {runs: 2, samples: 3, warmup: 1ms, sample_time: %s, seed: 7%s}\n"
             "suites:\n"
             "  - plugin: selftest\n"
             "    include: [noop]\n",
             sample_time, extra);
    it_write(it_path(file), text);
}

/* True when /sys/class/powercap has an intel-rapl: zone. */
static int have_rapl(void)
{
    DIR *d = opendir("/sys/class/powercap");
    struct dirent *de;
    int found = 0;

    while (d && (de = readdir(d)) != NULL)
        found |= strncmp(de->d_name, "intel-rapl:", 11) == 0;
    if (d)
        closedir(d);
    return found;
}

/* The number of times needle occurs in hay. */
static int occurrences(const char *hay, const char *needle)
{
    int n = 0;

    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* bhost run CONFIG --out OUT [more], expecting exit 0; the stdout text
 * in *out when out is not NULL (free it). */
static cJSON *run_ok(const char *config, const char *result, const char *more, char **out)
{
    tp_proc p;
    const char *args[] = {"run", it_path(config),     "--out", it_path(result),
                          more,  more ? "off" : NULL, NULL};

    it_run(&p, args);
    it_expect_code(&p, 0);
    if (out) {
        *out = p.out;
        p.out = NULL;
    }
    tp_proc_free(&p);
    return it_load_json(it_path(result));
}

/* The only case of a result, status ok. */
static const cJSON *only_case(const cJSON *doc)
{
    const cJSON *c = cJSON_GetArrayItem(it_member(doc, "cases"), 0);

    assert_non_null(c);
    assert_string_equal(it_str_of(c, "status"), "ok");
    return c;
}

/* The values of the case's metric name (NULL when it has none). */
static const cJSON *values_of(const cJSON *c, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(it_member(c, "metrics"), name);

    return m ? it_member(m, "values") : NULL;
}

static int setup(void **state)
{
    (void)state;
    if (!it_setup("bh_itest_counters", 0))
        return -1;
    write_config("ctr.yaml", "1ms", "");
    write_config("short.yaml", "100us", "");
    write_config("long.yaml", "50ms", "");
    write_config("off.yaml", "1ms", ", counters: off");
    write_config("bad.yaml", "1ms", ", counters: maybe");
    return 0;
}

static void test_counters_here(void **state)
{
    cJSON *doc;
    const cJSON *c, *ctr, *sw, *r, *v, *m;
    char *out = NULL;
    int err = bh_sysinfo_perf_errno(); /* the host's own probe */

    (void)state;
    doc = run_ok("ctr.yaml", "a.json", NULL, &out);
    c = only_case(doc);
    ctr = it_member(c, "counters");
    assert_string_equal(it_str_of(ctr, "scope"), "inherit");
    if (err == ENOENT || err == ENODEV || err == EOPNOTSUPP) {
        /* no PMU: unsupported, with the reason, said once, exit 0 */
        assert_string_equal(it_str_of(ctr, "status"), "unsupported");
        it_assert_has(it_str_of(ctr, "reason"), "perf_event_open: E");
        it_assert_has(it_str_of(ctr, "reason"), "no hardware PMU in this VM");
        assert_null(values_of(c, "perf.instructions"));
        assert_null(values_of(c, "perf.ipc"));
        assert_int_equal(occurrences(out, "counters: unsupported: perf_event_open: "), 1);
    } else if (err == 0) {
        /* a PMU: the instructions of the timed samples, per iteration */
        assert_string_not_equal(it_str_of(ctr, "status"), "unsupported");
        cJSON_ArrayForEach(v, values_of(c, "perf.instructions"))
            assert_true(v->valuedouble > 0);
    }
    /* each run carries its record */
    cJSON_ArrayForEach(r, it_member(c, "runs")) {
        assert_string_equal(it_str_of(it_member(r, "counters"), "status"),
                            it_str_of(ctr, "status"));
        assert_int_equal(it_member(it_member(r, "counters"), "samples")->valueint, 3);
    }
    sw = it_member(ctr, "software");
    if (strcmp(it_str_of(sw, "status"), "ok") == 0) {
        /* the software group read through the same path: CPU time of the
           timed samples per iteration, one value per run */
        assert_int_equal(cJSON_GetArraySize(values_of(c, "perf.task_clock")), 2);
        cJSON_ArrayForEach(v, values_of(c, "perf.task_clock"))
            assert_true(v->valuedouble > 0);
        m = cJSON_GetObjectItemCaseSensitive(it_member(c, "metrics"), "perf.task_clock");
        assert_string_equal(it_str_of(m, "kind"), "informational");
        assert_string_equal(it_str_of(m, "unit"), "ns/iter");
        assert_non_null(values_of(c, "perf.page_faults"));
        assert_non_null(values_of(c, "perf.context_switches"));
    }
    if (!have_rapl()) {
        const cJSON *en = it_member(c, "energy");
        void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);

        assert_string_equal(it_str_of(en, "status"), "unsupported");
        it_assert_has(it_str_of(en, "reason"),
                      "no /sys/class/powercap/intel-rapl:* (no RAPL in this VM)");
        assert_string_equal(it_str_of(it_member(it_member(en, "sources"), "rapl"), "status"),
                            "unsupported");
        if (!nvml)
            it_assert_has(it_str_of(en, "reason"), "libnvidia-ml.so.1 not found");
        else
            dlclose(nvml);
        assert_int_equal(occurrences(out, "energy: unsupported: "), 1);
    }
    free(out);
    cJSON_Delete(doc);
}

/* A powercap tree of real files: package-0 and its dram zone, counters
 * that do not move while the run reads them. */
static const char *fake_powercap(void)
{
    static const char *const files[][2] = {
        {"intel-rapl:0/name", "package-0\n"},
        {"intel-rapl:0/energy_uj", "123456789\n"},
        {"intel-rapl:0/max_energy_range_uj", "262143328850\n"},
        {"intel-rapl:0/constraint_0_power_limit_uw", "125000000\n"},
        {"intel-rapl:0:0/name", "dram\n"},
        {"intel-rapl:0:0/energy_uj", "42\n"},
        {"intel-rapl:0:0/max_energy_range_uj", "65712999613\n"}};
    char path[600];

    snprintf(path, sizeof(path), "%s", it_path("powercap"));
    mkdir(path, 0755);
    snprintf(path, sizeof(path), "%s/intel-rapl:0", it_path("powercap"));
    mkdir(path, 0755);
    snprintf(path, sizeof(path), "%s/intel-rapl:0:0", it_path("powercap"));
    mkdir(path, 0755);
    for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
        snprintf(path, sizeof(path), "%s/%s", it_path("powercap"), files[i][0]);
        it_write(path, files[i][1]);
    }
    return it_path("powercap");
}

/* The energy record of a run of config on the fake powercap tree, with
 * its two domains (package-0 with its 125 W limit, dram-0 without) of
 * status, no energy.* metric and no joules; the case in *c. */
static cJSON *energy_run(const char *config, const char *result, const char *status,
                         const cJSON **c, const cJSON **en)
{
    cJSON *doc;
    const cJSON *d, *m;
    char *out = NULL;
    int n = 0;

    setenv("BHOST_POWERCAP_ROOT", fake_powercap(), 1);
    doc = run_ok(config, result, NULL, &out);
    unsetenv("BHOST_POWERCAP_ROOT");
    /* said once under the table, with the first domain's reason */
    assert_int_equal(occurrences(out, "energy: 2 of 2 domain figures left out"), 1);
    it_assert_has(out, "selftest/noop package-0: ");
    free(out);
    *c = only_case(doc);
    *en = it_member(*c, "energy");
    assert_string_equal(it_str_of(*en, "status"), "ok");
    assert_string_equal(it_str_of(it_member(it_member(*en, "sources"), "rapl"), "status"), "ok");
    it_assert_has(it_str_of(*en, "accumulated"), "over all timed samples");
    assert_int_equal(it_member(*en, "samples")->valueint, 3);
    cJSON_ArrayForEach(d, it_member(*en, "domains")) {
        assert_string_equal(it_str_of(d, "source"), "rapl");
        assert_string_equal(it_str_of(d, "status"), status);
        assert_true(it_member(d, "refresh_ms")->valuedouble == 1); /* documented */
        assert_null(cJSON_GetObjectItemCaseSensitive(d, "joules"));
        n++;
    }
    assert_int_equal(n, 2);
    d = cJSON_GetArrayItem(it_member(*en, "domains"), 0);
    assert_string_equal(it_str_of(d, "name"), "package-0");
    assert_true(it_member(d, "limit_watts")->valuedouble == 125);
    d = cJSON_GetArrayItem(it_member(*en, "domains"), 1);
    assert_string_equal(it_str_of(d, "name"), "dram-0");
    assert_null(cJSON_GetObjectItemCaseSensitive(d, "limit_watts"));
    cJSON_ArrayForEach(m, it_member(*c, "metrics"))
        assert_true(strncmp(m->string, "energy.", 7) != 0);
    return doc;
}

static void test_energy_from_powercap(void **state)
{
    cJSON *doc;
    const cJSON *c, *en, *d;

    (void)state;
    /* 3 samples of about 0.1 ms: far shorter than 20 x 1 ms x sqrt(3) =
       34.6 ms */
    doc = energy_run("short.yaml", "e.json", "too_short", &c, &en);
    cJSON_ArrayForEach(d, it_member(en, "domains")) {
        it_assert_has(it_str_of(d, "reason"), "over 3 samples is too short for the counter's 1 ms "
                                              "refresh (documented): +-5% needs 34.6 ms, "
                                              "sample_time: 12ms");
    }
    cJSON_Delete(doc);
    /* 3 samples of 50 ms: long enough, and the counters stood still */
    doc = energy_run("long.yaml", "e2.json", "implausible", &c, &en);
    cJSON_ArrayForEach(d, it_member(en, "domains")) {
        it_assert_has(it_str_of(d, "reason"), "0 J over ");
        it_assert_has(it_str_of(d, "reason"), "refresh periods of 1 ms): the counter did not move");
    }
    cJSON_Delete(doc);
}

/* The case of a run with the counters off: records "off", no metric. */
static void expect_off(const cJSON *doc)
{
    const cJSON *c = only_case(doc);
    const cJSON *m;

    assert_string_equal(it_str_of(it_member(c, "counters"), "status"), "off");
    assert_string_equal(it_str_of(it_member(c, "energy"), "status"), "off");
    cJSON_ArrayForEach(m, it_member(c, "metrics")) {
        assert_true(strncmp(m->string, "perf.", 5) != 0);
        assert_true(strncmp(m->string, "energy.", 7) != 0);
    }
}

static void test_counters_off(void **state)
{
    cJSON *doc;
    char *out = NULL;

    (void)state;
    doc = run_ok("off.yaml", "off1.json", NULL, &out);
    expect_off(doc);
    assert_null(strstr(out, "counters:"));
    free(out);
    cJSON_Delete(doc);
    doc = run_ok("ctr.yaml", "off2.json", "--counters", NULL);
    expect_off(doc);
    cJSON_Delete(doc);
}

static void test_bad_values(void **state)
{
    tp_proc p;
    const char *cfg[] = {"run", it_path("bad.yaml"), "--out", it_path("bad.json"), NULL};
    const char *cli[] = {"run", it_path("ctr.yaml"), "--counters", "sometimes", NULL};

    (void)state;
    it_run(&p, cfg);
    it_expect_code(&p, 3); /* a config error */
    it_assert_has(p.err, "bad.yaml:3:");
    it_assert_has(p.err, "'counters' must be on or off, got 'maybe'");
    tp_proc_free(&p);
    it_run(&p, cli);
    it_expect_code(&p, 2);
    it_assert_has(p.err, "run: --counters 'sometimes': expected on or off");
    tp_proc_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counters_here),
        cmocka_unit_test(test_energy_from_powercap),
        cmocka_unit_test(test_counters_off),
        cmocka_unit_test(test_bad_values),
    };

    return cmocka_run_group_tests(tests, setup, it_group_teardown);
}
