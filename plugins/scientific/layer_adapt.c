// SPDX-License-Identifier: MIT
/*
 * layer_adapt.c -- the helpers the layer benchmarks share (layer_adapt.h).
 */
#include "layer_adapt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TASKS_PER_THREAD 4

const char *const ly_layouts[] = {"nchw", "nhwc", NULL};

/* Layout and threads, the pool and the threads metric. */
static bhost_status read_common(ly_base *b, bhost_host *h, const char *prefix)
{
    int64_t threads = 1;
    int layout = 0;
    bhost_status st = bh_plugin_choice(h, prefix, "layout", ly_layouts, &layout);

    if (st == BHOST_OK)
        st = bh_plugin_i64(h, prefix, "threads", 0, 256, &threads);
    if (st != BHOST_OK)
        return st;
    b->layout = layout ? CV_NHWC : CV_NCHW;
    b->threads = threads == 0 ? bh_plugin_cpu_threads() : (unsigned)threads;
    if (b->own_threads && b->threads > 1 && !(b->pool = bh_pool_create(b->threads, 0)))
        return bh_plugin_fail(h, BHOST_E_NOMEM, "%scannot start %u threads", prefix, b->threads);
    bh_plugin_metric_info(h, "threads", "", (double)b->threads);
    return BHOST_OK;
}

bhost_status ly_create(bhost_host *h, size_t size, const char *prefix,
                       bhost_status (*read)(void *inst), void(BHOST_ABI *destroy)(void *inst),
                       void **out)
{
    ly_base *b = bh_sci_api->alloc(h, size, 0);
    bhost_status st;

    if (b == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "%sout of memory", prefix);
    memset(b, 0, size);
    b->h = h;
    b->prefix = prefix;
    st = read(b);
    if (st == BHOST_OK)
        st = read_common(b, h, prefix);
    if (st != BHOST_OK) {
        destroy(b);
        return st;
    }
    *out = b;
    return BHOST_OK;
}

float *ly_alloc(const ly_base *b, size_t n)
{
    return bh_sci_api->alloc(b->h, n * sizeof(float), 64);
}

bhost_status ly_run(void *inst, uint64_t iterations, bhost_status (*once)(void *inst))
{
    bhost_status st = BHOST_OK;

    for (uint64_t i = 0; i < iterations && st == BHOST_OK; i++) {
        st = once(inst);
        bhost_clobber_memory();
    }
    return st;
}

double BHOST_ABI ly_items(void *inst)
{
    return (double)((const ly_base *)inst)->sh.n;
}

void ly_fini(ly_base *b)
{
    bh_pool_destroy(b->pool);
    b->pool = NULL;
}

void ly_fill(bhost_host *h, float *x, size_t n, uint64_t salt, float lo, float hi)
{
    uint64_t s = bh_sci_api->seed(h) ^ salt;

    for (size_t i = 0; i < n; i++)
        x[i] = lo + (hi - lo) * (float)bh_rng_unit(bh_rng_next(&s));
}

typedef struct ly_job {
    ly_range_fn fn;
    void *arg;
    size_t units;
} ly_job;

static void ly_task(void *arg, uint32_t task, uint32_t tasks, uint32_t thread)
{
    const ly_job *j = arg;
    size_t u0 = j->units * task / tasks, u1 = j->units * (task + 1) / tasks;

    (void)thread;
    if (u1 > u0)
        j->fn(j->arg, u0, u1);
}

void ly_parallel(ly_base *b, size_t units, ly_range_fn fn, void *arg)
{
    ly_job j = {fn, arg, units};

    if (b->pool == NULL) {
        fn(arg, 0, units);
        return;
    }
    bh_pool_run(b->pool, b->threads * TASKS_PER_THREAD, ly_task, &j);
}

void ly_unflat(cv_layout l, int c, int h, int w, size_t i, int *n, int *ci, int *y, int *x)
{
    size_t hw = (size_t)h * (size_t)w;

    if (l == CV_NCHW) {
        *x = (int)(i % (size_t)w);
        *y = (int)(i / (size_t)w % (size_t)h);
        *ci = (int)(i / hw % (size_t)c);
        *n = (int)(i / hw / (size_t)c);
    } else {
        *ci = (int)(i % (size_t)c);
        *x = (int)(i / (size_t)c % (size_t)w);
        *y = (int)(i / (size_t)c / (size_t)w % (size_t)h);
        *n = (int)(i / (size_t)c / hw);
    }
}

bhost_status ly_verify(ly_base *b, const float *out, size_t n, ly_ref_fn ref, void *arg)
{
    uint64_t s = bh_sci_api->seed(b->h) ^ UINT64_C(0x9E3779B97F4A7C15);
    size_t checks = n <= LY_FULL_CHECK ? n : LY_SAMPLES + 2;
    double worst = 0.0;

    if (out == NULL)
        return bh_plugin_fail(b->h, BHOST_E_VERIFY, "%sverify before setup", b->prefix);
    for (size_t k = 0; k < checks; k++) {
        size_t i = n <= LY_FULL_CHECK ? k : k == 0 ? 0 : k == 1 ? n - 1 : bh_rng_next(&s) % n;
        double bound, want = ref(arg, i, &bound), e = fabs((double)out[i] - want) / bound;

        if (!(e <= 1.0))
            return bh_plugin_fail(b->h, BHOST_E_VERIFY,
                                  "%soutput %zu is %.9g, the double-precision reference %.9g: "
                                  "off by %.3g of its bound %.3g",
                                  b->prefix, i, (double)out[i], want, e, bound);
        worst = e > worst ? e : worst;
    }
    bh_plugin_metric_info(b->h, "verify.checked", "", (double)checks);
    bh_plugin_metric_error(b->h, "error.to_bound", "", worst, 1.0);
    return BHOST_OK;
}

bhost_status ly_profile(const ly_base *b, bhost_work_profile *out, double bytes)
{
    return bh_plugin_profile(out, BHOST_ACCESS_READ_WRITE, BHOST_COMPUTE_F32, b->threads, bytes);
}

#ifdef BH_SCI_CONV_DNNL
bhost_status ly_dnnl_create(ly_base *b, cv_dnnl **d, cv_dnnl_op op, const cv_shape *sh, float eps,
                            const cv_dnnl_bufs *bufs)
{
    char err[256], msg[320];

    cv_dnnl_set_threads((int)b->threads);
    if (cv_dnnl_create(d, op, sh, b->layout, eps, bufs, err, sizeof(err)) != 0)
        return bh_plugin_fail(b->h, BHOST_E_INTERNAL, "%s%s", b->prefix, err);
    snprintf(msg, sizeof(msg), "%soneDNN %s, source layout %s, %d activation reorders a run",
             b->prefix, cv_dnnl_impl(*d), cv_dnnl_src_layout(*d), cv_dnnl_reorders(*d));
    bh_sci_api->log(b->h, BHOST_LOG_INFO, msg);
    bh_plugin_metric_info(b->h, "onednn.reorders", "", (double)cv_dnnl_reorders(*d));
    bh_plugin_metric_info(b->h, "onednn.src_channel_block", "", (double)cv_dnnl_src_block(*d));
    return BHOST_OK;
}

bhost_status ly_dnnl_run(ly_base *b, cv_dnnl *d)
{
    char err[256];

    cv_dnnl_set_threads((int)b->threads);
    if (cv_dnnl_run(d, err, sizeof(err)) != 0)
        return bh_plugin_fail(b->h, BHOST_E_INTERNAL, "%s%s", b->prefix, err);
    return BHOST_OK;
}
#endif
