// SPDX-License-Identifier: MIT
/* Unit tests for host/worker/energy.c and energy_gpu.c: the wrap-around
 * arithmetic, and the real RAPL reading code on a powercap tree of real
 * files (package and dram zones, a core zone and other entries to ignore)
 * whose counters the test moves between a sample's two readings, one of
 * them round its max_energy_range_uj; a folder without RAPL, an
 * unreadable counter, $BHOST_POWERCAP_ROOT, and the GPU libraries'
 * reasons on a machine without them. */
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
        for (const char *f = "name\0energy_uj\0max_energy_range_uj\0enabled\0"; *f;
             f += strlen(f) + 1) {
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
    assert_int_equal(en.dom[0].failed_reads, 0);
    /* a counter that is not a number is a failed read, not a figure */
    bh_energy_sample_begin(&en);
    put("intel-rapl:0", "energy_uj", "garbage\n");
    bh_energy_sample_end(&en);
    assert_int_equal(en.dom[0].failed_reads, 1);
    assert_true(fabs(en.dom[0].joules - 4.0) < 1e-9);
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
        cmocka_unit_test(wrap_arithmetic),   cmocka_unit_test(rapl_tree),
        cmocka_unit_test(no_rapl),           cmocka_unit_test(unreadable_counter),
        cmocka_unit_test(env_root_and_gpus),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
