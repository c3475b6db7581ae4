// SPDX-License-Identifier: MIT
/* Unit tests for host/ipc: the line protocol between worker and
 * supervisor. Every malformed stream must be refused with a message naming
 * the 1-based line. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ipc.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Decodes a NUL-free literal stream. */
static cJSON *decode_str(const char *s, bh_error *e)
{
    return bh_ipc_decode(s, strlen(s), e);
}

/* Asserts that decoding buf fails with a message naming `line` and
 * containing `what`. */
static void expect_fail(const char *buf, size_t n, size_t line,
                        const char *what)
{
    bh_error e = {""};
    char want[64];
    cJSON *arr = bh_ipc_decode(buf, n, &e);

    if (arr) {
        char *txt = cJSON_PrintUnformatted(arr);
        char shown[256];

        snprintf(shown, sizeof(shown), "%s", txt ? txt : "?");
        free(txt);
        cJSON_Delete(arr);
        fail_msg("stream was accepted: %s", shown);
    }
    snprintf(want, sizeof(want), "line %zu:", line);
    if (strncmp(e.msg, want, strlen(want)) != 0)
        fail_msg("message '%s' does not start with '%s'", e.msg, want);
    if (!strstr(e.msg, what))
        fail_msg("message '%s' does not mention '%s'", e.msg, what);
}

static void test_send_round_trip(void **state)
{
    int p[2];
    cJSON *hello = cJSON_CreateObject();
    cJSON *logm = cJSON_CreateObject();
    cJSON *arr;
    char buf[4096];
    size_t len = 0;
    ssize_t r;
    int newlines = 0;
    bh_error e = {""};

    (void)state;
    assert_int_equal(pipe(p), 0);
    cJSON_AddStringToObject(hello, "t", "hello");
    cJSON_AddNumberToObject(hello, "pid", 1234);
    cJSON_AddStringToObject(logm, "t", "log");
    cJSON_AddNumberToObject(logm, "level", 2);
    /* a newline inside a string must not break the one-line framing */
    cJSON_AddStringToObject(logm, "msg", "first line\nsecond line\ttab");
    assert_int_equal(bh_ipc_send(p[1], hello, &e), 0);
    assert_int_equal(bh_ipc_send(p[1], logm, &e), 0);
    close(p[1]);
    while ((r = read(p[0], buf + len, sizeof(buf) - 1 - len)) > 0)
        len += (size_t)r;
    close(p[0]);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        newlines += buf[i] == '\n';
    assert_int_equal(newlines, 2);
    assert_int_equal(buf[len - 1], '\n');

    arr = bh_ipc_decode(buf, len, &e);
    assert_non_null(arr);
    assert_int_equal(cJSON_GetArraySize(arr), 2);
    assert_string_equal(bh_ipc_type(cJSON_GetArrayItem(arr, 0)), "hello");
    assert_true(bh_json_num(cJSON_GetArrayItem(arr, 0), "pid", 0) == 1234);
    assert_string_equal(bh_ipc_type(cJSON_GetArrayItem(arr, 1)), "log");
    assert_string_equal(bh_json_str(cJSON_GetArrayItem(arr, 1), "msg", ""),
                        "first line\nsecond line\ttab");
    assert_true(cJSON_Compare(cJSON_GetArrayItem(arr, 0), hello, 1));
    assert_true(cJSON_Compare(cJSON_GetArrayItem(arr, 1), logm, 1));
    cJSON_Delete(arr);
    cJSON_Delete(hello);
    cJSON_Delete(logm);
}

static void test_send_to_closed_pipe(void **state)
{
    int p[2];
    cJSON *m = cJSON_CreateObject();
    bh_error e = {""};
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);

    (void)state;
    assert_int_equal(pipe(p), 0);
    close(p[0]);
    cJSON_AddStringToObject(m, "t", "x");
    assert_int_equal(bh_ipc_send(p[1], m, &e), -1);
    assert_non_null(strstr(e.msg, "cannot write to pipe"));
    close(p[1]);
    cJSON_Delete(m);
    signal(SIGPIPE, old);
}

static void test_decode_good(void **state)
{
    bh_error e = {""};
    cJSON *arr;
    const char *good = "{\"t\":\"hello\",\"pid\":7}\n"
                       "{\"t\":\"timer\",\"resolution_ns\":20,\"overhead_ns\":25.5}\n"
                       "{\"t\":\"sample\",\"iters\":100,\"ns\":12345}\n"
                       "  {\"t\":\"result\",\"status\":\"ok\",\"metrics\":[]}  \n";

    (void)state;
    arr = bh_ipc_decode("", 0, &e); /* an empty stream has no messages */
    assert_non_null(arr);
    assert_int_equal(cJSON_GetArraySize(arr), 0);
    cJSON_Delete(arr);

    arr = decode_str(good, &e);
    assert_non_null(arr);
    assert_int_equal(cJSON_GetArraySize(arr), 4);
    assert_string_equal(bh_ipc_type(cJSON_GetArrayItem(arr, 0)), "hello");
    assert_string_equal(bh_ipc_type(cJSON_GetArrayItem(arr, 1)), "timer");
    assert_true(bh_json_num(cJSON_GetArrayItem(arr, 1), "overhead_ns", 0) ==
                25.5);
    assert_string_equal(bh_ipc_type(cJSON_GetArrayItem(arr, 2)), "sample");
    assert_true(bh_json_num(cJSON_GetArrayItem(arr, 2), "ns", 0) == 12345);
    assert_string_equal(
        bh_json_str(cJSON_GetArrayItem(arr, 3), "status", "?"), "ok");
    cJSON_Delete(arr);
}

static void test_decode_truncated_last_line(void **state)
{
    static const char s[] = "{\"t\":\"hello\"}\n{\"t\":\"result\",\"sta";

    (void)state;
    expect_fail(s, strlen(s), 2, "truncated");
    /* a complete object without its newline is truncated too */
    expect_fail("{\"t\":\"a\"}\n{\"t\":\"b\"}", 19, 2, "truncated");
}

static void test_decode_not_json(void **state)
{
    static const char s[] = "{\"t\":\"hello\"}\n{\"t\":\"a\"}\nhello world\n";

    (void)state;
    expect_fail(s, strlen(s), 3, "not a protocol message");
    expect_fail("\n", 1, 1, "not a protocol message"); /* empty line */
    expect_fail("{\"t\":\"a\"\n", 9, 1, "not a protocol message");
}

static void test_decode_not_object(void **state)
{
    (void)state;
    expect_fail("[1,2,3]\n", 8, 1, "not a protocol message");
    expect_fail("\"t\"\n", 4, 1, "not a protocol message");
    expect_fail("{\"t\":\"a\"}\n42\n", 13, 2, "not a protocol message");
    expect_fail("null\n", 5, 1, "not a protocol message");
}

static void test_decode_missing_t(void **state)
{
    (void)state;
    expect_fail("{\"type\":\"hello\"}\n", 17, 1, "not a protocol message");
    expect_fail("{\"t\":5}\n", 8, 1, "not a protocol message");
    expect_fail("{\"t\":null}\n", 11, 1, "not a protocol message");
    expect_fail("{\"t\":\"a\"}\n{\"T\":\"b\"}\n", 20, 2,
                "not a protocol message");
}

static void test_decode_embedded_nul(void **state)
{
    static const char s[] = "{\"t\":\"a\"}\n{\"t\":\"b\0c\"}\n";

    (void)state;
    expect_fail(s, sizeof(s) - 1, 2, "NUL");
}

/* "Every line must be a JSON object": a line holding an object followed by
 * anything else is not one. */
static void test_decode_trailing_garbage(void **state)
{
    (void)state;
    /* Regression: bh_ipc_decode once parsed with require_null_terminated = 0 and never
     * checks that the parse consumed the whole line, so these lines are
     * accepted as the first object with the rest silently dropped. */
    expect_fail("{\"t\":\"a\"} junk\n", 15, 1, "not a protocol message");
    expect_fail("{\"t\":\"a\"}{\"t\":\"b\"}\n", 19, 1,
                "not a protocol message");
}

static void test_decode_oversize(void **state)
{
    size_t body = BH_IPC_MAX_LINE + 1;
    size_t n = body + 16;
    char *buf = malloc(n + 1);
    bh_error e = {""};
    cJSON *arr;
    size_t pos;

    (void)state;
    assert_non_null(buf);
    /* line 1 is fine, line 2 is one byte over the limit */
    pos = (size_t)sprintf(buf, "{\"t\":\"a\"}\n");
    memset(buf + pos, ' ', body);
    buf[pos] = '{';
    memcpy(buf + pos + body - 8, "\"t\":\"b\"}", 8);
    pos += body;
    buf[pos++] = '\n';
    expect_fail(buf, pos, 2, "too large");

    /* exactly at the limit is accepted */
    pos = 0;
    memset(buf, ' ', BH_IPC_MAX_LINE);
    buf[0] = '{';
    memcpy(buf + BH_IPC_MAX_LINE - 8, "\"t\":\"b\"}", 8);
    buf[BH_IPC_MAX_LINE] = '\n';
    arr = bh_ipc_decode(buf, BH_IPC_MAX_LINE + 1, &e);
    assert_non_null(arr);
    assert_int_equal(cJSON_GetArraySize(arr), 1);
    cJSON_Delete(arr);
    free(buf);

    /* a whole stream over the limit is refused before it is read */
    buf = malloc((size_t)BH_IPC_MAX_STREAM + 1);
    assert_non_null(buf);
    e.msg[0] = '\0';
    assert_null(bh_ipc_decode(buf, (size_t)BH_IPC_MAX_STREAM + 1, &e));
    assert_non_null(strstr(e.msg, "exceeds"));
    free(buf);
}

static void test_json_readers(void **state)
{
    cJSON *o = cJSON_Parse("{\"t\":\"x\",\"n\":2.5,\"s\":\"str\",\"b\":true}");
    cJSON *no_t = cJSON_Parse("{\"n\":1}");

    (void)state;
    assert_non_null(o);
    assert_true(bh_json_num(o, "n", -1) == 2.5);
    assert_true(bh_json_num(o, "s", -1) == -1); /* wrong type: default */
    assert_true(bh_json_num(o, "missing", 9) == 9);
    assert_string_equal(bh_json_str(o, "s", "d"), "str");
    assert_string_equal(bh_json_str(o, "n", "d"), "d");
    assert_null(bh_json_str(o, "missing", NULL));
    assert_string_equal(bh_ipc_type(o), "x");
    assert_string_equal(bh_ipc_type(no_t), "");
    assert_true(bh_json_num(NULL, "n", 3) == 3);
    cJSON_Delete(o);
    cJSON_Delete(no_t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_send_round_trip),
        cmocka_unit_test(test_send_to_closed_pipe),
        cmocka_unit_test(test_decode_good),
        cmocka_unit_test(test_decode_truncated_last_line),
        cmocka_unit_test(test_decode_not_json),
        cmocka_unit_test(test_decode_not_object),
        cmocka_unit_test(test_decode_missing_t),
        cmocka_unit_test(test_decode_embedded_nul),
        cmocka_unit_test(test_decode_trailing_garbage),
        cmocka_unit_test(test_decode_oversize),
        cmocka_unit_test(test_json_readers),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
