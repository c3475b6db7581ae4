// SPDX-License-Identifier: MIT
/* The spread test behind the noisier verdict (see variance.h). */
#include "variance.h"

#include "bh_mem.h"
#include "descriptive.h"
#include "distributions.h"
#include "memory_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ln x[i] into out[i]; -1 unless every x is finite and > 0. */
static int logs(const double *x, size_t n, double *out)
{
    for (size_t i = 0; i < n; i++) {
        if (!(isfinite(x[i]) && x[i] > 0))
            return -1;
        out[i] = log(x[i]);
    }
    return 0;
}

/* |l[i] - median(l)| * scale into dev[i]; *sd gets the sd of l. */
static void deviations(const double *l, size_t n, double scale, double *dev, double *sd)
{
    double *s = bh_xcalloc(n, sizeof(double));
    double med, var;

    memcpy(s, l, n * sizeof(double));
    med = bh_stats_median(s, n);
    for (size_t i = 0; i < n; i++)
        dev[i] = fabs(l[i] - med) * scale;
    bh_stats_mean_var(l, n, NULL, &var);
    *sd = sqrt(var);
    free(s);
}

/* See variance.h. */
int bh_regress_spread_test(const double *base, size_t nb, const double *cand, size_t nc,
                           double ratio, bh_regress_spread_stat *out)
{
    double *lb, *lc, *db, *dc;
    double mb, vb, mc, vc, sp2;
    int rc = -1;

    out->sd_base = out->sd_cand = out->mad_base = out->mad_cand = NAN;
    out->t = out->p = NAN;
    out->ratio = ratio;
    out->df = (double)nb + (double)nc - 2.0;
    if (nb < BH_REGRESS_SPREAD_MIN_RUNS || nc < BH_REGRESS_SPREAD_MIN_RUNS ||
        !(ratio >= 1.0) || !isfinite(ratio))
        return -1;
    lb = bh_xcalloc(nb, sizeof(double));
    lc = bh_xcalloc(nc, sizeof(double));
    db = bh_xcalloc(nb, sizeof(double));
    dc = bh_xcalloc(nc, sizeof(double));
    if (logs(base, nb, lb) != 0 || logs(cand, nc, lc) != 0)
        goto out;
    deviations(lb, nb, 1.0, db, &out->sd_base);
    deviations(lc, nc, 1.0, dc, &out->sd_cand);
    out->mad_base = bh_stats_mean(db, nb);
    out->mad_cand = bh_stats_mean(dc, nc);
    /* H0 at its boundary: the candidate's deviations are r times the
       baseline's, so the baseline's are scaled up by r */
    for (size_t i = 0; i < nb; i++)
        db[i] *= ratio;
    bh_stats_mean_var(db, nb, &mb, &vb);
    bh_stats_mean_var(dc, nc, &mc, &vc);
    sp2 = ((double)(nb - 1) * vb + (double)(nc - 1) * vc) / out->df;
    if (!(sp2 > 0)) {
        out->t = mc > mb ? INFINITY : mc < mb ? -INFINITY : 0.0;
        out->p = mc > mb ? 0.0 : 1.0;
    } else {
        double p2;

        out->t = (mc - mb) / sqrt(sp2 * (1.0 / (double)nb + 1.0 / (double)nc));
        /* one-sided from the two-sided p, which keeps the small tail exact */
        p2 = bh_stats_t_p2(out->t, out->df);
        out->p = out->t > 0 ? 0.5 * p2 : 1.0 - 0.5 * p2;
    }
    rc = isnan(out->p) ? -1 : 0;
out:
    free(lb);
    free(lc);
    free(db);
    free(dc);
    return rc;
}

/* See variance.h. */
void bh_regress_spread_add(bh_regress_report *r, const bh_regress_config *cfg,
                           const char *case_id, const char *base_id, const double *base,
                           size_t nb, const double *cand, size_t nc)
{
    bh_regress_spread_stat s;
    bh_regress_item it;

    if (cfg->noisier == BH_REGRESS_NOISIER_OFF ||
        bh_regress_spread_test(base, nb, cand, nc, cfg->noisier_ratio, &s) != 0)
        return;
    memset(&it, 0, sizeof(it));
    it.case_id = bh_xstrdup(case_id);
    it.base_id = base_id ? bh_xstrdup(base_id) : NULL;
    it.metric = bh_xstrdup(BH_REGRESS_SPREAD);
    it.unit = bh_xstrdup("sd of ln run medians");
    it.direction = 1;
    it.spread = 1;
    it.tested = 1;
    /* the floor of a spread item is its ratio, as a relative change */
    it.th.noise_floor = it.th.warning = it.th.critical = cfg->noisier_ratio - 1.0;
    it.st.n_base = nb;
    it.st.n_cand = nc;
    it.st.log_scale = 1;
    it.st.base_center = s.sd_base;
    it.st.cand_center = s.sd_cand;
    it.st.change = s.sd_base > 0 ? s.sd_cand / s.sd_base - 1.0 : NAN;
    it.st.change_lo = it.st.change_hi = NAN;
    it.st.level = NAN;
    it.st.p = s.p;
    it.st.q = NAN;
    it.st.spread = NAN;
    it.st.test = BH_REGRESS_TEST_BROWN_FORSYTHE;
    it.v.worse = it.v.worse_lo = it.v.worse_hi = it.v.mde = NAN;
    it.v.reason = "";
    BH_PUSH(r->items, r->n, r->cap, it);
}

/* True for a spread item. */
static int is_spread(const bh_regress_item *it)
{
    return it->spread;
}

/* See variance.h. */
void bh_regress_spread_finalize(bh_regress_report *r, const bh_regress_config *cfg)
{
    r->n_spread_tests = bh_regress_adjust_family(r, is_spread);
    r->noisier_fail = cfg->noisier == BH_REGRESS_NOISIER_FAIL;
    for (size_t i = 0; i < r->n; i++) {
        bh_regress_item *it = &r->items[i];

        if (!it->spread)
            continue;
        it->v.severity = BH_SEVERITY_NONE;
        it->v.worse = it->st.change;
        it->v.runs_needed = 0;
        if (it->st.q <= cfg->fdr) {
            it->v.kind = BH_VERDICT_NOISIER;
            it->v.reason = BH_REGRESS_REASON_NOISIER;
        } else {
            it->v.kind = BH_VERDICT_NO_CHANGE;
            it->v.reason = BH_REGRESS_REASON_NOT_NOISIER;
        }
    }
}
