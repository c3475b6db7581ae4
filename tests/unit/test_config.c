// SPDX-License-Identifier: MIT
/* Unit tests of the config module: YAML schema v1, extends layering,
 * settings, units, suggestions and glob matching. Fixtures live in
 * $BHOST_TEST_DATA/config; the tests run from that folder so every
 * expected "file:line:col:" is short and exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_fs.h"
#include "bh_mem.h"
#include "bh_sha256.h"
#include "bh_strbuf.h"
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MS 1000000ULL
#define SEC 1000000000ULL

/* ---- helpers ---- */

/* Loads path, which must fail with a message that starts with where and
 * contains part, on one line (part "" with a full where: exactly where). */
static void expect_error(const char *path, const char *where,
                         const char *part)
{
    bh_error e = {{0}};
    bh_config *c = bh_config_load(path, &e);

    if (c) {
        bh_config_free(c);
        fail_msg("%s: loaded, expected '%s%s'", path, where, part);
    }
    if (strncmp(e.msg, where, strlen(where)) != 0 || !strstr(e.msg, part) ||
        (!*part && strcmp(e.msg, where) != 0))
        fail_msg("%s:\n  got      '%s'\n  expected '%s...%s'", path, e.msg,
                 where, part);
    assert_null(strchr(e.msg, '\n'));
}

static bh_config *load_ok(const char *path)
{
    bh_error e = {{0}};
    bh_config *c = bh_config_load(path, &e);

    if (!c)
        fail_msg("%s: %s", path, e.msg);
    return c;
}

/* sha256 hex of the concatenation of the files named, in order. */
static void hash_of(const char *const *paths, size_t n, char hex[65])
{
    bh_strbuf all = BH_STRBUF_INIT;

    for (size_t i = 0; i < n; i++) {
        char *data;
        size_t len;
        bh_error e;

        assert_int_equal(bh_read_file(paths[i], 1 << 20, &data, &len, &e), 0);
        bh_strbuf_append(&all, data, len);
        free(data);
    }
    bh_sha256_hex(all.data ? all.data : "", all.len, hex);
    bh_strbuf_free(&all);
}

/* v[0..n) joined with '|' must be expected. */
static void assert_strings(char *const *v, size_t n, const char *expected)
{
    bh_strbuf b = BH_STRBUF_INIT;

    for (size_t i = 0; i < n; i++)
        bh_strbuf_printf(&b, "%s%s", i ? "|" : "", v[i]);
    assert_string_equal(bh_strbuf_str(&b), expected);
    bh_strbuf_free(&b);
}

static void assert_pos(bh_srcpos p, const char *file, int line, int column)
{
    assert_string_equal(p.file, file);
    assert_int_equal(p.line, line);
    assert_int_equal(p.column, column);
}

/* Combination k of s as value indices joined with ',' must be expected. */
static void assert_combo(const bh_suite *s, size_t k, const char *expected)
{
    size_t idx[8];
    char buf[64] = "";

    assert_true(s->n_params <= 8);
    bh_suite_combo(s, k, idx);
    for (size_t i = 0; i < s->n_params; i++)
        snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%zu",
                 i ? "," : "", idx[i]);
    assert_string_equal(buf, expected);
}

static void assert_default_settings(const bh_settings *s)
{
    assert_int_equal(s->warmup_ns, 100 * MS);
    assert_int_equal(s->sample_time_ns, 0);
    assert_int_equal(s->samples, 10);
    assert_int_equal(s->runs, 10);
    assert_int_equal(s->max_time_ns, 120 * SEC);
    assert_int_equal(s->timeout_ns, 60 * SEC);
    assert_int_equal(s->seed, 0x5eed);
    assert_string_equal(s->pin, "none");
    assert_int_equal(s->memory_limit_bytes, 0);
    assert_float_equal(s->max_cv, 0.05, 1e-12);
}

/* ---- units ---- */

static void test_duration(void **state)
{
    static const struct {
        const char *text;
        uint64_t ns;
    } ok[] = {
        {"500ms", 500 * MS}, {"2s", 2 * SEC},     {"1.5s", 1500 * MS},
        {"1.5m", 90 * SEC},  {"250us", 250000},   {"100ns", 100},
        {"2h", 7200 * SEC},  {"3", 3 * SEC},      {"0.5", 500 * MS},
        {".25s", 250 * MS},  {"0", 0},            {"0ms", 0},
        {"0.000000001s", 1}, {"0.123456789s", 123456789},
        {"1.000000001h", 3600 * SEC + 3600},
        {"18446744073709551615ns", UINT64_MAX},
        {"5124095h", 5124095ULL * 3600 * SEC},
    };
    static const char *const bad[] = {
        "fast", "", "-1s", "+1s", "1 s", "1S", "1.s", "s", "1e3s", "1sec",
        "1.5.5s", "1.0000000001s", "ms1", "1ms ", " 1ms", "1,5s", "0x10s",
    };
    static const char *const too_large[] = {
        "18446744073709551616ns", "5124096h", "99999999999999999999999s",
        "18446744073709551615s",
    };
    bh_error e;
    uint64_t ns;

    (void)state;
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        ns = 12345;
        if (bh_parse_duration(ok[i].text, &ns, &e) != 0)
            fail_msg("'%s': %s", ok[i].text, e.msg);
        if (ns != ok[i].ns)
            fail_msg("'%s': got %llu, expected %llu", ok[i].text,
                     (unsigned long long)ns, (unsigned long long)ok[i].ns);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ns = 12345;
        if (bh_parse_duration(bad[i], &ns, &e) != -1)
            fail_msg("'%s' parsed as a duration", bad[i]);
        assert_int_equal(ns, 12345);
        assert_non_null(
            strstr(e.msg, "expected a duration such as 500ms or 2s, got '"));
        assert_non_null(strstr(e.msg, bad[i]));
    }
    for (size_t i = 0; i < sizeof(too_large) / sizeof(too_large[0]); i++) {
        assert_int_equal(bh_parse_duration(too_large[i], &ns, &e), -1);
        assert_non_null(strstr(e.msg, "is too large"));
    }
    assert_int_equal(bh_parse_duration(NULL, &ns, &e), -1);
    assert_int_equal(bh_parse_duration("x", &ns, NULL), -1);
}

static void test_size(void **state)
{
    static const struct {
        const char *text;
        uint64_t bytes;
    } ok[] = {
        {"4GiB", 4ULL << 30}, {"512MiB", 512ULL << 20}, {"1G", 1000000000},
        {"1GB", 1000000000},  {"100k", 100000},         {"100K", 100000},
        {"1KB", 1000},        {"1kB", 1000},            {"1KiB", 1024},
        {"1.5KiB", 1536},     {"2M", 2000000},          {"2MB", 2000000},
        {"123", 123},         {"0", 0},                 {"2B", 2},
        {"1TiB", 1ULL << 40}, {"17179869183GiB", 17179869183ULL << 30},
        {"18446744073709551615", UINT64_MAX},
    };
    static const char *const bad[] = {
        "4XB", "GiB", "-1", "4 GiB", "4gib", "", "1.5.5M", "4mb", "4Gi",
    };
    static const char *const too_large[] = {
        "17179869184GiB", "18446744073709551616", "16777216TiB",
    };
    bh_error e;
    uint64_t b;

    (void)state;
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        if (bh_parse_size(ok[i].text, &b, &e) != 0)
            fail_msg("'%s': %s", ok[i].text, e.msg);
        if (b != ok[i].bytes)
            fail_msg("'%s': got %llu, expected %llu", ok[i].text,
                     (unsigned long long)b, (unsigned long long)ok[i].bytes);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        b = 7;
        if (bh_parse_size(bad[i], &b, &e) != -1)
            fail_msg("'%s' parsed as a size", bad[i]);
        assert_int_equal(b, 7);
        assert_non_null(strstr(e.msg, "expected a size such as"));
    }
    for (size_t i = 0; i < sizeof(too_large) / sizeof(too_large[0]); i++) {
        assert_int_equal(bh_parse_size(too_large[i], &b, &e), -1);
        assert_non_null(strstr(e.msg, "is too large"));
    }
}

static void test_percent(void **state)
{
    static const struct {
        const char *text;
        double f;
    } ok[] = {
        {"5%", 0.05}, {"0.05", 0.05}, {"100%", 1.0}, {"0", 0.0},
        {"1", 1.0},   {"2.5%", 0.025}, {"0%", 0.0}, {".5", 0.5},
    };
    static const char *const bad[] = {"5", "101%", "-5%", "abc", "5 %",
                                      "%",  "",     "1.5", "5%%", "0.5%x"};
    bh_error e;
    double f;

    (void)state;
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        if (bh_parse_percent(ok[i].text, &f, &e) != 0)
            fail_msg("'%s': %s", ok[i].text, e.msg);
        assert_float_equal(f, ok[i].f, 1e-12);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        f = 9;
        if (bh_parse_percent(bad[i], &f, &e) != -1)
            fail_msg("'%s' parsed as a percentage", bad[i]);
        assert_float_equal(f, 9, 0);
        assert_non_null(strstr(e.msg, bad[i]));
    }
    assert_int_equal(bh_parse_percent("abc", &f, &e), -1);
    assert_string_equal(e.msg, "expected a percentage such as 5% or a "
                               "fraction such as 0.05, got 'abc'");
    assert_int_equal(bh_parse_percent("101%", &f, &e), -1);
    assert_non_null(strstr(e.msg, "from 0% to 100%"));
}

/* ---- suggestions and globs ---- */

static void test_did_you_mean(void **state)
{
    static const char *const keys[] = {"warmup", "sample_time", "samples",
                                       "runs",   "max_time",    "timeout",
                                       "seed",   "pin"};
    static const char *const formats[] = {"json", "markdown", "html"};
    const size_t n = sizeof(keys) / sizeof(keys[0]);

    (void)state;
    assert_string_equal(bh_did_you_mean("sampels", keys, n), "samples");
    assert_string_equal(bh_did_you_mean("rnus", keys, n), "runs");
    assert_string_equal(bh_did_you_mean("timout", keys, n), "timeout");
    assert_string_equal(bh_did_you_mean("warmpu", keys, n), "warmup");
    assert_string_equal(bh_did_you_mean("sample_tme", keys, n),
                        "sample_time");
    assert_string_equal(bh_did_you_mean("runs", keys, n), "runs");
    assert_string_equal(bh_did_you_mean("htm", formats, 3), "html");
    assert_string_equal(bh_did_you_mean("jsno", formats, 3), "json");
    assert_null(bh_did_you_mean("zzzz", keys, n));
    assert_null(bh_did_you_mean("platform", keys, n));
    assert_null(bh_did_you_mean("", keys, n));
    assert_null(bh_did_you_mean("x", keys, n));
    assert_null(bh_did_you_mean("samples", keys, 0));
}

static void test_glob(void **state)
{
    static const struct {
        const char *pattern, *s;
        int match;
    } cases[] = {
        {"*", "", 1},          {"*", "abc", 1},         {"", "", 1},
        {"", "a", 0},          {"noop", "noop", 1},     {"noop", "noops", 0},
        {"noop", "noo", 0},    {"spin*", "spin_10", 1}, {"spin*", "spi", 0},
        {"*slow*", "very_slow_one", 1},                 {"*slow*", "fast", 0},
        {"a?c", "abc", 1},     {"a?c", "ac", 0},        {"[abc]x", "bx", 1},
        {"[abc]x", "dx", 0},   {"[!abc]x", "bx", 0},    {"[!abc]x", "dx", 1},
        {"[^a]", "b", 1},      {"[a-c]1", "c1", 1},     {"[a-c]1", "d1", 0},
        {"[]]", "]", 1},       {"[abc", "[abc", 1},     {"**", "x", 1},
        {"tensor/gemm.*", "tensor/gemm.f32", 1},   {"tensor/*", "tensor/a/b", 1},
        {"a*b*c", "aXbYc", 1}, {"a*b*c", "aXbY", 0},    {"*a", "bbba", 1},
        {"*a*a*a", "aaaa", 1}, {"\\*", "*", 1},         {"\\*", "a", 0},
        {"a\\?", "a?", 1},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!bh_glob_match(cases[i].pattern, cases[i].s) != !cases[i].match)
            fail_msg("glob '%s' vs '%s': expected %d", cases[i].pattern,
                     cases[i].s, cases[i].match);
    assert_false(bh_glob_match(NULL, "a"));
}

/* ---- settings ---- */

static void test_settings(void **state)
{
    bh_settings s, copy;
    bh_error e;

    (void)state;
    bh_settings_default(&s);
    assert_default_settings(&s);

    assert_int_equal(bh_settings_set(&s, "runs", "3", &e), 0);
    assert_int_equal(s.runs, 3);
    assert_int_equal(bh_settings_set(&s, "runs", "0", &e), -1);
    assert_string_equal(e.msg, "'runs' must be an integer >= 1 or auto, got '0'");
    assert_int_equal(s.runs, 3);
    assert_int_equal(bh_settings_set(&s, "runs", "10001", &e), -1);
    assert_string_equal(e.msg, "'runs' must be at most 10000, got '10001'");
    assert_int_equal(bh_settings_set(&s, "runs", "99999999999999999999999",
                                     &e),
                     -1);
    assert_non_null(strstr(e.msg, "must be at most 10000"));
    assert_int_equal(bh_settings_set(&s, "samples", "1.5", &e), -1);
    assert_non_null(strstr(e.msg, "'samples' must be an integer >= 1"));
    assert_int_equal(bh_settings_set(&s, "samples", "100000", &e), 0);
    assert_int_equal(s.samples, 100000);

    assert_int_equal(bh_settings_set(&s, "warmup", "fast", &e), -1);
    assert_string_equal(e.msg, "warmup: expected a duration such as 500ms "
                               "or 2s, got 'fast'");
    assert_int_equal(s.warmup_ns, 100 * MS);
    assert_int_equal(bh_settings_set(&s, "warmup", "0", &e), 0);
    assert_int_equal(s.warmup_ns, 0);
    assert_int_equal(bh_settings_set(&s, "timeout", "0", &e), -1);
    assert_non_null(strstr(e.msg, "'timeout' must be a duration > 0"));
    assert_int_equal(bh_settings_set(&s, "max_time", "0ms", &e), -1);
    assert_int_equal(bh_settings_set(&s, "sample_time", "0", &e), 0);

    assert_int_equal(bh_settings_set(&s, "seed", "0xFF", &e), 0);
    assert_int_equal(s.seed, 255);
    assert_int_equal(bh_settings_set(&s, "seed", "18446744073709551615", &e),
                     0);
    assert_int_equal(s.seed, UINT64_MAX);
    assert_int_equal(bh_settings_set(&s, "seed", "18446744073709551616", &e),
                     -1);
    assert_int_equal(bh_settings_set(&s, "seed", "-1", &e), -1);
    assert_int_equal(s.seed, UINT64_MAX);

    static const char *const pins_ok[] = {"none", "auto", "0", "0,2-3",
                                          "1-1", "0-7,16-23"};
    static const char *const pins_bad[] = {"", "0,", ",0", "3-1", "a",
                                           "0 ,1", "0-", "-1", "0;1",
                                           "99999"};
    for (size_t i = 0; i < sizeof(pins_ok) / sizeof(pins_ok[0]); i++) {
        if (bh_settings_set(&s, "pin", pins_ok[i], &e) != 0)
            fail_msg("pin '%s': %s", pins_ok[i], e.msg);
        assert_string_equal(s.pin, pins_ok[i]);
    }
    for (size_t i = 0; i < sizeof(pins_bad) / sizeof(pins_bad[0]); i++) {
        if (bh_settings_set(&s, "pin", pins_bad[i], &e) != -1)
            fail_msg("pin '%s' accepted", pins_bad[i]);
        assert_non_null(strstr(e.msg, "'pin' must be none, auto or a CPU "
                                      "list such as 0,2-3"));
    }
    assert_string_equal(s.pin, "0-7,16-23");

    assert_int_equal(bh_settings_set(&s, "memory_limit", "2GiB", &e), 0);
    assert_int_equal(s.memory_limit_bytes, 2ULL << 30);
    assert_int_equal(bh_settings_set(&s, "memory_limit", "2 GiB", &e), -1);
    assert_non_null(strstr(e.msg, "memory_limit: expected a size"));
    assert_int_equal(bh_settings_set(&s, "max_cv", "10%", &e), 0);
    assert_float_equal(s.max_cv, 0.10, 1e-12);

    assert_int_equal(bh_settings_set(&s, "sampels", "3", &e), -1);
    assert_string_equal(e.msg,
                        "unknown setting 'sampels' (did you mean 'samples'?)");
    assert_int_equal(bh_settings_set(&s, "qqq", "3", &e), -1);
    assert_non_null(strstr(e.msg, "unknown setting 'qqq' (expected one of:"));

    bh_settings_copy(&copy, &s);
    assert_ptr_not_equal(copy.pin, s.pin);
    assert_string_equal(copy.pin, s.pin);
    assert_int_equal(copy.seed, s.seed);
    bh_settings_free(&s);
    assert_null(s.pin);
    assert_string_equal(copy.pin, "0-7,16-23");
    bh_settings_free(&copy);
}

/* ---- whole configs ---- */

static void test_full_config(void **state)
{
    static const char *const files[] = {"good_full.yaml"};
    bh_config *c = load_ok("good_full.yaml");
    const bh_suite *s;
    const bh_param_axis *a;
    char hex[65];

    (void)state;
    assert_string_equal(c->path, "good_full.yaml");
    assert_string_equal(c->dir, ".");
    assert_string_equal(c->name, "full");
    assert_int_equal(c->n_files, 1);
    assert_string_equal(c->files[0], "good_full.yaml");
    hash_of(files, 1, hex);
    assert_string_equal(c->hash, hex);

    assert_strings(c->plugin_path, c->n_plugin_path,
                   "plugins|/opt/bhost/plugins");

    assert_int_equal(c->defaults.warmup_ns, 250 * MS);
    assert_int_equal(c->defaults.sample_time_ns, 5 * MS);
    assert_int_equal(c->defaults.samples, 20);
    assert_int_equal(c->defaults.runs, 3);
    assert_int_equal(c->defaults.max_time_ns, 120 * SEC);
    assert_int_equal(c->defaults.timeout_ns, 1500 * MS);
    assert_int_equal(c->defaults.seed, 0x1234);
    assert_string_equal(c->defaults.pin, "0,2-3");
    assert_int_equal(c->defaults.memory_limit_bytes, 4ULL << 30);
    assert_float_equal(c->defaults.max_cv, 0.025, 1e-12);

    assert_int_equal(c->n_backends, 3);
    assert_string_equal(c->backends[0].name, "cpu");
    assert_true(c->backends[0].required);
    assert_true(c->backends[0].all_devices);
    assert_pos(c->backends[0].pos, "good_full.yaml", 17, 3);
    assert_string_equal(c->backends[1].name, "cuda");
    assert_false(c->backends[1].required);
    assert_false(c->backends[1].all_devices);
    assert_int_equal(c->backends[1].n_devices, 2);
    assert_int_equal(c->backends[1].devices[0], 0);
    assert_int_equal(c->backends[1].devices[1], 1);
    assert_string_equal(c->backends[2].name, "vulkan");
    assert_true(c->backends[2].all_devices);
    assert_false(c->backends[2].required);

    assert_int_equal(c->n_suites, 2);
    s = &c->suites[0];
    assert_string_equal(s->plugin, "selftest");
    assert_ptr_equal(s->plugin_pos.file, c->files[0]);
    assert_pos(s->plugin_pos, "good_full.yaml", 21, 13);
    assert_pos(s->pos, "good_full.yaml", 21, 5);
    assert_string_equal(s->name, "quick");
    assert_strings(s->include, s->n_include, "noop|spin*");
    assert_strings(s->exclude, s->n_exclude, "*slow*");
    assert_strings(s->backends, s->n_backends, "cpu");

    /* Suite settings: suite defaults over config defaults. */
    assert_int_equal(s->settings.runs, 7);
    assert_int_equal(s->settings.warmup_ns, 0);
    assert_int_equal(s->settings.samples, 20);
    assert_int_equal(s->settings.timeout_ns, 1500 * MS);
    assert_string_equal(s->settings.pin, "0,2-3");
    assert_ptr_not_equal(s->settings.pin, c->defaults.pin);

    /* Parameter axes, typed, in the order written. */
    assert_int_equal(s->n_params, 4);
    a = &s->params[0];
    assert_string_equal(a->key, "work");
    assert_pos(a->pos, "good_full.yaml", 27, 7);
    assert_int_equal(a->n_values, 3);
    assert_int_equal(a->values[0].kind, BH_SCALAR_INT);
    assert_int_equal(a->values[0].i, 100);
    assert_float_equal(a->values[0].f, 100.0, 0);
    assert_string_equal(a->values[2].text, "10000");
    assert_int_equal(a->values[2].i, 10000);
    assert_pos(a->values[1].pos, "good_full.yaml", 27, 19);
    a = &s->params[1];
    assert_string_equal(a->key, "mode");
    assert_int_equal(a->n_values, 1);
    assert_int_equal(a->values[0].kind, BH_SCALAR_STR);
    assert_string_equal(a->values[0].text, "fast");
    a = &s->params[2];
    assert_string_equal(a->key, "scale");
    assert_int_equal(a->n_values, 2);
    assert_int_equal(a->values[0].kind, BH_SCALAR_FLOAT);
    assert_float_equal(a->values[0].f, 0.5, 0);
    assert_int_equal(a->values[1].kind, BH_SCALAR_STR); /* quoted "2" */
    assert_string_equal(a->values[1].text, "2");
    a = &s->params[3];
    assert_string_equal(a->key, "check");
    assert_int_equal(a->values[0].kind, BH_SCALAR_BOOL);
    assert_int_equal(a->values[0].i, 1);
    assert_int_equal(a->values[1].kind, BH_SCALAR_BOOL);
    assert_int_equal(a->values[1].i, 0);

    /* Cartesian product: 3 x 1 x 2 x 2, last axis fastest. */
    assert_int_equal(bh_suite_n_combos(s), 12);
    assert_combo(s, 0, "0,0,0,0");
    assert_combo(s, 1, "0,0,0,1");
    assert_combo(s, 2, "0,0,1,0");
    assert_combo(s, 5, "1,0,0,1");
    assert_combo(s, 11, "2,0,1,1");

    s = &c->suites[1];
    assert_string_equal(s->plugin, "./libtensor.so");
    assert_null(s->name);
    assert_int_equal(s->n_include + s->n_exclude + s->n_backends, 0);
    assert_int_equal(s->n_params, 0);
    assert_int_equal(bh_suite_n_combos(s), 1);
    assert_int_equal(s->settings.runs, 3);
    assert_int_equal(s->settings.warmup_ns, 250 * MS);

    assert_strings(c->outputs, c->n_outputs, "json|markdown|junit");
    assert_string_equal(c->regression_json,
                        "{\"threshold\":\"5%\",\"min_effect\":0.02,"
                        "\"tests\":[\"mann-whitney\",\"ci-overlap\"],"
                        "\"strict\":true,\"nothing\":null}");
    bh_config_free(c);
}

static void test_minimal_and_nulls(void **state)
{
    bh_config *c = load_ok("good_minimal.yaml");

    (void)state;
    assert_string_equal(c->name, "good_minimal");
    assert_int_equal(c->n_suites, 0);
    assert_int_equal(c->n_backends, 0);
    assert_int_equal(c->n_outputs, 0);
    assert_int_equal(c->n_plugin_path, 0);
    assert_null(c->regression_json);
    assert_default_settings(&c->defaults);
    assert_int_equal(strlen(c->hash), 64);
    bh_config_free(c);

    c = load_ok("good_nulls.yaml");
    assert_string_equal(c->name, "good_nulls");
    assert_int_equal(c->n_suites, 0);
    assert_int_equal(c->n_backends, 0);
    assert_int_equal(c->n_plugin_path, 0);
    assert_null(c->regression_json);
    assert_strings(c->outputs, c->n_outputs, "html");
    assert_default_settings(&c->defaults);
    bh_config_free(c);

    /* A config loaded through a directory keeps that directory. */
    c = load_ok("chain/base.yaml");
    assert_string_equal(c->dir, "chain");
    assert_string_equal(c->name, "base-name");
    assert_string_equal(c->plugin_path[0], "chain/base_plugins");
    bh_config_free(c);
}

static void test_extends_chain(void **state)
{
    static const char *const files[] = {"chain_child.yaml", "chain/mid.yaml",
                                        "chain/base.yaml"};
    bh_config *c = load_ok("chain_child.yaml");
    const bh_suite *s;
    char hex[65];

    (void)state;
    assert_strings(c->files, c->n_files,
                   "chain_child.yaml|chain/mid.yaml|chain/base.yaml");
    hash_of(files, 3, hex);
    assert_string_equal(c->hash, hex);

    /* The base's name is not inherited. */
    assert_string_equal(c->name, "chain_child");
    /* plugin_path stays relative to the base that declared it. */
    assert_strings(c->plugin_path, c->n_plugin_path, "chain/base_plugins");

    /* Maps merge key by key over three levels. */
    assert_int_equal(c->defaults.samples, 20);
    assert_int_equal(c->defaults.runs, 7);
    assert_int_equal(c->defaults.warmup_ns, 1 * SEC);
    assert_int_equal(c->defaults.timeout_ns, 10 * SEC);
    assert_int_equal(c->defaults.max_time_ns, 120 * SEC);
    assert_int_equal(c->n_backends, 1);
    assert_true(c->backends[0].required);
    assert_false(c->backends[0].all_devices);
    assert_int_equal(c->backends[0].n_devices, 1);
    assert_string_equal(c->backends[0].pos.file, "chain/mid.yaml");

    /* Lists and scalars replace: output, regression.tests, suites. */
    assert_strings(c->outputs, c->n_outputs, "csv");
    assert_string_equal(c->regression_json,
                        "{\"threshold\":\"3%\",\"tests\":[\"ci\"]}");
    assert_int_equal(c->n_suites, 1);
    s = &c->suites[0];
    assert_string_equal(s->plugin, "from-child");
    assert_string_equal(s->plugin_pos.file, "chain_child.yaml");
    assert_int_equal(s->settings.runs, 2);
    assert_int_equal(s->settings.samples, 20);
    assert_int_equal(s->settings.timeout_ns, 10 * SEC);
    assert_int_equal(s->settings.warmup_ns, 1 * SEC);
    bh_config_free(c);
}

/* Every bad_*.yaml fixture names the exact error it must produce on its
 * first line, "# error: FILE:LINE:COL: message". */
static void test_error_fixtures(void **state)
{
    DIR *d = opendir(".");
    struct dirent *ent;
    size_t checked = 0;

    (void)state;
    assert_non_null(d);
    while ((ent = readdir(d)) != NULL) {
        const char *name = ent->d_name;
        size_t n = strlen(name);
        char *text, *nl;
        bh_error e;

        if (strncmp(name, "bad_", 4) != 0 || n < 5 ||
            strcmp(name + n - 5, ".yaml") != 0)
            continue;
        assert_int_equal(bh_read_file(name, 1 << 20, &text, NULL, &e), 0);
        if (strncmp(text, "# error: ", 9) != 0)
            fail_msg("%s: the first line must be '# error: ...'", name);
        nl = strchr(text, '\n');
        if (nl)
            *nl = '\0';
        expect_error(name, text + 9, "");
        free(text);
        checked++;
    }
    closedir(d);
    /* The fixtures cover every error class; none may go missing. */
    assert_true(checked >= 50);
}

static void test_extends_errors(void **state)
{
    (void)state;
    expect_error("cycle_a.yaml",
                 "cycle_b.yaml:1:10: extends cycle: cycle_a.yaml -> "
                 "cycle_b.yaml -> cycle_a.yaml",
                 "");
    expect_error("self_cycle.yaml",
                 "self_cycle.yaml:2:10: extends cycle: self_cycle.yaml -> "
                 "./self_cycle.yaml",
                 "");
    expect_error("no_such_config.yaml",
                 "no_such_config.yaml:1:1: cannot read config: cannot open: "
                 "No such file or directory",
                 "");
    expect_error("chain", "chain:1:1: cannot read config: not a regular file",
                 "");
}

/* Invalid UTF-8 is a reader error, reported at its byte. */
static void test_reader_error(void **state)
{
    char path[] = "/tmp/bh_config_utf8_XXXXXX";
    static const char text[] = "suites: []\nname: \xff\n";
    char where[64];
    int fd = mkstemp(path);

    (void)state;
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, sizeof(text) - 1),
                     (ssize_t)(sizeof(text) - 1));
    close(fd);
    snprintf(where, sizeof(where), "%s:2:7: ", path);
    expect_error(path, where, "cannot read YAML text: invalid leading UTF-8");
    unlink(path);
}

static void test_no_path(void **state)
{
    bh_error e = {{0}};

    (void)state;
    assert_null(bh_config_load(NULL, &e));
    assert_string_equal(e.msg, "no config file given");
    assert_null(bh_config_load("", NULL));
    bh_config_free(NULL);
}

int main(void)
{
    const char *data = getenv("BHOST_TEST_DATA");
    char *dir;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duration),
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_percent),
        cmocka_unit_test(test_did_you_mean),
        cmocka_unit_test(test_glob),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_full_config),
        cmocka_unit_test(test_minimal_and_nulls),
        cmocka_unit_test(test_extends_chain),
        cmocka_unit_test(test_error_fixtures),
        cmocka_unit_test(test_extends_errors),
        cmocka_unit_test(test_reader_error),
        cmocka_unit_test(test_no_path),
    };

    if (!data) {
        fprintf(stderr, "BHOST_TEST_DATA is not set\n");
        return 1;
    }
    dir = bh_xasprintf("%s/config", data);
    if (chdir(dir) != 0) {
        fprintf(stderr, "cannot enter %s\n", dir);
        free(dir);
        return 1;
    }
    free(dir);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
