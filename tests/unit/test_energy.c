// SPDX-License-Identifier: MIT
/* Unit tests for host/worker/energy.c and energy_gpu.c: the wrap-around
 * arithmetic, and the real RAPL reading code on a powercap tree of real
 * files (package and dram zones, a core zone and other entries to ignore)
 * whose counters the test moves between a sample's two readings, one of
 * them round its max_energy_range_uj; a folder without RAPL, an
 * unreadable counter, $BHOST_POWERCAP_ROOT, and the GPU libraries'
 * reasons on a machine without them; the decision whether a domain's
 * figures are printed (energy_check.c): its window against the counter's
 * refresh period and its average power against its power limit, with the
 * arithmetic of docs/measurement.md worked by hand (the figures of a real
 * H200 whose NVML counter refreshes every 100 ms). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "energy.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PKG_RANGE  262143328850ull
#define DRAM_RANGE 65712999613ull

static char root[64];

/* Writes text to root/zone/file in place (same inode: the open counter
 * file sees the new value, as sysfs would show it). */
static void put(const char *zone, const char *file, const char *text)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", root, zone);
    mkdir(path, 0755);
    snprintf(path, sizeof(path), "%s/%s/%s", root, zone, file);
    f = fopen(path, "r+");
    if (!f)
        f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), 0), 0);
    fputs(text, f);
    fclose(f);
}

/* Sets a zone's counter to uj. */
static void put_uj(const char *zone, uint64_t uj)
{
    char text[32];

    snprintf(text, sizeof(text), "%llu\n", (unsigned long long)uj);
    put(zone, "energy_uj", text);
}

/* A machine's tree: package 0 with core and dram subzones, a psys zone,
 * the control type folder and an MMIO zone. */
static int setup(void **state)
{
    char text[32];

    (void)state;
    snprintf(root, sizeof(root), "/tmp/bh_energy_XXXXXX");
    if (!mkdtemp(root))
        return -1;
    put("intel-rapl:0", "name", "package-0\n");
    snprintf(text, sizeof(text), "%llu\n", PKG_RANGE);
    put("intel-rapl:0", "max_energy_range_uj", text);
    put_uj("intel-rapl:0", PKG_RANGE - 1000000); /* 1 J before it wraps */
    /* long term 125 W (at most 150 W), short term 200 W: the ceiling 200 W */
    put("intel-rapl:0", "constraint_0_power_limit_uw", "125000000\n");
    put("intel-rapl:0", "constraint_0_max_power_uw", "150000000\n");
    put("intel-rapl:0", "constraint_1_power_limit_uw", "200000000\n");
    put("intel-rapl:0:0", "name", "core\n");
    put_uj("intel-rapl:0:0", 5);
    put("intel-rapl:0:1", "name", "dram\n");
    snprintf(text, sizeof(text), "%llu\n", DRAM_RANGE);
    put("intel-rapl:0:1", "max_energy_range_uj", text);
    put_uj("intel-rapl:0:1", 5000000);
    put("intel-rapl:1", "name", "psys\n");
    put_uj("intel-rapl:1", 7);
    put("intel-rapl", "enabled", "1\n");
    put("intel-rapl-mmio:0", "name", "package-0\n");
    put_uj("intel-rapl-mmio:0", 9);
    return 0;
}

static int teardown(void **state)
{
    char cmd[128];

    (void)state;
    /* the test's own folder of plain files */
    snprintf(cmd, sizeof(cmd), "%s", root);
    for (const char *z = "intel-rapl:0\0intel-rapl:0:0\0intel-rapl:0:1\0intel-rapl:1\0"
                         "intel-rapl\0intel-rapl-mmio:0\0";
         *z; z += strlen(z) + 1) {
        for (const char *f = "name\0energy_uj\0max_energy_range_uj\0enabled\0"
                             "constraint_0_power_limit_uw\0constraint_0_max_power_uw\0"
                             "constraint_1_power_limit_uw\0";
             *f; f += strlen(f) + 1) {
            snprintf(cmd, sizeof(cmd), "%s/%s/%s", root, z, f);
            unlink(cmd);
        }
        snprintf(cmd, sizeof(cmd), "%s/%s", root, z);
        rmdir(cmd);
    }
    rmdir(root);
    return 0;
}

static void wrap_arithmetic(void **state)
{
    (void)state;
    assert_int_equal(bh_energy_delta_uj(100, 350, 1000), 250);
    /* round once: 900 -> 1000 is 100, 0 -> 50 is 50 */
    assert_int_equal(bh_energy_delta_uj(900, 50, 1000), 150);
    assert_int_equal(bh_energy_delta_uj(PKG_RANGE - 1000000, 2500000, PKG_RANGE), 3500000);
    /* a decrease that cannot be a wrap counts nothing */
    assert_int_equal(bh_energy_delta_uj(900, 50, 0), 0);
    assert_int_equal(bh_energy_delta_uj(2000, 50, 1000), 0);
    assert_int_equal(bh_energy_delta_uj(7, 7, 1000), 0);
}

static void rapl_tree(void **state)
{
    bh_energy en;

    (void)state;
    memset(&en, 0, sizeof(en));
    assert_int_equal(bh_energy_open_rapl(&en, root), 2);
    assert_string_equal(en.reason[BH_ENERGY_RAPL], "");
    assert_string_equal(en.dom[0].name, "package-0");
    assert_string_equal(en.dom[1].name, "dram-0");
    assert_int_equal(en.dom[0].max_range_uj, PKG_RANGE);
    assert_int_equal(en.dom[1].max_range_uj, DRAM_RANGE);
    /* the largest of the package's constraints; dram has none */
    assert_true(en.dom[0].limit_watts == 200.0);
    assert_true(en.dom[1].limit_watts == 0.0);
    assert_int_equal(en.dom[0].period_ns, BH_ENERGY_RAPL_PERIOD_NS);
    /* sample 1: the package counter wraps (1 J + 2.5 J), dram moves 2 J */
    bh_energy_sample_begin(&en);
    put_uj("intel-rapl:0", 2500000);
    put_uj("intel-rapl:0:1", 7000000);
    bh_energy_sample_end(&en);
    assert_true(fabs(en.dom[0].joules - 3.5) < 1e-9);
    assert_true(fabs(en.dom[1].joules - 2.0) < 1e-9);
    /* sample 2 accumulates: +0.5 J and +0.25 J */
    bh_energy_sample_begin(&en);
    put_uj("intel-rapl:0", 3000000);
    put_uj("intel-rapl:0:1", 7250000);
    bh_energy_sample_end(&en);
    assert_true(fabs(en.dom[0].joules - 4.0) < 1e-9);
    assert_true(fabs(en.dom[1].joules - 2.25) < 1e-9);
    assert_int_equal(en.samples, 2);
    assert_int_equal(en.dom[0].samples, 2);
    assert_int_equal(en.dom[0].ns, en.ns);
    assert_int_equal(en.dom[0].failed_reads, 0);
    /* a counter that is not a number is a failed read, not a figure */
    bh_energy_sample_begin(&en);
    put("intel-rapl:0", "energy_uj", "garbage\n");
    bh_energy_sample_end(&en);
    assert_int_equal(en.dom[0].failed_reads, 1);
    assert_true(fabs(en.dom[0].joules - 4.0) < 1e-9);
    assert_int_equal(en.dom[0].samples, 2); /* its window leaves the failed sample out */
    assert_int_equal(en.dom[1].samples, 3);
    assert_true(en.dom[0].ns < en.ns);
    put_uj("intel-rapl:0", 3000000);
    bh_energy_close(&en);
}

static void no_rapl(void **state)
{
    bh_energy en;
    char want[160];

    (void)state;
    memset(&en, 0, sizeof(en));
    assert_int_equal(bh_energy_open_rapl(&en, "/proc/self/fd"), 0);
    assert_string_equal(en.reason[BH_ENERGY_RAPL],
                        "no /proc/self/fd/intel-rapl:* (no RAPL in this VM)");
    memset(&en, 0, sizeof(en));
    assert_int_equal(bh_energy_open_rapl(&en, "/nonexistent/powercap"), 0);
    snprintf(want, sizeof(want), "no %s/intel-rapl:* (no RAPL in this VM)",
             "/nonexistent/powercap");
    assert_string_equal(en.reason[BH_ENERGY_RAPL], want);
}

static void unreadable_counter(void **state)
{
    bh_energy en;
    char path[128];

    (void)state;
    if (geteuid() == 0)
        skip(); /* root reads a mode 000 file */
    snprintf(path, sizeof(path), "%s/intel-rapl:0/energy_uj", root);
    assert_int_equal(chmod(path, 0), 0);
    memset(&en, 0, sizeof(en));
    assert_int_equal(bh_energy_open_rapl(&en, root), 1); /* dram only */
    assert_string_equal(en.dom[0].name, "dram-0");
    assert_non_null(strstr(en.reason[BH_ENERGY_RAPL], "intel-rapl:0/energy_uj: Permission denied "
                                                      "(energy_uj is readable by root only"));
    bh_energy_close(&en);
    assert_int_equal(chmod(path, 0644), 0);
}

/* A domain with the accumulated figures of one run, for bh_energy_judge. */
static bh_energy_domain domain(const char *name, double limit_watts, uint64_t period_ns,
                               int measured, uint32_t samples, uint64_t ns, double joules)
{
    bh_energy_domain d;

    memset(&d, 0, sizeof(d));
    snprintf(d.name, sizeof(d.name), "%s", name);
    d.limit_watts = limit_watts;
    d.period_ns = period_ns;
    d.period_measured = measured;
    d.samples = samples;
    d.ns = ns;
    d.joules = joules;
    return d;
}

static void needed_window(void **state)
{
    (void)state;
    /* one window: K = 20 periods */
    assert_int_equal(bh_energy_needed_ns(100000000, 1), 2000000000ull);
    assert_int_equal(bh_energy_needed_ns(100000000, 0), 2000000000ull);
    /* n samples: K x period x sqrt(n); 20 x 100 ms x 2 = 4 s */
    assert_int_equal(bh_energy_needed_ns(100000000, 4), 4000000000ull);
    /* 20 x 100 ms x 2.2360679775 = 4.472135955 s */
    assert_int_equal(bh_energy_needed_ns(100000000, 5), 4472135955ull);
    /* many samples shorter than the period: at most 4K x K periods */
    assert_int_equal(bh_energy_needed_ns(100000000, 10000), 160000000000ull);
    /* RAPL, 3 samples: 20 x 1 ms x 1.7320508 = 34.641016 ms, rounded up */
    assert_int_equal(bh_energy_needed_ns(BH_ENERGY_RAPL_PERIOD_NS, 3), 34641017ull);
}

static void judge_h200(void **state)
{
    char why[400];
    /* 5 samples summing 24 ms on a 700 W GPU whose counter refreshes every
       100 ms: it moved one step of 49.3 J, 2054 W */
    bh_energy_domain d = domain("gpu-0", 700, 100000000, 1, 5, 24000000, 49.3);

    (void)state;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_IMPLAUSIBLE);
    assert_string_equal(why, "2054 W over 24 ms is above gpu-0's 700 W limit (805 W with the 15% "
                             "margin): the counter's 100 ms refresh is too coarse for the window");
    /* the same window where the counter stood still: too short, not 0 W;
       4.472 s / 5 = 894.4 ms per sample */
    d.joules = 0;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_TOO_SHORT);
    assert_string_equal(why, "24 ms over 5 samples is too short for the counter's 100 ms refresh "
                             "(measured): +-5% needs 4.47 s, sample_time: 895ms");
    /* 5 samples of 900 ms at 450 W */
    d.ns = 4500000000ull;
    d.joules = 450 * 4.5;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_OK);
    assert_string_equal(why, "");
    /* the boundary is the needed window itself */
    d.ns = 4472135954ull;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_TOO_SHORT);
    d.ns = 4472135955ull;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_OK);
    /* the ceiling is 700 W x 1.15 = 805 W */
    d.ns = 4500000000ull;
    d.joules = 804 * 4.5;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_OK);
    d.joules = 806 * 4.5;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_IMPLAUSIBLE);
    assert_string_equal(why, "806 W over 4.5 s is above gpu-0's 700 W limit (805 W with the 15% "
                             "margin): the counter or the limit is wrong");
    /* no known limit: nothing to check the figure against */
    d.limit_watts = 0;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_OK);
    /* a long window without energy: 0 W is not a powered device's figure */
    d.joules = 0;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_IMPLAUSIBLE);
    assert_string_equal(why, "0 J over 4.5 s (45 refresh periods of 100 ms): the counter did "
                             "not move");
}

static void judge_periods(void **state)
{
    char why[400];
    /* RAPL's documented 1 ms, 3 samples of 1 ms at 50 W */
    bh_energy_domain d = domain("package-0", 200, BH_ENERGY_RAPL_PERIOD_NS, 0, 3, 3000000, 0.15);

    (void)state;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_TOO_SHORT);
    assert_string_equal(why, "3 ms over 3 samples is too short for the counter's 1 ms refresh "
                             "(documented): +-5% needs 34.6 ms, sample_time: 12ms");
    /* 3 samples of 12 ms: 36 ms */
    d.ns = 36000000;
    d.joules = 50 * 0.036;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_OK);
    /* a period the poll did not find is taken as its limit, 300 ms:
       20 x 300 ms x sqrt(5) = 13.4 s, 2683.3 ms per sample */
    d = domain("gpu-1", 0, BH_ENERGY_POLL_NS, -1, 5, 1000000000, 300);
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_TOO_SHORT);
    assert_string_equal(why, "1 s over 5 samples is too short for the counter's 300 ms refresh "
                             "(taken as the poll's limit: the counter did not change twice in "
                             "it): +-5% needs 13.4 s, sample_time: 2684ms");
    /* not measured (window long enough for any period the poll finds) */
    d = domain("gpu-1", 700, 0, 0, 5, 14000000000ull, 14 * 300.0);
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_OK);
    d.joules = 0;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_IMPLAUSIBLE);
    assert_string_equal(why, "0 J over 14 s: the counter did not move");
    /* every sample's reading failed: nothing to judge */
    d = domain("gpu-1", 700, 0, 0, 0, 0, 0);
    d.failed_reads = 5;
    assert_int_equal(bh_energy_judge(&d, why, sizeof(why)), BH_ENERGY_TOO_SHORT);
    assert_string_equal(why, "no sample was read (5 failed reads)");
    assert_string_equal(bh_energy_status_name(BH_ENERGY_TOO_SHORT), "too_short");
    assert_string_equal(bh_energy_status_name(BH_ENERGY_IMPLAUSIBLE), "implausible");
}

/* The real reading code on the tree: a sample far above the package's
 * 200 W limit, the documented RAPL period (nothing polled), and the poll
 * of a counter that stands still. */
static void tree_limit_and_period(void **state)
{
    bh_energy en;
    char why[400];

    (void)state;
    memset(&en, 0, sizeof(en));
    assert_int_equal(bh_energy_open_rapl(&en, root), 2);
    put_uj("intel-rapl:0", 1000000);
    put_uj("intel-rapl:0:1", 1000000);
    bh_energy_sample_begin(&en);
    put_uj("intel-rapl:0", 1001000000); /* 1000 J: over 230 W unless 4.3 s went by */
    put_uj("intel-rapl:0:1", 1250000);
    bh_energy_sample_end(&en);
    bh_energy_settle_period(&en, &en.dom[0]);
    assert_int_equal(en.dom[0].period_ns, BH_ENERGY_RAPL_PERIOD_NS);
    assert_int_equal(bh_energy_judge(&en.dom[0], why, sizeof(why)), BH_ENERGY_IMPLAUSIBLE);
    assert_non_null(strstr(why, " is above package-0's 200 W limit (230 W with the 15% margin): "
                                "the counter's 1 ms refresh is too coarse for the window"));
    assert_int_equal(bh_energy_judge(&en.dom[1], why, sizeof(why)), BH_ENERGY_TOO_SHORT);
    assert_non_null(strstr(why, "over 1 samples is too short for the counter's 1 ms refresh "
                                "(documented): +-5% needs 20 ms, sample_time: 20ms"));
    /* a period to find: the counter does not move in the poll's 300 ms */
    en.dom[1].period_ns = 0;
    bh_energy_settle_period(&en, &en.dom[1]);
    assert_int_equal(en.dom[1].period_ns, BH_ENERGY_POLL_NS);
    assert_int_equal(en.dom[1].period_measured, -1);
    assert_int_equal(bh_energy_judge(&en.dom[1], why, sizeof(why)), BH_ENERGY_TOO_SHORT);
    assert_non_null(strstr(why, "did not change twice"));
    /* a window long enough for any period the poll could find: no poll */
    en.dom[1].period_ns = 0;
    en.dom[1].period_measured = 0;
    en.dom[1].ns = bh_energy_needed_ns(BH_ENERGY_POLL_NS, 1);
    bh_energy_settle_period(&en, &en.dom[1]);
    assert_int_equal(en.dom[1].period_ns, 0);
    assert_int_equal(bh_energy_judge(&en.dom[1], why, sizeof(why)), BH_ENERGY_OK);
    bh_energy_close(&en);
}

static void env_root_and_gpus(void **state)
{
    bh_energy en;
    void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);

    (void)state;
    setenv("BHOST_POWERCAP_ROOT", root, 1);
    bh_energy_open(&en, -1);
    unsetenv("BHOST_POWERCAP_ROOT");
    assert_true(en.n >= 2);
    assert_string_equal(en.dom[0].name, "package-0");
    if (!nvml)
        assert_string_equal(en.reason[BH_ENERGY_NVML], "libnvidia-ml.so.1 not found");
    else
        assert_non_null(strstr(en.reason[BH_ENERGY_NVML], "host case"));
    assert_true(*en.reason[BH_ENERGY_ROCM_SMI] != '\0');
    bh_energy_close(&en);
    if (nvml)
        dlclose(nvml);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wrap_arithmetic),
        cmocka_unit_test(rapl_tree),
        cmocka_unit_test(no_rapl),
        cmocka_unit_test(unreadable_counter),
        cmocka_unit_test(env_root_and_gpus),
        cmocka_unit_test(needed_window),
        cmocka_unit_test(judge_h200),
        cmocka_unit_test(judge_periods),
        cmocka_unit_test(tree_limit_and_period),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
