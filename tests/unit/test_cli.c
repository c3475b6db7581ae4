// SPDX-License-Identifier: MIT
/* Unit tests for host/cli: strict parsing of numeric option values. The
 * commands themselves are exercised through the real binary in
 * tests/integration. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_args.h"

#include <stdio.h>
#include <string.h>

/* bh_cli_error lives in main.c, which is not part of the library: this
 * stand-in records the last message instead of printing it. */
static char last_error[512];

void bh_cli_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(last_error, sizeof(last_error), fmt, ap);
    va_end(ap);
}

static void expect_ok(const char *text, uint64_t min, uint64_t max,
                      uint64_t want)
{
    uint64_t v = 0;

    last_error[0] = '\0';
    if (bh_arg_u64("--opt", text, min, max, &v) != 0)
        fail_msg("'%s' refused: %s", text, last_error);
    if (v != want)
        fail_msg("'%s' parsed as %llu, expected %llu", text,
                 (unsigned long long)v, (unsigned long long)want);
    assert_string_equal(last_error, "");
}

static void expect_refused(const char *text, uint64_t min, uint64_t max)
{
    uint64_t v = 777;

    last_error[0] = '\0';
    if (bh_arg_u64("--opt", text, min, max, &v) != -1)
        fail_msg("'%s' accepted as %llu", text ? text : "(null)",
                 (unsigned long long)v);
    assert_true(v == 777); /* untouched */
    assert_non_null(strstr(last_error, "--opt expects an integer from"));
}

static void test_arg_u64_accepts(void **state)
{
    (void)state;
    expect_ok("42", 0, UINT64_MAX, 42);
    expect_ok("0", 0, 10, 0);
    expect_ok("10000", 1, 10000, 10000);
    expect_ok("0x10", 0, UINT64_MAX, 16);
    expect_ok("0xFFFFFFFFFFFFFFFF", 0, UINT64_MAX, UINT64_MAX);
    expect_ok("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
}

static void test_arg_u64_refuses(void **state)
{
    (void)state;
    expect_refused("abc", 1, 10000);
    assert_non_null(strstr(last_error, "from 1 to 10000, got 'abc'"));
    expect_refused("", 1, 10000);
    expect_refused(NULL, 1, 10000);
    expect_refused("-1", 0, UINT64_MAX);
    expect_refused("0", 1, 10000);
    expect_refused("10001", 1, 10000);
    expect_refused("12abc", 1, 10000);
    expect_refused("1.5", 1, 10000);
    expect_refused("18446744073709551616", 0, UINT64_MAX);
    expect_refused("0x", 0, UINT64_MAX);
}

/* The header promises "a decimal or 0x-hex unsigned integer". */
static void test_arg_u64_leading_zero_is_decimal(void **state)
{
    (void)state;
    /* Regression: bh_arg_u64 once used strtoull(text, &end, 0), so a leading zero
     * means octal: "--seed 010" records seed 8 and "--runs 09" is refused
     * ("got '09'"). */
    expect_ok("010", 0, UINT64_MAX, 10);
    expect_ok("09", 0, UINT64_MAX, 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arg_u64_accepts),
        cmocka_unit_test(test_arg_u64_refuses),
        cmocka_unit_test(test_arg_u64_leading_zero_is_decimal),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
