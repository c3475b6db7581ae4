// SPDX-License-Identifier: MIT
/* SIMD speedup of vector variants over their scalar twins
 * (host/results/variant_speedup.c). */
#include "variant_speedup.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#define C(id, status, median)                                                                     \
    "{\"id\":\"" id "\",\"status\":\"" status "\",\"summary\":{\"median\":" #median "},"          \
    "\"metrics\":{}}"

/* The speedup is the scalar time over the vector time of the same
 * parameters; a twin that failed, a differing parameter or a scalar case
 * gets none. */
static void test_speedup(void **state)
{
    cJSON *doc = cJSON_Parse(
        "{\"cases\":[" C("t/ew.add[n=8,variant=scalar,threads=1]", "ok", 400) ","
        C("t/ew.add[n=8,variant=vector,threads=1]", "ok", 100) ","
        C("t/ew.mul[variant=scalar]", "failed", 400) "," C("t/ew.mul[variant=vector]", "ok", 100) ","
        C("t/ew.exp[n=9,variant=vector]", "ok", 100) "," C("t/ew.exp[n=8,variant=scalar]", "ok", 100) ","
        C("t/x[myvariant=vector]", "ok", 1) "," C("t/x[myvariant=scalar]", "ok", 2) "]}");
    const cJSON *c, *m;

    (void)state;
    assert_non_null(doc);
    assert_int_equal(bh_variant_speedup_apply(doc), 1);
    c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "cases"), 1);
    m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "metrics"),
                                         BH_SIMD_SPEEDUP);
    assert_non_null(m);
    assert_true(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "values"), 0)
                    ->valuedouble == 4.0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(m, "kind")->valuestring,
                        "informational");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(c, "speedup_over")->valuestring,
                        "t/ew.add[n=8,variant=scalar,threads=1]");
    /* applied again (a merge), nothing is added twice */
    assert_int_equal(bh_variant_speedup_apply(doc), 0);
    cJSON_Delete(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_speedup)};

    return cmocka_run_group_tests(tests, NULL, NULL);
}
