// SPDX-License-Identifier: MIT
/* Unit tests for host/worker/perf_counters.c and perf_metrics.c: the
 * group read format, scaling by time_enabled / time_running, the derived
 * ratios and IPC, and the real counters of this machine: the software
 * events (task-clock, context switches, page faults) read through the
 * same group path as the hardware ones, counting only while enabled and
 * including a thread started after the counters were opened (inherit);
 * hardware events where the machine has a PMU, else the reason. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "perf_counters.h"
#include "perf_metrics.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES 256

static void parse_group(void **state)
{
    const uint64_t buf[] = {3, 2000, 500, 10, 20, 30, 99};
    uint64_t en, run, v[4];

    (void)state;
    assert_int_equal(bh_pc_parse_group(buf, 7, &en, &run, v, 4), 3);
    assert_int_equal(en, 2000);
    assert_int_equal(run, 500);
    assert_int_equal(v[0], 10);
    assert_int_equal(v[2], 30);
    /* nr beyond the words read, beyond the room, or no header at all */
    assert_int_equal(bh_pc_parse_group(buf, 5, &en, &run, v, 4), -1);
    assert_int_equal(bh_pc_parse_group(buf, 6, &en, &run, v, 2), -1);
    assert_int_equal(bh_pc_parse_group(buf, 2, &en, &run, v, 4), -1);
}

static void scaling(void **state)
{
    (void)state;
    /* on the PMU a quarter of the time: the count is scaled 4x */
    assert_true(bh_pc_scale(1000, 4000, 1000) == 4000.0);
    /* always on: unchanged, also when running rounds above enabled */
    assert_true(bh_pc_scale(1000, 4000, 4000) == 1000.0);
    assert_true(bh_pc_scale(1000, 4000, 4001) == 1000.0);
    /* never scheduled: no figure */
    assert_true(isnan(bh_pc_scale(1000, 4000, 0)));
}

/* Totals of a multiplexed run: the core group ran half of its time. */
static void totals(bh_pc_totals *t)
{
    memset(t, 0, sizeof(*t));
    for (int i = 0; i < BH_PC_N; i++)
        t->value[i] = NAN;
    t->read[0] = t->read[1] = 1;
    t->enabled[0] = 1000;
    t->running[0] = 500;
    t->enabled[1] = t->running[1] = 1000;
    t->value[BH_PC_CYCLES] = bh_pc_scale(1000000, 1000, 500);       /* 2e6 */
    t->value[BH_PC_INSTRUCTIONS] = bh_pc_scale(1500000, 1000, 500); /* 3e6 */
    t->value[BH_PC_BRANCHES] = bh_pc_scale(200000, 1000, 500);      /* 4e5 */
    t->value[BH_PC_BRANCH_MISSES] = bh_pc_scale(2000, 1000, 500);   /* 4e3 */
    t->value[BH_PC_L1D_READS] = 500000;
    t->value[BH_PC_L1D_READ_MISSES] = 25000;
    t->value[BH_PC_LLC_READS] = 1000;
    t->value[BH_PC_LLC_READ_MISSES] = 1200; /* a PMU counting more misses */
}

static void derived(void **state)
{
    bh_pc_totals t;
    bh_pc_derived d;

    (void)state;
    totals(&t);
    bh_pc_derive(&t, 1000, &d);
    assert_true(fabs(d.cycles - 2000) < 1e-9);
    assert_true(fabs(d.instructions - 3000) < 1e-9);
    assert_true(fabs(d.ipc - 1.5) < 1e-12);
    assert_true(fabs(d.branches - 400) < 1e-9);
    assert_true(fabs(d.branch_miss_ratio - 0.01) < 1e-12);
    assert_true(fabs(d.l1d_hit_ratio - 0.95) < 1e-12);
    assert_true(fabs(d.l1d_misses - 25) < 1e-12);
    assert_true(d.llc_hit_ratio == 0.0); /* clamped, not negative */
    assert_true(isnan(d.task_clock_ns)); /* not counted */
    assert_int_equal(d.multiplexed, 1);
    t.running[0] = 1000;
    bh_pc_derive(&t, 1000, &d);
    assert_int_equal(d.multiplexed, 0);
    assert_true(isnan(bh_pc_ratio(1, 0)));
    assert_true(isnan(bh_pc_hit_ratio(1, NAN)));
}

/* Touches PAGES fresh pages (one page fault each). */
static void *touch_pages(void *arg)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)page * PAGES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);

    (void)arg;
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_NOHUGEPAGE
    (void)madvise(p, (size_t)page * PAGES, MADV_NOHUGEPAGE);
#endif
    for (int i = 0; i < PAGES; i++)
        ((volatile char *)p)[(size_t)i * (size_t)page] = 1;
    munmap(p, (size_t)page * PAGES);
    return p;
}

static void software_events(void **state)
{
    bh_perf_counters pc;
    bh_pc_totals a, b;
    pthread_t th;
    void *ok = NULL;

    (void)state;
    bh_perf_counters_open(&pc);
    if (pc.n[2] == 0) {
        /* the reason is perf_event_open's: nothing else to check here */
        assert_true(strncmp(pc.sw_reason, "task_clock_ns: perf_event_open: ", 32) == 0);
        bh_perf_counters_close(&pc);
        skip();
    }
    assert_int_equal(pc.n[2], 3);
    /* enabled: a thread started now, after the open, faults PAGES pages */
    bh_perf_counters_enable(&pc);
    assert_int_equal(pthread_create(&th, NULL, touch_pages, NULL), 0);
    assert_int_equal(pthread_join(th, &ok), 0);
    assert_non_null(ok);
    bh_perf_counters_disable(&pc);
    assert_int_equal(bh_perf_counters_read(&pc, &a), 0);
    assert_true(a.value[BH_PC_PAGE_FAULTS] >= PAGES);
    assert_true(a.value[BH_PC_TASK_CLOCK] > 0);
    assert_true(a.enabled[2] > 0 && a.running[2] == a.enabled[2]);
    /* disabled: the same work again is not counted */
    touch_pages(NULL);
    assert_int_equal(pthread_create(&th, NULL, touch_pages, NULL), 0);
    assert_int_equal(pthread_join(th, &ok), 0);
    assert_int_equal(bh_perf_counters_read(&pc, &b), 0);
    assert_true(b.value[BH_PC_PAGE_FAULTS] == a.value[BH_PC_PAGE_FAULTS]);
    assert_true(b.value[BH_PC_TASK_CLOCK] == a.value[BH_PC_TASK_CLOCK]);
    assert_true(b.enabled[2] == a.enabled[2]);
    bh_perf_counters_close(&pc);
}

static void hardware_events(void **state)
{
    bh_perf_counters pc;
    bh_pc_totals t;
    volatile uint64_t x = 0;

    (void)state;
    bh_perf_counters_open(&pc);
    assert_int_equal(pc.n_hw_wanted, 8);
    if (pc.n_hw == 0) {
        /* the unsupported path: one reason, perf_event_open's errno */
        assert_true(strncmp(pc.hw_reason, "perf_event_open: E", 18) == 0);
        assert_null(strstr(pc.hw_reason, "cycles:"));
        assert_int_equal(pc.leader[0], -1);
        assert_int_equal(pc.leader[1], -1);
        bh_perf_counters_close(&pc);
        return;
    }
    bh_perf_counters_enable(&pc);
    for (int i = 0; i < 1000000; i++)
        x += (uint64_t)i;
    bh_perf_counters_disable(&pc);
    bh_perf_counters_read(&pc, &t);
    if (pc.leader[0] >= 0 && pc.events[0][0] == BH_PC_CYCLES && t.running[0] > 0)
        assert_true(t.value[BH_PC_CYCLES] > 0);
    for (int k = 0; k < pc.n[0]; k++)
        if (pc.events[0][k] == BH_PC_INSTRUCTIONS && t.running[0] > 0)
            assert_true(t.value[BH_PC_INSTRUCTIONS] >= 1000000); /* one add per pass */
    bh_perf_counters_close(&pc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_group),     cmocka_unit_test(scaling),
        cmocka_unit_test(derived),         cmocka_unit_test(software_events),
        cmocka_unit_test(hardware_events),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
