// SPDX-License-Identifier: MIT
/*
 * bhost/accel.h -- optional backend extensions (the accel suite uses them).
 *
 * Served like kernel tables: bhost_backend.get_kernel(dev, id) returns the
 * table, or NULL when the backend lacks it (the benchmark needing it then
 * reports "unsupported"). Same rules as bhost/plugin.h: fixed-width
 * integers, struct_size first, tables grow only at the end, -Wpadded
 * clean. The in-tree hardware backends (cuda, hip, level-zero, vulkan,
 * opencl) serve both; a third-party backend MAY.
 */
#ifndef BHOST_ACCEL_H
#define BHOST_ACCEL_H

#include <bhost/plugin.h>

/* ---- "bhost.backend.build_stats/1": kernel/pipeline build time --------- */
#define BHOST_EXT_BUILD_STATS "bhost.backend.build_stats/1"

/* Modes of build(). */
#define BHOST_BUILD_COLD 0u   /* bypass every cache the backend controls */
#define BHOST_BUILD_CACHED 1u /* use the backend's caches (memory, disk) */

typedef struct bhost_build_stats {
    uint32_t struct_size; /* set by the CALLER */
    uint32_t programs;    /* programs / modules / pipelines built */
    uint32_t cache_hits;  /* of them, served from a cache */
    uint32_t cache_misses;
    double build_ns;      /* wall time the backend spent building them */
    char cache[64];       /* what "cached" means here: "VkPipelineCache",
                             "program binaries on disk", "none" */
} bhost_build_stats;

typedef struct bhost_ext_build_stats {
    uint32_t struct_size;
    uint32_t reserved;
    /* [instance] Builds every kernel program of dev again, the way open()
     * or the first kernel use would, and discards the result (the device's
     * own kernels are untouched). mode is BHOST_BUILD_COLD or
     * BHOST_BUILD_CACHED. Fills the fields of *out that fit its
     * struct_size. BHOST_E_UNSUPPORTED (with set_error) when the backend
     * has no kernels to build. */
    bhost_status(BHOST_ABI *build)(bhost_dev *dev, uint32_t mode,
                                   bhost_build_stats *out);
    /* [instance] The stats of the build the device did for its own
     * kernels (at open or first use; programs 0 when none yet). */
    bhost_status(BHOST_ABI *last)(bhost_dev *dev, bhost_build_stats *out);
} bhost_ext_build_stats;

/* ---- "bhost.backend.device_index/1": which device a handle is -------- */
#define BHOST_EXT_DEVICE_INDEX "bhost.backend.device_index/1"

typedef struct bhost_ext_device_index {
    uint32_t struct_size;
    uint32_t reserved;
    /* [instance] The index dev was opened with (as passed to open()). */
    uint32_t(BHOST_ABI *index)(bhost_dev *dev);
} bhost_ext_device_index;

#endif /* BHOST_ACCEL_H */
