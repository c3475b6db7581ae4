// SPDX-License-Identifier: MIT
/*
 * bh_plugin.h -- the scaffolding every in-tree benchmark plugin shares:
 * the entry point and benchmark factory (BH_PLUGIN_FACTORY and
 * BH_PLUGIN_ENTRY), a benchmark list built at init, the failure helper and
 * typed parameter readers, metrics by kind, the work profile, parameter
 * descriptor macros and the CPU count.
 * Linked statically into each plugin (bh_plugin_dep); nothing here is
 * exported from the shared object.
 *
 * A plugin file writes, for example:
 *
 *     static const bhost_bench_desc *const benches[] = {&a, &b};
 *     BH_PLUGIN_FACTORY(benches, BH_PLUGIN_COUNT(benches))
 *     BH_PLUGIN_ENTRY(my_api, "org.bhost.mine", "mine", "1.0", "Summary",
 *                     bh_plugin_no_setup)
 */
#ifndef BH_PLUGIN_H
#define BH_PLUGIN_H

#include <bhost/plugin.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define BH_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define BH_PRINTF(fmt, args)
#endif

/* Largest integer a double holds exactly: the open upper end of I64
 * parameters that have only a lower bound (the ABI expresses ranges as
 * min <= max). */
#define BH_PLUGIN_I64_MAX 9007199254740992.0

/* Most benchmarks one plugin lists. */
#define BH_PLUGIN_MAX_BENCHES 64

/* Elements of a static array of descriptors, as the factory's uint32_t. */
#define BH_PLUGIN_COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

/* The host API from init(); valid until deinit() returns. Set by the entry
 * of BH_PLUGIN_ENTRY, read by the helpers below. */
extern const bhost_host_api *bh_plugin_api;

/* A benchmark list a plugin builds in its setup hook. */
typedef struct bh_plugin_list {
    const bhost_bench_desc *desc[BH_PLUGIN_MAX_BENCHES];
    uint32_t count;
} bh_plugin_list;

/* Appends d, ignored once the list is full. [main] */
void bh_plugin_list_add(bh_plugin_list *l, const bhost_bench_desc *d);

/* Appends a NULL-terminated family of descriptors. [main] */
void bh_plugin_list_add_all(bh_plugin_list *l, const bhost_bench_desc *const *family);

/* Keeps api in bh_plugin_api. BHOST_E_VERSION when api lacks set_error or
 * predates the 1.0 table (then set_error(NULL, "<name>: host API table
 * older than 1.0")). [main] */
bhost_status bh_plugin_bind(const bhost_host_api *api, const char *name);

/* Forgets bh_plugin_api. [main] */
void bh_plugin_unbind(void);

/* factory for BHOST_IFACE_BENCHMARKS, else NULL. [any-thread] */
const void *bh_plugin_interface(const char *id, const bhost_bench_factory *factory);

/* The setup hook of a plugin that needs none: BHOST_OK. [main] */
bhost_status bh_plugin_no_setup(const bhost_host_api *api);

/* Defines the benchmark factory bh_plugin_factory over list_expr[0 ..
 * count_expr): count() returns count_expr, get(i) the descriptor or NULL
 * past the end. Both expressions are read at each call. [any-thread] */
#define BH_PLUGIN_FACTORY(list_expr, count_expr)                                                   \
    static uint32_t BHOST_ABI bh_plugin_factory_count(void)                                        \
    {                                                                                              \
        return (count_expr);                                                                       \
    }                                                                                              \
    static const bhost_bench_desc *BHOST_ABI bh_plugin_factory_get(uint32_t index)                 \
    {                                                                                              \
        return index < (count_expr) ? (list_expr)[index] : NULL;                                   \
    }                                                                                              \
    static const bhost_bench_factory bh_plugin_factory = {                                         \
        sizeof(bhost_bench_factory), 0, bh_plugin_factory_count, bh_plugin_factory_get,           \
    };

/* Defines bhost_entry_v1 and its callbacks over bh_plugin_factory: init
 * checks the host table (bh_plugin_bind), sets api_var and returns
 * setup(api); deinit clears api_var and bh_plugin_api; get_interface
 * answers BHOST_IFACE_BENCHMARKS. */
#define BH_PLUGIN_ENTRY(api_var, id, name, version, summary, setup)                                \
    static bhost_status BHOST_ABI bh_plugin_entry_init(const bhost_host_api *api)                  \
    {                                                                                              \
        bhost_status st = bh_plugin_bind(api, (name));                                             \
                                                                                                   \
        if (st != BHOST_OK)                                                                        \
            return st;                                                                             \
        (api_var) = api;                                                                           \
        return setup(api);                                                                         \
    }                                                                                              \
    static void BHOST_ABI bh_plugin_entry_deinit(void)                                             \
    {                                                                                              \
        (api_var) = NULL;                                                                          \
        bh_plugin_unbind();                                                                        \
    }                                                                                              \
    static const void *BHOST_ABI bh_plugin_entry_interface(const char *iid)                        \
    {                                                                                              \
        return bh_plugin_interface(iid, &bh_plugin_factory);                                       \
    }                                                                                              \
    const bhost_entry bhost_entry_v1 = {                                                           \
        sizeof(bhost_entry),                                                                       \
        BHOST_ABI_MAJOR,                                                                           \
        BHOST_ABI_MINOR,                                                                           \
        0,                                                                                         \
        (id),                                                                                      \
        (name),                                                                                    \
        (version),                                                                                 \
        (summary),                                                                                 \
        bh_plugin_entry_init,                                                                      \
        bh_plugin_entry_deinit,                                                                    \
        bh_plugin_entry_interface,                                                                 \
    };

/* Formats prefix (may be "") and fmt into one line of at most 511 bytes,
 * hands it to set_error(h, ...) when bound and returns st. h may be NULL.
 * [any-thread] */
bhost_status bh_plugin_vfail(bhost_host *h, bhost_status st, const char *prefix,
                             const char *fmt, va_list ap) BH_PRINTF(4, 0);

/* bh_plugin_vfail() without a prefix. [any-thread] */
bhost_status bh_plugin_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
    BH_PRINTF(3, 4);

/* Reads I64 parameter key into *out and checks it lies in [lo, hi] (the
 * host has checked the declared range; this guards against one that did
 * not). The host's status after "host has no I64 parameter 'key'", or
 * BHOST_E_INVALID after "key=v outside [lo, hi]"; both prefixed with
 * prefix. [instance] */
bhost_status bh_plugin_i64(bhost_host *h, const char *prefix, const char *key, int64_t lo,
                           int64_t hi, int64_t *out);

/* Reads F64 parameter key into *out; the host's status after "host has no
 * F64 parameter 'key'". With check_nan, BHOST_E_INVALID after "key is NaN"
 * for a NaN. [instance] */
bhost_status bh_plugin_f64(bhost_host *h, const char *prefix, const char *key, int check_nan,
                           double *out);

/* Copies STR parameter key into buf (cap bytes); the host's status after
 * "host has no STR parameter 'key'", BHOST_E_INVALID after "key is longer
 * than cap-1 bytes" when it does not fit. [instance] */
bhost_status bh_plugin_str(bhost_host *h, const char *prefix, const char *key, char *buf,
                           uint32_t cap);

/* Reads F64 parameter key into *out and checks it lies in [lo, hi] (NaN
 * never does; [-DBL_MAX, DBL_MAX] asks only for a finite number). The
 * host's status after "host has no F64 parameter 'key'", or
 * BHOST_E_INVALID after "key=v outside [lo, hi]"; both prefixed with
 * prefix. [instance] */
bhost_status bh_plugin_f64_in(bhost_host *h, const char *prefix, const char *key, double lo,
                              double hi, double *out);

/* Reads STR parameter key and stores in *out the index of its value in
 * choices (NULL-terminated). The host's status after "host has no STR
 * parameter 'key'"; BHOST_E_INVALID after "key is longer than 63 bytes"
 * or "key='v' is not one of its choices"; all prefixed with prefix.
 * [instance] */
bhost_status bh_plugin_choice(bhost_host *h, const char *prefix, const char *key,
                              const char *const *choices, int *out);

/* Metrics by kind (plugin-api/README.md section 6.2). Call them where
 * report_metric() belongs: verify(), or setup() for a value known before
 * timing. Each returns the host's status, BHOST_OK when it drops the
 * metric. */

/* A performance metric, compared with the baseline and gated: a figure of
 * speed or cost (tokens/s, a latency, a build time). report_metric() on
 * every host. [instance] */
bhost_status bh_plugin_metric(bhost_host *h, const char *name, const char *unit,
                              bhost_direction direction, double value);

/* An informational metric, recorded and shown, never compared: a setting,
 * size, count or thread count. Dropped on a 1.0 host, which has no
 * report_metric_kind(). [instance] */
bhost_status bh_plugin_metric_info(bhost_host *h, const char *name, const char *unit,
                                   double value);

/* A correctness metric: an error held against limit, which must be the
 * tolerance verify() applies to the same value (never a tighter one): a
 * run whose value exceeds limit becomes invalid. Lower is better. Dropped
 * on a 1.0 host. [instance] */
bhost_status bh_plugin_metric_error(bhost_host *h, const char *name, const char *unit,
                                    double value, double limit);

/* Agreement of results with their references, element by element: the
 * largest |got - ref|, the largest |got - ref| / tol and the element that
 * has it (a NaN anywhere makes both infinite). Zero it to start. */
typedef struct bh_plugin_err {
    double max_abs;
    double max_ratio;
    uint64_t worst; /* index of the largest ratio */
    double worst_got, worst_ref, worst_tol;
} bh_plugin_err;

/* Adds element i (got against ref within tol) to e. [any-thread] */
void bh_plugin_err_add(bh_plugin_err *e, uint64_t i, double got, double ref, double tol);

/* Fills the work profile the host handed to work_profile() (its
 * struct_size is the host's: members past it are left alone): access,
 * compute, threads (the count the work runs on, 0 unknown) and
 * working_set_bytes (bytes the work touches per iteration, rounded down;
 * 0, unknown, when below 1 or not finite). BHOST_E_INVALID when out is
 * NULL, else BHOST_OK. [instance] */
bhost_status bh_plugin_profile(bhost_work_profile *out, bhost_access access,
                               bhost_compute compute, unsigned threads,
                               double working_set_bytes);

/* Threads this process may use: BHOST_CPU_THREADS when set to 1..256, else
 * the CPUs in its affinity mask (1..256). [any-thread] */
unsigned bh_plugin_cpu_threads(void);

/* Parameter descriptors by type (designated initializers; STR and BOOL
 * parameters carry no range: min 1 > max 0). */
#define BH_PARAM_I64(k, s, d, lo, hi)                                                              \
    {.struct_size = sizeof(bhost_param_desc),                                                      \
     .type = BHOST_PARAM_I64,                                                                      \
     .key = (k),                                                                                   \
     .summary = (s),                                                                               \
     .default_value = (d),                                                                         \
     .min = (lo),                                                                                  \
     .max = (hi)}
#define BH_PARAM_F64(k, s, d, lo, hi)                                                              \
    {.struct_size = sizeof(bhost_param_desc),                                                      \
     .type = BHOST_PARAM_F64,                                                                      \
     .key = (k),                                                                                   \
     .summary = (s),                                                                               \
     .default_value = (d),                                                                         \
     .min = (lo),                                                                                  \
     .max = (hi)}
#define BH_PARAM_STR(k, s, d, ch)                                                                  \
    {.struct_size = sizeof(bhost_param_desc),                                                      \
     .type = BHOST_PARAM_STR,                                                                      \
     .key = (k),                                                                                   \
     .summary = (s),                                                                               \
     .default_value = (d),                                                                         \
     .choices = (ch),                                                                              \
     .min = 1,                                                                                     \
     .max = 0}
#define BH_PARAM_BOOL(k, s, d)                                                                     \
    {.struct_size = sizeof(bhost_param_desc),                                                      \
     .type = BHOST_PARAM_BOOL,                                                                     \
     .key = (k),                                                                                   \
     .summary = (s),                                                                               \
     .default_value = (d),                                                                         \
     .min = 1,                                                                                     \
     .max = 0}

#endif /* BH_PLUGIN_H */
