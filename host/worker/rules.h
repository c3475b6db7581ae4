// SPDX-License-Identifier: MIT
/* The one set of rules that `bhost run` (describe and run workers) and
 * `bhost check-plugin` apply to what a plugin hands the host: benchmark
 * descriptors, ids, parameters and their defaults, manual and device
 * timings, work per iteration, and the text it passes through the host
 * API. What a describe worker refuses (the benchmark's cases fail with
 * the reason), check-plugin FAILs with the same reason text. Pure
 * functions of plugin data: nothing here calls plugin code. [any-thread] */
#ifndef BH_WORKER_RULES_H
#define BH_WORKER_RULES_H

#include <bhost/plugin.h>
#include <stddef.h>
#include <stdint.h>

#define BH_RULE_ID_MAX 128        /* bytes of a benchmark id */
#define BH_RULE_KEY_MAX 64        /* bytes of a parameter key */
#define BH_RULE_TEXT_MAX 4096     /* bytes of a parameter default or choice */
#define BH_RULE_SUMMARY_MAX 1024  /* bytes of a summary kept by describe */
#define BH_RULE_CHOICES_MAX 1024  /* choices of one parameter */
#define BH_RULE_PARAMS_MAX 256    /* parameters of one benchmark */
#define BH_RULE_BENCHES_MAX 100000 /* benchmarks of one plugin */
#define BH_RULE_DESC_SIZE_MAX 4096 /* a larger descriptor struct_size: WARN */

/* The frozen ABI 1.0 table sizes are BHOST_*_SIZE_1_0 in bhost/plugin.h. */

/* Each bh_rules_* check returns 0 when the rule holds, else -1 with one
 * line of reason in why (cap bytes). */

/* struct_size at least the ABI 1.0 size. */
int bh_rules_bench_size(const bhost_bench_desc *d, char *why, size_t cap);

/* 1 (with why) when struct_size is larger than this host's descriptor and
 * implausibly large (over BH_RULE_DESC_SIZE_MAX): a WARN, not a refusal. */
int bh_rules_bench_size_warning(const bhost_bench_desc *d, char *why,
                                size_t cap);

/* id: [a-z0-9_.-]+, starting with a letter or digit, at most
 * BH_RULE_ID_MAX bytes (so it is safe in case ids, file names, tables,
 * Markdown and CSV). */
int bh_rules_bench_id(const char *id, char *why, size_t cap);

/* Known flag bits only, reserved 0, create, run and destroy set. */
int bh_rules_bench_functions(const bhost_bench_desc *d, char *why,
                             size_t cap);

/* required_caps: no undefined bit among the 32 bhost defines. */
int bh_rules_bench_caps(const bhost_bench_desc *d, char *why, size_t cap);

/* The parameter array: count within BH_RULE_PARAMS_MAX, an array when
 * count > 0, element size at least 1.0 and equal for all elements. */
int bh_rules_params_layout(const bhost_bench_desc *d, char *why, size_t cap);

/* Parameter i of d (after bh_rules_params_layout held): key
 * [a-z0-9_]+ of at most BH_RULE_KEY_MAX bytes and not declared before i,
 * a known type, a default of at most BH_RULE_TEXT_MAX bytes that parses
 * as the type, choices only on STR (non-empty, NULL-terminated within
 * BH_RULE_CHOICES_MAX, each at most BH_RULE_TEXT_MAX bytes, including the
 * default), a default inside [min, max] when bounded. */
int bh_rules_param(const bhost_bench_desc *d, uint32_t i, char *why,
                   size_t cap);

/* Every rule above that refuses, in the order check-plugin reports them:
 * the one function that decides whether a benchmark can run. */
int bh_rules_bench(const bhost_bench_desc *d, char *why, size_t cap);

/* The parameter descriptor i of d, stepping by params[0].struct_size. */
const bhost_param_desc *bh_rules_param_at(const bhost_bench_desc *d,
                                          uint32_t i);

/* Parses a default as the planner reads it: I64 a decimal integer, F64 a
 * finite number, BOOL true/false, STR anything. 0 with *num and *ival
 * set, or -1. */
int bh_rules_parse_default(bhost_param_type type, const char *text,
                           double *num, int64_t *ival);

/* A sample the plugin timed itself (timing "manual") or its device timed
 * ("device"): not 0 ns when manual, and not longer than the wall time of
 * the call that produced it (wall_ns, with 25% + 100 us of slack). Host
 * timing always holds. */
int bh_rules_sample(const char *timing, uint64_t ns, uint64_t wall_ns,
                    char *why, size_t cap);

/* The reason a manual-timing run() that never set its time fails. */
#define BH_RULE_MANUAL_UNSET                                                  \
    "declares BHOST_BENCH_MANUAL_TIMING but run() did not call "             \
    "set_iteration_time_ns()"

/* A work-per-iteration figure (name is its getter): finite and >= 0. */
int bh_rules_work(const char *name, double v, char *why, size_t cap);

/* Copies at most max bytes of s into a new string (free() it): every
 * control byte (newline and tab kept when keep_lines) and every byte
 * that is not valid UTF-8 becomes '?'. *len_out, when set, receives
 * strlen(s). NULL s gives "". */
char *bh_rules_clean_text(const char *s, size_t max, int keep_lines,
                          size_t *len_out);

#endif
