// SPDX-License-Identifier: MIT
/*
 * sd_device.h -- what the scientific plugin's device cases (device.spmv,
 * device.fft, device.conv2d) share: the backend kernel table of the case
 * (bhost/sci_kernels.h; a backend without it makes the case unsupported
 * with the reason), the device buffers the case allocates (freed
 * together), uploads and read-backs in the case's dtype from double host
 * arrays, the error accumulator that verify() reports as
 * verify.max_abs_err and verify.err_to_tol, and the throughput and
 * work-profile callbacks. Device time is the host's: these cases run on
 * the stream they are given and the host times them with the backend's
 * events, like the accel suite's kernels.
 */
#ifndef SD_DEVICE_H
#define SD_DEVICE_H

#include "scientific.h"

#include <bhost/sci_kernels.h>

#define SD_MAX_BUFS 8

/* What every device instance starts with. */
typedef struct sd_base {
    bhost_host *h;
    const bhost_backend *be;
    bhost_dev *dev;
    const char *bench;  /* "device.spmv": every message's prefix */
    const void *kernel; /* the table: {struct_size, reserved, run} */
    bhost_dtype type;   /* F32 or F64 */
    uint32_t nbufs;
    uint64_t es;         /* bytes per element of type */
    double unit;         /* unit roundoff of type */
    double flops, bytes; /* work per iteration */
    bhost_buf *bufs[SD_MAX_BUFS];
} sd_base;

/* Fills b for bench on be/dev and finds the kernel table id:
 * BHOST_E_UNSUPPORTED "bench: backend 'x' has no id" when the backend
 * lacks it. [instance] */
bhost_status sd_init(sd_base *b, bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                     const char *bench, const char *id);

/* Reads STR parameter "dtype" ("f32", or "f64" when f64_ok) into b. */
bhost_status sd_dtype(sd_base *b, int f64_ok);

/* A device buffer of bytes (at least 1), freed by sd_release. */
bhost_status sd_alloc(sd_base *b, uint64_t bytes, bhost_buf **out);

/* n values of src (doubles) converted to b->type and copied to buf on s
 * (synchronised). */
bhost_status sd_upload(sd_base *b, bhost_stream *s, bhost_buf *buf, const double *src, uint64_t n);

/* bytes of src copied to buf on s as they are (synchronised). */
bhost_status sd_upload_bytes(sd_base *b, bhost_stream *s, bhost_buf *buf, const void *src,
                             uint64_t bytes);

/* n values of buf (b->type) into dst as doubles, after the device has
 * finished everything queued. */
bhost_status sd_download(sd_base *b, const bhost_buf *buf, double *dst, uint64_t n);

/* Frees the device buffers of b. */
void sd_release(sd_base *b);

/* n values uniform in [-1, 1) from the case seed mixed with stream,
 * rounded to b->type. */
void sd_random(const sd_base *b, double *out, uint64_t n, uint64_t stream);

/* Host memory (64-byte aligned) of n doubles, NULL after set_error. */
double *sd_doubles(sd_base *b, uint64_t n);
/* n floats uniform in [-1, 1) from the case seed mixed with stream (host
 * memory, 64-byte aligned), NULL after set_error. */
float *sd_floats(sd_base *b, uint64_t n, uint64_t stream);
void sd_free(sd_base *b, void *p);

/* Agreement of results with their references (bh_plugin_err_add). */
typedef bh_plugin_err sd_err;
/* Reports verify.max_abs_err and verify.err_to_tol; BHOST_E_VERIFY naming
 * the worst element (what) when a ratio exceeds 1 or is not a number. */
bhost_status sd_err_report(const sd_base *b, const sd_err *e, const char *what);

/* Throughput and work profile over sd_base (threads unknown: the
 * device's; compute F32 or F64 by type). */
double BHOST_ABI sd_flops(void *inst);
double BHOST_ABI sd_bytes(void *inst);
bhost_status BHOST_ABI sd_profile_read(void *inst, bhost_work_profile *out);
bhost_status BHOST_ABI sd_profile_compute(void *inst, bhost_work_profile *out);

/* Parameter choices "f32", "f64". */
extern const char *const sd_dtypes[];
extern const char *const sd_dtypes_f32[];

#endif /* SD_DEVICE_H */
