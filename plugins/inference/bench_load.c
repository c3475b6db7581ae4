// SPDX-License-Identifier: MIT
/*
 * bench_load.c -- load: the time to load a model's weight file into the
 * engine (open, map or read, parse the safetensors or GGUF header, convert
 * every tensor into the engine's weights, commit them to the device), cold
 * (the file's pages dropped from the page cache before every load) or
 * warm, through mmap or read().
 *
 * The file is the `weights` path, or (weights: dummy) a fresh file written
 * in setup from a seeded model of the preset, in the chosen format and
 * element type, under $TMPDIR (else /var/tmp) and removed at the end.
 * Timed by the plugin (BHOST_BENCH_MANUAL_TIMING): the page-cache drop of a
 * cold load and the freeing of the previous model are left out.
 *
 * Ceilings: bytes per iteration = the file's size. A warm load is a read
 * of cached pages: its work profile is a read stream of the file, held
 * against the memory ceiling of its level. A cold load is bound by the
 * storage: setup times one plain sequential read() of the dropped file
 * (metric storage_read_bytes_per_s) and verify reports the load's rate as
 * a fraction of it (storage_fraction).
 *
 * Verified: the file is loaded once in setup through the other way in
 * (read for an mmap case and the reverse); written from a seeded model,
 * that load must match the model within the rounding of the file's
 * element type and the engine's weight type (error.file_vs_source). Every
 * timed load must then equal that one exactly (sampled rows of every
 * weight matrix).
 */
#define _GNU_SOURCE
#include "ip.h"
#include "ip_cache.h"

#include "ie_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SAMPLE_ROWS 16

typedef struct load_inst {
    ip_base b;
    int gguf, io_read, cold, own_file;
    char ftype[8]; /* "F32", "F16", "BF16" */
    char path[1100];
    double file_bytes, storage_rate, resident_max, last_ns_per_load;
    ie_model *ref, *last;
} load_inst;

static const char *const formats[] = {"safetensors", "gguf", NULL};
static const char *const ftypes[] = {"f32", "f16", "bf16", NULL};
static const char *const ios[] = {"mmap", "read", NULL};
static const char *const caches[] = {"cold", "warm", NULL};

static const bhost_param_desc load_params[] = {
    IP_COMMON_PARAMS("gpt2"),
    IP_PARAM_STR("format", "File written for weights: dummy: safetensors or gguf", "safetensors",
                 formats),
    IP_PARAM_STR("dtype", "Element type of the written file: f32, f16 or bf16", "bf16", ftypes),
    IP_PARAM_STR("io", "mmap the file, or read() it into memory", "mmap", ios),
    IP_PARAM_STR("cache", "cold (page cache dropped before each load) or warm", "warm", caches),
};

static void BHOST_ABI load_destroy(void *inst);

/* Reads the parameters. [instance] */
static bhost_status BHOST_ABI load_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                          void **out)
{
    load_inst *d = bh_inf_api->alloc(h, sizeof(*d), 0);
    int format = 0, ftype = 0, io = 0, cache = 0;
    bhost_status st;

    if (d == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "load: out of memory");
    memset(d, 0, sizeof(*d));
    st = bh_inf_base_create(&d->b, "load", h, be, dev);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, IP_PREFIX, "format", formats, &format);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, IP_PREFIX, "dtype", ftypes, &ftype);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, IP_PREFIX, "io", ios, &io);
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, IP_PREFIX, "cache", caches, &cache);
    if (st != BHOST_OK) {
        d->b.h = h;
        load_destroy(d);
        return st;
    }
    d->gguf = format == 1;
    d->io_read = io == 1;
    d->cold = cache == 0;
    snprintf(d->ftype, sizeof(d->ftype), "%s", ftype == 0 ? "F32" : ftype == 1 ? "F16" : "BF16");
    *out = d;
    return BHOST_OK;
}

/* The relative rounding a row can carry from the file's element type and
 * the engine's weight type (int8: half a step of 1/127 of the row's
 * largest value, twice over for safety). */
static double rounding_bound(const load_inst *d)
{
    double file = strcmp(d->ftype, "F32") == 0   ? 0.0
                  : strcmp(d->ftype, "F16") == 0 ? 0x1p-11
                                                 : 0x1p-8;
    double engine = d->b.wtype == IE_W_F32 ? 0.0 : d->b.wtype == IE_W_BF16 ? 0x1p-8 : 1.0 / 127;

    return 1.01 * (file + engine) + 1e-7;
}

/* Writes a fresh file from a seeded model of the preset and checks the
 * load in *ref against that model. [instance] */
static bhost_status write_fresh(load_inst *d)
{
    const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/var/tmp";
    ie_source src = {"dummy", d->b.seed, 0}, file = {d->path, 0, !d->io_read};
    ie_model *m;
    double diff;
    int fd, rc;

    snprintf(d->path, sizeof(d->path), "%s/bhost-load-XXXXXX", dir);
    if ((fd = mkstemp(d->path)) < 0)
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID, "load: %s: cannot create: %s", d->path,
                              strerror(errno));
    close(fd);
    d->own_file = 1;
    if (!(m = ie_model_create(&d->b.ctx, &d->b.cfg, IE_W_F32, &src)))
        return bh_inf_engine_fail(&d->b, IE_EINVAL, "model");
    rc = ie_model_write(m, d->path, d->gguf, d->ftype);
    if (rc == 0)
        d->ref = ie_model_create(&d->b.ctx, &d->b.cfg, d->b.wtype, &file);
    diff = d->ref ? ie_model_weight_diff(d->ref, m, SAMPLE_ROWS) : -1.0;
    ie_model_destroy(m);
    if (rc != 0)
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID, "load: %s: cannot write: %s", d->path,
                              strerror(errno));
    if (d->ref == NULL)
        return bh_inf_engine_fail(&d->b, IE_EFILE, "reference load");
    bh_plugin_metric_error(d->b.h, "error.file_vs_source", "", diff, rounding_bound(d));
    if (!(diff >= 0.0 && diff <= rounding_bound(d)))
        return bh_plugin_fail(d->b.h, BHOST_E_VERIFY,
                              "load: the loaded weights differ from the written model by %.3g "
                              "of a row, more than %.3g",
                              diff, rounding_bound(d));
    return BHOST_OK;
}

/* The storage ceiling of a cold case (a plain read of the dropped file),
 * the cached-read rate of a warm one, and that the page cache can be
 * dropped at all here. [instance] */
static bhost_status measure_ceiling(load_inst *d)
{
    char err[256];
    double rate, resident;

    if (d->cold && ip_cache_drop(d->path, err, sizeof(err)) != 0)
        return bh_plugin_fail(d->b.h, BHOST_E_UNSUPPORTED, "load: cold: %s", err);
    if ((rate = ip_cache_read_rate(d->path, IE_READ_CHUNK, err, sizeof(err))) < 0.0)
        return bh_plugin_fail(d->b.h, BHOST_E_INVALID, "load: %s", err);
    bh_plugin_metric_info(d->b.h, d->cold ? "storage_read_bytes_per_s" : "cached_read_bytes_per_s",
                          "B/s", rate);
    d->storage_rate = rate;
    if (d->cold && ip_cache_drop(d->path, err, sizeof(err)) == 0 &&
        (resident = ip_cache_resident(d->path)) > 0.5)
        return bh_plugin_fail(d->b.h, BHOST_E_UNSUPPORTED,
                              "load: cold: %.0f%% of %s stayed in the page cache after "
                              "POSIX_FADV_DONTNEED (a tmpfs or overlay file system?)",
                              100.0 * resident, d->path);
    return BHOST_OK;
}

/* The file (written or given), the reference load and the ceiling (first
 * call only). [instance] */
static bhost_status BHOST_ABI load_setup(void *inst, bhost_stream *s)
{
    load_inst *d = inst;
    ie_source file = {d->b.weights, 0, !d->io_read};
    struct stat st;
    bhost_status rc = bh_inf_ctx_setup(&d->b, s);

    if (rc != BHOST_OK || d->ref != NULL)
        return rc;
    if (strcmp(d->b.weights, "dummy") == 0) {
        rc = write_fresh(d);
    } else {
        snprintf(d->path, sizeof(d->path), "%s", d->b.weights);
        if (!(d->ref = ie_model_create(&d->b.ctx, &d->b.cfg, d->b.wtype, &file)))
            rc = bh_inf_engine_fail(&d->b, IE_EFILE, "model");
    }
    if (rc == BHOST_OK && stat(d->path, &st) != 0)
        rc = bh_plugin_fail(d->b.h, BHOST_E_INVALID, "load: %s: %s", d->path, strerror(errno));
    if (rc != BHOST_OK)
        return rc;
    d->file_bytes = (double)st.st_size;
    bh_inf_info(&d->b, "file_bytes", "B", d->file_bytes);
    return measure_ceiling(d);
}

/* iterations loads, each timed alone; a cold one after dropping the file's
 * pages (the largest fraction still cached is kept). [instance] */
static bhost_status BHOST_ABI load_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    load_inst *d = inst;
    ie_source file = {d->path, 0, d->io_read};
    uint64_t total = 0;
    char err[256];

    d->b.ctx.stream = s;
    for (uint64_t i = 0; i < iterations; i++) {
        uint64_t t0;

        ie_model_destroy(d->last);
        d->last = NULL;
        if (d->cold) {
            if (ip_cache_drop(d->path, err, sizeof(err)) != 0)
                return bh_plugin_fail(d->b.h, BHOST_E_INVALID, "load: %s", err);
            d->resident_max = fmax(d->resident_max, ip_cache_resident(d->path));
        }
        t0 = bh_inf_now(&d->b);
        d->last = ie_model_create(&d->b.ctx, &d->b.cfg, d->b.wtype, &file);
        total += bh_inf_now(&d->b) - t0;
        if (d->last == NULL)
            return bh_inf_engine_fail(&d->b, IE_EFILE, "load");
    }
    d->last_ns_per_load = (double)total / (double)(iterations ? iterations : 1);
    return bh_inf_api->set_iteration_time_ns(d->b.h, total);
}

/* The last load equals the reference; reports the cold residency and the
 * fraction of the storage ceiling. [instance] */
static bhost_status BHOST_ABI load_verify(void *inst)
{
    load_inst *d = inst;
    double diff;

    if (d->last == NULL || d->ref == NULL)
        return bh_plugin_fail(d->b.h, BHOST_E_VERIFY, "load: verify before a load");
    diff = ie_model_weight_diff(d->last, d->ref, SAMPLE_ROWS);
    if (diff != 0.0)
        return bh_plugin_fail(d->b.h, BHOST_E_VERIFY,
                              "load: a timed load differs from the reference load by %.3g", diff);
    if (d->cold) {
        bh_inf_info(&d->b, "cold_resident_fraction", "", d->resident_max);
        bh_inf_info(&d->b, "storage_fraction", "",
                    d->file_bytes / (d->last_ns_per_load * 1e-9) / d->storage_rate);
    }
    return BHOST_OK;
}

/* Frees the models, removes a written file, stops the engine. */
static void BHOST_ABI load_destroy(void *inst)
{
    load_inst *d = inst;
    bhost_host *h = d->b.h;

    ie_model_destroy(d->last);
    ie_model_destroy(d->ref);
    if (d->own_file)
        unlink(d->path);
    bh_inf_base_destroy(&d->b);
    bh_inf_api->free(h, d);
}

/* The file's bytes. [instance] */
static double BHOST_ABI load_bytes(void *inst)
{
    return ((const load_inst *)inst)->file_bytes;
}

/* One load per iteration. [instance] */
static double BHOST_ABI load_items(void *inst)
{
    (void)inst;
    return 1.0;
}

/* A read stream of the whole file on the engine's threads. [instance] */
static bhost_status BHOST_ABI load_profile(void *inst, bhost_work_profile *out)
{
    load_inst *d = inst;

    bh_inf_work_profile(&d->b, BHOST_ACCESS_READ, d->file_bytes, out);
    return BHOST_OK;
}

const bhost_bench_desc bh_inf_load = {
    .struct_size = sizeof(bhost_bench_desc),
    .flags = BHOST_BENCH_NEEDS_DEVICE | BHOST_BENCH_MANUAL_TIMING,
    .id = "load",
    .summary = "Model loading: a safetensors or GGUF file into the engine, cold or warm, mmap "
               "or read()",
    .params = load_params,
    .param_count = sizeof(load_params) / sizeof(load_params[0]),
    .required_caps = BHOST_CAP_KERNEL_GEMM,
    .create = load_create,
    .setup = load_setup,
    .run = load_run,
    .verify = load_verify,
    .destroy = load_destroy,
    .bytes_per_iter = load_bytes,
    .items_per_iter = load_items,
    .work_profile = load_profile,
};
