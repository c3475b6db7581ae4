// SPDX-License-Identifier: MIT
/*
 * cl_program.c -- builds the kernels of plugins/common/bh_kernels.cl at
 * run time, with a persistent program-binary cache.
 *
 * Cache directory: BHOST_OPENCL_CACHE_DIR ("off" disables caching), else
 * $XDG_CACHE_HOME/bhost/opencl, else $HOME/.cache/bhost/opencl. A binary
 * is keyed by a 64-bit FNV-1a hash of the source, the build options and
 * the device's name, version, driver version and platform, so a driver
 * update never loads a stale binary. Files are written to a temporary
 * name and renamed (atomic). A binary the driver rejects is rebuilt from
 * source and overwritten.
 *
 * A COLD build skips the cache and adds a unique -DBH_NONCE=... so that
 * the driver's own cache (PoCL's POCL_CACHE_DIR, NVIDIA's ComputeCache)
 * cannot answer either.
 */
#define _POSIX_C_SOURCE 200809L
#include "cl_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern const unsigned char bh_cl_source[];
extern const unsigned long bh_cl_source_size;

static const char *const kernel_names[BH_CL_KERNELS] = {
    "bh_axpy", "bh_reduce",     "bh_gemm",      "bh_gemv",
    "bh_spmv", "bh_fft_bitrev", "bh_fft_stage", "bh_conv2d"};

static struct {
    int tried;
    char dir[512];
} C;

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* mkdir -p of path (0700); 0 on success. */
static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            *p = '/';
            return -1;
        }
        *p = '/';
    }
    return mkdir(path, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

const char *bh_cl_cache_dir(void)
{
    const char *env = getenv("BHOST_OPENCL_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");

    if (C.tried)
        return C.dir;
    C.tried = 1;
    if (env != NULL && *env != '\0') {
        if (strcmp(env, "off") != 0)
            snprintf(C.dir, sizeof(C.dir), "%s", env);
    } else if (xdg != NULL && *xdg == '/') {
        snprintf(C.dir, sizeof(C.dir), "%s/bhost/opencl", xdg);
    } else if (home != NULL && *home == '/') {
        snprintf(C.dir, sizeof(C.dir), "%s/.cache/bhost/opencl", home);
    }
    if (C.dir[0] != '\0' && make_dirs(C.dir) != 0)
        C.dir[0] = '\0';
    return C.dir;
}

/* FNV-1a 64 over n bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;

    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* The cache file of this source, options and device into path. */
static void cache_path(const bhost_dev *dev, const char *opts, char *path,
                       size_t cap)
{
    const bh_cl_phys *p = dev->phys;
    uint64_t h = UINT64_C(0xcbf29ce484222325);

    h = fnv(h, bh_cl_source, bh_cl_source_size);
    h = fnv(h, opts, strlen(opts) + 1);
    h = fnv(h, p->name, strlen(p->name) + 1);
    h = fnv(h, p->version, strlen(p->version) + 1);
    h = fnv(h, p->driver, strlen(p->driver) + 1);
    h = fnv(h, p->platform_name, strlen(p->platform_name) + 1);
    snprintf(path, cap, "%s/%016" PRIx64 ".clbin", bh_cl_cache_dir(), h);
}

/* Reads a whole file; NULL when absent or unreadable. */
static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;

    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) != NULL) {
        if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else {
            *len = (size_t)n;
        }
    }
    fclose(f);
    return buf;
}

/* Stores the device binary of prog at path (temporary file + rename). */
static void store_binary(const bhost_dev *dev, cl_program prog,
                         const char *path)
{
    size_t size = 0;
    unsigned char *bin;
    char tmp[600];
    FILE *f;

    if (bh_cl.clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof(size),
                               &size, NULL) != CL_SUCCESS || size == 0)
        return;
    bin = malloc(size);
    if (bin == NULL)
        return;
    if (bh_cl.clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof(bin), &bin,
                               NULL) == CL_SUCCESS) {
        snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
        f = fopen(tmp, "wb");
        if (f != NULL) {
            int ok = fwrite(bin, 1, size, f) == size;

            ok = fclose(f) == 0 && ok;
            if (!ok || rename(tmp, path) != 0)
                remove(tmp);
        }
    }
    free(bin);
    (void)dev;
}

/* Builds prog for the device; on failure sets the error with the build
 * log's start. */
static bhost_status build_program(bhost_dev *dev, cl_program prog,
                                  const char *opts, const char *what)
{
    char log[400];
    cl_int e = bh_cl.clBuildProgram(prog, 1, &dev->phys->id, opts, NULL, NULL);

    if (e == CL_SUCCESS)
        return BHOST_OK;
    log[0] = '\0';
    bh_cl.clGetProgramBuildInfo(prog, dev->phys->id, CL_PROGRAM_BUILD_LOG,
                                sizeof(log), log, NULL);
    log[sizeof(log) - 1] = '\0';
    return bh_cl_fail(dev->h, bh_cl_status(e),
                      "clBuildProgram (%s, %s): %s; log: %s", what, opts,
                      bh_cl_err_name(e), log);
}

/* The program from a cached binary, or NULL (absent or rejected). */
static cl_program from_cache(bhost_dev *dev, const char *path,
                             const char *opts)
{
    size_t len = 0;
    unsigned char *bin = read_file(path, &len);
    const unsigned char *cbin = bin;
    cl_int e = CL_SUCCESS, bs = CL_SUCCESS;
    cl_program prog;

    if (bin == NULL)
        return NULL;
    prog = bh_cl.clCreateProgramWithBinary(dev->ctx, 1, &dev->phys->id, &len,
                                           &cbin, &bs, &e);
    free(bin);
    if (prog == NULL || e != CL_SUCCESS || bs != CL_SUCCESS) {
        if (prog != NULL)
            bh_cl.clReleaseProgram(prog);
        return NULL;
    }
    if (bh_cl.clBuildProgram(prog, 1, &dev->phys->id, opts, NULL, NULL) !=
        CL_SUCCESS) {
        bh_cl.clReleaseProgram(prog);
        return NULL;
    }
    return prog;
}

void bh_cl_prog_release(bh_cl_prog *p)
{
    for (int k = 0; k < BH_CL_KERNELS; k++)
        if (p->k[k] != NULL) {
            bh_cl.clReleaseKernel(p->k[k]);
            p->k[k] = NULL;
        }
    if (p->prog != NULL)
        bh_cl.clReleaseProgram(p->prog);
    p->prog = NULL;
}

bhost_status bh_cl_build(bhost_dev *dev, int f64, uint32_t mode,
                         bh_cl_prog *out, bhost_build_stats *stats)
{
    static uint64_t nonce;
    char opts[160], path[600] = "";
    const char *src = (const char *)bh_cl_source;
    size_t len = (size_t)bh_cl_source_size;
    cl_int e = CL_SUCCESS;
    uint64_t t0 = now_ns();
    int hit = 0;
    bhost_status st = BHOST_OK;

    memset(out, 0, sizeof(*out));
    if (mode == BHOST_BUILD_COLD)
        snprintf(opts, sizeof(opts),
                 "-cl-std=CL1.2 -DT=%s%s -DBH_NONCE=%" PRIu64 "x%" PRIu64,
                 f64 ? "double" : "float", f64 ? " -DBH_F64" : "",
                 (uint64_t)getpid(), t0 + nonce++);
    else
        snprintf(opts, sizeof(opts), "-cl-std=CL1.2 -DT=%s%s",
                 f64 ? "double" : "float", f64 ? " -DBH_F64" : "");
    if (mode == BHOST_BUILD_CACHED && bh_cl_cache_dir()[0] != '\0') {
        cache_path(dev, opts, path, sizeof(path));
        out->prog = from_cache(dev, path, opts);
        hit = out->prog != NULL;
    }
    if (out->prog == NULL) {
        out->prog = bh_cl.clCreateProgramWithSource(dev->ctx, 1, &src, &len,
                                                    &e);
        if (out->prog == NULL)
            return bh_cl_fail(dev->h, bh_cl_status(e),
                              "clCreateProgramWithSource: %s",
                              bh_cl_err_name(e));
        st = build_program(dev, out->prog, opts, f64 ? "f64" : "f32");
        if (st == BHOST_OK && path[0] != '\0')
            store_binary(dev, out->prog, path);
    }
    for (int k = 0; st == BHOST_OK && k < BH_CL_KERNELS; k++) {
        out->k[k] = bh_cl.clCreateKernel(out->prog, kernel_names[k], &e);
        if (out->k[k] == NULL)
            st = bh_cl_fail(dev->h, bh_cl_status(e), "clCreateKernel(%s): %s",
                            kernel_names[k], bh_cl_err_name(e));
    }
    if (st != BHOST_OK) {
        bh_cl_prog_release(out);
        return st;
    }
    stats->struct_size = sizeof(*stats);
    stats->programs++;
    stats->cache_hits += hit ? 1u : 0u;
    stats->cache_misses += hit ? 0u : 1u;
    stats->build_ns += (double)(now_ns() - t0);
    snprintf(stats->cache, sizeof(stats->cache), "%s",
             mode == BHOST_BUILD_COLD       ? "none (cold: unique define)"
             : bh_cl_cache_dir()[0] != '\0' ? "program binaries on disk"
                                            : "none (cache dir unavailable)");
    return BHOST_OK;
}
