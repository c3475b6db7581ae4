// SPDX-License-Identifier: MIT
/* Run settings: the built-in defaults, and one setting at a time from a
 * config map or a command-line override. */
#include "config_internal.h"

#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES 100000u
#define MAX_RUNS 10000u
/* runs: auto stops a case here unless max_runs says otherwise: at a
   between-run CV of 1% the 95% interval of the median of n run medians is
   about 4.9% / sqrt(n) wide, under a 1% noise floor from n = 24 on
   (docs/statistics.md section 8.3). */
#define DEFAULT_MAX_RUNS 30u
#define MAX_CPU 65535u
#define MAX_ITERATIONS 1000000000u

static const char *const setting_keys[] = {
    "warmup",  "sample_time", "samples", "runs",         "max_time",
    "timeout", "seed",        "pin",     "memory_limit", "max_cv",
    "counters",
    "measure", "iterations",   "min_runs", "max_runs",   "leaks",
    "expect",
};
#define N_SETTING_KEYS (sizeof(setting_keys) / sizeof(setting_keys[0]))

void bh_settings_default(bh_settings *s)
{
    memset(s, 0, sizeof(*s));
    s->warmup_ns = 100ULL * 1000000ULL;
    s->sample_time_ns = 0;
    s->samples = 10;
    /* 10 runs: the run is the unit of replication, and with 10 per side
       an exact Mann-Whitney p reaches 1.1e-5, below Benjamini-Hochberg's
       first level over 300 tests (1.7e-4; 5 runs reach only 7.9e-3, so no
       regression could ever be reported); the regression engine's
       evaluation (tools/eval-regress.sh) detects a 5% slowdown at a
       between-run CV of 1% in every trial with it. */
    s->runs = 10;
    s->max_runs = DEFAULT_MAX_RUNS;
    s->max_time_ns = 120ULL * 1000000000ULL;
    s->timeout_ns = 60ULL * 1000000000ULL;
    s->seed = 0x5eed;
    s->pin = bh_xstrdup("none");
    s->memory_limit_bytes = 0;
    s->max_cv = 0.05;
    s->measure = BH_MEASURE_TIME;
    /* Counted samples are deterministic, so a few iterations suffice, and
       a heavy case under callgrind (tens of times slower) stays cheap. */
    s->iterations = 10;
    s->leaks_fail = 0;
}

void bh_settings_copy(bh_settings *dst, const bh_settings *src)
{
    *dst = *src;
    dst->pin = src->pin ? bh_xstrdup(src->pin) : NULL;
    dst->launcher = bh_launcher_copy(src->launcher);
    bh_config_expect_copy(dst, src);
}

void bh_settings_free(bh_settings *s)
{
    free(s->pin);
    s->pin = NULL;
    bh_launcher_free(s->launcher);
    s->launcher = NULL;
    bh_config_expect_free(s);
}

/* Reads a decimal integer made of digits only (or 0x hex when hex) into
 * *out; 0, or -1 for anything else including overflow. */
static int read_uint(const char *t, int hex, uint64_t *out)
{
    uint64_t v = 0;
    unsigned base = 10;

    if (hex && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        base = 16;
        t += 2;
    }
    if (!*t)
        return -1;
    for (; *t; t++) {
        unsigned d;

        if (*t >= '0' && *t <= '9')
            d = (unsigned)(*t - '0');
        else if (base == 16 && *t >= 'a' && *t <= 'f')
            d = (unsigned)(*t - 'a' + 10);
        else if (base == 16 && *t >= 'A' && *t <= 'F')
            d = (unsigned)(*t - 'A' + 10);
        else
            return -1;
        if (v > (UINT64_MAX - d) / base)
            return -1;
        v = v * base + d;
    }
    *out = v;
    return 0;
}

/* A count in [1, max] into *out; -1 with e set otherwise. */
static int set_count(const char *key, const char *value, uint32_t max,
                     uint32_t *out, bh_error *e)
{
    uint64_t v = 0;
    int digits = *value && strspn(value, "0123456789") == strlen(value);

    if (!digits || (read_uint(value, 0, &v) == 0 && v < 1))
        return bh_error_set(e, "'%s' must be an integer >= 1, got '%s'", key,
                            value);
    if (read_uint(value, 0, &v) != 0 || v > max)
        return bh_error_set(e, "'%s' must be at most %u, got '%s'", key,
                            max, value);
    *out = (uint32_t)v;
    return 0;
}

/* A duration into *out, > 0 when positive is set; -1 with e set. */
static int set_duration(const char *key, const char *value, int positive,
                        uint64_t *out, bh_error *e)
{
    uint64_t ns;

    if (bh_parse_duration(value, &ns, e) != 0)
        return bh_error_prefix(e, "%s", key);
    if (positive && ns == 0)
        return bh_error_set(e, "'%s' must be a duration > 0 such as 30s, "
                               "got '%s'", key, value);
    *out = ns;
    return 0;
}

/* True for "none", "auto" or a CPU list such as 0,2-3. */
static int pin_ok(const char *v)
{
    if (strcmp(v, "none") == 0 || strcmp(v, "auto") == 0)
        return 1;
    if (!*v)
        return 0;
    while (*v) {
        char *end;
        unsigned long lo, hi;

        if (*v < '0' || *v > '9')
            return 0;
        lo = strtoul(v, &end, 10);
        hi = lo;
        if (*end == '-') {
            if (end[1] < '0' || end[1] > '9')
                return 0;
            hi = strtoul(end + 1, &end, 10);
        }
        if (lo > hi || hi > MAX_CPU)
            return 0;
        if (*end == ',' && end[1] != '\0')
            end++;
        else if (*end != '\0')
            return 0;
        v = end;
    }
    return 1;
}

/* runs: a count (fixed runs) or auto (adaptive runs, docs/statistics.md
 * section 8.3); -1 with e set otherwise. */
static int set_runs(bh_settings *s, const char *value, bh_error *e)
{
    if (strcmp(value, "auto") == 0) {
        s->runs_auto = 1;
        return 0;
    }
    if (!*value || strspn(value, "0123456789") != strlen(value) ||
        strspn(value, "0") == strlen(value))
        return bh_error_set(e, "'runs' must be an integer >= 1 or auto, got '%s'", value);
    if (set_count("runs", value, MAX_RUNS, &s->runs, e) != 0)
        return -1;
    s->runs_auto = 0;
    return 0;
}

int bh_settings_set(bh_settings *s, const char *key, const char *value,
                    bh_error *e)
{
    if (strcmp(key, "warmup") == 0)
        return set_duration(key, value, 0, &s->warmup_ns, e);
    if (strcmp(key, "sample_time") == 0)
        return set_duration(key, value, 0, &s->sample_time_ns, e);
    if (strcmp(key, "max_time") == 0)
        return set_duration(key, value, 1, &s->max_time_ns, e);
    if (strcmp(key, "timeout") == 0)
        return set_duration(key, value, 1, &s->timeout_ns, e);
    if (strcmp(key, "samples") == 0)
        return set_count(key, value, MAX_SAMPLES, &s->samples, e);
    if (strcmp(key, "runs") == 0)
        return set_runs(s, value, e);
    if (strcmp(key, "min_runs") == 0 || strcmp(key, "max_runs") == 0)
        return set_count(key, value, MAX_RUNS,
                         key[1] == 'i' ? &s->min_runs : &s->max_runs, e);
    if (strcmp(key, "seed") == 0) {
        if (read_uint(value, 1, &s->seed) != 0)
            return bh_error_set(e, "'seed' must be an integer from 0 to "
                                   "2^64-1 (decimal or 0x hex), got '%s'",
                                value);
        return 0;
    }
    if (strcmp(key, "pin") == 0) {
        if (!pin_ok(value))
            return bh_error_set(e, "'pin' must be none, auto or a CPU list "
                                   "such as 0,2-3, got '%s'", value);
        free(s->pin);
        s->pin = bh_xstrdup(value);
        return 0;
    }
    if (strcmp(key, "memory_limit") == 0) {
        if (bh_parse_size(value, &s->memory_limit_bytes, e) != 0)
            return bh_error_prefix(e, "memory_limit");
        return 0;
    }
    if (strcmp(key, "max_cv") == 0) {
        if (bh_parse_percent(value, &s->max_cv, e) != 0)
            return bh_error_prefix(e, "max_cv");
        return 0;
    }
    if (strcmp(key, "measure") == 0) {
        if (strcmp(value, "time") != 0 && strcmp(value, "instructions") != 0)
            return bh_error_set(e, "'measure' must be time or instructions, got '%s'", value);
        s->measure = strcmp(value, "time") == 0 ? BH_MEASURE_TIME : BH_MEASURE_INSTRUCTIONS;
        return 0;
    }
    if (strcmp(key, "counters") == 0) {
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0)
            return bh_error_set(e, "'counters' must be on or off, got '%s'", value);
        s->counters_off = strcmp(value, "off") == 0;
        return 0;
    }
    if (strcmp(key, "iterations") == 0)
        return set_count(key, value, MAX_ITERATIONS, &s->iterations, e);
    if (strcmp(key, "leaks") == 0) {
        if (strcmp(value, "warn") != 0 && strcmp(value, "fail") != 0)
            return bh_error_set(e, "'leaks' must be warn or fail, got '%s'", value);
        s->leaks_fail = strcmp(value, "fail") == 0;
        return 0;
    }
    if (strcmp(key, "expect") == 0)
        return bh_error_set(e, "'expect' is a map of budgets such as {time: \"< 10us\"}: set it "
                               "in the config, got '%s'", value);
    const char *hint = bh_did_you_mean(key, setting_keys, N_SETTING_KEYS);

    if (hint)
        return bh_error_set(e, "unknown setting '%s' (did you mean '%s'?)",
                            key, hint);
    return bh_error_set(e, "unknown setting '%s' (expected one of: warmup, "
                           "sample_time, samples, runs, max_time, timeout, "
                           "seed, pin, memory_limit, max_cv, counters, measure, "
                           "iterations, min_runs, max_runs, leaks)", key);
}

/* After map's settings are applied onto s: an explicit min_runs above
 * max_runs is an error at the one of the two that map sets. */
static int check_run_range(const bh_settings *s, const bh_ynode *map, bh_error *e)
{
    const bh_ynode *at = bh_yaml_map_get(map, "max_runs");

    if (s->min_runs <= s->max_runs)
        return 0;
    if (!at)
        at = bh_yaml_map_get(map, "min_runs");
    return bh_config_fail(e, at ? at : map,
                          "max_runs %u is below min_runs %u (expected max_runs >= min_runs)",
                          s->max_runs, s->min_runs);
}

int bh_config_settings_apply(bh_settings *s, const bh_ynode *map,
                             const char *where, bh_error *e)
{
    char got[96];

    if (bh_config_expect_map(map, where, e) != 0)
        return -1;
    if (bh_config_check_keys(map, setting_keys, N_SETTING_KEYS, where, e) != 0)
        return -1;
    for (size_t i = 0; i < bh_yaml_map_len(map); i++) {
        const bh_ynode *key = bh_yaml_map_key(map, i);
        const bh_ynode *v = bh_yaml_map_value(map, i);

        if (strcmp(key->text, "expect") == 0) {
            if (bh_config_expect_apply(s, v, where, e) != 0)
                return -1;
            continue;
        }
        if (v->kind != BH_YNODE_SCALAR || bh_yaml_is_null(v))
            return bh_config_fail(e, v, "%s: expected a value, got %s",
                                  key->text, bh_config_got(v, got,
                                                           sizeof(got)));
        if (bh_settings_set(s, key->text, v->text, e) != 0)
            return bh_error_prefix(e, "%s:%d:%d", v->file, v->line,
                                   v->column);
    }
    return check_run_range(s, map, e);
}
