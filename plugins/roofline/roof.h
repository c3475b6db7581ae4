// SPDX-License-Identifier: MIT
/*
 * roof.h -- internal interface of the roof plugin (plugins/roofline): the
 * ceilings of the machine measured in the same run as the cases, each a
 * benchmark flagged BHOST_BENCH_CEILING (plugin-api/README.md section
 * 6.1). bench_bw.c measures read, write and triad bandwidth at each memory
 * level, bench_peak.c the multiply-add peak of each arithmetic type; the
 * kernels and the working-set rule are the core library in core/.
 */
#ifndef BH_ROOF_H
#define BH_ROOF_H

#include <bhost/plugin.h>

#include "bh_plugin.h"

/* The host API from init(); valid until deinit() returns. */
extern const bhost_host_api *bh_roof_api;

extern const bhost_bench_desc bh_roof_bw;
extern const bhost_bench_desc bh_roof_peak;

/* The threads parameter, in [0, 256]. */
#define BH_ROOF_PARAM_THREADS                                                                      \
    BH_PARAM_I64("threads", "Threads; 0 = all (BHOST_CPU_THREADS or every CPU)", "0", 0, 256)

/* Reads the threads parameter into *out, 0 resolved to
 * bh_plugin_cpu_threads(); the reader's status on failure, its message
 * prefixed with prefix. [instance] */
bhost_status bh_roof_threads(bhost_host *h, const char *prefix, unsigned *out);

/* Memory from the host's accounted allocator, 64-byte aligned; NULL when
 * it has none. [any-thread] */
void *bh_roof_alloc(bhost_host *h, size_t bytes);

/* Frees what bh_roof_alloc returned (NULL is fine). [any-thread] */
void bh_roof_free(bhost_host *h, void *p);

#endif /* BH_ROOF_H */
