// SPDX-License-Identifier: MIT
/* Worker mode "check": the plugin-side half of `bhost check-plugin`.
 *
 * The job (see ipc.h) is {mode: "check", part, plugin, ...}; part is
 *   "static"   load the plugin step by step and check the entry, the
 *              interfaces, every benchmark descriptor and parameter, and
 *              the backend table; ends with a "check_plan" message listing
 *              the benchmarks to cycle and whether the plugin is a backend;
 *   "cycle"    {bench, backend (path or null), device} one create, setup,
 *              run(1), verify, run(3), verify, destroy at default params;
 *   "backend"  {device} the backend calls on one device.
 * Every check is one message {t: "check", id, result: PASS|FAIL|WARN,
 * reason}; before each plugin call the worker sends {t: "check_stage",
 * stage} so that the supervisor can say where a crash happened; the last
 * message is {t: "check_done"}. A crash or hang is the supervisor's to
 * report: the worker just dies. */
#ifndef BH_CHECK_PLUGIN_H
#define BH_CHECK_PLUGIN_H

#include <bhost/plugin.h>
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* Runs the check job on the worker side and sends its messages to fd.
 * Returns the worker exit status: 0 when check_done was sent (whatever
 * the checks found), 2 for a malformed job. */
int bh_check_plugin_job(const cJSON *job, int fd);

/* Sends one check line: result is "PASS", "FAIL" or "WARN"; the reason
 * is formatted from fmt and made one line. [worker] */
void bh_check_report(int fd, const char *id, const char *result,
                     const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Sends a check_stage message naming the plugin call about to be made. */
void bh_check_stage(int fd, const char *stage);

/* The plugin's last set_error() text, or "(no message)". */
const char *bh_check_last_error(void);

/* Checks the factory and every descriptor (ids, summaries, flags, params,
 * functions, capabilities). Fills plan, a JSON array, with one object
 * {id, needs_device, runnable} per descriptor that has an id. */
void bh_check_benchmarks(int fd, const bhost_bench_factory *f, cJSON *plan);

/* The "cycle" part: one benchmark through its whole lifecycle. */
int bh_check_cycle(const cJSON *job, int fd);

/* Checks the backend table (size, id, functions, file name) without
 * calling it. Returns 1 when the table can be exercised. */
int bh_check_backend_table(int fd, const bhost_backend *be, const char *path);

/* The "backend" part: the backend's calls on one device. */
int bh_check_backend(const cJSON *job, int fd);

/* Runs and verifies each known kernel the open device offers. */
void bh_check_kernels(int fd, const bhost_backend *be, bhost_dev *dev,
                      bhost_caps caps);

/* A small kernel problem of check id: its device buffers (check_kernels.c
 * has the helpers, check_kernels.c and check_sci.c the problems). */
typedef struct bh_check_kb {
    int fd;
    const char *id;
    const bhost_backend *be;
    bhost_dev *dev;
    bhost_buf *buf[5];
} bh_check_kb;

/* Sets k up for check id on dev (error cleared) and returns the table
 * get_kernel(dev, kid) gives, or NULL. */
const void *bh_check_kb_table(bh_check_kb *k, int fd, const char *check,
                              const bhost_backend *be, bhost_dev *dev,
                              const char *kid);
/* 1 when table t has at least {struct_size, reserved, run} with run set,
 * else 0 after a FAIL line. */
int bh_check_kb_table_ok(bh_check_kb *k, const void *t);
/* Allocates device buffer slot holding bytes copied from src. */
bhost_status bh_check_kb_upload(bh_check_kb *k, int slot, const void *src,
                                size_t bytes);
/* Reads n floats of buffer slot back after a sync. */
bhost_status bh_check_kb_download(bh_check_kb *k, int slot, float *dst,
                                  size_t n);
/* Reports one kernel run: WARN for UNSUPPORTED (a kernel may take only
 * some dtypes), FAIL for other errors or an inexact answer, else PASS. */
void bh_check_kb_verdict(bh_check_kb *k, bhost_status st, const float *got,
                         const float *want, size_t n);
/* Frees the buffers of k. */
void bh_check_kb_free(bh_check_kb *k);

/* Runs and verifies each table of the optional scientific kernel
 * extension (bhost/sci_kernels.h) the open device offers; a table not
 * offered passes (the extension is optional). */
void bh_check_sci(int fd, const bhost_backend *be, bhost_dev *dev);

/* Builds the cycle's typed params (key -> {type, value}) from the
 * descriptor defaults; NULL with why set when one has no usable default. */
cJSON *bh_check_default_params(const bhost_bench_desc *d, char *why,
                               size_t cap);

#endif
