/* Unit tests for host/report: unit formatting and the console table. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_mem.h"
#include "console.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- units ------------------------------------------------------------ */

static void expect_time(double ns, const char *want)
{
    char buf[64];

    bh_fmt_time(ns, buf, sizeof(buf));
    if (strcmp(buf, want) != 0)
        fail_msg("bh_fmt_time(%g) = '%s', expected '%s'", ns, buf, want);
}

static void expect_rate(double v, const char *unit, const char *want)
{
    char buf[64];

    bh_fmt_rate(v, unit, buf, sizeof(buf));
    if (strcmp(buf, want) != 0)
        fail_msg("bh_fmt_rate(%g, %s) = '%s', expected '%s'", v, unit, buf,
                 want);
}

static void expect_pct(double v, const char *want)
{
    char buf[64];

    bh_fmt_pct(v, buf, sizeof(buf));
    if (strcmp(buf, want) != 0)
        fail_msg("bh_fmt_pct(%g) = '%s', expected '%s'", v, buf, want);
}

static void test_fmt_time(void **state)
{
    (void)state;
    expect_time(0.5, "500 ps");
    expect_time(0.812, "812 ps");
    expect_time(1, "1.00 ns");
    expect_time(12.3, "12.3 ns");
    expect_time(999, "999 ns");
    expect_time(1000, "1.00 us");
    expect_time(4560, "4.56 us");
    expect_time(45600, "45.6 us");
    expect_time(7.89e6, "7.89 ms");
    expect_time(1.23e9, "1.23 s");
    expect_time(123e9, "123 s");
    expect_time(NAN, "-");
    expect_time(INFINITY, "-");
}

static void test_fmt_rate(void **state)
{
    (void)state;
    expect_rate(1.5e11, "FLOP/s", "150 GFLOP/s");
    expect_rate(2.53e10, "B/s", "25.3 GB/s");
    expect_rate(999, "items/s", "999 items/s");
    expect_rate(1000, "items/s", "1.00 kitems/s");
    expect_rate(4.2e6, "tokens/s", "4.20 Mtokens/s");
    expect_rate(7.5e12, "FLOP/s", "7.50 TFLOP/s");
    expect_rate(NAN, "B/s", "-");
}

static void test_fmt_pct(void **state)
{
    (void)state;
    expect_pct(0.0321, "3.21%");
    expect_pct(0, "0.00%");
    expect_pct(1.5, "150.00%");
    expect_pct(NAN, "-");
}

/* "three significant digits": values that round up across a unit or a
 * digit boundary must be rescaled. */
static void test_fmt_rounding_boundaries(void **state)
{
    (void)state;
    /* Regression: sig3() once picked the precision before rounding, so 999.7 ns printed
     * "1000 ns" (should be "1.00 us"), 9.996 ns prints "10.00 ns" (should
     * be "10.0 ns") and 999.95 GFLOP/s prints "1000 GFLOP/s". */
    expect_time(999.7, "1.00 us");
    expect_time(9.996, "10.0 ns");
    expect_time(0.9996, "1.00 ns");
    expect_rate(999.95e9, "FLOP/s", "1.00 TFLOP/s");
}

/* ---- console ---------------------------------------------------------- */

static bh_case *add_case(bh_plan *plan, const char *id, bh_status st,
                         const char *msg)
{
    bh_case c;

    memset(&c, 0, sizeof(c));
    c.id = bh_xstrdup(id);
    c.plugin = bh_xstrdup("fx");
    c.status = st;
    c.message = msg ? bh_xstrdup(msg) : NULL;
    c.device = -1;
    BH_PUSH(plan->cases, plan->n, plan->cap, c);
    return &plan->cases[plan->n - 1];
}

/* A plan of four cases: one ok with a summary and a throughput, three
 * that did not end ok. */
static void make_plan(bh_plan *plan, const char *long_id)
{
    bh_case *c;

    memset(plan, 0, sizeof(*plan));
    c = add_case(plan, "fx/ok[n=16]", BH_ST_OK, NULL);
    c->has_summary = 1;
    c->summary.median = 1234.5;
    c->summary.median_ci_lo = 1200;
    c->summary.median_ci_hi = 1300;
    c->summary.n_runs = 3;
    c->summary.between_run_cv = 0.0321;
    c->summary.cv = 0.5;
    c->n_runs = 1;
    c->runs = bh_xcalloc(1, sizeof(bh_run));
    c->runs[0].status = BH_ST_OK;
    c->runs[0].done = 1;
    c->runs[0].result = cJSON_Parse("{\"t\":\"result\",\"status\":\"ok\","
                                    "\"items_per_iter\":1000}");
    add_case(plan, "fx/crash", BH_ST_CRASHED,
             "killed by SIGSEGV (Segmentation fault)");
    add_case(plan, "fx/skip", BH_ST_SKIPPED, "create: not applicable");
    add_case(plan, long_id, BH_ST_FAILED, "setup: setup refused");
}

static char *print_plan(const bh_plan *plan, int color)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    assert_non_null(f);
    bh_console_print(f, plan, color);
    fclose(f);
    return text;
}

/* The line of text that starts with prefix, or NULL (free() it). */
static char *line_starting(const char *text, const char *prefix)
{
    const char *p = text;

    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);

        if (strncmp(p, prefix, strlen(prefix)) == 0)
            return bh_xstrndup(p, n);
        p = nl ? nl + 1 : NULL;
    }
    return NULL;
}

static void assert_has(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle))
        fail_msg("'%s' lacks '%s'", hay ? hay : "(null)", needle);
}

static void test_console_table(void **state)
{
    char long_id[101];
    bh_plan plan;
    char *out;
    char *row;

    (void)state;
    memset(long_id, 'x', 100);
    memcpy(long_id, "fx/long", 7);
    long_id[100] = '\0';
    make_plan(&plan, long_id);
    out = print_plan(&plan, 0);
    assert_null(strchr(out, '\033')); /* no colors when asked not to */

    row = line_starting(out, "case");
    assert_non_null(row);
    assert_has(row, "status");
    assert_has(row, "median");
    assert_has(row, "99% CI");
    assert_has(row, "CV");
    assert_has(row, "throughput");
    free(row);

    row = line_starting(out, "fx/ok[n=16] ");
    assert_non_null(row);
    assert_has(row, " ok ");
    assert_has(row, "1.23 us");
    assert_has(row, "[1.20 us, 1.30 us]");
    assert_has(row, "3.21%"); /* between-run CV when there are runs */
    assert_has(row, "810 Mitems/s");
    free(row);

    row = line_starting(out, "fx/crash ");
    assert_non_null(row);
    assert_has(row, "crashed");
    free(row);
    row = line_starting(out, "fx/skip ");
    assert_non_null(row);
    assert_has(row, "skipped");
    free(row);
    /* an overlong id is cut in the table ... */
    row = line_starting(out, "fx/long");
    assert_non_null(row);
    assert_has(row, "failed");
    assert_null(strstr(row, long_id));
    free(row);

    /* ... and printed whole with the message of every non-ok case */
    assert_has(out, "  fx/crash: crashed: killed by SIGSEGV (Segmentation "
                    "fault)\n");
    assert_has(out, "  fx/skip: skipped: create: not applicable\n");
    assert_has(out, long_id);
    assert_has(out, ": failed: setup: setup refused\n");
    assert_null(strstr(out, "  fx/ok[n=16]: "));

    /* the count line, statuses in their fixed order */
    assert_has(out, "4 cases: 1 ok 1 skipped 1 failed 1 crashed\n");
    free(out);

    out = print_plan(&plan, 1);
    assert_has(out, "\033[32mok");
    assert_has(out, "\033[31mcrashed");
    assert_has(out, "\033[33mskipped");
    free(out);
    bh_plan_free(&plan);
}

static void test_console_single_run_and_empty(void **state)
{
    bh_plan plan;
    bh_case *c;
    char *out;
    char *row;

    (void)state;
    memset(&plan, 0, sizeof(plan));
    out = print_plan(&plan, 0);
    assert_has(out, "0 cases:\n");
    free(out);

    c = add_case(&plan, "fx/one", BH_ST_OK, NULL);
    c->has_summary = 1;
    c->summary.median = 0.5;
    c->summary.median_ci_lo = -INFINITY;
    c->summary.median_ci_hi = INFINITY;
    c->summary.n_runs = 1;
    c->summary.cv = 0.1234;
    c->summary.between_run_cv = NAN;
    out = print_plan(&plan, 0);
    row = line_starting(out, "fx/one ");
    assert_non_null(row);
    assert_has(row, "500 ps");
    assert_has(row, "12.34%"); /* one run: the sample CV */
    assert_null(strstr(row, "inf"));
    assert_null(strstr(row, "nan"));
    free(row);
    assert_has(out, "1 cases: 1 ok\n");
    free(out);
    bh_plan_free(&plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmt_time),
        cmocka_unit_test(test_fmt_rate),
        cmocka_unit_test(test_fmt_pct),
        cmocka_unit_test(test_fmt_rounding_boundaries),
        cmocka_unit_test(test_console_table),
        cmocka_unit_test(test_console_single_run_and_empty),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
