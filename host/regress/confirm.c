// SPDX-License-Identifier: MIT
/* The pure half of confirm-before-fail: schedules and the decision on
 * the rerun data (see confirm.h). */
#include "confirm.h"

#include "bh_mem.h"
#include "bh_rng.h"
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A block of the ABBA schedule: one or two pairs of one case. */
typedef struct block {
    uint32_t k;     /* suspect case */
    uint32_t pair;  /* first pair */
    uint32_t count; /* 1 or 2 pairs */
    uint32_t a_first;
} block;

bh_regress_slot *bh_regress_abba_schedule(size_t n_cases, uint32_t pairs, uint64_t seed, size_t *n)
{
    uint32_t *each = bh_xcalloc(n_cases ? n_cases : 1, sizeof(*each));
    bh_regress_slot *s;

    for (size_t k = 0; k < n_cases; k++)
        each[k] = pairs;
    s = bh_regress_abba_schedule_each(n_cases, each, seed, n);
    free(each);
    return s;
}

/* The blocks of the ABBA schedule: per case k, pairs[k] / 2 blocks of two
 * pairs and a lone last pair when pairs[k] is odd, each with a seeded coin
 * for its order. A new array of *nb blocks (NULL when none). */
static block *abba_blocks(size_t n_cases, const uint32_t *pairs, bh_rng *rng, size_t *nb)
{
    size_t total = 0, at = 0;
    block *b;

    for (size_t k = 0; k < n_cases; k++)
        total += (pairs[k] + 1) / 2;
    *nb = total;
    if (total == 0)
        return NULL;
    b = bh_xcalloc(total, sizeof(*b));
    for (size_t k = 0; k < n_cases; k++)
        for (uint32_t j = 0; 2 * j < pairs[k]; j++) {
            block *x = &b[at++];

            x->k = (uint32_t)k;
            x->pair = 2 * j;
            x->count = 2 * j + 1 < pairs[k] ? 2 : 1;
            x->a_first = (uint32_t)bh_rng_below(rng, 2);
        }
    return b;
}

bh_regress_slot *bh_regress_abba_schedule_each(size_t n_cases, const uint32_t *pairs, uint64_t seed,
                                               size_t *n)
{
    size_t nb, at = 0, slots = 0;
    block *b;
    bh_regress_slot *s;
    bh_rng rng;

    *n = 0;
    bh_rng_seed(&rng, seed);
    b = abba_blocks(n_cases, pairs, &rng, &nb);
    if (!b)
        return NULL;
    bh_rng_shuffle(&rng, b, nb, sizeof(*b));
    for (size_t k = 0; k < n_cases; k++)
        slots += 2 * (size_t)pairs[k];
    s = bh_xcalloc(slots, sizeof(*s));
    for (size_t i = 0; i < nb; i++) {
        uint32_t a = 2 * b[i].k, bb = 2 * b[i].k + 1;
        uint32_t first = b[i].a_first ? a : bb, second = b[i].a_first ? bb : a;

        /* first second | second first: A B B A or B A A B */
        s[at++] = (bh_regress_slot){first, b[i].pair};
        s[at++] = (bh_regress_slot){second, b[i].pair};
        if (b[i].count == 2) {
            s[at++] = (bh_regress_slot){second, b[i].pair + 1};
            s[at++] = (bh_regress_slot){first, b[i].pair + 1};
        }
    }
    free(b);
    *n = at;
    return s;
}

bh_regress_slot *bh_regress_shuffled_schedule(size_t n_cases, uint32_t runs, uint64_t seed,
                                              size_t *n)
{
    bh_regress_slot *s;
    bh_rng rng;
    size_t at = 0;

    *n = 0;
    if (n_cases == 0 || runs == 0)
        return NULL;
    s = bh_xcalloc((size_t)runs * n_cases, sizeof(*s));
    for (size_t k = 0; k < n_cases; k++)
        for (uint32_t r = 0; r < runs; r++)
            s[at++] = (bh_regress_slot){(uint32_t)k, r};
    bh_rng_seed(&rng, seed);
    bh_rng_shuffle(&rng, s, at, sizeof(*s));
    *n = at;
    return s;
}

/* Resets the confirmation part of it, keeping nothing from before. */
static void conf_reset(bh_regress_item *it)
{
    free(it->conf.error);
    free(it->conf.base_values);
    free(it->conf.cand_values);
    memset(&it->conf, 0, sizeof(it->conf));
    it->conf.done = 1;
}

/* Copies n values into a new array (NULL when n == 0). */
static double *copy_values(const double *v, size_t n)
{
    double *c;

    if (n == 0)
        return NULL;
    c = bh_xcalloc(n, sizeof(*c));
    memcpy(c, v, n * sizeof(*c));
    return c;
}

void bh_regress_confirm_paired(bh_regress_item *it, const double *base, const double *cand,
                               size_t n, double level)
{
    double *b = bh_xcalloc(n ? n : 1, sizeof(double));
    double *c = bh_xcalloc(n ? n : 1, sizeof(double));
    size_t k = 0;

    conf_reset(it);
    it->conf.paired = 1;
    for (size_t i = 0; i < n; i++)
        if (isfinite(base[i]) && isfinite(cand[i])) {
            b[k] = base[i];
            c[k] = cand[i];
            k++;
        }
    it->conf.base_values = copy_values(b, k);
    it->conf.cand_values = copy_values(c, k);
    it->conf.n_base_values = it->conf.n_cand_values = k;
    if (k < 2)
        it->conf.error = bh_xasprintf("only %zu complete pair%s of ok runs", k, k == 1 ? "" : "s");
    else if (bh_regress_test_paired(b, c, k, level, &it->conf.st) != 0)
        it->conf.error = bh_xstrdup("the baseline median is 0, so there is no relative "
                                    "change");
    free(b);
    free(c);
}

void bh_regress_confirm_unpaired(bh_regress_item *it, const double *base, size_t nb,
                                 const double *cand, size_t nc, bh_regress_method method,
                                 double level)
{
    conf_reset(it);
    it->conf.paired = 0;
    it->conf.base_values = copy_values(base, nb);
    it->conf.cand_values = copy_values(cand, nc);
    it->conf.n_base_values = nb;
    it->conf.n_cand_values = nc;
    if (nb < 2 || nc < 2)
        it->conf.error = bh_xasprintf("only %zu ok rerun%s", nc, nc == 1 ? "" : "s");
    else if (bh_regress_test_unpaired(base, nb, cand, nc, method, level, &it->conf.st) != 0)
        it->conf.error = bh_xstrdup("the baseline median is 0, so there is no relative "
                                    "change");
}

void bh_regress_confirm_decide(bh_regress_report *r, const bh_regress_config *cfg)
{
    double *p = bh_xcalloc(r->n ? r->n : 1, sizeof(double));
    size_t m = 0;

    for (size_t i = 0; i < r->n; i++)
        if (r->items[i].conf.done && !r->items[i].conf.error)
            p[m++] = r->items[i].conf.st.p;
    if (m > 0 && bh_stats_adjust_bh(p, m, p) == 0) {
        size_t k = 0;

        for (size_t i = 0; i < r->n; i++) {
            bh_regress_item *it = &r->items[i];

            if (!it->conf.done || it->conf.error)
                continue;
            bh_regress_thresholds th = it->conf.paired ? bh_regress_paired_thresholds(it) : it->th;

            it->conf.st.q = p[k++];
            bh_regress_classify(&it->conf.st, it->direction, &th, cfg->fdr, m, &it->conf.v);
            it->conf.confirmed = it->conf.v.kind == BH_VERDICT_REGRESSED;
        }
    }
    r->n_confirm_tests = m;
    free(p);
    bh_regress_finalize(r, cfg);
}
