// SPDX-License-Identifier: MIT
/*
 * template.c -- a complete, small bhost benchmark plugin to start from.
 *
 * One benchmark, "dot": the dot product of two float vectors of n elements
 * (the parameter n), accumulated in float the way a real kernel would,
 * checked by verify() against an independent double-precision reference
 * with the textbook error bound. It reports 2n FLOP and 8n bytes per
 * iteration, so bhost prints FLOP/s and B/s.
 *
 * To make it yours: rename the file, change PLUGIN_NAME (the file name
 * without .so, used in configs) and PLUGIN_ID (reverse DNS of a domain you
 * own), and replace the dot product. The specification is installed as
 * <prefix>/share/doc/bhost/plugin-api.md (pkg-config --variable=specfile
 * bhost-plugin), section "From template to a running benchmark".
 *
 * Build: with the Makefile next to this file (pkg-config only), or with
 * its meson.build. Either links with -Wl,-z,defs and the bhost version
 * script, so the .so exports exactly bhost_entry_v1.
 */
#include <bhost/plugin.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PLUGIN_NAME "template"
#define PLUGIN_ID "org.example.template"
#define PLUGIN_VERSION "0.1.0"

/* The host API from init(); valid until deinit() returns. */
static const bhost_host_api *api;

/* One benchmark instance: the inputs and the last result. */
typedef struct dot {
    bhost_host *h;
    uint64_t n;
    float *x;
    float *y;
    float result; /* of the last iteration run() did */
    uint32_t ran; /* run() completed at least once */
} dot;

/* Reports a formatted failure for case h and returns st. [instance] */
static bhost_status fail(bhost_host *h, bhost_status st, const char *msg,
                         unsigned long long value)
{
    char buf[160];

    snprintf(buf, sizeof(buf), PLUGIN_NAME ": %s (%llu)", msg, value);
    api->set_error(h, buf);
    return st;
}

/* Next value of a splitmix64 sequence. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Reads n and allocates the vectors through the host (accounted memory).
 * Inputs are filled in setup(). [instance] */
static bhost_status BHOST_ABI dot_create(bhost_host *h,
                                         const bhost_backend *be,
                                         bhost_dev *dev, void **inst)
{
    int64_t n = 0;
    dot *d;

    (void)be;
    (void)dev;
    if (api->param_i64(h, "n", &n) != BHOST_OK || n < 1)
        return fail(h, BHOST_E_INVALID, "parameter n missing or below 1",
                    (unsigned long long)n);
    d = api->alloc(h, sizeof(*d), 0);
    if (d == NULL)
        return fail(h, BHOST_E_NOMEM, "cannot allocate the instance", 0);
    memset(d, 0, sizeof(*d));
    d->h = h;
    d->n = (uint64_t)n;
    d->x = api->alloc(h, d->n * sizeof(float), 64);
    d->y = api->alloc(h, d->n * sizeof(float), 64);
    if (d->x == NULL || d->y == NULL) {
        api->free(h, d->x);
        api->free(h, d->y);
        api->free(h, d);
        return fail(h, BHOST_E_NOMEM, "cannot allocate two vectors of n",
                    (unsigned long long)n);
    }
    *inst = d;
    return BHOST_OK;
}

/* Fills x and y with values in [-1, 1) derived from the run's seed, so a
 * run can be repeated exactly. Untimed. [instance] */
static bhost_status BHOST_ABI dot_setup(void *inst, bhost_stream *s)
{
    dot *d = inst;
    uint64_t state = api->seed(d->h);

    (void)s;
    for (uint64_t i = 0; i < d->n; i++) {
        d->x[i] = (float)((double)(next_random(&state) >> 11) * 0x1p-52 - 1.0);
        d->y[i] = (float)((double)(next_random(&state) >> 11) * 0x1p-52 - 1.0);
    }
    {
        /* log() lines land in the run's "log" in the result file */
        char line[96];

        snprintf(line, sizeof(line), "dot: %llu inputs seeded",
                 (unsigned long long)d->n);
        api->log(d->h, BHOST_LOG_INFO, line);
    }
    return BHOST_OK;
}

/* The timed work: 'iterations' dot products. The clobber keeps the
 * compiler from computing the product once and reusing it. [instance] */
static bhost_status BHOST_ABI dot_run(void *inst, bhost_stream *s,
                                      uint64_t iterations)
{
    dot *d = inst;

    (void)s;
    for (uint64_t it = 0; it < iterations; it++) {
        float acc = 0.0f;

        bhost_clobber_memory();
        for (uint64_t i = 0; i < d->n; i++)
            acc += d->x[i] * d->y[i];
        d->result = acc;
        bhost_do_not_optimize(&d->result);
    }
    d->ran = 1;
    return BHOST_OK;
}

/* Compares the last result with a double-precision reference; the
 * tolerance is the classic bound n * eps * sum |x_i y_i| for a float
 * recursive sum. Untimed. [instance] */
static bhost_status BHOST_ABI dot_verify(void *inst)
{
    const dot *d = inst;
    double ref = 0.0;
    double mag = 0.0;
    double tol;
    char buf[200];

    if (!d->ran)
        return fail(d->h, BHOST_E_VERIFY, "verify before any run", 0);
    for (uint64_t i = 0; i < d->n; i++) {
        ref += (double)d->x[i] * (double)d->y[i];
        mag += fabs((double)d->x[i] * (double)d->y[i]);
    }
    tol = (double)d->n * 0x1p-24 * mag + 1e-30;
    if (!(fabs((double)d->result - ref) <= tol)) {
        snprintf(buf, sizeof(buf),
                 PLUGIN_NAME ": dot = %.9g, reference %.17g, |error| > %.3g",
                 (double)d->result, ref, tol);
        api->set_error(d->h, buf);
        return BHOST_E_VERIFY;
    }
    return BHOST_OK;
}

/* Releases the vectors and the instance. [instance] */
static void BHOST_ABI dot_destroy(void *inst)
{
    dot *d = inst;
    bhost_host *h = d->h;

    api->free(h, d->x);
    api->free(h, d->y);
    api->free(h, d);
}

/* One multiply and one add per element. [instance] */
static double BHOST_ABI dot_flops(void *inst)
{
    return 2.0 * (double)((const dot *)inst)->n;
}

/* Two floats read per element. [instance] */
static double BHOST_ABI dot_bytes(void *inst)
{
    return 8.0 * (double)((const dot *)inst)->n;
}

static const bhost_param_desc dot_params[] = {
    {
        .struct_size = sizeof(bhost_param_desc),
        .type = BHOST_PARAM_I64,
        .key = "n",
        .summary = "Elements per vector",
        .default_value = "65536",
        .min = 1,
        .max = 67108864,
    },
};

static const bhost_bench_desc dot_desc = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "dot",
    .summary = "Dot product of two float vectors",
    .params = dot_params,
    .param_count = sizeof(dot_params) / sizeof(dot_params[0]),
    .create = dot_create,
    .setup = dot_setup,
    .run = dot_run,
    .verify = dot_verify,
    .destroy = dot_destroy,
    .flops_per_iter = dot_flops,
    .bytes_per_iter = dot_bytes,
};

static const bhost_bench_desc *const benches[] = {&dot_desc};

/* Number of benchmarks. [any-thread] */
static uint32_t BHOST_ABI bench_count(void)
{
    return (uint32_t)(sizeof(benches) / sizeof(benches[0]));
}

/* Descriptor index, static; NULL past the end. [any-thread] */
static const bhost_bench_desc *BHOST_ABI bench_get(uint32_t index)
{
    return index < bench_count() ? benches[index] : NULL;
}

static const bhost_bench_factory factory = {
    sizeof(bhost_bench_factory), 0, bench_count, bench_get,
};

/* Keeps the host API; refuses a host table older than 1.0. [main] */
static bhost_status BHOST_ABI plugin_init(const bhost_host_api *host)
{
    if (host == NULL || !BHOST_HAS(bhost_host_api, host, get_extension))
        return BHOST_E_VERSION;
    api = host;
    return BHOST_OK;
}

/* Nothing to release: the plugin holds no threads or global memory.
 * [main] */
static void BHOST_ABI plugin_deinit(void)
{
    api = NULL;
}

/* The benchmark factory for BHOST_IFACE_BENCHMARKS, else NULL.
 * [any-thread] */
static const void *BHOST_ABI plugin_get_interface(const char *id)
{
    if (id != NULL && strcmp(id, BHOST_IFACE_BENCHMARKS) == 0)
        return &factory;
    return NULL;
}

/* The one exported symbol. */
const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    PLUGIN_ID,
    PLUGIN_NAME,
    PLUGIN_VERSION,
    "Template: dot product of two float vectors",
    plugin_init,
    plugin_deinit,
    plugin_get_interface,
};
