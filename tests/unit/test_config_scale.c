// SPDX-License-Identifier: MIT
/* Configs at the size limits (issue 20, row 6): a 100k-value parameter
 * list, configs of about 4 MiB (the file limit) that are too large in one
 * way each, duplicates at the end of long lists and maps. Each is written
 * here, loaded, and checked for its outcome and message. Nothing asserts
 * on time: the point is that these finish (the scans were quadratic). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_mem.h"
#include "bh_strbuf.h"
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Just under the 4 MiB file limit. */
#define NEAR_LIMIT ((4u << 20) - 256)

static char path[] = "/tmp/bh_config_scale_XXXXXX";

/* Writes b to the test's config file (and frees b). */
static void write_config(bh_strbuf *b)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    assert_int_equal(fwrite(b->data, 1, b->len, f), b->len);
    assert_int_equal(fclose(f), 0);
    bh_strbuf_free(b);
}

/* Loads the config file; it must fail with a message that contains want,
 * on one line. */
static void expect_error(const char *want)
{
    bh_error e = {{0}};
    bh_config *c = bh_config_load(path, &e);

    if (c) {
        bh_config_free(c);
        fail_msg("loaded, expected '%s'", want);
    }
    if (!strstr(e.msg, want))
        fail_msg("got '%s', expected '%s'", e.msg, want);
    assert_null(strchr(e.msg, '\n'));
}

/* A suite of selftest/spin whose work list is values from..to-1, then
 * the values of extra (may be ""). */
static void spin_list(bh_strbuf *b, long from, long to, const char *extra)
{
    bh_strbuf_printf(b, "schema: 1\nsuites:\n  - plugin: selftest\n"
                        "    include: [spin]\n    params:\n      work: [");
    for (long i = from; i < to; i++)
        bh_strbuf_printf(b, "%s%ld", i > from ? ", " : "", i);
    bh_strbuf_printf(b, "%s]\n", extra);
}

static int setup(void **state)
{
    int fd = mkstemp(path);

    (void)state;
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

/* 100000 distinct values: the limit, accepted. */
static void test_list_at_limit(void **state)
{
    bh_strbuf b = BH_STRBUF_INIT;
    bh_error e = {{0}};
    bh_config *c;

    (void)state;
    spin_list(&b, 1, 100001, "");
    write_config(&b);
    c = bh_config_load(path, &e);
    if (!c)
        fail_msg("%s", e.msg);
    assert_int_equal(c->n_suites, 1);
    assert_int_equal(bh_suite_n_combos(&c->suites[0]), 100000);
    bh_config_free(c);
}

/* A repeat at the end of the 100000 values is found, at its position. */
static void test_list_repeat_at_end(void **state)
{
    bh_strbuf b = BH_STRBUF_INIT;

    (void)state;
    spin_list(&b, 1, 100000, ", 7");
    write_config(&b);
    expect_error("suites[0].params.work[99999]: value '7' is listed twice");
}

/* About 4 MiB of values (over 480000): refused by the combination limit
 * before the values are scanned. */
static void test_list_of_4mib(void **state)
{
    bh_strbuf b = BH_STRBUF_INIT;
    long n = 1;

    (void)state;
    bh_strbuf_printf(&b, "schema: 1\nsuites:\n  - plugin: selftest\n"
                         "    params:\n      work: [0");
    while (b.len < NEAR_LIMIT)
        bh_strbuf_printf(&b, ", %ld", n++);
    bh_strbuf_printf(&b, "]\n");
    assert_true(n > 480000);
    write_config(&b);
    expect_error("suites[0].params: the parameter lists expand to more than "
                 "100000 combinations");
}

/* Suites that are each small but together too many. */
static void test_suites_together(void **state)
{
    bh_strbuf b = BH_STRBUF_INIT;

    (void)state;
    bh_strbuf_printf(&b, "schema: 1\nsuites:\n");
    for (int i = 0; i < 3; i++) {
        bh_strbuf_printf(&b, "  - plugin: selftest\n    params:\n      work: [");
        for (long v = 1; v <= 40000; v++)
            bh_strbuf_printf(&b, "%s%ld", v > 1 ? ", " : "", v);
        bh_strbuf_printf(&b, "]\n");
    }
    write_config(&b);
    expect_error("suites[2].params: the parameter lists of all suites together "
                 "expand to more than 100000 combinations");
    b = (bh_strbuf)BH_STRBUF_INIT;
    bh_strbuf_printf(&b, "schema: 1\nsuites:\n");
    while (b.len < NEAR_LIMIT)
        bh_strbuf_printf(&b, "  - plugin: selftest\n");
    write_config(&b);
    expect_error("suites[100000]: the suites together expand to more than "
                 "100000 parameter combinations");
}

/* About 4 MiB of map keys with the first one repeated at the end. */
static void test_map_repeat_at_end(void **state)
{
    bh_strbuf b = BH_STRBUF_INIT;
    long n = 0;
    char want[128];

    (void)state;
    bh_strbuf_printf(&b, "schema: 1\nsuites: []\nregression:\n  metrics:\n");
    while (b.len < NEAR_LIMIT - 64)
        bh_strbuf_printf(&b, "    m%ld: {direction: lower}\n", n++);
    bh_strbuf_printf(&b, "    m0: {direction: higher}\n");
    write_config(&b);
    snprintf(want, sizeof(want), ":%ld:5: duplicate key 'm0' (first defined at line 5, column 5)",
             n + 5);
    expect_error(want);
}

/* Names that each make the host look up a plugin, and a long device
 * list: bounded before the plan. */
static void test_name_limits(void **state)
{
    bh_strbuf b = BH_STRBUF_INIT;

    (void)state;
    bh_strbuf_printf(&b, "schema: 1\nsuites:\n");
    for (int i = 0; i < 300; i++)
        bh_strbuf_printf(&b, "  - plugin: p%d\n", i);
    write_config(&b);
    expect_error("suites[256].plugin: the config names more than 256 different plugins");
    b = (bh_strbuf)BH_STRBUF_INIT;
    bh_strbuf_printf(&b, "schema: 1\nsuites:\n  - plugin: selftest\n    backends: [b0");
    for (int i = 1; b.len < NEAR_LIMIT; i++)
        bh_strbuf_printf(&b, ", b%d", i);
    bh_strbuf_printf(&b, "]\n");
    write_config(&b);
    expect_error("suites[0].backends[256]: the config names more than 256 different backends");
    b = (bh_strbuf)BH_STRBUF_INIT;
    bh_strbuf_printf(&b, "schema: 1\nbackends:\n");
    for (int i = 0; b.len < NEAR_LIMIT - 16; i++)
        bh_strbuf_printf(&b, "  b%d: {}\n", i);
    bh_strbuf_printf(&b, "suites: []\n");
    write_config(&b);
    expect_error("backends: more than 256 backends");
    b = (bh_strbuf)BH_STRBUF_INIT;
    bh_strbuf_printf(&b, "schema: 1\nbackends:\n  cpu:\n    devices: [0");
    for (int i = 1; b.len < NEAR_LIMIT; i++)
        bh_strbuf_printf(&b, ", %d", i);
    bh_strbuf_printf(&b, "]\nsuites: []\n");
    write_config(&b);
    expect_error("backends.cpu.devices: more than 1024 device indices");
    b = (bh_strbuf)BH_STRBUF_INIT;
    bh_strbuf_printf(&b, "schema: 1\nplugin_path: [d0");
    for (int i = 1; i < 100000; i++)
        bh_strbuf_printf(&b, ", d%d", i);
    bh_strbuf_printf(&b, "]\nsuites: []\n");
    write_config(&b);
    expect_error("plugin_path: more than 64 directories");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_at_limit),     cmocka_unit_test(test_list_repeat_at_end),
        cmocka_unit_test(test_list_of_4mib),      cmocka_unit_test(test_suites_together),
        cmocka_unit_test(test_map_repeat_at_end), cmocka_unit_test(test_name_limits),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
