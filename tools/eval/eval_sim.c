// SPDX-License-Identifier: MIT
/* Seeded Monte Carlo evaluation of the regression engine (see
 * eval_sim.h). */
#include "eval_sim.h"

#include "bh_mem.h"
#include "bh_rng.h"
#include "compare.h"
#include "descriptive.h"
#include "regress_compare.h"
#include "regress_config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One run's value under model m with the side offset side_off and a
 * multiplicative effect. */
static double run_value(bh_rng *r, const bh_regress_noise *m, double side_off, double effect)
{
    double s[64];
    uint32_t k = m->samples ? (m->samples < 64 ? m->samples : 64) : 1;
    double off = side_off + m->tau * bh_rng_normal(r);

    for (uint32_t i = 0; i < k; i++) {
        s[i] = effect * exp(off + m->cv * bh_rng_normal(r));
        if (m->contamination > 0 && bh_rng_uniform(r) < m->contamination)
            s[i] *= 1.3;
    }
    bh_stats_sort(s, k);
    return bh_stats_median_sorted(s, k);
}

/* n run values of one side (one side offset drawn for all of them). */
static void side(bh_rng *r, const bh_regress_noise *m, double effect, double *out, size_t n)
{
    double off = m->drift * bh_rng_normal(r);

    for (size_t i = 0; i < n; i++)
        out[i] = run_value(r, m, off, effect);
}

/* Paired side values: pair i shares its run offset (interleaved runs). */
static void pairs(bh_rng *r, const bh_regress_noise *m, double *a, double *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bh_regress_noise one = *m;
        double off = m->tau * bh_rng_normal(r);

        one.tau = 0;
        a[i] = run_value(r, &one, off, 1.0);
        b[i] = run_value(r, &one, off, 1.0);
    }
}

/* Binomial 99% interval of a rate around alpha over t trials. */
static void band(double alpha, uint32_t t, double *lo, double *hi)
{
    double h = 2.5758293035489 * sqrt(alpha * (1 - alpha) / (double)t);

    *lo = fmax(0.0, alpha - h);
    *hi = alpha + h;
}

/* p of test k on the log values (0 mwu-exact, 1 mwu-normal, 2 welch,
 * 3 wilcoxon); NAN when it cannot run. */
static double test_p(int k, const double *a, const double *b, size_t n)
{
    double la[64], lb[64];
    bh_stats_mwu u;
    bh_stats_ttest t;
    bh_stats_wilcoxon w;

    for (size_t i = 0; i < n; i++) {
        la[i] = log(a[i]);
        lb[i] = log(b[i]);
    }
    switch (k) {
    case 0:
        return bh_stats_mann_whitney(la, n, lb, n, BH_STATS_RANK_EXACT, &u) == 0 ? u.p : NAN;
    case 1:
        return bh_stats_mann_whitney(la, n, lb, n, BH_STATS_RANK_NORMAL_CC, &u) == 0 ? u.p
                                                                                    : NAN;
    case 2:
        return bh_stats_welch_t(la, n, lb, n, &t) == 0 ? t.p : NAN;
    default:
        for (size_t i = 0; i < n; i++)
            la[i] = lb[i] - la[i];
        return bh_stats_wilcoxon_signed_rank(la, n, BH_STATS_RANK_AUTO, &w) == 0 ? w.p : NAN;
    }
}

void bh_regress_eval_null(uint64_t seed, uint32_t trials, bh_regress_null_row **rows,
                          size_t *n_rows)
{
    static const char *const tests[] = {"mwu-exact", "mwu-normal", "welch", "wilcoxon"};
    static const size_t ns[] = {5, 8, 10, 30};
    static const char *const models[] = {"iid cv 1%", "cv 3% + run tau 1%",
                                         "cv 1% + 5% outliers x1.3"};
    const bh_regress_noise model[] = {
        {0.01, 0.0, 0.0, 0.0, 10}, {0.03, 0.01, 0.0, 0.0, 10}, {0.01, 0.0, 0.0, 0.05, 10}};
    size_t total = 4 * 4 * 3, at = 0;
    bh_rng r;

    *rows = bh_xcalloc(total, sizeof(**rows));
    bh_rng_seed(&r, seed);
    for (int k = 0; k < 4; k++)
        for (size_t in = 0; in < 4; in++)
            for (size_t im = 0; im < 3; im++) {
                bh_regress_null_row *row = &(*rows)[at++];
                uint32_t rej05 = 0, rej01 = 0, done = 0;
                double a[64], b[64];

                for (uint32_t t = 0; t < trials; t++) {
                    double p;

                    if (k == 3)
                        pairs(&r, &model[im], a, b, ns[in]);
                    else {
                        side(&r, &model[im], 1.0, a, ns[in]);
                        side(&r, &model[im], 1.0, b, ns[in]);
                    }
                    p = test_p(k, a, b, ns[in]);
                    if (isnan(p))
                        continue;
                    done++;
                    rej05 += p <= 0.05;
                    rej01 += p <= 0.01;
                }
                row->test = tests[k];
                row->model = models[im];
                row->n = ns[in];
                row->trials = done;
                row->rate05 = done ? (double)rej05 / done : NAN;
                row->rate01 = done ? (double)rej01 / done : NAN;
                band(0.05, done ? done : 1, &row->lo05, &row->hi05);
                band(0.01, done ? done : 1, &row->lo01, &row->hi01);
            }
    *n_rows = at;
}

void bh_regress_eval_bh(uint64_t seed, uint32_t trials, uint32_t runs,
                        bh_regress_bh_row rows[2])
{
    const size_t m = 300;
    const bh_regress_noise model = {0.01, 0.02, 0.0, 0.0, 10};
    double *p = bh_xcalloc(m, sizeof(double));
    double a[64], b[64];
    size_t n = runs < 64 ? runs : 64;
    bh_rng r;

    bh_rng_seed(&r, seed);
    for (int row = 0; row < 2; row++) {
        double pi0 = row == 0 ? 1.0 : 0.9;
        size_t m1 = (size_t)llround((1.0 - pi0) * (double)m);
        double fdp = 0, power = 0;
        uint32_t any = 0;

        for (uint32_t t = 0; t < trials; t++) {
            size_t v = 0, s = 0;

            for (size_t i = 0; i < m; i++) {
                side(&r, &model, 1.0, a, n);
                side(&r, &model, i < m1 ? 1.05 : 1.0, b, n);
                p[i] = test_p(0, a, b, n);
            }
            bh_stats_adjust_bh(p, m, p);
            for (size_t i = 0; i < m; i++) {
                if (p[i] > 0.05)
                    continue;
                if (i < m1)
                    s++;
                else
                    v++;
            }
            fdp += v + s ? (double)v / (double)(v + s) : 0.0;
            any += v > 0;
            power += m1 ? (double)s / (double)m1 : 0.0;
        }
        rows[row].m = m;
        rows[row].pi0 = pi0;
        rows[row].q = 0.05;
        rows[row].trials = trials;
        rows[row].fdr = fdp / trials;
        rows[row].fwer = (double)any / trials;
        rows[row].power = m1 ? power / trials : NAN;
    }
    free(p);
}

/* One synthetic comparison suite: case i has effect effects[i]. */
static void suite(bh_rng *r, size_t cases, uint32_t runs, double drift,
                  const double *effects, const bh_regress_config *cfg, bh_regress_report *rep)
{
    static const double cvs[] = {0.005, 0.01, 0.02, 0.03};
    double a[64], b[64];
    size_t n = runs < 64 ? runs : 64;
    double off_a = drift * bh_rng_normal(r), off_b = drift * bh_rng_normal(r);

    memset(rep, 0, sizeof(*rep));
    for (size_t i = 0; i < cases; i++) {
        bh_regress_noise m = {0.01, cvs[i % 4], 0.0, 0.0, 10};
        char id[32];

        for (size_t k = 0; k < n; k++) {
            a[k] = run_value(r, &m, off_a, 1.0);
            b[k] = run_value(r, &m, off_b, effects ? effects[i] : 1.0);
        }
        snprintf(id, sizeof(id), "sim/case%zu", i);
        bh_regress_report_add_values(rep, cfg, id, "time", 1, a, n, b, n);
    }
    bh_regress_finalize(rep, cfg);
}

void bh_regress_eval_aa(uint64_t seed, uint32_t trials, size_t cases, uint32_t runs,
                        double drift, const bh_regress_config *cfg,
                        bh_regress_aa_result *out)
{
    bh_rng r;
    double warn = 0, regr = 0, impr = 0, inc = 0, need = 0;
    uint32_t any_crit = 0, any_regr = 0;
    size_t n_need = 0;

    memset(out, 0, sizeof(*out));
    bh_rng_seed(&r, seed);
    for (uint32_t t = 0; t < trials; t++) {
        bh_regress_report rep;

        suite(&r, cases, runs, drift, NULL, cfg, &rep);
        any_crit += rep.severities[BH_SEVERITY_CRITICAL] > 0;
        any_regr += rep.counts[BH_VERDICT_REGRESSED] > 0;
        warn += (double)(rep.severities[BH_SEVERITY_WARNING] +
                         rep.severities[BH_SEVERITY_CRITICAL]);
        regr += (double)rep.counts[BH_VERDICT_REGRESSED];
        impr += (double)rep.counts[BH_VERDICT_IMPROVED];
        inc += (double)rep.counts[BH_VERDICT_INCONCLUSIVE];
        for (size_t i = 0; i < rep.n; i++)
            if (rep.items[i].v.kind == BH_VERDICT_INCONCLUSIVE) {
                need += rep.items[i].v.runs_needed;
                n_need++;
            }
        bh_regress_report_free(&rep);
    }
    out->trials = trials;
    out->cases = cases;
    out->runs = runs;
    out->drift = drift;
    out->p_any_critical = (double)any_crit / trials;
    out->p_any_regressed = (double)any_regr / trials;
    out->per_case_warning = warn / ((double)trials * (double)cases);
    out->per_case_regressed = regr / ((double)trials * (double)cases);
    out->per_case_improved = impr / ((double)trials * (double)cases);
    out->per_case_inconclusive = inc / ((double)trials * (double)cases);
    out->mean_runs_needed = n_need ? need / (double)n_need : NAN;
}

void bh_regress_eval_power(uint64_t seed, uint32_t trials, uint32_t runs, size_t cases,
                           const bh_regress_config *cfg,
                           bh_regress_power_row **rows, size_t *n_rows)
{
    static const double slow[] = {0.02, 0.05, 0.10};
    static const double taus[] = {0.005, 0.01, 0.02, 0.03};
    double a[64], b[64];
    size_t n = runs < 64 ? runs : 64, at = 0;
    bh_rng r;

    if (cases < 1)
        cases = 1;
    *rows = bh_xcalloc(12, sizeof(**rows));
    bh_rng_seed(&r, seed);
    for (int is = 0; is < 3; is++)
        for (int it = 0; it < 4; it++) {
            bh_regress_power_row *row = &(*rows)[at++];
            bh_regress_noise m = {0.01, taus[it], 0.0, 0.0, 10};
            uint32_t det = 0, crit = 0, cover = 0;
            double sum = 0;

            for (uint32_t t = 0; t < trials; t++) {
                bh_regress_report rep;
                bh_regress_noise others = {0.01, 0.01, 0.0, 0.0, 10};

                memset(&rep, 0, sizeof(rep));
                for (size_t c = 0; c < cases; c++) {
                    const bh_regress_noise *mm = c == 0 ? &m : &others;
                    char id[32];

                    side(&r, mm, 1.0, a, n);
                    side(&r, mm, c == 0 ? 1.0 + slow[is] : 1.0, b, n);
                    snprintf(id, sizeof(id), "sim/case%zu", c);
                    bh_regress_report_add_values(&rep, cfg, id, "time", 1, a, n, b, n);
                }
                bh_regress_finalize(&rep, cfg);
                det += rep.items[0].v.kind == BH_VERDICT_REGRESSED;
                crit += rep.items[0].v.kind == BH_VERDICT_REGRESSED &&
                        rep.items[0].v.severity == BH_SEVERITY_CRITICAL;
                sum += rep.items[0].st.change;
                cover += rep.items[0].st.change_lo <= slow[is] &&
                         slow[is] <= rep.items[0].st.change_hi;
                bh_regress_report_free(&rep);
            }
            row->slowdown = slow[is];
            row->cv = taus[it];
            row->runs = runs;
            row->trials = trials;
            row->detected = (double)det / trials;
            row->critical = (double)crit / trials;
            row->mean_change = sum / trials;
            row->coverage = (double)cover / trials;
        }
    *n_rows = at;
}
