// SPDX-License-Identifier: MIT
/* Verdict rules of the regression engine (docs/statistics.md section
 * 11.3 summarises them). Choices the literature leaves open are decided
 * here.
 *
 * Unit of replication: the run. Each side of a (case, metric) comparison
 * is one value per ok run: the median ns/iter of the run's samples for
 * "time", the median of the values a run reported for an extra metric.
 *
 * Scale: when every value is > 0 the comparison is on ln values and a
 * shift s is reported as the relative change expm1(s); otherwise (a metric
 * that can be 0 or negative) values are divided by |baseline median| and
 * compared additively; a zero baseline median cannot give a relative
 * change and the comparison is untestable.
 *
 * Direction: "worse" is the change for lower-is-better metrics (time) and
 * -change for higher-is-better ones (tokens/s); thresholds apply to the
 * worse-direction change, so "critical: 10%" fires at +10% time or -10%
 * tokens/s. The printed change is always the metric's own change.
 *
 * With q the Benjamini-Hochberg adjusted p over every tested (case, metric)
 * of one comparison, [lo, hi] the confidence interval (default 95%) of the
 * worse-direction change, w its point estimate, f the noise floor:
 *
 *   q <= fdr and lo > f      regressed; severity critical when w >= the
 *                            critical threshold, warning when w >= warning,
 *                            else minor
 *   q <= fdr and hi < -f     improved
 *   q <= fdr otherwise       within noise (significant, but the interval
 *                            reaches inside the floor: Criterion's rule)
 *   q >  fdr and -f <= lo and hi <= f
 *                            no change (the interval shows any change is
 *                            below the floor)
 *   q >  fdr, and the test could have seen a change of size f: the
 *            minimum detectable effect (power 0.8, level fdr / m, rank
 *            tests discounted by their 3/pi efficiency) is <= f and the
 *            exact test can reach that level at this n
 *                            no change
 *   q >  fdr otherwise       inconclusive, with runs_needed: the smallest
 *                            n per side at which the MDE falls to
 *                            max(f, |w|) and the exact test can reach the
 *                            level (capped at BH_REGRESS_MAX_RUNS); its
 *                            reason says which of three readings holds
 *                            (section 11.6): the exact test cannot reach
 *                            the level at this n (too few runs to judge);
 *                            else the whole interval lies within +-MDE
 *                            (no change detected: a change of the MDE is
 *                            ruled out, a floor-sized one is not); else
 *                            undecided. The reading never changes the
 *                            verdict, its counts or the gate.
 *   fewer than 2 values on a side, or a zero baseline median
 *                            inconclusive (untested, not counted in m)
 *
 * Suspects (confirm before failing, confirm.h): a comparison that is
 * regressed, or whose worse-direction estimate is beyond the floor with
 * q <= 2 fdr and an interval reaching beyond the floor (a likely
 * regression the first data could not pin down). Their cases are rerun;
 * the rerun data is classified by the same rules (paired: Wilcoxon
 * signed-rank + one-sample HL of ln ratios; BH over the rerun set) and
 * that verdict replaces the first one; "confirmed" means it is regressed.
 * --fail-on-regression fails on a critical regression that remains.
 *
 * The power level fdr / m is deliberately conservative: it is the BH level
 * of a comparison that is the only rejection among m tests.
 * Stability flags of the per-case summary do not force inconclusive: the
 * power rule already covers noisy cases from the observed spread, and a
 * flagged case with a large clean shift should still be reported. */
#include "verdict.h"

#include "compare.h"
#include "distributions.h"

#include <math.h>

/* ln C(2n, n), for the exact minimum p. */
static double lchoose2n(size_t n)
{
    return bh_stats_lchoose(2.0 * (double)n, (double)n);
}

double bh_regress_min_p(size_t n, int paired)
{
    if (n == 0)
        return 1.0;
    if (paired)
        return fmin(1.0, 2.0 * exp2(-(double)n));
    return fmin(1.0, 2.0 * exp(-lchoose2n(n)));
}

double bh_regress_mde(double s, size_t nb, size_t nc, int paired, int rank,
                      double alpha)
{
    double z, k = rank ? sqrt(M_PI / 3.0) : 1.0, se;

    if (!(s >= 0.0) || !isfinite(s) || nb == 0 || nc == 0 || !(alpha > 0.0 && alpha < 1.0))
        return NAN;
    z = bh_stats_norm_quantile(1.0 - alpha / 2.0) + bh_stats_norm_quantile(0.8);
    se = paired ? s / sqrt((double)nb) : s * sqrt(1.0 / (double)nb + 1.0 / (double)nc);
    return z * k * se;
}

uint32_t bh_regress_runs_needed(double s, double target, int paired, int rank,
                                double alpha)
{
    uint32_t n = 2;

    if (!(alpha > 0.0 && alpha < 1.0) || !(s >= 0.0) || !isfinite(s))
        return BH_REGRESS_MAX_RUNS;
    if (s > 0.0) {
        double z, k = rank ? sqrt(M_PI / 3.0) : 1.0, need;

        if (!(target > 0.0))
            return BH_REGRESS_MAX_RUNS;
        z = bh_stats_norm_quantile(1.0 - alpha / 2.0) + bh_stats_norm_quantile(0.8);
        need = (paired ? 1.0 : 2.0) * pow(z * k * s / target, 2.0);
        if (need >= (double)BH_REGRESS_MAX_RUNS)
            return BH_REGRESS_MAX_RUNS;
        if (ceil(need) > (double)n)
            n = (uint32_t)ceil(need);
    }
    /* A little slack against rounding: mde(n) <= target must hold. */
    while (n < BH_REGRESS_MAX_RUNS && s > 0.0 &&
           bh_regress_mde(s, n, n, paired, rank, alpha) > target)
        n++;
    while (rank && n < BH_REGRESS_MAX_RUNS && bh_regress_min_p(n, paired) > alpha)
        n++;
    return n;
}

uint32_t bh_regress_runs_to_reach(double alpha, int paired)
{
    uint32_t n = 2;

    while (n < BH_REGRESS_MAX_RUNS && bh_regress_min_p(n, paired) > alpha)
        n++;
    return n;
}

/* The worse-direction view of st's change into out. */
static void worse_view(const bh_regress_stat *st, int direction, bh_regress_verdict *out)
{
    if (direction < 0) {
        out->worse = -st->change;
        out->worse_lo = -st->change_hi;
        out->worse_hi = -st->change_lo;
    } else {
        out->worse = st->change;
        out->worse_lo = st->change_lo;
        out->worse_hi = st->change_hi;
    }
}

/* True when the whole worse-direction interval of v lies within +-mde
 * (a shift on the compared scale: ln values when log_scale): a change as
 * large as the minimum detectable effect is ruled out at the interval's
 * level (docs/statistics.md section 11.6). */
static int within_mde(const bh_regress_verdict *v, double mde, int log_scale)
{
    double lo = v->worse_lo, hi = v->worse_hi;

    if (!isfinite(mde) || !isfinite(lo) || !isfinite(hi))
        return 0;
    if (log_scale) {
        if (!(lo > -1.0))
            return 0;
        lo = log1p(lo);
        hi = log1p(hi);
    }
    return lo >= -mde && hi <= mde;
}

/* Exact minimum p of the test behind st (0 for Welch, which has none). */
static double test_min_p(const bh_regress_stat *st)
{
    if (st->test == BH_REGRESS_TEST_WELCH)
        return 0.0;
    if (st->paired)
        return bh_regress_min_p(st->n_base, 1);
    return bh_stats_mwu_min_p(st->n_base, st->n_cand);
}

void bh_regress_classify(const bh_regress_stat *st, int direction,
                         const bh_regress_thresholds *th, double fdr,
                         size_t m_tests, bh_regress_verdict *out)
{
    double f = th->noise_floor;
    double q = isnan(st->q) ? st->p : st->q;
    double alpha = fdr / (double)(m_tests ? m_tests : 1);
    int rank = st->test != BH_REGRESS_TEST_WELCH;
    double mde_scale = bh_regress_mde(st->spread, st->n_base, st->n_cand, st->paired,
                                      rank, alpha);

    out->kind = BH_VERDICT_INCONCLUSIVE;
    out->severity = BH_SEVERITY_NONE;
    out->runs_needed = 0;
    out->reason = "";
    worse_view(st, direction, out);
    out->mde = st->log_scale ? expm1(mde_scale) : mde_scale;
    if (st->test == BH_REGRESS_TEST_NONE || isnan(q)) {
        out->reason = "not tested";
        return;
    }
    if (q <= fdr) {
        if (out->worse_lo > f) {
            out->kind = BH_VERDICT_REGRESSED;
            out->severity = out->worse >= th->critical  ? BH_SEVERITY_CRITICAL
                            : out->worse >= th->warning ? BH_SEVERITY_WARNING
                                                        : BH_SEVERITY_MINOR;
            out->reason = "significant, and the whole interval is beyond the noise floor";
        } else if (out->worse_hi < -f) {
            out->kind = BH_VERDICT_IMPROVED;
            out->reason = "significant, and the whole interval is beyond the noise floor";
        } else {
            out->kind = BH_VERDICT_WITHIN_NOISE;
            out->reason = "significant, but the interval reaches inside the noise floor";
        }
        return;
    }
    if (out->worse_lo >= -f && out->worse_hi <= f) {
        out->kind = BH_VERDICT_NO_CHANGE;
        out->reason = "the whole interval lies within the noise floor";
        return;
    }
    if (out->mde <= f && test_min_p(st) <= alpha) {
        out->kind = BH_VERDICT_NO_CHANGE;
        out->reason = "not significant, and a change beyond the noise floor would have been "
                      "detected";
        return;
    }
    out->kind = BH_VERDICT_INCONCLUSIVE;
    if (rank && test_min_p(st) > alpha)
        out->reason = BH_REGRESS_REASON_TOO_FEW;
    else if (within_mde(out, mde_scale, st->log_scale))
        out->reason = BH_REGRESS_REASON_UNDETECTED;
    else
        out->reason = BH_REGRESS_REASON_UNDECIDED;
    {
        double target = fmax(f, fabs(out->worse));
        double target_scale = st->log_scale ? log1p(target) : target;

        out->runs_needed = bh_regress_runs_needed(st->spread, target_scale, st->paired,
                                                  rank, alpha);
    }
}

void bh_regress_untestable(size_t n_base, size_t n_cand, double fdr,
                           size_t m_tests, const char *reason,
                           bh_regress_verdict *out)
{
    double alpha = fdr / (double)(m_tests ? m_tests : 1);

    (void)n_base;
    (void)n_cand;
    out->kind = BH_VERDICT_INCONCLUSIVE;
    out->severity = BH_SEVERITY_NONE;
    out->worse = out->worse_lo = out->worse_hi = NAN;
    out->mde = NAN;
    out->runs_needed = bh_regress_runs_needed(0.0, 1.0, 0, 1, alpha);
    out->reason = reason;
}

const char *bh_regress_kind_name(bh_regress_kind k)
{
    static const char *const names[] = {"no change", "within noise", "improved", "regressed",
                                        "inconclusive", "new", "missing", "noisier"};

    return (unsigned)k < BH_VERDICT_KINDS ? names[k] : "?";
}

const char *bh_regress_severity_name(bh_regress_severity s)
{
    static const char *const names[] = {"", "minor", "warning", "critical"};

    return (unsigned)s <= BH_SEVERITY_CRITICAL ? names[s] : "?";
}

const char *bh_regress_test_name(bh_regress_test t)
{
    static const char *const names[] = {"none",          "mwu-exact",      "mwu-normal",
                                        "welch",         "wilcoxon-exact", "wilcoxon-normal",
                                        "brown-forsythe-ratio"};

    return (unsigned)t <= BH_REGRESS_TEST_BROWN_FORSYTHE ? names[t] : "?";
}
