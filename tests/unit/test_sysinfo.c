// SPDX-License-Identifier: MIT
/* Unit tests for host/sysinfo: fingerprint shape, hash stability and
 * sensitivity, diff, and CPU pinning (binding is tested in forked children
 * so this process keeps its affinity). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sysinfo.h"

#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The member key of obj, failing the test when it is absent. */
static cJSON *member(const cJSON *obj, const char *key)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    if (!v)
        fail_msg("missing key \"%s\"", key);
    return v;
}

static void assert_string_member(const cJSON *obj, const char *key)
{
    assert_true(cJSON_IsString(member(obj, key)));
}

static void assert_string_or_null(const cJSON *obj, const char *key)
{
    cJSON *v = member(obj, key);

    assert_true(cJSON_IsString(v) || cJSON_IsNull(v));
}

static void assert_number_or_null(const cJSON *obj, const char *key)
{
    cJSON *v = member(obj, key);

    assert_true(cJSON_IsNumber(v) || cJSON_IsNull(v));
}

static double number_member(const cJSON *obj, const char *key)
{
    cJSON *v = member(obj, key);

    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static bool is_hex64(const char *s)
{
    if (strlen(s) != 64)
        return false;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return false;
    return true;
}

static void test_collect_shape(void **state)
{
    cJSON *fp = bh_sysinfo_collect();
    cJSON *os, *cpu, *flags, *caches, *mem, *freq, *kernel, *la, *c;
    char hex[65];

    (void)state;
    assert_non_null(fp);
    assert_string_or_null(fp, "hostname");

    os = member(fp, "os");
    assert_true(cJSON_IsObject(os));
    assert_string_member(os, "sysname");
    assert_string_member(os, "release");
    assert_string_member(os, "version");
    assert_string_member(os, "machine");

    cpu = member(fp, "cpu");
    assert_true(cJSON_IsObject(cpu));
    assert_string_member(cpu, "model");
    assert_true(strlen(member(cpu, "model")->valuestring) > 0);
    assert_string_or_null(cpu, "vendor");
    assert_number_or_null(cpu, "family");
    assert_number_or_null(cpu, "model_number");
    assert_number_or_null(cpu, "stepping");
    double logical = number_member(cpu, "logical_cores");
    double physical = number_member(cpu, "physical_cores");
    assert_true(logical >= 1);
    assert_true(physical >= 1 && physical <= logical);
    assert_true(number_member(cpu, "sockets") >= 1);
    assert_true(number_member(cpu, "numa_nodes") >= 1);
    assert_true(cJSON_IsBool(member(cpu, "smt")));
    assert_int_equal(cJSON_IsTrue(member(cpu, "smt")), physical < logical);
    flags = member(cpu, "flags");
    assert_true(cJSON_IsObject(flags));
    const char *flag_names[] = {"avx2", "avx512f", "avx512_bf16", "avx512_vnni", "amx"};
    for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
        cJSON *f = member(flags, flag_names[i]);

        assert_true(cJSON_IsBool(f) || cJSON_IsNull(f));
    }

    caches = member(fp, "caches");
    assert_true(cJSON_IsArray(caches));
    assert_true(cJSON_GetArraySize(caches) > 0);
    int have_data = 0;
    cJSON_ArrayForEach(c, caches) {
        const char *t = member(c, "type")->valuestring;

        assert_true(number_member(c, "level") >= 1);
        assert_non_null(t);
        assert_true(strcmp(t, "data") == 0 || strcmp(t, "instruction") == 0 ||
                    strcmp(t, "unified") == 0);
        assert_true(number_member(c, "size_bytes") > 0);
        assert_true(number_member(c, "line_bytes") >= 0);
        assert_true(number_member(c, "count") >= 1);
        have_data |= strcmp(t, "data") == 0 || strcmp(t, "unified") == 0;
    }
    assert_true(have_data);

    mem = member(fp, "memory");
    assert_true(number_member(mem, "total_bytes") > 0);
    assert_true(cJSON_IsArray(member(mem, "numa")));
    cJSON_ArrayForEach(c, member(mem, "numa")) {
        assert_true(number_member(c, "node") >= 0);
        assert_true(number_member(c, "bytes") >= 0);
    }

    freq = member(fp, "frequency");
    assert_string_member(freq, "governor");
    assert_true(strlen(member(freq, "governor")->valuestring) > 0);
    assert_string_or_null(freq, "driver");
    assert_true(cJSON_IsBool(member(freq, "boost")) || cJSON_IsNull(member(freq, "boost")));
    assert_number_or_null(freq, "min_khz");
    assert_number_or_null(freq, "max_khz");

    kernel = member(fp, "kernel");
    assert_number_or_null(kernel, "aslr");
    assert_string_or_null(kernel, "isolated_cpus");
    assert_string_or_null(kernel, "nohz_full");
    assert_number_or_null(kernel, "perf_event_paranoid");

    assert_string_member(fp, "virtualization");
    la = member(fp, "load_average");
    assert_true(cJSON_IsNull(la) || (cJSON_IsArray(la) && cJSON_GetArraySize(la) == 3));
    assert_string_member(fp, "compiler");
    assert_string_member(fp, "libc");
    assert_string_member(fp, "hwloc_version");
    assert_int_equal(strncmp(member(fp, "hwloc_version")->valuestring, "2.", 2), 0);
    assert_string_member(fp, "hwloc_api_version");
    assert_int_equal(strncmp(member(fp, "hwloc_api_version")->valuestring, "2.", 2), 0);
    const char *perf = member(fp, "perf_counters")->valuestring;
    assert_non_null(perf);
    assert_true(strcmp(perf, "supported") == 0 || strcmp(perf, "unsupported") == 0);

    assert_string_member(fp, "fingerprint_hash");
    assert_true(is_hex64(member(fp, "fingerprint_hash")->valuestring));
    bh_sysinfo_hash(fp, hex);
    assert_string_equal(hex, member(fp, "fingerprint_hash")->valuestring);
    cJSON_Delete(fp);
}

/* Rehashes fp after setting section.key (section NULL: top level) to v. */
static void set_field(cJSON *fp, const char *section, const char *key, cJSON *v)
{
    cJSON *parent = section ? member(fp, section) : fp;

    assert_true(cJSON_ReplaceItemInObjectCaseSensitive(parent, key, v));
}

static void test_hash_stable_and_sensitive(void **state)
{
    cJSON *a = bh_sysinfo_collect();
    cJSON *b = bh_sysinfo_collect();
    cJSON *c;
    char ha[65], hb[65], hc[65];

    (void)state;
    assert_non_null(a);
    assert_non_null(b);
    bh_sysinfo_hash(a, ha);
    bh_sysinfo_hash(b, hb);
    assert_string_equal(ha, hb);
    assert_string_equal(member(a, "fingerprint_hash")->valuestring,
                        member(b, "fingerprint_hash")->valuestring);

    /* Fields outside the comparability set do not move the hash. */
    c = cJSON_Duplicate(a, 1);
    set_field(c, NULL, "hostname", cJSON_CreateString("elsewhere"));
    set_field(c, NULL, "load_average", cJSON_CreateNull());
    set_field(c, "os", "version", cJSON_CreateString("#2 other build"));
    bh_sysinfo_hash(c, hc);
    assert_string_equal(ha, hc);
    cJSON_Delete(c);

    /* Each comparability field does. */
    struct {
        const char *section, *key;
    } comp[] = {{"cpu", "model"},      {"cpu", "logical_cores"}, {"cpu", "physical_cores"},
                {"cpu", "sockets"},    {"cpu", "numa_nodes"},    {"cpu", "smt"},
                {"memory", "total_bytes"}, {"os", "release"},    {"frequency", "governor"},
                {NULL, "compiler"},    {NULL, "caches"}};
    for (size_t i = 0; i < sizeof(comp) / sizeof(comp[0]); i++) {
        c = cJSON_Duplicate(a, 1);
        set_field(c, comp[i].section, comp[i].key, cJSON_CreateString("changed"));
        bh_sysinfo_hash(c, hc);
        if (strcmp(ha, hc) == 0)
            fail_msg("hash ignores %s.%s", comp[i].section ? comp[i].section : "",
                     comp[i].key);
        cJSON_Delete(c);
    }

    /* A change inside a cache entry counts too. */
    c = cJSON_Duplicate(a, 1);
    cJSON *first = cJSON_GetArrayItem(member(c, "caches"), 0);
    set_field(first, NULL, "size_bytes",
              cJSON_CreateNumber(number_member(first, "size_bytes") * 2));
    bh_sysinfo_hash(c, hc);
    assert_string_not_equal(ha, hc);
    cJSON_Delete(c);

    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void test_diff(void **state)
{
    cJSON *a = bh_sysinfo_collect();
    cJSON *b = cJSON_Duplicate(a, 1);
    char expect[2048];
    char *d;

    (void)state;
    assert_null(bh_sysinfo_diff(a, b));

    set_field(b, NULL, "hostname", cJSON_CreateString("elsewhere"));
    set_field(b, "kernel", "aslr", cJSON_CreateNumber(0));
    assert_null(bh_sysinfo_diff(a, b));

    set_field(b, "cpu", "model", cJSON_CreateString("Test CPU 9000"));
    set_field(b, "os", "release", cJSON_CreateString("0.0-test"));
    d = bh_sysinfo_diff(a, b);
    assert_non_null(d);
    snprintf(expect, sizeof(expect), "cpu.model: %s != Test CPU 9000; os.release: %s != 0.0-test",
             member(member(a, "cpu"), "model")->valuestring,
             member(member(a, "os"), "release")->valuestring);
    assert_string_equal(d, expect);
    free(d);

    /* A missing field reads as null; a non-object reads as all null. */
    cJSON_Delete(b);
    b = cJSON_Duplicate(a, 1);
    cJSON_DeleteItemFromObjectCaseSensitive(member(b, "cpu"), "sockets");
    d = bh_sysinfo_diff(a, b);
    snprintf(expect, sizeof(expect), "cpu.sockets: %.0f != null",
             number_member(member(a, "cpu"), "sockets"));
    assert_string_equal(d, expect);
    free(d);

    /* Caches are summarised, not dumped. */
    cJSON *first = cJSON_GetArrayItem(member(b, "caches"), 0);
    set_field(first, NULL, "count", cJSON_CreateNumber(number_member(first, "count") + 1));
    d = bh_sysinfo_diff(a, b);
    assert_non_null(d);
    assert_non_null(strstr(d, "caches: L1"));
    assert_null(strstr(d, "size_bytes"));
    free(d);

    d = bh_sysinfo_diff(a, NULL);
    assert_non_null(d);
    assert_non_null(strstr(d, "cpu.model: "));
    free(d);

    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void test_hash_known_document(void **state)
{
    /* The canonical text of a fixed document is independent of key order
     * and of the machine; the hash is pinned so a format change is noticed. */
    const char *doc1 = "{\"os\":{\"release\":\"6.1.0\"},\"compiler\":\"gcc 12\","
                       "\"cpu\":{\"model\":\"X\",\"logical_cores\":4,\"physical_cores\":2,"
                       "\"sockets\":1,\"numa_nodes\":1,\"smt\":true},"
                       "\"caches\":[{\"level\":1,\"type\":\"data\",\"size_bytes\":32768,"
                       "\"line_bytes\":64,\"count\":2}],"
                       "\"memory\":{\"total_bytes\":17179869184},"
                       "\"frequency\":{\"governor\":\"performance\"}}";
    const char *doc2 = "{\"frequency\":{\"governor\":\"performance\"},"
                       "\"memory\":{\"total_bytes\":17179869184},"
                       "\"caches\":[{\"count\":2,\"line_bytes\":64,\"size_bytes\":32768,"
                       "\"type\":\"data\",\"level\":1}],\"hostname\":\"h\","
                       "\"cpu\":{\"smt\":true,\"numa_nodes\":1,\"sockets\":1,"
                       "\"physical_cores\":2,\"logical_cores\":4,\"model\":\"X\"},"
                       "\"compiler\":\"gcc 12\",\"os\":{\"release\":\"6.1.0\"}}";
    cJSON *a = cJSON_Parse(doc1);
    cJSON *b = cJSON_Parse(doc2);
    char ha[65], hb[65], hn[65];

    (void)state;
    assert_non_null(a);
    assert_non_null(b);
    bh_sysinfo_hash(a, ha);
    bh_sysinfo_hash(b, hb);
    assert_string_equal(ha, hb);
    assert_null(bh_sysinfo_diff(a, b));
    bh_sysinfo_hash(NULL, hn);
    assert_true(is_hex64(hn));
    assert_string_not_equal(ha, hn);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void test_pin_none_is_noop(void **state)
{
    cpu_set_t before, after;
    bh_error e = {""};

    (void)state;
    assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
    assert_int_equal(bh_sysinfo_pin("none", &e), 0);
    assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
    assert_true(CPU_EQUAL(&before, &after));
    assert_int_equal(bh_sysinfo_pin_check("none", &e), 0);
    char *list = bh_sysinfo_pin_resolve("none", &e);
    assert_string_equal(list, "");
    free(list);
}

/* In a forked child: pins to spec, then exits 0 when the affinity is exactly
 * the single CPU want (or any single CPU when want < 0) and the fingerprint
 * hash is still parent_hash; a distinct status per failure otherwise. */
static int pin_in_child(const char *spec, int want, const char *parent_hash)
{
    pid_t pid = fork();
    int status = 0;

    assert_true(pid >= 0);
    if (pid == 0) {
        bh_error e = {""};
        cpu_set_t set;
        cJSON *fp;
        int rc = 0;

        if (bh_sysinfo_pin(spec, &e) != 0) {
            fprintf(stderr, "pin failed: %s\n", e.msg);
            _exit(10);
        }
        if (sched_getaffinity(0, sizeof(set), &set) != 0)
            _exit(11);
        if (CPU_COUNT(&set) != 1)
            _exit(12);
        if (want >= 0 && !CPU_ISSET(want, &set))
            _exit(13);
        fp = bh_sysinfo_collect();
        if (!fp || strcmp(cJSON_GetObjectItem(fp, "fingerprint_hash")->valuestring,
                          parent_hash) != 0)
            rc = 14; /* pinning must not change what the machine looks like */
        cJSON_Delete(fp);
        _exit(rc);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void test_pin_zero_binds_pu0(void **state)
{
    cJSON *fp = bh_sysinfo_collect();
    cpu_set_t mine;

    (void)state;
    assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
    if (!CPU_ISSET(0, &mine)) {
        cJSON_Delete(fp);
        skip(); /* CPU 0 is not ours to use here */
    }
    assert_int_equal(pin_in_child("0", 0, member(fp, "fingerprint_hash")->valuestring), 0);
    cJSON_Delete(fp);
}

static void test_pin_auto_binds_one_cpu(void **state)
{
    cJSON *fp = bh_sysinfo_collect();
    bh_error e = {""};
    char *list = bh_sysinfo_pin_resolve("auto", &e);
    char *again = bh_sysinfo_pin_resolve("auto", &e);
    int want;

    (void)state;
    assert_non_null(list);
    assert_non_null(again);
    assert_string_equal(list, again); /* deterministic */
    want = atoi(list);
    assert_non_null(strchr("0123456789", list[0]));
    assert_null(strchr(list, ','));
    if (number_member(member(fp, "cpu"), "physical_cores") > 1)
        assert_int_not_equal(want, 0); /* stays off core 0 */
    assert_int_equal(bh_sysinfo_pin_check("auto", &e), 0);
    assert_int_equal(pin_in_child("auto", want, member(fp, "fingerprint_hash")->valuestring), 0);
    free(list);
    free(again);
    cJSON_Delete(fp);
}

/* Asserts pin_check(spec) fails with a message containing needle, and that
 * pin(spec) fails the same way without binding anything. */
static void expect_rejected(const char *spec, const char *needle)
{
    bh_error e = {""};
    cpu_set_t before, after;

    assert_int_equal(bh_sysinfo_pin_check(spec, &e), -1);
    if (!strstr(e.msg, needle))
        fail_msg("pin_check(\"%s\"): message \"%s\" lacks \"%s\"", spec ? spec : "(null)",
                 e.msg, needle);
    assert_null(strchr(e.msg, '\n'));
    assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
    e.msg[0] = '\0';
    assert_int_equal(bh_sysinfo_pin(spec, &e), -1);
    assert_non_null(strstr(e.msg, needle));
    assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
    assert_true(CPU_EQUAL(&before, &after));
}

static void test_pin_check_rejects(void **state)
{
    (void)state;
    expect_rejected("abc", "pin \"abc\": \"abc\" is not a CPU number or range");
    expect_rejected("5-2", "range 5-2 is reversed");
    expect_rejected("9999", "CPU 9999 does not exist or is not usable");
    expect_rejected("9999", "usable CPUs: 0");
    expect_rejected("0-99999999999999999999999", "does not exist");
    expect_rejected("", "pin spec is empty");
    expect_rejected("  ", "pin spec is empty");
    expect_rejected("0,,0", "empty element");
    expect_rejected("0,", "empty element");
    expect_rejected("-1", "\"-1\" is not a CPU number or range");
    expect_rejected("1-", "\"1-\" is not a CPU number or range");
    expect_rejected("0x1", "\"0x1\" is not a CPU number");
    expect_rejected("0 1", "\"0 1\" is not a CPU number");
    expect_rejected("Auto", "is not a CPU number");
    expect_rejected(NULL, "pin spec is missing");
}

static void test_pin_check_accepts(void **state)
{
    bh_error e = {""};
    char *list;

    (void)state;
    assert_int_equal(bh_sysinfo_pin_check("0", &e), 0);
    assert_int_equal(bh_sysinfo_pin_check("0-0", &e), 0);
    assert_int_equal(bh_sysinfo_pin_check(" 0 , 0 - 0 ", &e), 0);
    list = bh_sysinfo_pin_resolve("0,0-0", &e);
    assert_string_equal(list, "0");
    free(list);
    if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
        list = bh_sysinfo_pin_resolve("1,0", &e);
        assert_non_null(list);
        assert_string_equal(list, "0-1");
        free(list);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collect_shape),
        cmocka_unit_test(test_hash_stable_and_sensitive),
        cmocka_unit_test(test_diff),
        cmocka_unit_test(test_hash_known_document),
        cmocka_unit_test(test_pin_none_is_noop),
        cmocka_unit_test(test_pin_zero_binds_pu0),
        cmocka_unit_test(test_pin_auto_binds_one_cpu),
        cmocka_unit_test(test_pin_check_rejects),
        cmocka_unit_test(test_pin_check_accepts),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
