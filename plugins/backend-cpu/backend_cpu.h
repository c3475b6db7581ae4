// SPDX-License-Identifier: MIT
/*
 * backend_cpu.h -- internal interface of the CPU backend plugin.
 *
 * A "device" is the whole machine, or with BHOST_CPU_DEVICES=numa one NUMA
 * node (cpu_topo.c, hwloc). Buffers are 64-byte aligned host memory (bound
 * to the node of a NUMA device), streams are synchronous queues (work runs
 * at submission), events read CLOCK_MONOTONIC. The OpenBLAS thread count
 * of a device is BHOST_CPU_THREADS, else its CPUs. backend_cpu.c serves
 * the bhost.backend/1 table, cpu_info.c describes devices, cpu_kernels.c
 * serves the BLAS-backed kernel tables, cpu_convert.c the half-precision
 * inputs of gemm.
 */
#ifndef BH_BACKEND_CPU_H
#define BH_BACKEND_CPU_H

#include <bhost/plugin.h>

#include <bhost/backend_helper.h>

/* Handle tags: catch a handle of the wrong kind or one already freed. */
#define BH_CPU_DEV_MAGIC 0x43505544u    /* "CPUD" */
#define BH_CPU_BUF_MAGIC 0x43505542u    /* "CPUB" */
#define BH_CPU_STREAM_MAGIC 0x43505553u /* "CPUS" */
#define BH_CPU_EVENT_MAGIC 0x43505545u  /* "CPUE" */

#define BH_CPU_ALIGN 64u
#define BH_CPU_MAX_DEVICES 64u

/* What cpu_topo.c knows of one device. */
typedef struct bh_cpu_dev_desc {
    int32_t numa_node;  /* OS index of its NUMA node; -1 = the machine */
    uint32_t cpus;      /* CPUs it may run on */
    uint32_t threads;   /* OpenBLAS threads: BHOST_CPU_THREADS or cpus */
    uint32_t reserved;
    uint64_t mem_bytes; /* memory of its node(s); 0 if unknown */
} bh_cpu_dev_desc;

struct bhost_dev {
    uint32_t magic;
    uint32_t index;     /* device index (cpu_topo.c) */
    bhost_host *h;      /* the case that opened it; for set_error/log */
    uint64_t live_bufs; /* alloc() minus free(), reported at close() */
    float *scratch;     /* f32 copies of half-precision gemm inputs */
    uint64_t scratch_elems;
};

struct bhost_buf {
    uint32_t magic;
    uint32_t flags; /* BHOST_MEM_* as requested */
    bhost_dev *dev; /* owner */
    uint64_t size;  /* bytes */
    void *ptr;      /* BH_CPU_ALIGN-aligned host memory */
    uint32_t bound; /* 1: hwloc_alloc_membind (NUMA node), 0: heap */
    uint32_t reserved;
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

/* This backend for the shared code (bhost/backend_helper.h): messages
 * start "backend-cpu: ", handles are checked against its magics. The host
 * API from init() is bh_cpu_be.api. */
extern bh_be bh_cpu_be;
#define bh_cpu_fail(h, st, ...) bh_be_fail(&bh_cpu_be, h, st, __VA_ARGS__)
#define bh_cpu_log(h, level, ...) bh_be_log(&bh_cpu_be, h, level, __VA_ARGS__)
#define bh_cpu_check_dev(dev, op) bh_be_check_dev(&bh_cpu_be, dev, op)
/* s may be NULL (the default stream). */
#define bh_cpu_check_stream(dev, s, op)                                        \
    bh_be_check_stream(&bh_cpu_be, dev, s, op)
#define bh_cpu_check_event(dev, e, op, what)                                   \
    bh_be_check_event(&bh_cpu_be, dev, e, op, what)

/* BHOST_OK when buf is a live buffer of dev and [off, off + n) lies inside
 * it, else BHOST_E_INVALID after set_error naming op and what. dev must
 * already be checked. [instance] */
bhost_status bh_cpu_check_range(const bhost_dev *dev, const bhost_buf *buf,
                                uint64_t off, uint64_t n, const char *op,
                                const char *what);

/* Fills every field of *info (struct_size included) for device index
 * (loaded by bh_cpu_topo_load). Never fails; unknown values are 0 or
 * "unknown". [main] */
void bh_cpu_describe(uint32_t index, bhost_device_info *info);

/* The kernel table for id (BHOST_KERNEL_*), or NULL when not provided.
 * Tables are static. [instance] */
const void *bh_cpu_kernel(bhost_dev *dev, const char *id);

/* Sets the BLAS thread count (openblas_set_num_threads where available).
 * [main] */
void bh_cpu_blas_threads(uint32_t n);

/* ---- cpu_topo.c ---------------------------------------------------------- */

/* Reads BHOST_CPU_DEVICES and BHOST_CPU_THREADS and enumerates the devices
 * (hwloc; one heap-only device when hwloc fails). Idempotent. Returns
 * BHOST_E_INVALID for a malformed variable (bh_cpu_topo_error() says
 * which). [main] */
bhost_status bh_cpu_topo_load(void);
const char *bh_cpu_topo_error(void);
uint32_t bh_cpu_topo_count(void);
/* The description of device index, or NULL. [any-thread] */
const bh_cpu_dev_desc *bh_cpu_topo_desc(uint32_t index);
/* Binds the process to a NUMA device's CPUs (no-op for the machine).
 * 0 or -1. [main] */
int bh_cpu_topo_bind(uint32_t index);
/* bytes of BH_CPU_ALIGN-aligned memory for device index: bound to its
 * node when possible (*bound = 1), else heap. NULL when out of memory.
 * Release with bh_cpu_topo_free(p, bytes, bound). [instance] */
void *bh_cpu_topo_alloc(uint32_t index, size_t bytes, int *bound);
void bh_cpu_topo_free(void *p, size_t bytes, int bound);
/* Releases the topology (deinit). [main] */
void bh_cpu_topo_unload(void);

/* ---- cpu_convert.c ------------------------------------------------------- */

/* dst[i] = the f32 value of the bf16 (bf16 != 0) or IEEE half src[i]
 * (F16C when the CPU has it). [any-thread] */
void bh_cpu_half_to_f32(const uint16_t *src, float *dst, uint64_t n,
                        int bf16);

/* OpenBLAS's cblas_sbgemm when the loaded library exports it (Debian's
 * 0.3.21 does not), else NULL; looked up once. [any-thread] */
typedef void (*bh_cpu_sbgemm_fn)(int order, int ta, int tb, int m, int n,
                                 int k, float alpha, const uint16_t *a,
                                 int lda, const uint16_t *b, int ldb,
                                 float beta, float *c, int ldc);
bh_cpu_sbgemm_fn bh_cpu_sbgemm(void);

#endif /* BH_BACKEND_CPU_H */
