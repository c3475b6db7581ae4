// SPDX-License-Identifier: MIT
/*
 * test_tune.c -- unit tests of libsci_tune: every blocking of the space
 * computes the same product as a plain triple loop (odd sizes that leave
 * partial panels and micro-tiles), the space enumerates distinct points
 * with the default among them, and the budgeted search (on a fake clock)
 * tries the default first, stops at the budget, visits every point when
 * the budget allows and picks the fastest.
 */
#include "sci_check.h"
#include "tn_tune.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* Every point of the space on an m x n x k product with partial tiles. */
static void test_gemm_points(void)
{
    size_t m = 37, n = 45, k = 530; /* k > the largest KC: two K panels */
    float *a = malloc(m * k * sizeof(float)), *b = malloc(k * n * sizeof(float));
    float *c = malloc(m * n * sizeof(float));
    tn_gemm_ws ws;

    CHECK(a && b && c && tn_gemm_ws_init(&ws) == 0, "allocation");
    for (size_t i = 0; i < m * k; i++)
        a[i] = (float)((int)(i * 7 % 13) - 6) / 8.0f;
    for (size_t i = 0; i < k * n; i++)
        b[i] = (float)((int)(i * 5 % 11) - 5) / 4.0f;
    for (size_t p = 0; p < tn_gemm_space_size(); p++) {
        tn_gemm_cfg cfg = tn_gemm_space_point(p);
        double worst = 0.0;

        tn_sgemm(&cfg, &ws, m, n, k, a, k, b, n, c, n);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                double ref = 0.0;

                for (size_t q = 0; q < k; q++)
                    ref += (double)a[i * k + q] * b[q * n + j];
                worst = fmax(worst, fabs(c[i * n + j] - ref));
            }
        /* products of eighths and quarters: exact partial sums below 2^24 */
        CHECK(worst == 0.0, "point %zu (mc %d nc %d kc %d %dx%d): error %g", p, cfg.mc, cfg.nc,
              cfg.kc, cfg.mr, cfg.nr, worst);
    }
    tn_gemm_ws_free(&ws);
    free(a), free(b), free(c);
}

/* Distinct points; the default is MC 64, NC 1024, KC 256, 4x8. */
static void test_gemm_space(void)
{
    size_t n = tn_gemm_space_size();
    tn_gemm_cfg d = tn_gemm_space_point(tn_gemm_default_index());

    CHECK(n == 192, "space of %zu points, expected 4 x 3 x 4 x 4", n);
    CHECK(d.mc == 64 && d.nc == 1024 && d.kc == 256 && d.mr == 4 && d.nr == 8,
          "default %d %d %d %dx%d", d.mc, d.nc, d.kc, d.mr, d.nr);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            tn_gemm_cfg x = tn_gemm_space_point(i), y = tn_gemm_space_point(j);

            CHECK(x.mc != y.mc || x.nc != y.nc || x.kc != y.kc || x.mr != y.mr || x.nr != y.nr,
                  "points %zu and %zu equal", i, j);
        }
}

static double fake_clock;

static double fake_now(void)
{
    return fake_clock;
}

typedef struct fake_space {
    int seen[16], order[16], n;
} fake_space;

/* Point i takes 1 + |i - 5| fake seconds (fastest: 5); never point 9. */
static double fake_time(void *ctx, size_t i, double left)
{
    fake_space *f = ctx;
    double s = 1.0 + fabs((double)i - 5.0);

    (void)left;
    f->seen[i]++;
    f->order[f->n++] = (int)i;
    fake_clock += s;
    return i == 9 ? -1.0 : s;
}

static void test_search(void)
{
    fake_space f = {{0}, {0}, 0};
    tn_result r = tn_search(12, 2, 1, 42, 1e9, fake_time, &f, fake_now);
    int all_once = 1;

    for (int i = 0; i < 12; i++)
        all_once &= f.seen[i] == 1;
    CHECK(all_once && r.tried == 12 && f.order[0] == 2, "exhaustive: tried %zu, first %d", r.tried,
          f.order[0]);
    CHECK(r.best == 5 && r.best_s == 1.0 && r.default_s == 4.0, "best %zu %g default %g", r.best,
          r.best_s, r.default_s);
    CHECK(r.search_s == fake_clock - 0.0, "search seconds %g", r.search_s);

    fake_clock = 0.0;
    f = (fake_space){{0}, {0}, 0};
    r = tn_search(12, 0, 0, 0, 10.0, fake_time, &f, fake_now);
    /* in order: 0 (6 s), 1 (5 s): past 10 s after two points */
    CHECK(r.tried == 2 && f.order[1] == 1 && r.best == 1, "budget: tried %zu best %zu", r.tried,
          r.best);
}

int main(void)
{
    test_gemm_space();
    test_gemm_points();
    test_search();
    return check_summary("sci_tune");
}
