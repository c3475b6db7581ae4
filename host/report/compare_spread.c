// SPDX-License-Identifier: MIT
/* Console lines of the comparisons that are not a change of a value: a
 * spread item (the noisier verdict, host/regress/variance.h) and a memory
 * metric decided without a test (host/regress/memory_compare.h). */
#include "compare_console.h"

#include "report_text.h"

#include <math.h>
#include <stdio.h>

#define YELLOW "\033[33m"
#define RESET "\033[0m"

/* See compare_console.h. */
void bh_compare_print_spread(FILE *out, const bh_regress_item *it, int fails, int color)
{
    char p[24], q[24];
    int noisier = it->v.kind == BH_VERDICT_NOISIER;
    const char *vc = color && noisier ? YELLOW : "";

    bh_report_fmt_p(it->st.p, p, sizeof(p));
    bh_report_fmt_p(it->st.q, q, sizeof(q));
    fprintf(out, "  spread: %.2f%% -> %.2f%% (sd of ln run medians, %zu vs %zu runs)\n",
            100.0 * it->st.base_center, 100.0 * it->st.cand_center, it->st.n_base,
            it->st.n_cand);
    fprintf(out, "    ratio: x%.2f against x%.2g (Brown-Forsythe, p=%s, q=%s) %s%s%s%s\n",
            isfinite(it->st.change) ? it->st.change + 1.0 : INFINITY,
            it->th.noise_floor + 1.0, p, q, vc, bh_regress_kind_name(it->v.kind),
            noisier ? (fails ? " (fails the gate: regression.noisier is fail)"
                             : " (a warning; regression.noisier: fail fails the gate)")
                    : "",
            *vc ? RESET : "");
    if (it->v.reason && *it->v.reason)
        fprintf(out, "      why: %s\n", it->v.reason);
}

/* See compare_console.h. */
void bh_compare_print_decided(FILE *out, const bh_regress_item *it)
{
    fprintf(out, "    change: none %s\n      why: %s\n", bh_regress_kind_name(it->v.kind),
            it->v.reason);
}
