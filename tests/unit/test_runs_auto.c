// SPDX-License-Identifier: MIT
/* Unit tests of runs: auto (docs/statistics.md section 8.3): the width of
 * the 95% interval of the run medians, the stopping rule on known run
 * medians and times, the limits a plan's cases get from the settings and
 * the regression: section (host/supervisor/runs_auto_rule.c,
 * host/pipeline/runs_auto_limits.c), and the order of the runs
 * (host/supervisor/runs_auto.c) with this binary as a fake worker: started
 * as "test_runs_auto __worker" it logs the job's benchmark and run index
 * to $BH_FAKE_WORKER_LOG and reports 3 samples, the same in every run for
 * "steady", different from run to run for a benchmark named noisy*. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_fs.h"
#include "bh_mem.h"
#include "executor.h"
#include "ipc.h"
#include "regress_config.h"
#include "runs_auto.h"
#include "runs_auto_limits.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The fake worker (see the top of this file). */
static int fake_worker(void)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    ssize_t r;
    cJSON *job;
    const char *log = getenv("BH_FAKE_WORKER_LOG");
    const char *bench;
    int run;
    double factor = 1.0;
    FILE *f;
    char line[512];

    for (;;) {
        bh_grow((void **)&buf, &cap, len + 4096, 1);
        r = read(BH_IPC_JOB_FD, buf + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    job = cJSON_ParseWithLength(buf ? buf : "", len);
    free(buf);
    if (!job)
        return 2;
    bench = bh_json_str(job, "bench", "?");
    run = (int)bh_json_num(job, "run_index", -1);
    if (log && (f = fopen(log, "a"))) {
        fprintf(f, "%s %d\n", bench, run);
        fclose(f);
    }
    if (strncmp(bench, "noisy", 5) == 0)
        factor = 1.0 + 0.05 * ((run * 7) % 5); /* 0 to 20% more, by run */
    for (int i = 0; i < 3; i++) {
        int n = snprintf(line, sizeof(line), "{\"t\":\"sample\",\"iters\":10,\"ns\":%.0f}\n",
                         2000000.0 * factor + i * 1000);

        if (write(BH_IPC_RESULT_FD, line, (size_t)n) != n)
            return 4;
    }
    if (strcmp(bench, "metrics") == 0) /* two performance metrics, one informational */
        snprintf(line, sizeof(line),
                 "{\"t\":\"result\",\"status\":\"ok\",\"metrics\":[{\"name\":\"a\",\"value\":1},"
                 "{\"name\":\"b\",\"value\":2,\"kind\":\"performance\"},"
                 "{\"name\":\"c\",\"value\":3,\"kind\":\"informational\"}]}\n");
    else
        snprintf(line, sizeof(line), "{\"t\":\"result\",\"status\":\"ok\"}\n");
    if (write(BH_IPC_RESULT_FD, line, strlen(line)) != (ssize_t)strlen(line))
        return 4;
    cJSON_Delete(job);
    return 0;
}

/* Run medians 101..110 (in a scrambled order) and their known interval. */
static void test_ci_width(void **state)
{
    double ten[] = {105, 101, 110, 103, 108, 102, 107, 104, 109, 106};
    double six[] = {100, 101, 102, 103, 104, 105};
    double same[] = {7, 7, 7, 7, 7, 7, 7};
    double five[] = {1, 2, 3, 4, 5};
    double neg[] = {-1, -1, -1, -1, -1, -1};

    (void)state;
    /* n = 10 at 95%: x(2) and x(9) (P(K <= 1) = 0.0107, P(K <= 8) =
       0.989 for K ~ B(10, 1/2)); median 105.5 */
    assert_true(fabs(bh_runs_auto_ci_width(ten, 10) - 7.0 / 105.5) < 1e-12);
    /* n = 6: the smallest and the largest (coverage 0.969) */
    assert_true(fabs(bh_runs_auto_ci_width(six, 6) - 5.0 / 102.5) < 1e-12);
    assert_true(bh_runs_auto_ci_width(same, 7) == 0.0);
    /* under 6 run medians no order statistic bounds a 95% interval */
    assert_true(isinf(bh_runs_auto_ci_width(five, 5)));
    assert_true(isnan(bh_runs_auto_ci_width(five, 0)));
    assert_true(isnan(bh_runs_auto_ci_width(neg, 6)));
}

/* A state of n run medians m, all ok, spent ns of wall time, budget. */
static bh_runs_auto_state state_of(const double *m, size_t n, uint64_t spent, uint64_t budget)
{
    bh_runs_auto_state st = {m, n, (uint32_t)n, 1, spent, budget};

    return st;
}

static void test_decide(void **state)
{
    const double flat[8] = {100, 100, 100, 100, 100, 100, 100, 100};
    const double wide[8] = {100, 104, 98, 103, 97, 101, 105, 99};
    /* 6 medians whose interval (min to max) is exactly 1% of the median */
    const double edge[6] = {99.5, 100, 100, 100, 100, 100.5};
    bh_case_auto lim = {.min = 6, .max = 8, .floor = 0.01};
    bh_runs_auto_state st;
    double w;

    (void)state;
    /* fewer than min runs: on, however narrow */
    st = state_of(flat, 5, 0, 0);
    assert_int_equal(bh_runs_auto_decide(&lim, &st, &w), BH_RUNS_AUTO_GO_ON);
    assert_true(isinf(w));
    /* min runs of one value: narrow */
    st = state_of(flat, 6, 0, 0);
    assert_int_equal(bh_runs_auto_decide(&lim, &st, &w), BH_RUNS_AUTO_CI_NARROW);
    assert_true(w == 0.0);
    /* 4% spread: on below max, stopped at max */
    st = state_of(wide, 7, 0, 0);
    assert_int_equal(bh_runs_auto_decide(&lim, &st, &w), BH_RUNS_AUTO_GO_ON);
    assert_true(w > 0.01);
    st = state_of(wide, 8, 0, 0);
    assert_int_equal(bh_runs_auto_decide(&lim, &st, NULL), BH_RUNS_AUTO_MAX_RUNS);
    /* narrower than the floor, strictly: a width equal to it goes on */
    st = state_of(edge, 6, 0, 0);
    assert_int_equal(bh_runs_auto_decide(&lim, &st, &w), BH_RUNS_AUTO_GO_ON);
    assert_true(fabs(w - 0.01) < 1e-12);
    lim.floor = 0.0101;
    assert_int_equal(bh_runs_auto_decide(&lim, &st, NULL), BH_RUNS_AUTO_CI_NARROW);
    lim.floor = 0.01;
    /* 7 runs took 7 s: an eighth (1 s on average) does not fit 7.5 s, fits 8 s */
    st = state_of(wide, 7, 7000000000u, 7500000000u);
    assert_int_equal(bh_runs_auto_decide(&lim, &st, NULL), BH_RUNS_AUTO_TIME_BUDGET);
    st = state_of(wide, 7, 7000000000u, 8000000000u);
    assert_int_equal(bh_runs_auto_decide(&lim, &st, NULL), BH_RUNS_AUTO_GO_ON);
    /* a run that did not end ok stops the case at once */
    st = state_of(flat, 3, 0, 0);
    st.all_ok = 0;
    assert_int_equal(bh_runs_auto_decide(&lim, &st, NULL), BH_RUNS_AUTO_RUN_NOT_OK);
    /* the narrow check comes before max runs and the budget */
    st = state_of(flat, 8, 7000000000u, 1000u);
    assert_int_equal(bh_runs_auto_decide(&lim, &st, NULL), BH_RUNS_AUTO_CI_NARROW);
    assert_null(bh_runs_auto_stop_name(BH_RUNS_AUTO_GO_ON));
    assert_string_equal(bh_runs_auto_stop_name(BH_RUNS_AUTO_CI_NARROW), "ci_narrow");
    assert_string_equal(bh_runs_auto_stop_name(BH_RUNS_AUTO_MAX_RUNS), "max_runs");
    assert_string_equal(bh_runs_auto_stop_name(BH_RUNS_AUTO_TIME_BUDGET), "time_budget");
    assert_string_equal(bh_runs_auto_stop_name(BH_RUNS_AUTO_RUN_NOT_OK), "run_not_ok");
}

/* The least runs: at fdr 0.05, 1 test needs 4 a side for p 2/70 < 0.05
 * (6 for the interval), 300 tests 8 (2/C(16,8) = 1.55e-4 <= 1.67e-4; 7
 * give 5.8e-4), 900 tests 9 (2/C(18,9) = 4.1e-5 <= 5.6e-5). */
static void test_least(void **state)
{
    (void)state;
    assert_int_equal(bh_runs_auto_least(0.05, 1), 6);
    assert_int_equal(bh_runs_auto_least(0.05, 0), 6);
    assert_int_equal(bh_runs_auto_least(0.05, 23), 6);
    assert_int_equal(bh_runs_auto_least(0.05, 24), 7);
    assert_int_equal(bh_runs_auto_least(0.05, 300), 8);
    assert_int_equal(bh_runs_auto_least(0.05, 900), 9);
}

/* A case of a hand-made plan. */
static void add_case(bh_plan *plan, const char *id, int runs_auto, uint32_t min_runs,
                     uint32_t max_runs, int measure)
{
    bh_case *c = &plan->cases[plan->n++];

    memset(c, 0, sizeof(*c));
    c->id = bh_xstrdup(id);
    c->pre_status = BH_ST_OK;
    c->settings.runs = 10;
    c->settings.runs_auto = runs_auto;
    c->settings.min_runs = min_runs;
    c->settings.max_runs = max_runs;
    c->settings.measure = measure;
}

static void test_limits(void **state)
{
    bh_case cases[5];
    bh_plan plan = {cases, 0, 5};
    bh_regress_config rc;
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_regress_config_parse("{\"noise_floor\": 0.015, \"fdr\": 0.05, "
                                             "\"overrides\": [{\"match\": \"b*\", "
                                             "\"noise_floor\": 0.03}]}",
                                             NULL, NULL, &rc, &e),
                     0);
    add_case(&plan, "a", 1, 0, 30, BH_MEASURE_TIME);
    add_case(&plan, "b", 1, 0, 30, BH_MEASURE_TIME);
    add_case(&plan, "c", 1, 12, 20, BH_MEASURE_TIME);
    add_case(&plan, "d", 1, 0, 4, BH_MEASURE_INSTRUCTIONS);
    add_case(&plan, "e", 0, 0, 30, BH_MEASURE_TIME);
    bh_runs_auto_limits(&plan, &rc);
    /* 5 runnable cases: p must reach 0.01, 5 a side do (2/252) */
    assert_int_equal(cases[0].autorun.min, 6);
    assert_int_equal(cases[0].autorun.max, 30);
    assert_true(cases[0].autorun.fdr == 0.05);
    assert_true(fabs(cases[0].autorun.floor - 0.015) < 1e-12);
    assert_true(fabs(cases[1].autorun.floor - 0.03) < 1e-12);
    assert_int_equal(cases[2].autorun.min, 12);
    assert_int_equal(cases[2].autorun.max, 20);
    /* max_runs below what the comparison needs: min follows max */
    assert_int_equal(cases[3].autorun.min, 4);
    assert_true(fabs(cases[3].autorun.floor - BH_REGRESS_COUNT_FLOOR) < 1e-12);
    /* a fixed-runs case is left alone */
    assert_int_equal(cases[4].autorun.min, 0);
    for (size_t i = 0; i < plan.n; i++)
        free(cases[i].id);
    bh_regress_config_free(&rc);
}

/* A fake case (runs 0: runs: auto from 6 to 9 runs). */
static void add_fake(bh_plan *plan, const char *bench, uint32_t runs)
{
    bh_case c;

    memset(&c, 0, sizeof(c));
    c.id = bh_xasprintf("fake/%s", bench);
    c.plugin = bh_xstrdup("fake");
    c.plugin_path = bh_xstrdup("/nonexistent/fake.so");
    c.bench = bh_xstrdup(bench);
    c.params = cJSON_CreateObject();
    c.params_plain = cJSON_CreateObject();
    c.device = -1;
    bh_settings_default(&c.settings);
    c.settings.runs = runs ? runs : 10;
    c.settings.runs_auto = runs == 0;
    c.settings.min_runs = 6;
    c.settings.max_runs = 9;
    c.settings.samples = 3;
    c.settings.warmup_ns = 0;
    c.settings.timeout_ns = 30000000000ull;
    BH_PUSH(plan->cases, plan->n, plan->cap, c);
}

/* How many of lines[from..to) are "bench run". */
static int count_line(char **lines, size_t from, size_t to, const char *bench, int run)
{
    char want[64];
    int n = 0;

    snprintf(want, sizeof(want), "%s %d", bench, run);
    for (size_t i = from; i < to; i++)
        n += strcmp(lines[i], want) == 0;
    return n;
}

/* The first runs of every case (auto and fixed) form one shuffled order;
 * after that each round gives every open case one more run; a steady case
 * stops at its min runs, a noisy one at max; a fixed case keeps its runs. */
static void test_rounds(void **state)
{
    char dir[] = "/tmp/bh_runs_auto_XXXXXX";
    char *log, *text = NULL, *save = NULL;
    char **lines = NULL;
    size_t n = 0, cap = 0, len = 0;
    bh_plan plan;
    bh_exec_opts o = {.seed = 42, .progress = BH_PROGRESS_NONE, .log_limit = 4096};
    bh_error e = {""};
    int switches = 0;

    (void)state;
    assert_non_null(mkdtemp(dir));
    log = bh_xasprintf("%s/workers.log", dir);
    setenv("BH_FAKE_WORKER_LOG", log, 1);
    memset(&plan, 0, sizeof(plan));
    add_fake(&plan, "steady", 0);
    add_fake(&plan, "noisy", 0);
    add_fake(&plan, "noisy2", 0);
    add_fake(&plan, "fixed", 4);
    assert_int_equal(bh_exec_plan(&plan, &o), 6 + 9 + 9 + 4);
    unsetenv("BH_FAKE_WORKER_LOG");
    assert_int_equal(bh_read_file(log, 1 << 20, &text, &len, &e), 0);
    for (char *t = strtok_r(text, "\n", &save); t; t = strtok_r(NULL, "\n", &save))
        BH_PUSH(lines, n, cap, t);
    assert_int_equal(n, 28);
    /* the first 22: every first run of every case, interleaved */
    for (int r = 0; r < 6; r++) {
        assert_int_equal(count_line(lines, 0, 22, "steady", r), 1);
        assert_int_equal(count_line(lines, 0, 22, "noisy", r), 1);
        assert_int_equal(count_line(lines, 0, 22, "noisy2", r), 1);
    }
    for (int r = 0; r < 4; r++)
        assert_int_equal(count_line(lines, 0, 22, "fixed", r), 1);
    for (size_t i = 1; i < 22; i++)
        switches += strcmp(lines[i], lines[i - 1]) != 0 && lines[i][0] != lines[i - 1][0];
    assert_true(switches > 5);
    /* then rounds of one run of each noisy case */
    for (int r = 6; r < 9; r++) {
        size_t at = 22 + 2 * (size_t)(r - 6);

        assert_int_equal(count_line(lines, at, at + 2, "noisy", r), 1);
        assert_int_equal(count_line(lines, at, at + 2, "noisy2", r), 1);
    }
    assert_string_equal(plan.cases[0].autorun.stopped, "ci_narrow");
    assert_int_equal(plan.cases[0].n_runs, 6);
    assert_int_equal(plan.cases[0].settings.runs, 6);
    assert_true(plan.cases[0].autorun.ci_rel_width == 0.0);
    assert_string_equal(plan.cases[1].autorun.stopped, "max_runs");
    assert_int_equal(plan.cases[1].n_runs, 9);
    assert_true(plan.cases[1].autorun.ci_rel_width > 0.01);
    assert_null(plan.cases[3].autorun.stopped);
    assert_int_equal(plan.cases[3].n_runs, 4);
    for (size_t i = 0; i < plan.n; i++)
        assert_int_equal(plan.cases[i].status, BH_ST_OK);
    free(lines);
    free(text);
    unlink(log);
    rmdir(dir);
    free(log);
    bh_plan_free(&plan);
}

/* Once the first round shows the metrics, the least runs follow every
 * test: "metrics" reports two performance metrics (and one informational,
 * not compared), so with the two steady cases there are 5 tests, and at
 * fdr 0.001 p must reach 2e-4: 8 runs a side (2/C(16,8) = 1.55e-4; 7 give
 * 5.8e-4). The steady case stops at 8, not at its first 6; a given
 * min_runs is never raised. */
static void test_raise_min(void **state)
{
    bh_plan plan;
    bh_exec_opts o = {.seed = 7, .progress = BH_PROGRESS_NONE, .log_limit = 4096};

    (void)state;
    memset(&plan, 0, sizeof(plan));
    add_fake(&plan, "steady", 0);
    add_fake(&plan, "steady2", 0);
    add_fake(&plan, "metrics", 2);
    for (size_t i = 0; i < 2; i++) {
        bh_case_auto *a = &plan.cases[i].autorun;

        plan.cases[i].settings.min_runs = i == 0 ? 0 : 6;
        plan.cases[i].settings.max_runs = 12;
        a->min = 6;
        a->max = 12;
        a->floor = 0.01;
        a->fdr = 0.001;
    }
    assert_int_equal(bh_runs_auto_tests(&plan.cases[2]), 1); /* not run yet */
    assert_int_equal(bh_exec_plan(&plan, &o), 8 + 6 + 2);
    assert_int_equal(bh_runs_auto_tests(&plan.cases[2]), 3);
    assert_int_equal(plan.cases[0].autorun.min, 8);
    assert_int_equal(plan.cases[0].n_runs, 8);
    assert_string_equal(plan.cases[0].autorun.stopped, "ci_narrow");
    assert_int_equal(plan.cases[1].autorun.min, 6);
    assert_int_equal(plan.cases[1].n_runs, 6);
    bh_plan_free(&plan);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ci_width),
        cmocka_unit_test(test_decide),
        cmocka_unit_test(test_least),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_rounds),
        cmocka_unit_test(test_raise_min),
    };

    if (argc > 1 && strcmp(argv[1], "__worker") == 0)
        return fake_worker();
    signal(SIGPIPE, SIG_IGN); /* as bhost's main: a dead worker is EPIPE */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
