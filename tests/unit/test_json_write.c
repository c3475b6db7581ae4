// SPDX-License-Identifier: MIT
/* Unit tests for host/common's JSON writer (bh_json_write.h): every
 * finite double reads back bit for bit, random and hard cases alike;
 * numbers that are not finite become null; everything that is not a
 * number is written byte for byte as cJSON writes it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_json_write.h"
#include "bh_rng.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---------------------------------------------------------- */

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof(a)) == 0;
}

/* The double a one-element array holding v reads back as, after going
 * through the writer and cJSON_Parse (which reads numbers with strtod). */
static double through_json(double v, int formatted)
{
    cJSON *arr = cJSON_CreateArray();
    char *text;
    cJSON *back;
    double got;

    cJSON_AddItemToArray(arr, cJSON_CreateNumber(v));
    text = formatted ? bh_json_print(arr) : bh_json_print_unformatted(arr);
    assert_non_null(text);
    back = cJSON_Parse(text);
    assert_non_null(back);
    assert_true(cJSON_IsNumber(cJSON_GetArrayItem(back, 0)));
    got = cJSON_GetArrayItem(back, 0)->valuedouble;
    cJSON_Delete(back);
    free(text);
    cJSON_Delete(arr);
    return got;
}

/* Checks that v reads back exactly and that the writer kept the fewest
 * of 15, 16, 17 digits: no smaller precision reads back as v. */
static void check_exact(double v)
{
    char buf[BH_JSON_NUMBER_MAX];
    char shorter[BH_JSON_NUMBER_MAX];
    double back = through_json(v, 0);

    if (!same_bits(back, v))
        fail_msg("%.17g (%a) read back as %.17g (%a)", v, v, back, back);
    bh_json_format_double(v, buf);
    for (int prec = 15; prec < 17; prec++) {
        snprintf(shorter, sizeof(shorter), "%.*g", prec, v);
        if (same_bits(strtod(shorter, NULL), v)) {
            assert_string_equal(buf, shorter);
            break;
        }
    }
}

/* Checks that the writer's text of item equals cJSON's, both layouts. */
static void check_like_cjson(const cJSON *item)
{
    char *ours = bh_json_print(item);
    char *theirs = cJSON_Print(item);

    assert_non_null(ours);
    assert_non_null(theirs);
    assert_string_equal(ours, theirs);
    free(ours);
    cJSON_free(theirs);
    ours = bh_json_print_unformatted(item);
    theirs = cJSON_PrintUnformatted(item);
    assert_string_equal(ours, theirs);
    free(ours);
    cJSON_free(theirs);
}

/* ---- numbers ---------------------------------------------------------- */

/* 100,000 random bit patterns (those that are finite), through the writer
 * and cJSON_Parse, come back as the same bits. */
static void test_random_bits_round_trip(void **state)
{
    bh_rng r;
    int done = 0;

    (void)state;
    bh_rng_seed(&r, 21007);
    while (done < 100000) {
        uint64_t bits = bh_rng_next(&r);
        double v;

        memcpy(&v, &bits, sizeof(v));
        if (!isfinite(v))
            continue;
        check_exact(v);
        done++;
    }
}

/* Doubles that look like measurements (ns per iteration, ratios) round-trip
 * too; they are where cJSON's printer loses bits in practice. */
static void test_random_measurements_round_trip(void **state)
{
    bh_rng r;

    (void)state;
    bh_rng_seed(&r, 7);
    for (int i = 0; i < 20000; i++) {
        double scale = pow(10.0, (double)bh_rng_below(&r, 18) - 6.0);

        check_exact(bh_rng_uniform(&r) * scale);
        check_exact(-bh_rng_uniform(&r) * scale);
    }
}

/* The hard cases: subnormals, the ends of the range, around 2^53. */
static void test_hard_cases(void **state)
{
    const double cases[] = {
        4.9e-324,                /* the smallest subnormal */
        nextafter(DBL_MIN, 0.0), /* the largest subnormal */
        DBL_MIN,
        DBL_MAX,
        nextafter(DBL_MAX, 0.0),
        -DBL_MAX,
        9007199254740992.0, /* 2^53 */
        9007199254740994.0, /* 2^53 + 2 */
        9007199254740991.0, /* 2^53 - 1 */
        0.1,
        0.09820486493006882,
        1.0 / 3.0,
        2.0 / 3.0,
        5e-324 * 3,
        1e23,
        8.41e21,
        5.0e-310,
        1.7976931348623157e308,
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        check_exact(cases[i]);
        check_exact(-cases[i]);
        assert_true(same_bits(through_json(cases[i], 1), cases[i]));
    }
}

/* A number cJSON's own printer gets wrong is written exactly. */
static void test_cjson_loses_what_we_keep(void **state)
{
    char buf[BH_JSON_NUMBER_MAX];

    (void)state;
    assert_string_equal(bh_json_format_double(0.09820486493006882, buf), "0.09820486493006882");
    assert_string_equal(bh_json_format_double(0.1, buf), "0.1");
    assert_string_equal(bh_json_format_double(1.0 / 3.0, buf), "0.3333333333333333");
}

/* 2^53 + 1 as an integer literal reads as 2^53 and is written as a value
 * that reads back as that same double. */
static void test_two_to_53_plus_one(void **state)
{
    cJSON *doc = cJSON_Parse("[9007199254740993]");
    char *text;
    cJSON *again;

    (void)state;
    assert_non_null(doc);
    assert_true(cJSON_GetArrayItem(doc, 0)->valuedouble == 9007199254740992.0);
    text = bh_json_print_unformatted(doc);
    assert_string_equal(text, "[9007199254740992]");
    again = cJSON_Parse(text);
    assert_true(same_bits(cJSON_GetArrayItem(again, 0)->valuedouble, 9007199254740992.0));
    cJSON_Delete(again);
    free(text);
    cJSON_Delete(doc);
}

/* Integers print as integers, as cJSON prints them; so do numbers cJSON
 * already wrote exactly with 15 digits. */
static void test_integers_and_exact_forms_keep_their_text(void **state)
{
    const double same[] = {0,     1,    -1,   42.0, 3000000000.0, 123456789012.0, 1e15,
                           1e300, -7.5, 0.25, 1e-7, 123.456,      4.9e-324};
    char buf[BH_JSON_NUMBER_MAX];
    char theirs[BH_JSON_NUMBER_MAX];

    (void)state;
    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        snprintf(theirs, sizeof(theirs), "%1.15g", same[i]);
        assert_string_equal(bh_json_format_double(same[i], buf), theirs);
    }
    assert_string_equal(bh_json_format_double(42.0, buf), "42");
}

/* -0.0 keeps its sign. */
static void test_negative_zero(void **state)
{
    char buf[BH_JSON_NUMBER_MAX];

    (void)state;
    assert_string_equal(bh_json_format_double(-0.0, buf), "-0");
    assert_true(signbit(through_json(-0.0, 0)));
    assert_false(signbit(through_json(0.0, 0)));
}

/* NaN and the infinities are written as null (docs/results-schema.md). */
static void test_not_finite_is_null(void **state)
{
    cJSON *o = cJSON_CreateObject();
    char *text;
    char buf[BH_JSON_NUMBER_MAX];

    (void)state;
    cJSON_AddNumberToObject(o, "nan", NAN);
    cJSON_AddNumberToObject(o, "inf", INFINITY);
    cJSON_AddNumberToObject(o, "ninf", -INFINITY);
    text = bh_json_print_unformatted(o);
    assert_string_equal(text, "{\"nan\":null,\"inf\":null,\"ninf\":null}");
    free(text);
    assert_string_equal(bh_json_format_double(-NAN, buf), "null");
    cJSON_Delete(o);
}

/* ---- everything else, as cJSON writes it ------------------------------ */

/* Strings with quotes, backslashes, every control character, DEL and
 * UTF-8: the same text as cJSON's, and they read back unchanged. */
static void test_strings_escaped_as_cjson(void **state)
{
    char controls[40];
    const char *strings[] = {
        "",
        "plain",
        "say \"hi\"",
        "back\\slash\\",
        "tab\there\nnew\rret\bbs\fff",
        "del \x7f",
        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe6\x97\xa5\xe6\x9c\xac",
        "\"\\\"\\",
        controls,
    };

    (void)state;
    for (int c = 1; c < 32; c++)
        controls[c - 1] = (char)c;
    controls[31] = '\0';
    for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON *back;
        char *text;

        cJSON_AddStringToObject(o, strings[i], strings[i]);
        check_like_cjson(o);
        text = bh_json_print(o);
        back = cJSON_Parse(text);
        assert_non_null(back);
        assert_string_equal(back->child->string, strings[i]);
        assert_string_equal(back->child->valuestring, strings[i]);
        cJSON_Delete(back);
        free(text);
        cJSON_Delete(o);
    }
}

/* Nesting, empty containers, literals, raw items and numbers cJSON writes
 * exactly come out byte for byte as cJSON_Print / _PrintUnformatted. */
static void test_layout_as_cjson(void **state)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(doc, "arr");
    cJSON *inner = cJSON_CreateObject();
    cJSON *nest;

    (void)state;
    cJSON_AddNumberToObject(doc, "int", 42);
    cJSON_AddNumberToObject(doc, "frac", 0.5);
    cJSON_AddStringToObject(doc, "s", "x");
    cJSON_AddTrueToObject(doc, "t");
    cJSON_AddFalseToObject(doc, "f");
    cJSON_AddNullToObject(doc, "n");
    cJSON_AddRawToObject(doc, "raw", "1.25");
    cJSON_AddObjectToObject(doc, "empty_obj");
    cJSON_AddArrayToObject(doc, "empty_arr");
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(1));
    cJSON_AddItemToArray(arr, cJSON_CreateString("two"));
    cJSON_AddItemToArray(arr, cJSON_CreateObject());
    cJSON_AddItemToArray(arr, cJSON_CreateArray());
    cJSON_AddNumberToObject(inner, "x", -3);
    nest = cJSON_AddObjectToObject(inner, "deeper");
    cJSON_AddItemToObject(nest, "list", cJSON_CreateIntArray((const int[]){1, 2, 3}, 3));
    cJSON_AddItemToArray(arr, inner);
    check_like_cjson(doc);
    check_like_cjson(arr);
    check_like_cjson(inner);
    cJSON_Delete(doc);

    doc = cJSON_CreateObject();
    check_like_cjson(doc);
    cJSON_Delete(doc);
    doc = cJSON_CreateString("top");
    check_like_cjson(doc);
    cJSON_Delete(doc);
}

/* What cJSON cannot print either is refused: NULL, a raw item without
 * text, an item of no type. */
static void test_unprintable_trees(void **state)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *raw = cJSON_CreateRaw("1");
    cJSON bad;

    (void)state;
    assert_null(bh_json_print(NULL));
    cJSON_free(raw->valuestring);
    raw->valuestring = NULL;
    cJSON_AddItemToObject(o, "raw", raw);
    assert_null(bh_json_print(o));
    assert_null(bh_json_print_unformatted(o));
    memset(&bad, 0, sizeof(bad));
    assert_null(bh_json_print(&bad));
    cJSON_Delete(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_bits_round_trip),
        cmocka_unit_test(test_random_measurements_round_trip),
        cmocka_unit_test(test_hard_cases),
        cmocka_unit_test(test_cjson_loses_what_we_keep),
        cmocka_unit_test(test_two_to_53_plus_one),
        cmocka_unit_test(test_integers_and_exact_forms_keep_their_text),
        cmocka_unit_test(test_negative_zero),
        cmocka_unit_test(test_not_finite_is_null),
        cmocka_unit_test(test_strings_escaped_as_cjson),
        cmocka_unit_test(test_layout_as_cjson),
        cmocka_unit_test(test_unprintable_trees),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
