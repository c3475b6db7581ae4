// SPDX-License-Identifier: MIT
/*
 * bhost/backend_helper.h -- an optional static helper for backend plugins
 * (libbhost_backend_helper.a; pkg-config bhost-backend-helper), linked into
 * each in-tree backend (cpu, cuda, hip, level-zero, opencl, vulkan) and the
 * backend template: the "backend-x: " messages, handle checks, the glue
 * between the bhost.backend/1 table and a backend's loader, kernel-table
 * lookup and the argument checks that read the same everywhere. Nothing
 * here touches a vendor runtime: that stays in each backend. Not part of
 * the ABI: a plugin links its own copy, so it may change between releases.
 *
 * A backend describes itself once in a bh_be (name, handle magics, loader
 * functions) and passes it to every call. Its handles start with the
 * fields of the heads below, in that order; BH_BE_CHECK_LAYOUT() proves
 * it at compile time. The shared code reads a head with memcpy (no
 * aliasing of the backend's own struct types) and the magic alone first,
 * so a foreign handle is read no further than the backend itself would.
 *
 * Thread context: as the backend function that calls in; nothing here
 * keeps state beyond the bh_be the backend owns.
 */
#ifndef BHOST_BACKEND_HELPER_H
#define BHOST_BACKEND_HELPER_H

#include <stddef.h>
#include <stdint.h>

#include <bhost/plugin.h>

#include <bhost/accel.h>
#include <bhost/sci_kernels.h>

#if defined(__GNUC__) || defined(__clang__)
#define BH_BE_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define BH_BE_PRINTF(fmt, args)
#endif

/* One backend plugin, as the shared code needs it. The backend defines
 * one (not const: init() stores api) and passes its address everywhere. */
typedef struct bh_be {
    const char *name;          /* "backend-cuda": every message's prefix */
    const bhost_host_api *api; /* from bh_be_init(); NULL before, after */
    uint32_t dev_magic;        /* the magic of each kind of handle */
    uint32_t buf_magic;
    uint32_t stream_magic;
    uint32_t event_magic;
    /* The backend's loader, for device_count() and device_info() [main]:
     * load the runtime (idempotent; not BHOST_OK: load_error() says why),
     * the reason for 0 devices, the device count, one description. NULL
     * for a backend that answers those itself (cpu). */
    bhost_status (*load)(void);
    const char *(*load_error)(void);
    uint32_t (*count)(void);
    void (*describe)(uint32_t index, bhost_device_info *info);
    /* The kernel or extension table for id (not NULL) of a checked
     * device, or NULL. [instance] */
    const void *(*kernel)(bhost_dev *dev, const char *id);
} bh_be;

/* The first fields of a backend's struct bhost_dev. */
typedef struct bh_be_dev_head {
    uint32_t magic;
    uint32_t index; /* as passed to open() */
    bhost_host *h;  /* the case that opened it */
} bh_be_dev_head;

/* The first fields of a backend's struct bhost_buf. */
typedef struct bh_be_buf_head {
    uint32_t magic;
    uint32_t flags;
    bhost_dev *dev; /* owner */
    uint64_t size;  /* bytes */
} bh_be_buf_head;

/* The first fields of a backend's struct bhost_stream and bhost_event
 * (the second word is the backend's own). */
typedef struct bh_be_obj_head {
    uint32_t magic;
    uint32_t own;
    bhost_dev *dev; /* owner */
} bh_be_obj_head;

/* 1 when field of the backend struct `type` lies where head has it. */
#define BH_BE_SAME(type, head, field)                                          \
    (offsetof(type, field) == offsetof(head, field) &&                         \
     sizeof(((type *)0)->field) == sizeof(((head *)0)->field))

/* Proves, once per backend after its handle structs, that they start
 * with the heads. */
#define BH_BE_CHECK_LAYOUT()                                                   \
    _Static_assert(BH_BE_SAME(struct bhost_dev, bh_be_dev_head, magic) &&      \
                       BH_BE_SAME(struct bhost_dev, bh_be_dev_head, index) &&  \
                       BH_BE_SAME(struct bhost_dev, bh_be_dev_head, h),        \
                   "struct bhost_dev must start as bh_be_dev_head");           \
    _Static_assert(BH_BE_SAME(struct bhost_buf, bh_be_buf_head, magic) &&      \
                       BH_BE_SAME(struct bhost_buf, bh_be_buf_head, dev) &&    \
                       BH_BE_SAME(struct bhost_buf, bh_be_buf_head, size),     \
                   "struct bhost_buf must start as bh_be_buf_head");           \
    _Static_assert(BH_BE_SAME(struct bhost_stream, bh_be_obj_head, magic) &&   \
                       BH_BE_SAME(struct bhost_stream, bh_be_obj_head, dev),   \
                   "struct bhost_stream must start as bh_be_obj_head");        \
    _Static_assert(BH_BE_SAME(struct bhost_event, bh_be_obj_head, magic) &&    \
                       BH_BE_SAME(struct bhost_event, bh_be_obj_head, dev),    \
                   "struct bhost_event must start as bh_be_obj_head")

/* ---- bh_be_report.c: messages ------------------------------------------ */

/* set_error(h, "<name>: " fmt...) (at most 511 bytes) and returns st.
 * Before init() nothing is reported. */
bhost_status bh_be_fail(const bh_be *be, bhost_host *h, bhost_status st,
                        const char *fmt, ...) BH_BE_PRINTF(4, 5);
/* log(h, level, "<name>: " fmt...), the same way. */
void bh_be_log(const bh_be *be, bhost_host *h, bhost_log_level level,
               const char *fmt, ...) BH_BE_PRINTF(4, 5);
/* An informational metric of the case h (a count, a clock: recorded and
 * shown, never compared; plugin-api/README.md section 6.2) through
 * report_metric_kind(); dropped on a 1.0 host, which lacks it, and before
 * init(). Returns the host's status, BHOST_OK when dropped. [instance] */
bhost_status bh_be_metric_info(const bh_be *be, bhost_host *h, const char *name,
                               const char *unit, double value);

/* ---- bh_be_handles.c: handle checks ------------------------------------ */

/* The case that opened dev (a device checked by bh_be_check_dev). */
bhost_host *bh_be_host_of(const bhost_dev *dev);
/* BHOST_OK when dev is an open device of be, else BHOST_E_INVALID after
 * "<op>: NULL|invalid device handle" (set_error(NULL): there is no case to
 * name). */
bhost_status bh_be_check_dev(const bh_be *be, const bhost_dev *dev,
                             const char *op);
/* BHOST_OK when s is NULL or a stream of dev (checked), else
 * BHOST_E_INVALID after "<op>: stream is not a stream of this device". */
bhost_status bh_be_check_stream(const bh_be *be, const bhost_dev *dev,
                                const bhost_stream *s, const char *op);
/* The stream s names: def (the device's default) for NULL, s for a
 * stream of dev; NULL after bh_be_check_stream()'s message. */
bhost_stream *bh_be_stream_of(const bh_be *be, const bhost_dev *dev,
                              bhost_stream *def, bhost_stream *s,
                              const char *op);
/* BHOST_OK when buf is a live buffer of dev and [off, off + n) lies in
 * it, else BHOST_E_INVALID after "<op>: <what> is not a live buffer of
 * this device" or "... range [off, +n) exceeds buffer size N". */
bhost_status bh_be_check_range(const bh_be *be, const bhost_dev *dev,
                               const bhost_buf *buf, uint64_t off,
                               uint64_t n, const char *op, const char *what);
/* BHOST_OK when e is an event of dev, else BHOST_E_INVALID after "<op>:
 * <what> is not an event of this device". */
bhost_status bh_be_check_event(const bh_be *be, const bhost_dev *dev,
                               const bhost_event *e, const char *op,
                               const char *what);
/* The common start of a kernel call once dev is checked: the stream in
 * *t (bh_be_stream_of), then args not NULL ("<op>: NULL args"). */
bhost_status bh_be_call(const bh_be *be, const bhost_dev *dev,
                        bhost_stream *def, bhost_stream *s, const void *args,
                        const char *op, bhost_stream **t);

/* ---- bh_be_entry.c: the plugin entry and the table's device queries ---- */

/* init(): keeps api in be. BHOST_E_VERSION for NULL or a table older than
 * 1.0 (saying so where set_error exists). [main] */
bhost_status bh_be_init(bh_be *be, const bhost_host_api *api);
/* get_interface(): table for BHOST_IFACE_BACKEND, else NULL. [any-thread] */
const void *bh_be_interface(const char *id, const bhost_backend *table);
/* device_count() through be's loader: no runtime, driver or device is 0
 * devices and BHOST_OK, with the loader's reason set as the error. [main] */
bhost_status bh_be_device_count(const bh_be *be, uint32_t *count);
/* device_info() through be's loader: the fields that fit out->struct_size
 * (struct_size itself untouched). [main] */
bhost_status bh_be_device_info(const bh_be *be, uint32_t index,
                               bhost_device_info *out);
/* get_kernel(): be->kernel for a checked device and an id, else NULL.
 * [instance] */
const void *bh_be_get_kernel(const bh_be *be, bhost_dev *dev, const char *id);
/* Copies the fields of src (src_size bytes, starting with a uint32_t
 * struct_size) that fit in out's caller-set struct_size (>= 4), leaving
 * out's struct_size and anything beyond it alone. */
void bh_be_copy_sized(void *out, const void *src, size_t src_size);

/* ---- bh_be_kernels.c: kernel tables and argument checks ---------------- */

/* The tables a backend's get_kernel() hands out. */
typedef struct bh_be_tables {
    const void *gemm;         /* bhost_kernel_gemm */
    const void *axpy;         /* bhost_kernel_axpy */
    const void *reduce;       /* bhost_kernel_reduce */
    const void *build_stats;  /* bhost_ext_build_stats */
    const void *device_index; /* bhost_ext_device_index */
} bh_be_tables;

/* The table of t for id (NULL when unknown); *kernel = 1 for gemm, axpy
 * and reduce (which need the device's kernels), 0 otherwise. */
const void *bh_be_find_table(const bh_be_tables *t, const char *id,
                             int *kernel);
/* Checks of build_stats: dev (as bh_be_check_dev(.., "build_stats")),
 * then out (not NULL, struct_size >= 4) and mode (COLD or CACHED; last()
 * passes COLD): "build_stats: bad arguments". */
bhost_status bh_be_check_stats(const bh_be *be, const bhost_dev *dev,
                               const bhost_build_stats *out, uint32_t mode);
/* Bytes spanned by a column-major rows x cols matrix with leading
 * dimension ld and es-byte elements, or UINT64_MAX when ld < rows. */
uint64_t bh_be_span(uint64_t rows, uint64_t cols, uint64_t ld, uint64_t es);
/* gemm's operands a, b (ein-byte elements) and c (eout-byte) each inside
 * its buffer, in that order, by bh_be_check_range(.., "gemm", "a"...). */
bhost_status bh_be_check_gemm_spans(const bh_be *be, const bhost_dev *dev,
                                    const bhost_gemm_args *g, uint64_t ein,
                                    uint64_t eout);
/* A backend's check of one gemm operand: buf holds the rows x cols
 * column-major matrix with leading dimension ld and es-byte elements;
 * what is "a", "b" or "c". */
typedef bhost_status (*bh_be_matrix_check)(const bhost_dev *dev,
                                           const bhost_buf *buf, uint64_t rows,
                                           uint64_t cols, uint64_t ld,
                                           uint64_t es, const char *what);
/* check on a and b (op() applied, ein-byte elements), then on c (eout),
 * stopping at the first failure; then "gemm: c must not alias a or b". */
bhost_status bh_be_check_gemm_operands(const bh_be *be, const bhost_dev *dev,
                                       const bhost_gemm_args *g, uint64_t ein,
                                       uint64_t eout,
                                       bh_be_matrix_check check);
/* axpy's arguments for es-byte elements (es 0: the dtype is not
 * supported): the struct, es and n (< 2^61), else BHOST_E_UNSUPPORTED
 * "axpy: dtype T unsupported<types>"; then x and y in their buffers. */
bhost_status bh_be_check_axpy(const bh_be *be, const bhost_dev *dev,
                              const bhost_axpy_args *a, uint64_t es,
                              const char *types);
/* reduce's arguments the same way (reserved 0 as well), then the op
 * ("reduce: unknown op or min/max of nothing"), x and result. */
bhost_status bh_be_check_reduce(const bh_be *be, const bhost_dev *dev,
                                const bhost_reduce_args *a, uint64_t es,
                                const char *types);
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t bh_be_now_ns(void);

/* ---- bh_be_sci.c: the scientific kernel extension (bhost/sci_kernels.h) */

/* The scientific kernel tables a backend offers (NULL: not offered). */
typedef struct bh_be_sci_tables {
    const void *spmv;   /* bhost_kernel_spmv */
    const void *fft;    /* bhost_kernel_fft */
    const void *conv2d; /* bhost_kernel_conv2d */
} bh_be_sci_tables;

/* The table of t for id, or NULL when id is none of them. */
const void *bh_be_find_sci(const bh_be_sci_tables *t, const char *id);
/* spmv's arguments for es-byte values (es 0: the dtype is unsupported):
 * the struct, es, index_type I32, reserved 0, rows, cols and nnz below
 * 2^31, else BHOST_E_UNSUPPORTED "spmv: ... unsupported<types>"; then
 * each buffer's range and y apart from the others (BHOST_E_INVALID). */
bhost_status bh_be_check_spmv(const bh_be *be, const bhost_dev *dev,
                              const bhost_spmv_args *a, uint64_t es,
                              const char *types);
/* fft's arguments for es-byte parts: the struct, es, n (a power of two
 * when pow2 is 1) and n x batch below 2^31, else BHOST_E_UNSUPPORTED;
 * direction, reserved 0, in and out ranges, out != in (BHOST_E_INVALID). */
bhost_status bh_be_check_fft(const bh_be *be, const bhost_dev *dev,
                             const bhost_fft_args *a, uint64_t es, int pow2,
                             const char *types);
/* conv2d's arguments for es-byte elements: the struct and es (else
 * BHOST_E_UNSUPPORTED), then the shape (strides >= 1, groups dividing c
 * and k, the filter inside the padded image, every count below 2^31:
 * BHOST_E_INVALID), the output size into *p, *q, then the ranges. */
bhost_status bh_be_check_conv2d(const bh_be *be, const bhost_dev *dev,
                                const bhost_conv2d_args *a, uint64_t es,
                                const char *types, uint64_t *p, uint64_t *q);

/* ---- bh_be_loader.c: loading a vendor runtime -------------------------- */

/* dlopen(RTLD_NOW | RTLD_LOCAL) of the file named by environment variable
 * env (when set and not empty), else of the first of names[0..n) that
 * loads. The name tried last goes into name (cap bytes; NULL: not
 * wanted). NULL when nothing loads, with the last dlerror() (or "not
 * found") in *err. */
void *bh_be_dlopen(const char *env, const char *const *names, size_t n,
                   char *name, size_t cap, const char **err);
/* Resolves symbol name of lib into the function pointer at slot; 0 when
 * absent (then *slot is NULL). */
int bh_be_sym(void *lib, const char *name, void *slot);
/* Writes fmt... into buf (cap bytes): why loading stopped; returns
 * BHOST_E_UNSUPPORTED. */
bhost_status bh_be_stop(char *buf, size_t cap, const char *fmt, ...)
    BH_BE_PRINTF(3, 4);

#endif /* BHOST_BACKEND_HELPER_H */
