/*
 * backend_cpu.h -- internal interface of the CPU backend plugin.
 *
 * The "device" is the whole machine: buffers are 64-byte aligned host
 * memory, streams execute work at submission, events read CLOCK_MONOTONIC.
 * backend_cpu.c serves the bhost.backend/1 table, cpu_info.c describes the
 * machine, cpu_kernels.c serves the BLAS-backed kernel tables.
 */
#ifndef BH_BACKEND_CPU_H
#define BH_BACKEND_CPU_H

#include <bhost/plugin.h>

#if defined(__GNUC__) || defined(__clang__)
#define BH_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define BH_PRINTF(fmt, args)
#endif

/* Handle tags: catch a handle of the wrong kind or one already freed. */
#define BH_CPU_DEV_MAGIC 0x43505544u    /* "CPUD" */
#define BH_CPU_BUF_MAGIC 0x43505542u    /* "CPUB" */
#define BH_CPU_STREAM_MAGIC 0x43505553u /* "CPUS" */
#define BH_CPU_EVENT_MAGIC 0x43505545u  /* "CPUE" */

#define BH_CPU_ALIGN 64u

struct bhost_dev {
    uint32_t magic;
    uint32_t index;     /* always 0 */
    bhost_host *h;      /* the case that opened it; for set_error/log */
    uint64_t live_bufs; /* alloc() minus free(), reported at close() */
};

struct bhost_buf {
    uint32_t magic;
    uint32_t flags; /* BHOST_MEM_* as requested */
    bhost_dev *dev; /* owner */
    void *ptr;      /* BH_CPU_ALIGN-aligned host memory */
    uint64_t size;  /* bytes */
};

struct bhost_stream {
    uint32_t magic;
    uint32_t reserved;
    bhost_dev *dev; /* owner */
};

struct bhost_event {
    uint32_t magic;
    uint32_t recorded; /* 1 once event_record() ran */
    bhost_dev *dev;    /* owner */
    uint64_t ns;       /* CLOCK_MONOTONIC at the last record */
};

/* The host API from init(); valid until deinit() returns. */
extern const bhost_host_api *bh_cpu_api;

/* Formats a message prefixed "backend-cpu: ", hands it to set_error(h, ...)
 * and returns st. h may be NULL. [any-thread] */
bhost_status bh_cpu_fail(bhost_host *h, bhost_status st, const char *fmt, ...)
    BH_PRINTF(3, 4);

/* BHOST_OK when dev is an open device of this backend, else BHOST_E_INVALID
 * after set_error. [instance] */
bhost_status bh_cpu_check_dev(const bhost_dev *dev, const char *op);

/* BHOST_OK when s is NULL (the default stream) or a stream of dev, else
 * BHOST_E_INVALID after set_error. dev must already be checked. [instance] */
bhost_status bh_cpu_check_stream(const bhost_dev *dev, const bhost_stream *s,
                                 const char *op);

/* BHOST_OK when buf is a live buffer of dev and [off, off + n) lies inside
 * it, else BHOST_E_INVALID after set_error naming op and what. dev must
 * already be checked. [instance] */
bhost_status bh_cpu_check_range(const bhost_dev *dev, const bhost_buf *buf,
                                uint64_t off, uint64_t n, const char *op,
                                const char *what);

/* Fills every field of *info (struct_size included) for the whole machine.
 * Never fails; unknown values are 0 or "unknown". [main] */
void bh_cpu_describe(bhost_device_info *info);

/* The kernel table for id (BHOST_KERNEL_*), or NULL when not provided.
 * Tables are static. [instance] */
const void *bh_cpu_kernel(const char *id);

#endif /* BH_BACKEND_CPU_H */
