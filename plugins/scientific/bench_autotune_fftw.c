// SPDX-License-Identifier: MIT
/*
 * bench_autotune_fftw.c -- the fftw kernel of the autotune case
 * (autotune.h): FFTW3's planner levels for a complex double 1-D forward
 * transform, searched in order of rigour within the budget, the fastest
 * plan kept for the timed runs and checked against the direct DFT.
 */
#include "autotune.h"

#include "ft_fft.h"

#include <fftw3.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define LEVELS         4
#define FULL_CHECK_MAX 4096
#define SPOT_BINS      8

static const unsigned level_flags[LEVELS] = {FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT,
                                             FFTW_EXHAUSTIVE};

/* Seconds of one execution of plan p: the best of three batches of at
 * least 1 ms. */
static double time_plan(fftw_plan p)
{
    double best = -1.0;

    for (int r = 0; r < 3; r++) {
        double t0 = at_now(), s;
        long reps = 0;

        do {
            fftw_execute(p);
            reps++;
        } while ((s = at_now() - t0) < 1e-3);
        s /= (double)reps;
        best = best < 0.0 || s < best ? s : best;
    }
    return best;
}

/* tn_time_fn over the levels: plans level i within what is left of the
 * budget (estimate needs none), then times the plan. */
static double level_time(void *ctx, size_t i, double budget_left)
{
    at_inst *d = ctx;
    int n = (int)d->n;

    fftw_set_timelimit(i == 0 ? FFTW_NO_TIMELIMIT : (budget_left > 1e-3 ? budget_left : 1e-3));
    d->plans[i] = fftw_plan_dft_1d(n, (fftw_complex *)d->in, (fftw_complex *)d->out, FFTW_FORWARD,
                                   level_flags[i]);
    fftw_set_timelimit(FFTW_NO_TIMELIMIT);
    return d->plans[i] ? time_plan(d->plans[i]) : -1.0;
}

/* The input, uniform in [-1, 1) from the seed. [instance] */
static void fill_input(at_inst *d)
{
    uint64_t s = bh_sci_api->seed(d->h);

    for (size_t i = 0; i < 2 * d->n; i++)
        d->in[i] = 2.0 * bh_rng_unit(bh_rng_next(&s)) - 1.0;
}

bhost_status at_fftw_setup(at_inst *d)
{
    if (d->in == NULL) {
        d->in = bh_sci_api->alloc(d->h, 2 * d->n * sizeof(double), 64);
        d->out = bh_sci_api->alloc(d->h, 2 * d->n * sizeof(double), 64);
        if (d->in == NULL || d->out == NULL)
            return bh_plugin_fail(d->h, BHOST_E_NOMEM, "autotune: out of memory for %zu points",
                                  d->n);
        fftw_forget_wisdom();
        d->res = tn_search(LEVELS, 0, 0, 0, d->budget, level_time, d, at_now);
        if (d->res.best_s < 0.0)
            return bh_plugin_fail(d->h, BHOST_E_INTERNAL, "autotune: FFTW made no plan");
        for (size_t i = 0; i < LEVELS; i++)
            if (i != d->res.best && d->plans[i]) {
                fftw_destroy_plan(d->plans[i]);
                d->plans[i] = NULL;
            }
        fill_input(d); /* after planning: measure and up overwrite in */
        at_report_search(d);
        bh_plugin_metric_info(d->h, "chosen.level", "", (double)d->res.best);
    }
    memset(d->out, 0xFF, 2 * d->n * sizeof(double));
    return BHOST_OK;
}

void at_fftw_run(at_inst *d)
{
    fftw_execute(d->plans[d->res.best]);
}

/* |X[b] - DFT(x)[b]| for bin b. */
static double bin_error(const at_inst *d, size_t b)
{
    long double re, im;

    ft_dft_bin(d->in, 0, 1, &d->n, &b, &re, &im);
    return hypot(d->out[2 * b] - (double)re, d->out[2 * b + 1] - (double)im);
}

bhost_status at_fftw_verify(at_inst *d)
{
    double norm = 0.0, worst = 0.0;
    double limit = 8.0 * DBL_EPSILON * (log2((double)d->n) + 1.0);
    size_t bins = d->n <= FULL_CHECK_MAX ? d->n : SPOT_BINS + 1;
    uint64_t s = bh_sci_api->seed(d->h) ^ UINT64_C(0x2545F4914F6CDD1D);

    if (d->in == NULL)
        return bh_plugin_fail(d->h, BHOST_E_VERIFY, "autotune: verify before setup");
    for (size_t i = 0; i < 2 * d->n; i++)
        norm += d->in[i] * d->in[i];
    norm = sqrt(norm);
    for (size_t i = 0; i < bins; i++) {
        size_t b = d->n <= FULL_CHECK_MAX || i == 0 ? i : bh_rng_next(&s) % d->n;
        double e = bin_error(d, b) / norm / limit;

        if (!(e <= 1.0))
            return bh_plugin_fail(d->h, BHOST_E_VERIFY,
                                  "autotune: FFT bin %zu off the direct DFT by %.3g of its bound",
                                  b, e);
        worst = e > worst ? e : worst;
    }
    bh_plugin_metric_error(d->h, "error.to_bound", "", worst, 1.0);
    return BHOST_OK;
}

void at_fftw_free(at_inst *d)
{
    for (size_t i = 0; i < LEVELS; i++)
        if (d->plans[i])
            fftw_destroy_plan(d->plans[i]);
    bh_sci_api->free(d->h, d->in);
    bh_sci_api->free(d->h, d->out);
}
