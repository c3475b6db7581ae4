// SPDX-License-Identifier: MIT
/* Unit tests for host/report/console_meters.c: the run's one note on the
 * counters and energy meters under the console table, from the records
 * of the cases (docs/measurement.md): said once however many cases carry
 * them, the multiplexed groups said when all else worked, nothing for
 * counters that worked or were switched off; energy domains whose figures
 * were left out counted over every case, with the first one's reason. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "console.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The note printed for a document of n cases, each with the records
 * counters and energy given as JSON text (NULL: no record). */
static char *note(int n, const char *counters, const char *energy)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *cases = cJSON_AddArrayToObject(doc, "cases");
    char *text = NULL;
    size_t len = 0;
    FILE *f;

    for (int i = 0; i < n; i++) {
        cJSON *c = cJSON_CreateObject();

        if (counters)
            cJSON_AddItemToObject(c, "counters", cJSON_Parse(counters));
        if (energy)
            cJSON_AddItemToObject(c, "energy", cJSON_Parse(energy));
        cJSON_AddItemToArray(cases, c);
    }
    f = open_memstream(&text, &len);
    assert_non_null(f);
    bh_report_console_meters(f, doc);
    fclose(f);
    cJSON_Delete(doc);
    return text;
}

static void unsupported_once(void **state)
{
    char *t = note(3,
                   "{\"status\":\"unsupported\",\"reason\":\"perf_event_open: ENOENT (no "
                   "hardware PMU in this VM: the kernel registered no CPU PMU)\","
                   "\"software\":{\"status\":\"ok\"}}",
                   "{\"status\":\"unsupported\",\"reason\":\"no /sys/class/powercap/"
                   "intel-rapl:* (no RAPL in this VM); libnvidia-ml.so.1 not found\"}");

    (void)state;
    assert_string_equal(t, "  counters: unsupported: perf_event_open: ENOENT (no hardware PMU "
                           "in this VM: the kernel registered no CPU PMU); software events "
                           "counted (task-clock, context switches, page faults)\n"
                           "  energy: unsupported: no /sys/class/powercap/intel-rapl:* (no RAPL "
                           "in this VM); libnvidia-ml.so.1 not found\n");
    free(t);
}

static void partial_without_software(void **state)
{
    char *t = note(1,
                   "{\"status\":\"partial\",\"reason\":\"llc_reads: perf_event_open: ENOENT "
                   "(the PMU lacks this event)\",\"software\":{\"status\":\"unsupported\"}}",
                   "{\"status\":\"ok\"}");

    (void)state;
    assert_string_equal(t, "  counters: partial: llc_reads: perf_event_open: ENOENT (the PMU "
                           "lacks this event)\n");
    free(t);
}

static void multiplexed(void **state)
{
    char *t = note(2, "{\"status\":\"ok\",\"multiplexed\":true}", "{\"status\":\"ok\"}");

    (void)state;
    assert_string_equal(t, "  counters: the groups were multiplexed: counts scaled by "
                           "time_enabled / time_running\n");
    free(t);
}

static void quiet_when_fine_or_off(void **state)
{
    char *t = note(2, "{\"status\":\"ok\",\"multiplexed\":false}", "{\"status\":\"ok\"}");

    (void)state;
    assert_string_equal(t, "");
    free(t);
    t = note(1, "{\"status\":\"off\",\"reason\":\"counters: off\"}",
             "{\"status\":\"off\",\"reason\":\"counters: off\"}");
    assert_string_equal(t, "");
    free(t);
    t = note(2, NULL, NULL); /* counted runs (measure: instructions), older results */
    assert_string_equal(t, "");
    free(t);
}

static void energy_left_out(void **state)
{
    char *t = note(2, "{\"status\":\"ok\"}",
                   "{\"status\":\"ok\",\"domains\":[{\"name\":\"package-0\",\"status\":"
                   "\"ok\"},{\"name\":\"gpu-0\",\"status\":\"too_short\",\"reason\":\"24 ms "
                   "over 5 samples is too short\"}]}");

    (void)state;
    assert_string_equal(t, "  energy: 2 of 4 domain figures left out (too short a window or "
                           "implausible); first, ? gpu-0: too_short: 24 ms over 5 samples is "
                           "too short\n");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unsupported_once), cmocka_unit_test(partial_without_software),
        cmocka_unit_test(multiplexed),      cmocka_unit_test(quiet_when_fine_or_off),
        cmocka_unit_test(energy_left_out),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
