// SPDX-License-Identifier: MIT
/* bhost ab's paired decision over two builds' result documents
 * (ab_decide.h). */
#include "ab_decide.h"

#include "confirm.h"
#include "result_view.h"

#include <math.h>
#include <stdlib.h>

/* Decides item it on the pairs of runs of its case in a and b. */
static void pair_item(bh_regress_item *it, const bh_result_view *a, const bh_result_view *b,
                      double level)
{
    const bh_rv_case *ca = bh_result_view_find(a, it->base_id ? it->base_id : it->case_id);
    const bh_rv_case *cb = bh_result_view_find(b, it->case_id);
    double *va = NULL, *vb = NULL;
    size_t na = 0, nb = 0;

    if (ca)
        bh_regress_run_values_indexed(ca, it->metric, &va, &na);
    if (cb)
        bh_regress_run_values_indexed(cb, it->metric, &vb, &nb);
    bh_regress_confirm_paired(it, va, vb, na < nb ? na : nb, level);
    free(va);
    free(vb);
}

/* See ab_decide.h. */
void bh_regress_ab_decide(const cJSON *a, const cJSON *b, const bh_regress_config *cfg,
                          bh_regress_report *out)
{
    bh_result_view va, vb;

    bh_regress_compare_docs(a, b, cfg, NULL, out);
    out->paired_confirm = 1;
    bh_regress_finalize(out, cfg);
    bh_result_view_load(a, &va);
    bh_result_view_load(b, &vb);
    for (size_t i = 0; i < out->n; i++) {
        bh_regress_item *it = &out->items[i];

        if (it->tested && !it->memory && !it->spread && !it->decided)
            pair_item(it, &va, &vb, cfg->confidence);
    }
    bh_result_view_free(&va);
    bh_result_view_free(&vb);
    bh_regress_confirm_decide(out, cfg);
}

/* See ab_decide.h. */
uint32_t bh_regress_ab_least_pairs(double fdr, size_t m_tests)
{
    uint32_t n = 2;

    if (!(fdr > 0))
        return n;
    while (n < 64 && 2.0 / ldexp(1.0, (int)n) > fdr / (double)(m_tests ? m_tests : 1))
        n++;
    return n;
}
