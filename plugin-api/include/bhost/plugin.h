// SPDX-License-Identifier: MIT
/*
 * bhost/plugin.h -- the bhost plugin ABI, version 1.
 *
 * The one self-contained header an out-of-tree plugin needs (C11 or C++11 and
 * later; only <stddef.h> and <stdint.h>). The normative specification is
 * installed as <prefix>/share/doc/bhost/plugin-api.md (pkg-config
 * --variable=specfile bhost-plugin; plugin-api/README.md in the source);
 * the comments here state each item's contract.
 *
 * Rules that hold for every declaration below:
 *  - A plugin exports exactly one symbol, the const data object
 *    bhost_entry_v1. The host reads abi_major and struct_size before it calls
 *    any plugin code. Plugins are loaded RTLD_NOW|RTLD_LOCAL, never unloaded.
 *  - Every struct that crosses the boundary starts with struct_size, set by
 *    whoever fills the struct to sizeof() as it compiled it. Structs only grow
 *    at the end. A field added after 1.0 is read only after BHOST_HAS() says
 *    the producer's struct contains it.
 *  - Fixed-width integers only: no enum types, no bool. reserved fields are
 *    explicit padding and MUST be zero.
 *  - Strings passed into a plugin are borrowed for the duration of the call.
 *    Strings and tables a plugin returns are owned by the plugin and stay
 *    valid until its deinit() returns. All strings are UTF-8, NUL-terminated.
 *  - Thread tags: [main] = never concurrent with any other call into the
 *    plugin; [instance] = calls on one benchmark instance or one device are
 *    serialized by the host, possibly from different OS threads;
 *    [any-thread] = may be called concurrently from any thread.
 */
#ifndef BHOST_PLUGIN_H
#define BHOST_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define BHOST_EXPORT __declspec(dllexport)
#define BHOST_ABI __cdecl
#else
#define BHOST_EXPORT __attribute__((visibility("default")))
#define BHOST_ABI
#endif

#define BHOST_ABI_MAJOR 1 /* a breaking change renames the entry symbol */
#define BHOST_ABI_MINOR 2 /* appended fields and new interface ids only */
#define BHOST_ENTRY_SYMBOL "bhost_entry_v1"

/* Interface ids served through bhost_entry.get_interface(). */
#define BHOST_IFACE_BENCHMARKS "bhost.benchmarks/1"
#define BHOST_IFACE_BACKEND "bhost.backend/1"
/* Kernel ids served through bhost_backend.get_kernel(). */
#define BHOST_KERNEL_GEMM "bhost.kernel.gemm/1"
#define BHOST_KERNEL_AXPY "bhost.kernel.axpy/1"
#define BHOST_KERNEL_REDUCE "bhost.kernel.reduce/1"

/* True when *p, as its producer compiled it, contains 'field'. */
#define BHOST_HAS(type, p, field)                                              \
    ((p)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

/* ---- Scalar types ------------------------------------------------------- */

/* Result of every fallible call. Values are never reused. */
typedef int32_t bhost_status;
enum {
    BHOST_OK = 0,
    BHOST_E_INVALID = -1,     /* bad argument or parameter value */
    BHOST_E_NOMEM = -2,       /* allocation failed */
    BHOST_E_UNSUPPORTED = -3, /* feature absent here: case is "unsupported" */
    BHOST_E_VERSION = -4,     /* incompatible interface revision */
    BHOST_E_DEVICE = -5,      /* device or runtime error */
    BHOST_E_INTERNAL = -6,    /* plugin bug, caught exception */
    BHOST_E_VERIFY = -7,      /* verify(): output differs from reference */
    BHOST_E_SKIP = -8         /* not applicable with these params: "skipped" */
};

typedef int32_t bhost_dtype;
enum {
    BHOST_DTYPE_F32 = 1,
    BHOST_DTYPE_F64 = 2,
    BHOST_DTYPE_F16 = 3,
    BHOST_DTYPE_BF16 = 4,
    BHOST_DTYPE_I8 = 5,
    BHOST_DTYPE_I32 = 6,
    BHOST_DTYPE_U8 = 7,
    BHOST_DTYPE_I64 = 8
};

typedef int32_t bhost_log_level;
enum {
    BHOST_LOG_DEBUG = 0,
    BHOST_LOG_INFO = 1,
    BHOST_LOG_WARN = 2,
    BHOST_LOG_ERROR = 3
};

/* Which way is better for a reported metric. */
typedef int32_t bhost_direction;
enum { BHOST_LOWER_IS_BETTER = 1, BHOST_HIGHER_IS_BETTER = 2 };

/* (1.1) What a reported metric is, for report_metric_kind(). */
typedef int32_t bhost_metric_kind;
enum {
    /* A figure of speed or cost: compared with the baseline and gated
     * (what report_metric() reports). */
    BHOST_METRIC_PERFORMANCE = 1,
    /* Recorded and shown, never compared: threads, sizes, counts. */
    BHOST_METRIC_INFORMATIONAL = 2,
    /* An error held against a limit, not a baseline: the value must stay
     * at or below limit (direction LOWER_IS_BETTER). */
    BHOST_METRIC_CORRECTNESS = 3
};

/* (1.1) How a benchmark's memory traffic goes, for choosing the bandwidth
 * ceiling it is held against. */
typedef uint32_t bhost_access;
enum {
    BHOST_ACCESS_UNKNOWN = 0,
    BHOST_ACCESS_READ = 1,      /* streams data in: decode over weights, reductions */
    BHOST_ACCESS_WRITE = 2,     /* streams data out: fills */
    BHOST_ACCESS_READ_WRITE = 3 /* reads and writes: copies, element-wise, triad */
};

/* (1.1) The arithmetic that dominates a benchmark, for choosing its
 * compute ceiling (operations of int8 and the 16-bit types are counted as
 * FLOPs of their own ceiling, never of the f32 one). */
typedef uint32_t bhost_compute;
enum {
    BHOST_COMPUTE_NONE = 0, /* no arithmetic worth a ceiling */
    BHOST_COMPUTE_F64 = 1,
    BHOST_COMPUTE_F32 = 2,
    BHOST_COMPUTE_F16 = 3,
    BHOST_COMPUTE_BF16 = 4,
    BHOST_COMPUTE_INT8 = 5  /* int8 dot products (VNNI where the CPU has it) */
};

/* (1.1) What one instance's work is (bhost_bench_desc.work_profile). */
typedef struct bhost_work_profile {
    uint32_t struct_size;        /* set by the CALLER (the host) */
    bhost_access access;
    bhost_compute compute;
    uint32_t threads;            /* threads the work runs on; 0 unknown */
    uint64_t working_set_bytes;  /* bytes touched per iteration; 0 unknown */
} bhost_work_profile;

typedef int32_t bhost_param_type;
enum {
    BHOST_PARAM_I64 = 1, /* YAML integer */
    BHOST_PARAM_F64 = 2, /* YAML number */
    BHOST_PARAM_STR = 3, /* YAML string */
    BHOST_PARAM_BOOL = 4 /* YAML true/false; read with param_i64 as 0/1 */
};

/* Capability bits: macros, because enum constants must fit int. */
typedef uint64_t bhost_caps;
#define BHOST_CAP_F64 (UINT64_C(1) << 0)
#define BHOST_CAP_F16 (UINT64_C(1) << 1)
#define BHOST_CAP_BF16 (UINT64_C(1) << 2)
#define BHOST_CAP_I8 (UINT64_C(1) << 3)
#define BHOST_CAP_UNIFIED_MEM (UINT64_C(1) << 4) /* host can map buffers */
#define BHOST_CAP_EVENT_TIMING (UINT64_C(1) << 5) /* device-side events */
#define BHOST_CAP_PINNED_HOST (UINT64_C(1) << 6)
#define BHOST_CAP_KERNEL_GEMM (UINT64_C(1) << 16)
#define BHOST_CAP_KERNEL_AXPY (UINT64_C(1) << 17)
#define BHOST_CAP_KERNEL_REDUCE (UINT64_C(1) << 18)
/* Bits 0..31 are bhost's; 32..63 are free for vendor-specific meanings. */
#define BHOST_CAPS_KNOWN (UINT64_C(0x7F) | (UINT64_C(7) << 16))

/* Opaque handles. Whoever creates one destroys it. */
typedef struct bhost_host bhost_host;     /* host-owned context of one case */
typedef struct bhost_dev bhost_dev;       /* backend-owned from here down */
typedef struct bhost_buf bhost_buf;
typedef struct bhost_stream bhost_stream;
typedef struct bhost_event bhost_event;

/* ---- Host API: a table handed to init(). Append-only. ------------------- */

typedef struct bhost_host_api {
    uint32_t struct_size;     /* sizeof as compiled into the host */
    uint32_t abi_minor;       /* the host's BHOST_ABI_MINOR */
    const char *host_version; /* host-owned, static */

    /* [any-thread] Logs msg (copied before return) into the case log. h may
     * be NULL outside a case (init, device_count, device_info); the host
     * then attributes the line to the plugin. */
    void(BHOST_ABI *log)(bhost_host *h, bhost_log_level level, const char *msg);

    /* [any-thread] Detail for the failing status the caller is about to
     * return; copied. The last message before a failure is the one shown.
     * h may be NULL as for log(); such a message explains, for example,
     * why device_count() found no device. */
    void(BHOST_ABI *set_error)(bhost_host *h, const char *msg);

    /* [any-thread] Accounted host memory (count, bytes, peak go into the
     * result). align is a power of two or 0 (meaning 16). Returns NULL on
     * failure. Memory one side frees for the other must come from here. */
    void *(BHOST_ABI *alloc)(bhost_host *h, uint64_t size, uint64_t align);
    /* [any-thread] Frees what alloc() returned; NULL is ignored. */
    void(BHOST_ABI *free)(bhost_host *h, void *p);

    /* [any-thread] Monotonic clock in nanoseconds. */
    uint64_t(BHOST_ABI *now_ns)(bhost_host *h);

    /* [instance] Case parameters, already checked against the descriptor's
     * types and with defaults filled in. BHOST_E_INVALID when the key is not
     * a declared parameter or has another type (I64 reads BOOL as 0/1; F64
     * also reads an I64 parameter). */
    bhost_status(BHOST_ABI *param_i64)(bhost_host *h, const char *key,
                                       int64_t *out);
    bhost_status(BHOST_ABI *param_f64)(bhost_host *h, const char *key,
                                       double *out);
    /* Copies the value into buf (NUL-terminated, truncated to cap bytes) and
     * stores its full length, without the NUL, in *len when len != NULL. */
    bhost_status(BHOST_ABI *param_str)(bhost_host *h, const char *key,
                                       char *buf, uint32_t cap, uint32_t *len);

    /* [instance] Reports a metric beyond the host-measured time (tokens/s,
     * accuracy, error vs f32). name is [a-z0-9_.]+, unit free text ("1/s",
     * "B", ""). A name reported again in the same run replaces its value.
     * Call it from verify() (untimed, once per run, after the last run());
     * setup() for a value known before timing. Never from run(): it would
     * be timed, once per call. */
    bhost_status(BHOST_ABI *report_metric)(bhost_host *h, const char *name,
                                           const char *unit,
                                           bhost_direction direction,
                                           double value);

    /* [instance] For BHOST_BENCH_MANUAL_TIMING benchmarks only: the time the
     * last run() call took, measured by the plugin, in nanoseconds. */
    bhost_status(BHOST_ABI *set_iteration_time_ns)(bhost_host *h,
                                                   uint64_t ns);

    /* [any-thread] The run's seed: every random choice a plugin makes MUST
     * derive from it so that a run can be repeated. */
    uint64_t(BHOST_ABI *seed)(bhost_host *h);

    /* [any-thread] Host extensions "bhost.host.<name>/<rev>"; NULL when
     * absent. The table is host-owned and lives as long as the process. */
    const void *(BHOST_ABI *get_extension)(bhost_host *h, const char *id);

    /* (1.1) [instance] report_metric() with the metric's kind: PERFORMANCE
     * is report_metric(); INFORMATIONAL values are recorded and shown,
     * never compared (direction is ignored); CORRECTNESS values are an
     * error that must stay at or below limit (finite, >= 0; the direction
     * must be LOWER_IS_BETTER), gated against it rather than a baseline.
     * limit is ignored for the other kinds. Same callbacks as
     * report_metric(). Check BHOST_HAS(bhost_host_api, api,
     * report_metric_kind) before calling: a 1.0 host lacks it. */
    bhost_status(BHOST_ABI *report_metric_kind)(bhost_host *h, const char *name,
                                                const char *unit,
                                                bhost_metric_kind kind,
                                                bhost_direction direction,
                                                double value, double limit);
} bhost_host_api;

/* ---- The one exported symbol -------------------------------------------- */

typedef struct bhost_entry {
    uint32_t struct_size;       /* sizeof(bhost_entry) as built */
    uint32_t abi_major;         /* BHOST_ABI_MAJOR */
    uint32_t abi_minor;         /* BHOST_ABI_MINOR */
    uint32_t flags;             /* reserved, MUST be 0 */
    const char *plugin_id;      /* reverse-DNS, e.g. "org.bhost.selftest" */
    const char *name;           /* short name used in configs: "selftest" */
    const char *plugin_version; /* "MAJOR.MINOR.PATCH" */
    const char *summary;        /* one line */

    /* [main] First call into the plugin. api stays valid until deinit()
     * returns. On failure, call api->set_error(NULL, why) and return a
     * negative status; the host then reports the plugin as not loadable. */
    bhost_status(BHOST_ABI *init)(const bhost_host_api *api);
    /* [main] Last call. Plugins MUST join threads they started. */
    void(BHOST_ABI *deinit)(void);
    /* [any-thread] The interface table for id, or NULL if not provided:
     * BHOST_IFACE_BENCHMARKS -> const bhost_bench_factory *,
     * BHOST_IFACE_BACKEND -> const bhost_backend *, third parties
     * "com.vendor.thing/1". Plugin-owned until deinit(). */
    const void *(BHOST_ABI *get_interface)(const char *id);
} bhost_entry;

/* The frozen 1.0 sizes of the tables: each ends at its last 1.0 member.
 * The host refuses a table whose struct_size is smaller (one definition,
 * used by the loader, the worker and bhost check-plugin). */
#define BHOST_ENTRY_SIZE_1_0                                                   \
    (offsetof(bhost_entry, get_interface) + sizeof(void *))
#define BHOST_BENCH_FACTORY_SIZE_1_0                                           \
    (offsetof(bhost_bench_factory, get) + sizeof(void *))
#define BHOST_BENCH_DESC_SIZE_1_0                                              \
    (offsetof(bhost_bench_desc, items_per_iter) + sizeof(void *))
#define BHOST_PARAM_DESC_SIZE_1_0 (offsetof(bhost_param_desc, max) + sizeof(double))
#define BHOST_BACKEND_SIZE_1_0                                                 \
    (offsetof(bhost_backend, get_kernel) + sizeof(void *))

/* Declared so that a C++ definition gets external C linkage. Define it
 * without repeating BHOST_EXPORT:
 *   const bhost_entry bhost_entry_v1 = { sizeof(bhost_entry), ... };       */
BHOST_EXPORT extern const bhost_entry bhost_entry_v1;

/* ---- Backend interface "bhost.backend/1" -------------------------------- */

typedef struct bhost_device_info {
    uint32_t struct_size; /* set by the CALLER; the callee writes only
                             fields that fit */
    uint32_t compute_units;       /* SMs, CUs, EUs, cores; 0 if unknown */
    char name[256];               /* copied out: no lifetime rules */
    char vendor[64];
    char driver_version[64];
    char runtime_version[64];
    uint64_t global_mem_bytes;
    bhost_caps caps;
    double timer_resolution_ns;   /* of event_elapsed_ns() */
    double clock_mhz;             /* nominal; 0 if unknown */
} bhost_device_info;

/* Buffer flags for alloc(). */
#define BHOST_MEM_DEVICE 0u        /* device-local (default) */
#define BHOST_MEM_HOST_PINNED 1u   /* page-locked host memory */
#define BHOST_MEM_HOST_VISIBLE 2u  /* mappable through map() */

typedef struct bhost_backend {
    uint32_t struct_size;
    uint32_t reserved;
    const char *id; /* "cpu", "cuda", "hip", "level-zero", "vulkan", ... */

    /* [main] Number of usable devices. A backend loads its vendor runtime
     * lazily here: no runtime or no device is *count = 0, BHOST_OK, and a
     * reason through api->set_error(NULL, ...); never a crash. */
    bhost_status(BHOST_ABI *device_count)(uint32_t *count);
    /* [main] Fills *out (out->struct_size set by the caller). */
    bhost_status(BHOST_ABI *device_info)(uint32_t index,
                                         bhost_device_info *out);
    /* [main] Opens device index for the case h. *out is backend-owned until
     * close(). */
    bhost_status(BHOST_ABI *open)(uint32_t index, bhost_host *h,
                                  bhost_dev **out);
    void(BHOST_ABI *close)(bhost_dev *dev);

    /* [instance] Memory. A buffer from alloc() is released only by free(). */
    bhost_status(BHOST_ABI *alloc)(bhost_dev *dev, uint64_t bytes,
                                   uint32_t flags, bhost_buf **out);
    void(BHOST_ABI *free)(bhost_dev *dev, bhost_buf *buf);
    /* Host pointer to a HOST_VISIBLE/PINNED buffer (or any buffer with
     * BHOST_CAP_UNIFIED_MEM), valid until free(); NULL if not mappable. */
    void *(BHOST_ABI *map)(bhost_dev *dev, bhost_buf *buf);

    /* [instance] Copies, ordered on stream s (NULL = the default stream).
     * They may return before completion; stream_sync() waits. */
    bhost_status(BHOST_ABI *copy_h2d)(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n);
    bhost_status(BHOST_ABI *copy_d2h)(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n);
    bhost_status(BHOST_ABI *copy_d2d)(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n);

    /* [instance] Streams and completion. */
    bhost_status(BHOST_ABI *stream_create)(bhost_dev *dev,
                                           bhost_stream **out);
    void(BHOST_ABI *stream_destroy)(bhost_dev *dev, bhost_stream *s);
    bhost_status(BHOST_ABI *stream_sync)(bhost_dev *dev, bhost_stream *s);
    bhost_status(BHOST_ABI *device_sync)(bhost_dev *dev);

    /* [instance] Device-side timing (CUDA/HIP events, Level Zero kernel
     * timestamps, Vulkan timestamp queries; the CPU backend reads a clock).
     * event_elapsed_ns() requires both events complete (sync first). */
    bhost_status(BHOST_ABI *event_create)(bhost_dev *dev, bhost_event **out);
    void(BHOST_ABI *event_destroy)(bhost_dev *dev, bhost_event *e);
    bhost_status(BHOST_ABI *event_record)(bhost_dev *dev, bhost_stream *s,
                                          bhost_event *e);
    bhost_status(BHOST_ABI *event_elapsed_ns)(bhost_dev *dev,
                                              const bhost_event *start,
                                              const bhost_event *end,
                                              uint64_t *ns);

    /* [instance] Optional kernel table by id (BHOST_KERNEL_*); NULL when
     * the device lacks it. Backend-owned until close(). */
    const void *(BHOST_ABI *get_kernel)(bhost_dev *dev, const char *id);
} bhost_backend;

/* C = alpha * op(A) * op(B) + beta * C, column-major as BLAS. */
typedef struct bhost_gemm_args {
    uint32_t struct_size;
    bhost_dtype a_type;
    bhost_dtype b_type;
    bhost_dtype c_type;
    bhost_dtype compute_type;
    uint32_t trans_a; /* 0 or 1 */
    uint32_t trans_b; /* 0 or 1 */
    uint32_t reserved;
    uint64_t m, n, k;
    uint64_t lda, ldb, ldc;
    double alpha, beta;
    const bhost_buf *a;
    const bhost_buf *b;
    bhost_buf *c;
} bhost_gemm_args;

/* y = alpha * x + y over n elements. */
typedef struct bhost_axpy_args {
    uint32_t struct_size;
    bhost_dtype type;
    uint64_t n;
    double alpha;
    const bhost_buf *x;
    bhost_buf *y;
} bhost_axpy_args;

typedef int32_t bhost_reduce_op;
enum { BHOST_REDUCE_SUM = 1, BHOST_REDUCE_MIN = 2, BHOST_REDUCE_MAX = 3 };

/* result[0] = op(x[0..n)), result in the same dtype. */
typedef struct bhost_reduce_args {
    uint32_t struct_size;
    bhost_dtype type;
    bhost_reduce_op op;
    uint32_t reserved;
    uint64_t n;
    const bhost_buf *x;
    bhost_buf *result;
} bhost_reduce_args;

/* Each kernel id maps to its own small table, so each can grow alone. */
typedef struct bhost_kernel_gemm {
    uint32_t struct_size;
    uint32_t reserved;
    bhost_status(BHOST_ABI *run)(bhost_dev *dev, bhost_stream *s,
                                 const bhost_gemm_args *args);
} bhost_kernel_gemm;

typedef struct bhost_kernel_axpy {
    uint32_t struct_size;
    uint32_t reserved;
    bhost_status(BHOST_ABI *run)(bhost_dev *dev, bhost_stream *s,
                                 const bhost_axpy_args *args);
} bhost_kernel_axpy;

typedef struct bhost_kernel_reduce {
    uint32_t struct_size;
    uint32_t reserved;
    bhost_status(BHOST_ABI *run)(bhost_dev *dev, bhost_stream *s,
                                 const bhost_reduce_args *args);
} bhost_kernel_reduce;

/* ---- Benchmark interface "bhost.benchmarks/1" --------------------------- */

/* One accepted parameter. The host checks YAML values against it. */
typedef struct bhost_param_desc {
    uint32_t struct_size;
    bhost_param_type type;
    const char *key;           /* [a-z0-9_]+ */
    const char *summary;
    const char *default_value; /* text in YAML scalar form; NULL = required */
    const char *const *choices; /* STR only: NULL-terminated list, or NULL */
    double min;                /* I64/F64: inclusive range when min <= max; */
    double max;                /*   min > max means unbounded               */
} bhost_param_desc;

/* min and max of a parameter without a range (any min > max says so):
 * `.min = BHOST_UNBOUNDED_MIN, .max = BHOST_UNBOUNDED_MAX`, or the pair
 * BHOST_UNBOUNDED in a positional initializer. */
#define BHOST_UNBOUNDED_MIN 1.0
#define BHOST_UNBOUNDED_MAX 0.0
#define BHOST_UNBOUNDED BHOST_UNBOUNDED_MIN, BHOST_UNBOUNDED_MAX

/* Descriptor flags. */
#define BHOST_BENCH_NEEDS_DEVICE 1u   /* runs on a backend device */
#define BHOST_BENCH_MANUAL_TIMING 2u  /* run() reports its own time */
/* (1.1) The benchmark measures a ceiling of the machine (a bandwidth at a
 * working-set size, a peak rate of one arithmetic type): its throughput,
 * with its work_profile, becomes one of the run's roofs. */
#define BHOST_BENCH_CEILING 4u
/* (1.2) The benchmark runs on every rank of one launch; its I64 parameter
 * "ranks" is the number of processes (bhost/ranks.h). A host older than
 * 1.2 ignores the flag and runs one process. */
#define BHOST_BENCH_MULTI_RANK 8u

typedef struct bhost_bench_desc {
    uint32_t struct_size;
    uint32_t flags;                 /* BHOST_BENCH_* */
    const char *id;                 /* [a-z0-9_.-]+, unique in the plugin */
    const char *summary;
    /* param_count entries. Consumers step through the array by
     * params[0].struct_size bytes, not by their own sizeof, so the element
     * type can grow in a 1.x release; every element MUST carry the same
     * struct_size. */
    const bhost_param_desc *params;
    uint32_t param_count;
    uint32_t reserved;
    bhost_caps required_caps; /* the host skips devices lacking any bit */

    /* Lifecycle, all [instance]: create -> setup (untimed) -> run(N) timed
     * by the HOST, repeatedly -> verify (untimed) -> destroy. be and dev are
     * NULL unless BHOST_BENCH_NEEDS_DEVICE. *inst is plugin-owned until
     * destroy(). Parameters are read with the host API during create(). */
    bhost_status(BHOST_ABI *create)(bhost_host *h, const bhost_backend *be,
                                    bhost_dev *dev, void **inst);
    bhost_status(BHOST_ABI *setup)(void *inst, bhost_stream *s);
    /* Does 'iterations' repetitions of the work. Device work is enqueued on
     * s; the host records events around the call and syncs. */
    bhost_status(BHOST_ABI *run)(void *inst, bhost_stream *s,
                                 uint64_t iterations);
    /* Checks the output of the last run() against a reference; returns
     * BHOST_E_VERIFY (with set_error) on mismatch. MUST be provided. */
    bhost_status(BHOST_ABI *verify)(void *inst);
    void(BHOST_ABI *destroy)(void *inst);

    /* Work per iteration for throughput figures; each may be NULL. */
    double(BHOST_ABI *flops_per_iter)(void *inst);
    double(BHOST_ABI *bytes_per_iter)(void *inst);
    double(BHOST_ABI *items_per_iter)(void *inst);

    /* (1.1) [instance] What the work is (working-set bytes, access,
     * arithmetic type, threads), so that the host holds the case against
     * the right ceiling. Called after setup(); out->struct_size is set by
     * the host, the plugin fills the rest. May be NULL (unknown: the host
     * then uses the DRAM read-write bandwidth and no compute class). */
    bhost_status(BHOST_ABI *work_profile)(void *inst, bhost_work_profile *out);
} bhost_bench_desc;

typedef struct bhost_bench_factory {
    uint32_t struct_size;
    uint32_t reserved;
    /* [any-thread] Number of benchmarks; stable between init and deinit. */
    uint32_t(BHOST_ABI *count)(void);
    /* [any-thread] Descriptor index, plugin-owned until deinit(); NULL when
     * index >= count(). */
    const bhost_bench_desc *(BHOST_ABI *get)(uint32_t index);
} bhost_bench_factory;

/* ---- Helpers for benchmark code (not part of the binary interface) ----- */

/* Keeps the compiler from deleting the computation that produced *p. */
static inline void bhost_do_not_optimize(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    static const void *volatile sink;
    sink = p;
#endif
}

/* Forces pending memory writes to be considered observed. */
static inline void bhost_clobber_memory(void)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__ __volatile__("" : : : "memory");
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* BHOST_PLUGIN_H */
