// SPDX-License-Identifier: MIT
/* Unit tests for host/supervisor/callgrind_out.c (the totals of a
 * callgrind output file) and callgrind_run.c's metrics: a real file
 * written by valgrind, parts, trailing zeros left out, and malformed
 * files, each refused with the file, the line and what was expected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_fs.h"
#include "bh_mem.h"
#include "callgrind_out.h"
#include "callgrind_run.h"
#include "ipc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses text; returns the rc and leaves the message in e. */
static int parse(const char *text, bh_callgrind_counts *c, bh_error *e)
{
    e->msg[0] = '\0';
    return bh_callgrind_parse(text, strlen(text), "cg.out", c, e);
}

/* A failure unless text is refused with exactly want. */
static void expect_error(const char *text, const char *want)
{
    bh_callgrind_counts c;
    bh_error e;

    if (parse(text, &c, &e) == 0)
        fail_msg("accepted, expected the error '%s'", want);
    assert_string_equal(e.msg, want);
}

static void test_real_file(void **state)
{
    const char *dir = getenv("BHOST_TEST_DATA");
    char *path = bh_xasprintf("%s/callgrind/real.out", dir ? dir : ".");
    char *text = NULL;
    size_t len = 0;
    bh_error e = {""};
    bh_callgrind_counts c;

    (void)state;
    if (bh_read_file(path, 1 << 20, &text, &len, &e) != 0)
        fail_msg("%s", e.msg);
    assert_int_equal(bh_callgrind_parse(text, len, path, &c, &e), 0);
    /* summary: 1100014 0 8 2 0 0 2 over Ir Dr Dw I1mr D1mr D1mw ILmr DLmr
       DLmw: the summary wins over the totals: line of the same part. */
    assert_int_equal(c.ir, 1100014);
    assert_true(c.has_cache);
    assert_int_equal(c.l1_misses, 2);
    assert_int_equal(c.ll_misses, 2);
    assert_int_equal(c.parts, 1);
    free(text);
    free(path);
}

static void test_parts_and_totals(void **state)
{
    bh_callgrind_counts c;
    bh_error e;

    (void)state;
    /* No cache simulation; a part with totals only; two parts summed. */
    assert_int_equal(parse("version: 1\nevents: Ir\npart: 1\nsummary: 100\n"
                           "part: 2\n0 5\ntotals: 250\n",
                           &c, &e),
                     0);
    assert_int_equal(c.ir, 350);
    assert_false(c.has_cache);
    assert_int_equal(c.parts, 2);
    /* Trailing zeros left out, CRLF line ends, a repeated events line. */
    assert_int_equal(parse("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\r\n"
                           "summary: 7 1 1 0 3\r\npart: 2\r\n"
                           "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\r\n"
                           "totals: 3 0 0 1 0 1 0 0 4\r\n",
                           &c, &e),
                     0);
    assert_int_equal(c.ir, 10);
    assert_int_equal(c.l1_misses, 5);
    assert_int_equal(c.ll_misses, 4);
    /* The largest count. */
    assert_int_equal(parse("events: Ir\nsummary: 18446744073709551615\n", &c, &e), 0);
    assert_true(c.ir == UINT64_MAX);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_error("", "cg.out: no 'events:' line (not a callgrind output file?)");
    expect_error("hello\nworld\n", "cg.out: no 'events:' line (not a callgrind output file?)");
    expect_error("version: 2\nevents: Ir\nsummary: 1\n", "cg.out:1: version: expected 1, got '2'");
    expect_error("events: Ir\n",
                 "cg.out: no 'summary:' or 'totals:' line (the worker ended before callgrind "
                 "wrote its totals?)");
    expect_error("summary: 5\nevents: Ir\n", "cg.out:1: 'summary:' before the 'events:' line");
    expect_error("events: Dr Dw\nsummary: 1 2\n",
                 "cg.out:1: events: expected Ir among the events (instructions were not "
                 "counted)");
    expect_error("events: Ir Ir\nsummary: 1\n", "cg.out:1: events: 'Ir' named twice");
    expect_error("events: Ir\nsummary: 1 2\n", "cg.out:2: summary: more values than the 1 events");
    expect_error("events: Ir Dr\n\ntotals: 12 x3\n",
                 "cg.out:3: totals: value 2 ('x3') is not a decimal integer below 2^64");
    expect_error("events: Ir\nsummary: -4\n",
                 "cg.out:2: summary: value 1 ('-4') is not a decimal integer below 2^64");
    expect_error("events: Ir\nsummary: 18446744073709551616\n",
                 "cg.out:2: summary: value 1 ('18446744073709551616') is not a decimal "
                 "integer below 2^64");
    expect_error("events: Ir\nsummary: 18446744073709551615\npart: 2\nsummary: 1\n",
                 "cg.out: the Ir totals of its parts overflow 2^64");
    expect_error("events: Ir\nsummary: 1\npart: 2\nevents: Ir Dr\n",
                 "cg.out:4: events: differs from the events of line 1");
    expect_error("events: Ir I1mr D1mr\nsummary: 1 2 3\n",
                 "cg.out: events: expected all of I1mr D1mr D1mw ILmr DLmr DLmw (callgrind's "
                 "--cache-sim=yes) or none, got 2 of them");
}

/* The metrics a counting run adds to a worker's result message. */
static void test_metrics(void **state)
{
    bh_callgrind_counts c = {.ir = 3000, .has_cache = 1, .l1_misses = 30, .ll_misses = 6};
    cJSON *res = cJSON_Parse("{\"metrics\":[{\"name\":\"instructions\",\"value\":1},"
                             "{\"name\":\"x\",\"value\":2}]}");
    const cJSON *m;
    int seen = 0;

    (void)state;
    bh_cg_add_metrics(res, &c, 100);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(res, "metrics")), 4);
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(res, "metrics")) {
        const char *name = bh_json_str(m, "name", "");

        if (strcmp(name, "instructions") == 0) {
            assert_true(bh_json_num(m, "value", 0) == 30.0);
            assert_string_equal(bh_json_str(m, "unit", ""), "instructions/iter");
            assert_string_equal(bh_json_str(m, "direction", ""), "lower");
            seen |= 1;
        } else if (strcmp(name, "l1_misses") == 0) {
            assert_true(bh_json_num(m, "value", 0) == 0.3);
            seen |= 2;
        } else if (strcmp(name, "ll_misses") == 0) {
            assert_true(bh_json_num(m, "value", 0) == 0.06);
            seen |= 4;
        }
    }
    assert_int_equal(seen, 7);
    cJSON_Delete(res);
    /* No cache simulation: instructions only, into a new array. */
    res = cJSON_CreateObject();
    c.has_cache = 0;
    bh_cg_add_metrics(res, &c, 10);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(res, "metrics")), 1);
    cJSON_Delete(res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_file),
        cmocka_unit_test(test_parts_and_totals),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_metrics),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
