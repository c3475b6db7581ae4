// SPDX-License-Identifier: MIT
/*
 * cl_internal.h -- internal interface of the OpenCL backend plugin.
 *
 * The ICD loader (libOpenCL.so.1) is dlopen'ed in device_count
 * (cl_loader.c); every OpenCL call goes through bh_cl. A device is one
 * cl_device_id of any platform. open() creates a context and the default
 * in-order queue with profiling (cl_device.c); streams are more such
 * queues and events are profiled markers (cl_stream.c). The kernels
 * (kernels.cl, embedded) are built at run time, through a persistent
 * program-binary cache on disk (cl_program.c), on the first get_kernel()
 * (cl_kernels.c).
 */
#ifndef BH_BACKEND_CL_INTERNAL_H
#define BH_BACKEND_CL_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <bhost/plugin.h>

#include <bhost/backend_helper.h>

#define BH_CL_FNS(X)                                                           \
    X(clGetPlatformIDs)                                                        \
    X(clGetPlatformInfo)                                                       \
    X(clGetDeviceIDs)                                                          \
    X(clGetDeviceInfo)                                                         \
    X(clCreateContext)                                                         \
    X(clReleaseContext)                                                        \
    X(clCreateCommandQueue)                                                    \
    X(clReleaseCommandQueue)                                                   \
    X(clCreateBuffer)                                                          \
    X(clReleaseMemObject)                                                      \
    X(clEnqueueWriteBuffer)                                                    \
    X(clEnqueueReadBuffer)                                                     \
    X(clEnqueueCopyBuffer)                                                     \
    X(clEnqueueMapBuffer)                                                      \
    X(clEnqueueUnmapMemObject)                                                 \
    X(clEnqueueMarkerWithWaitList)                                             \
    X(clEnqueueNDRangeKernel)                                                  \
    X(clFinish)                                                                \
    X(clFlush)                                                                 \
    X(clWaitForEvents)                                                         \
    X(clGetEventProfilingInfo)                                                 \
    X(clReleaseEvent)                                                          \
    X(clCreateProgramWithSource)                                               \
    X(clCreateProgramWithBinary)                                               \
    X(clBuildProgram)                                                          \
    X(clGetProgramBuildInfo)                                                   \
    X(clGetProgramInfo)                                                        \
    X(clReleaseProgram)                                                        \
    X(clCreateKernel)                                                          \
    X(clReleaseKernel)                                                         \
    X(clSetKernelArg)

#define BH_CL_DECLARE(name) __typeof__(&name) name;
typedef struct bh_cl_fns {
    BH_CL_FNS(BH_CL_DECLARE)
} bh_cl_fns;
#undef BH_CL_DECLARE

extern bh_cl_fns bh_cl;
extern const bhost_host_api *bh_cl_api;

#define BH_CL_DEV_MAGIC 0x434c4444u    /* "CLDD" */
#define BH_CL_BUF_MAGIC 0x434c4442u    /* "CLDB" */
#define BH_CL_STREAM_MAGIC 0x434c4453u /* "CLDS" */
#define BH_CL_EVENT_MAGIC 0x434c4445u  /* "CLDE" */
#define BH_CL_MAX_DEVICES 16u
#define BH_CL_REDUCE_GROUPS 1024u

enum {
    BH_CL_K_AXPY = 0,
    BH_CL_K_REDUCE = 1,
    BH_CL_K_GEMM = 2,
    BH_CL_K_GEMV = 3, /* gemm with C of at most 8 columns or rows */
    BH_CL_K_SPMV = 4, /* the scientific extension (cl_sci.c) */
    BH_CL_K_FFT_BITREV = 5,
    BH_CL_K_FFT_STAGE = 6,
    BH_CL_K_CONV2D = 7,
    BH_CL_KERNELS = 8
};

/* What cl_loader.c knows of one device. */
typedef struct bh_cl_phys {
    cl_platform_id platform;
    cl_device_id id;
    cl_device_type type;
    cl_uint units;
    cl_uint mhz;
    cl_ulong mem;
    size_t max_wg;
    size_t timer_res;
    int fp64;
    char name[256];
    char vendor[64];
    char version[128];  /* CL_DEVICE_VERSION */
    char driver[64];    /* CL_DRIVER_VERSION */
    char platform_name[128];
} bh_cl_phys;

/* One built program with its kernels (f32 or f64). */
typedef struct bh_cl_prog {
    cl_program prog;
    cl_kernel k[BH_CL_KERNELS];
} bh_cl_prog;

struct bhost_dev;

struct bhost_buf {
    uint32_t magic;
    uint32_t flags;
    struct bhost_dev *dev;
    uint64_t size;
    cl_mem mem;
    unsigned char *ptr;  /* mapped for HOST_VISIBLE/PINNED, else NULL */
    cl_command_queue mq; /* the queue it was mapped on */
};

struct bhost_stream {
    uint32_t magic;
    uint32_t reserved;
    struct bhost_dev *dev;
    cl_command_queue q;
    cl_mem scratch; /* reduce partials */
};

struct bhost_event {
    uint32_t magic;
    uint32_t recorded;
    struct bhost_dev *dev;
    cl_event ev;
};

#define BH_CL_MAX_STREAMS 64u

struct bhost_dev {
    uint32_t magic;
    uint32_t index;
    bhost_host *h;
    const bh_cl_phys *phys;
    cl_context ctx;
    bhost_stream *def;
    bhost_stream *streams[BH_CL_MAX_STREAMS];
    bh_cl_prog progs[2];     /* [f64] */
    bhost_build_stats stats; /* of the device's own build */
    uint64_t live_bufs;
    uint32_t kernels_tried;
    uint32_t reserved;
};

/* ---- backend_opencl.c --------------------------------------------------- */

/* This backend for the shared code (bhost/backend_helper.h): messages
 * start "backend-opencl: ", handles are checked against its magics. */
extern bh_be bh_cl_be;
#define bh_cl_fail(h, st, ...) bh_be_fail(&bh_cl_be, h, st, __VA_ARGS__)
#define bh_cl_log(h, level, ...) bh_be_log(&bh_cl_be, h, level, __VA_ARGS__)
#define bh_cl_check_dev(dev, op) bh_be_check_dev(&bh_cl_be, dev, op)
#define bh_cl_check_range(dev, buf, off, n, op, what)                          \
    bh_be_check_range(&bh_cl_be, dev, buf, off, n, op, what)
#define bh_cl_check_event(dev, e, op, what)                                    \
    bh_be_check_event(&bh_cl_be, dev, e, op, what)

/* s, or dev->def for NULL; NULL after set_error for a foreign stream. */
static inline bhost_stream *bh_cl_stream_of(bhost_dev *dev, bhost_stream *s,
                                            const char *op)
{
    return bh_be_stream_of(&bh_cl_be, dev, dev->def, s, op);
}

/* "CL_OUT_OF_RESOURCES" etc. */
const char *bh_cl_err_name(cl_int e);
/* BHOST_E_NOMEM for allocation failures, else BHOST_E_DEVICE. */
bhost_status bh_cl_status(cl_int e);

/* ---- cl_loader.c -------------------------------------------------------- */

/* Loads the ICD loader and lists every device of every platform.
 * Idempotent; the reason for 0 devices in bh_cl_load_error(). [main] */
bhost_status bh_cl_load(void);
const char *bh_cl_load_error(void);
uint32_t bh_cl_count(void);
const bh_cl_phys *bh_cl_phys_get(uint32_t index);
void bh_cl_describe(uint32_t index, bhost_device_info *info);

/* ---- cl_device.c (table entries; contracts in bhost/plugin.h) ---------- */

bhost_status BHOST_ABI bh_cl_open(uint32_t index, bhost_host *h,
                                  bhost_dev **out);
void BHOST_ABI bh_cl_close(bhost_dev *dev);
bhost_status BHOST_ABI bh_cl_alloc(bhost_dev *dev, uint64_t bytes,
                                   uint32_t flags, bhost_buf **out);
void BHOST_ABI bh_cl_free(bhost_dev *dev, bhost_buf *buf);
void *BHOST_ABI bh_cl_map(bhost_dev *dev, bhost_buf *buf);

/* ---- cl_copy.c ---------------------------------------------------------- */

bhost_status BHOST_ABI bh_cl_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n);
bhost_status BHOST_ABI bh_cl_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n);
bhost_status BHOST_ABI bh_cl_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n);

/* ---- cl_stream.c -------------------------------------------------------- */

bhost_status bh_cl_stream_new(bhost_dev *dev, bhost_stream **out);
void bh_cl_stream_free(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_cl_stream_create(bhost_dev *dev, bhost_stream **out);
void BHOST_ABI bh_cl_stream_destroy(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_cl_stream_sync(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_cl_device_sync(bhost_dev *dev);
bhost_status BHOST_ABI bh_cl_event_create(bhost_dev *dev, bhost_event **out);
void BHOST_ABI bh_cl_event_destroy(bhost_dev *dev, bhost_event *e);
bhost_status BHOST_ABI bh_cl_event_record(bhost_dev *dev, bhost_stream *s,
                                          bhost_event *e);
bhost_status BHOST_ABI bh_cl_event_elapsed_ns(bhost_dev *dev,
                                              const bhost_event *start,
                                              const bhost_event *end,
                                              uint64_t *ns);

/* ---- cl_program.c ------------------------------------------------------- */

/* Builds the kernels program for dev (f64: the double variant) into *out:
 * from the on-disk binary cache when mode is BHOST_BUILD_CACHED and a
 * binary is there (then stored back on a miss), else from source with a
 * unique define so that no driver cache can answer. Adds to *stats.
 * [instance] */
bhost_status bh_cl_build(bhost_dev *dev, int f64, uint32_t mode,
                         bh_cl_prog *out, bhost_build_stats *stats);
/* Releases the kernels and program of p. */
void bh_cl_prog_release(bh_cl_prog *p);
/* The cache directory in use ("" when caching is off). */
const char *bh_cl_cache_dir(void);

/* ---- cl_kernels.c ------------------------------------------------------- */

/* The kernel or extension table for id, or NULL; builds the device's
 * programs on first use. [instance] */
const void *bh_cl_kernel(bhost_dev *dev, const char *id);
/* Common checks of a kernel call (device, stream, args) and the device's
 * programs built; *t is the stream to enqueue on. [instance] */
bhost_status bh_cl_kernel_call(bhost_dev *dev, bhost_stream *s,
                               const void *args, const char *op,
                               bhost_stream **t);
/* Sets the arguments (sizes[i] bytes at vals[i]) of kernel k and enqueues
 * it over a 1D range of global work-items in groups of local. */
bhost_status bh_cl_launch(bhost_stream *t, cl_kernel k, cl_uint nargs,
                          const size_t *sizes, const void *const *vals,
                          size_t global, size_t local, const char *op);

/* ---- cl_sci.c ----------------------------------------------------------- */

/* The scientific kernel tables (bhost/sci_kernels.h): spmv, fft, conv2d. */
extern const bh_be_sci_tables bh_cl_sci_tables;

#endif /* BH_BACKEND_CL_INTERNAL_H */
