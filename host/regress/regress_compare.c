// SPDX-License-Identifier: MIT
/* Comparing two result documents case by case and metric by metric. */
#include "regress_compare.h"

#include "bh_mem.h"
#include "compare.h"
#include "memory_compare.h"
#include "sysinfo.h"
#include "variance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A case of one document with its matching key. */
typedef struct keyed {
    const bh_rv_case *c;
    char *key;
    int used;
} keyed;

/* The cases of v with their keys (new array of v->n_cases; free keys and
 * array). */
static keyed *key_cases(const bh_result_view *v, const bh_regress_match *m)
{
    keyed *k = bh_xcalloc(v->n_cases ? v->n_cases : 1, sizeof(*k));

    for (size_t i = 0; i < v->n_cases; i++) {
        k[i].c = &v->cases[i];
        k[i].key = bh_regress_match_key(&v->cases[i], m);
    }
    return k;
}

static void free_keyed(keyed *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(k[i].key);
    free(k);
}

/* The extra metric name of the candidate case, else of the baseline one
 * (either may be NULL); NULL when neither has it. */
static const bh_rv_metric *metric_of(const char *name, const bh_rv_case *cand,
                                     const bh_rv_case *base)
{
    const bh_rv_metric *m = cand ? bh_rv_case_metric(cand, name) : NULL;

    return !m && base ? bh_rv_case_metric(base, name) : m;
}

/* Direction of metric: the config's, else the result's, else lower. */
static int direction_of(const bh_regress_config *cfg, const char *metric,
                        const bh_rv_case *cand, const bh_rv_case *base)
{
    const bh_regress_metric_cfg *mc = bh_regress_metric_find(cfg, metric);
    const bh_rv_metric *m;

    if (mc && mc->direction)
        return mc->direction;
    if (strcmp(metric, BH_REGRESS_TIME) == 0)
        return 1;
    m = metric_of(metric, cand, base);
    return m && m->higher_better ? -1 : 1;
}

static const char *unit_of(const char *metric, const bh_rv_case *cand, const bh_rv_case *base)
{
    const bh_rv_metric *m;

    if (strcmp(metric, BH_REGRESS_TIME) == 0)
        return "ns/iter";
    if (bh_regress_is_memory_metric(metric) && !metric_of(metric, cand, base))
        return bh_regress_memory_unit(metric);
    m = metric_of(metric, cand, base);
    return m ? m->unit : "";
}

/* True when a run of c counted instructions (measure: instructions): its
 * counts are compared on their own floor, its time under Valgrind not at
 * all (docs/statistics.md section 11.7). c may be NULL. */
static int counted(const bh_rv_case *c)
{
    for (size_t i = 0; c && i < c->n_runs; i++)
        if (c->runs[i].timing && strcmp(c->runs[i].timing, "instructions") == 0)
            return 1;
    return 0;
}

/* True when c was profiled (bhost run --profile): its times come from a
 * worker under a profiler, so the case is never compared. c may be NULL. */
static int profiled(const bh_rv_case *c)
{
    return c && cJSON_GetObjectItemCaseSensitive(c->json, "profile") != NULL;
}

/* Appends an item with the identity fields set and the rest empty. */
static bh_regress_item *add_item(bh_regress_report *r, const bh_regress_config *cfg,
                                 const char *id, const char *base_id, const char *metric,
                                 const bh_rv_case *cand, const bh_rv_case *base)
{
    bh_regress_item it;

    memset(&it, 0, sizeof(it));
    it.case_id = bh_xstrdup(id);
    it.base_id = base_id ? bh_xstrdup(base_id) : NULL;
    it.metric = bh_xstrdup(metric);
    it.unit = bh_xstrdup(unit_of(metric, cand, base));
    it.direction = direction_of(cfg, metric, cand, base);
    bh_regress_thresholds_for(cfg, id, &it.th);
    it.th.noise_floor = bh_regress_metric_floor(cfg, metric, counted(cand) || counted(base),
                                                &it.th);
    if (!metric_of(metric, cand, base))
        bh_regress_memory_thresholds(cfg, metric, &it.th);
    it.st.p = it.st.q = NAN;
    it.st.change = it.st.change_lo = it.st.change_hi = NAN;
    it.st.base_center = it.st.cand_center = it.st.spread = it.st.level = NAN;
    it.v.worse = it.v.worse_lo = it.v.worse_hi = it.v.mde = NAN;
    it.v.reason = "";
    BH_PUSH(r->items, r->n, r->cap, it);
    return &r->items[r->n - 1];
}

/* True when every value of both sides is the same number. */
static int all_same(const double *bv, size_t nb, const double *cv, size_t nc)
{
    for (size_t i = 0; i < nb; i++)
        if (bv[i] != bv[0])
            return 0;
    for (size_t i = 0; i < nc; i++)
        if (cv[i] != bv[0])
            return 0;
    return 1;
}

/* Runs the test of an item from its values. */
static void test_values(bh_regress_item *it, const bh_regress_config *cfg, const double *bv,
                        size_t nb, const double *cv, size_t nc)
{
    it->st.n_base = nb;
    it->st.n_cand = nc;
    if (it->memory && nb > 0 && nc > 0 && all_same(bv, nb, cv, nc)) {
        /* deterministic and unchanged: no test, so no place in the memory
           family (it would only dilute the tests that can find something) */
        it->decided = 1;
        it->v.kind = BH_VERDICT_NO_CHANGE;
        it->v.reason = BH_REGRESS_REASON_SAME_MEMORY;
        it->st.change = it->st.change_lo = it->st.change_hi = 0.0;
        it->st.base_center = it->st.cand_center = bv[0];
    } else if (nb < 2 || nc < 2) {
        it->untested_why = nb < 2 ? "fewer than 2 ok runs in the baseline"
                                  : "fewer than 2 ok runs in the candidate";
    } else if (bh_regress_test_unpaired(bv, nb, cv, nc, cfg->method, cfg->confidence,
                                        &it->st) == 0) {
        it->tested = 1;
    } else if (all_same(bv, nb, cv, nc)) {
        /* A count that is 0 in every run on both sides (a counting run's
           misses, say) did not change, though no relative change exists:
           every value ties, so the rank test's p is exactly 1 (and Welch's
           difference exactly 0). */
        it->st.test = cfg->method == BH_REGRESS_WELCH ? BH_REGRESS_TEST_WELCH
                                                      : BH_REGRESS_TEST_MWU_NORMAL;
        it->st.p = 1.0;
        it->st.change = it->st.change_lo = it->st.change_hi = 0.0;
        it->st.base_center = it->st.cand_center = bv[0];
        it->st.spread = 0.0;
        it->st.level = cfg->confidence;
        it->tested = 1;
    } else {
        it->untested_why = "the baseline median is 0, so there is no relative change";
    }
}

void bh_regress_report_add_values(bh_regress_report *r, const bh_regress_config *cfg,
                                  const char *case_id, const char *metric,
                                  int direction, const double *base, size_t nb,
                                  const double *cand, size_t nc)
{
    bh_regress_item *it = add_item(r, cfg, case_id, case_id, metric, NULL, NULL);

    it->direction = direction < 0 ? -1 : 1;
    test_values(it, cfg, base, nb, cand, nc);
}

/* Tests one metric present on both sides; memory: a memory metric
 * (memory_compare.h), in the memory family. */
static void test_metric(bh_regress_report *r, const bh_regress_config *cfg,
                        const bh_rv_case *base, const bh_rv_case *cand, const char *metric,
                        int memory)
{
    bh_regress_item *it = add_item(r, cfg, cand->id, base->id, metric, cand, base);
    double *bv, *cv;
    size_t nb, nc;

    it->memory = memory;
    bh_regress_run_values(base, metric, &bv, &nb);
    bh_regress_run_values(cand, metric, &cv, &nc);
    test_values(it, cfg, bv, nb, cv, nc);
    free(bv);
    free(cv);
}

/* The spread item of a matched pair of cases (variance.h), from their
 * time run medians. */
static void add_spread(bh_regress_report *r, const bh_regress_config *cfg,
                       const bh_rv_case *base, const bh_rv_case *cand)
{
    double *bv, *cv;
    size_t nb, nc;

    bh_regress_run_values(base, BH_REGRESS_TIME, &bv, &nb);
    bh_regress_run_values(cand, BH_REGRESS_TIME, &cv, &nc);
    bh_regress_spread_add(r, cfg, cand->id, base->id, bv, nb, cv, nc);
    free(bv);
    free(cv);
}

/* Every metric of a matched pair of cases: time, the extra metrics, the
 * memory metrics, then the spread of the time. */
static void compare_case(bh_regress_report *r, const bh_regress_config *cfg,
                         const bh_rv_case *base, const bh_rv_case *cand)
{
    const bh_regress_metric_cfg *tc = bh_regress_metric_find(cfg, BH_REGRESS_TIME);

    if (!(tc && tc->ignore) && !counted(base) && !counted(cand))
        test_metric(r, cfg, base, cand, BH_REGRESS_TIME, 0);
    for (size_t i = 0; i < cand->n_metrics; i++) {
        const char *name = cand->metrics[i].name;
        const bh_regress_metric_cfg *mc = bh_regress_metric_find(cfg, name);

        /* informational and correctness metrics are never compared with a
         * baseline (a correctness metric is held against its limit) */
        if ((mc && mc->ignore) || strcmp(name, BH_REGRESS_TIME) == 0 ||
            !cand->metrics[i].compared ||
            (bh_rv_case_metric(base, name) && !bh_rv_case_metric(base, name)->compared))
            continue;
        if (bh_rv_case_metric(base, name)) {
            test_metric(r, cfg, base, cand, name, 0);
        } else {
            bh_regress_item *it = add_item(r, cfg, cand->id, base->id, name, cand, base);
            it->v.kind = BH_VERDICT_NEW;
        }
    }
    for (size_t i = 0; i < base->n_metrics; i++) {
        const char *name = base->metrics[i].name;
        const bh_regress_metric_cfg *mc = bh_regress_metric_find(cfg, name);
        bh_regress_item *it;

        if ((mc && mc->ignore) || strcmp(name, BH_REGRESS_TIME) == 0 ||
            bh_rv_case_metric(cand, name) || !base->metrics[i].compared)
            continue;
        it = add_item(r, cfg, cand->id, base->id, name, cand, base);
        it->v.kind = BH_VERDICT_MISSING;
    }
    for (size_t k = 0; k < BH_REGRESS_N_MEMORY; k++)
        if (bh_regress_memory_compared(cfg, base, cand, bh_regress_memory_metrics[k],
                                       counted(base) || counted(cand)))
            test_metric(r, cfg, base, cand, bh_regress_memory_metrics[k], 1);
    if (!(tc && tc->ignore) && !counted(base) && !counted(cand))
        add_spread(r, cfg, base, cand);
}

void bh_regress_compare_docs(const cJSON *base, const cJSON *cand,
                             const bh_regress_config *cfg,
                             const bh_regress_match *match,
                             bh_regress_report *out)
{
    bh_result_view vb, vc;
    size_t nb, nc;
    keyed *kb, *kc;

    bh_result_view_load(base, &vb);
    bh_result_view_load(cand, &vc);
    nb = vb.n_cases;
    nc = vc.n_cases;
    kb = key_cases(&vb, match);
    kc = key_cases(&vc, match);
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < nc; i++) {
        size_t j;

        for (j = 0; j < nb; j++)
            if (!kb[j].used && strcmp(kb[j].key, kc[i].key) == 0)
                break;
        if (j == nb) {
            add_item(out, cfg, kc[i].c->id, NULL, BH_REGRESS_TIME, kc[i].c, NULL)->v.kind =
                BH_VERDICT_NEW;
            continue;
        }
        kb[j].used = 1;
        if (profiled(kb[j].c) || profiled(kc[i].c))
            add_item(out, cfg, kc[i].c->id, kb[j].c->id, BH_REGRESS_TIME, kc[i].c, kb[j].c)
                ->untested_why = "not compared: profiled (bhost run --profile), its times "
                                 "are not comparable";
        else
            compare_case(out, cfg, kb[j].c, kc[i].c);
    }
    for (size_t j = 0; j < nb; j++)
        if (!kb[j].used) {
            bh_regress_item *it = add_item(out, cfg, kb[j].c->id, kb[j].c->id,
                                           BH_REGRESS_TIME, NULL, kb[j].c);
            it->v.kind = BH_VERDICT_MISSING;
        }
    free_keyed(kb, nb);
    free_keyed(kc, nc);
    bh_result_view_free(&vb);
    bh_result_view_free(&vc);
    bh_regress_finalize(out, cfg);
}

int bh_regress_is_suspect(const bh_regress_item *it, double fdr, int paired)
{
    const bh_regress_verdict *v = &it->v;
    double q = it->st.q;
    double f = paired ? bh_regress_paired_thresholds(it).noise_floor : it->th.noise_floor;

    if (!it->tested || it->spread)
        return 0;
    if (v->kind == BH_VERDICT_REGRESSED)
        return 1;
    return q <= 2.0 * fdr && v->worse > f && v->worse_hi > f;
}

bh_regress_thresholds bh_regress_paired_thresholds(const bh_regress_item *it)
{
    bh_regress_thresholds th = it->th;

    if (it->drift.runs > 0)
        th.noise_floor = it->drift.config_floor;
    return th;
}

/* Benjamini-Hochberg over the tested items' p into their q; the family
 * also holds r->family_extra tests outside the report, with p = 1. */
static void adjust(bh_regress_report *r)
{
    size_t fam = r->n + r->family_extra;
    double *p = bh_xcalloc(fam ? fam : 1, sizeof(double));
    size_t m = 0;

    for (size_t i = 0; i < r->n; i++)
        if (r->items[i].tested && !r->items[i].spread && !r->items[i].memory)
            p[m++] = r->items[i].st.p;
    for (size_t k = 0; k < r->family_extra; k++)
        p[m + k] = 1.0;
    if (m > 0 && bh_stats_adjust_bh(p, m + r->family_extra, p) == 0) {
        m = 0;
        for (size_t i = 0; i < r->n; i++)
            if (r->items[i].tested && !r->items[i].spread && !r->items[i].memory)
                r->items[i].st.q = p[m++];
    }
    r->m_tests = m;
    free(p);
}

void bh_regress_finalize(bh_regress_report *r, const bh_regress_config *cfg)
{
    r->fdr = cfg->fdr;
    r->confidence = cfg->confidence;
    r->method = cfg->method;
    adjust(r);
    bh_regress_memory_adjust(r);
    bh_regress_spread_finalize(r, cfg);
    memset(r->counts, 0, sizeof(r->counts));
    memset(r->severities, 0, sizeof(r->severities));
    r->n_suspects = 0;
    for (size_t i = 0; i < r->n; i++) {
        bh_regress_item *it = &r->items[i];

        if (it->spread || it->decided) {
            /* verdict already drawn (bh_regress_spread_finalize, test_values) */
        } else if (it->tested) {
            bh_regress_classify(&it->st, it->direction, &it->th, cfg->fdr,
                                it->memory ? r->n_memory_tests : r->m_tests + r->family_extra,
                                &it->v);
            it->suspect = bh_regress_is_suspect(it, cfg->fdr, r->paired_confirm);
            r->n_suspects += (size_t)it->suspect;
            if (it->conf.done && !it->conf.error) {
                it->conf.first = it->v;
                it->conf.initial = it->v.kind;
                it->conf.initial_severity = it->v.severity;
                it->v = it->conf.v;
            }
        } else if (it->v.kind == BH_VERDICT_NEW) {
            it->v.reason = "only in the candidate";
        } else if (it->v.kind == BH_VERDICT_MISSING) {
            it->v.reason = "only in the baseline";
        } else {
            bh_regress_untestable(it->st.n_base, it->st.n_cand, cfg->fdr,
                                  r->m_tests + r->family_extra,
                                  it->untested_why ? it->untested_why : "not tested",
                                  &it->v);
        }
        r->counts[it->v.kind]++;
        if (it->v.kind == BH_VERDICT_REGRESSED)
            r->severities[it->v.severity]++;
    }
}

int bh_regress_comparable(const cJSON *base, const cJSON *cand, char **system_diff,
                          char **config_diff)
{
    bh_result_view vb, vc;
    const char *a, *b;

    bh_result_view_load_top(base, &vb);
    bh_result_view_load_top(cand, &vc);
    a = vb.run.config_name ? vb.run.config_name : "";
    b = vc.run.config_name ? vc.run.config_name : "";
    *system_diff = bh_sysinfo_diff(vb.system.json, vc.system.json);
    *config_diff = strcmp(a, b) != 0 ? bh_xasprintf("'%s' != '%s'", a, b) : NULL;
    bh_result_view_free(&vb);
    bh_result_view_free(&vc);
    return !*system_diff && !*config_diff;
}

size_t bh_regress_n_critical(const bh_regress_report *r)
{
    return r->severities[BH_SEVERITY_CRITICAL] +
           (r->noisier_fail ? r->counts[BH_VERDICT_NOISIER] : 0);
}

void bh_regress_report_free(bh_regress_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->items[i].case_id);
        free(r->items[i].base_id);
        free(r->items[i].metric);
        free(r->items[i].unit);
        free(r->items[i].conf.error);
        free(r->items[i].conf.base_values);
        free(r->items[i].conf.cand_values);
    }
    free(r->items);
    memset(r, 0, sizeof(*r));
}
