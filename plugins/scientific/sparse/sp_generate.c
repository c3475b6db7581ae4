// SPDX-License-Identifier: MIT
/*
 * sp_generate.c -- the generated matrix families of the sparse benchmarks:
 * banded (a stencil-like band), power-law (row lengths of a Zipf law, as
 * in web and social graphs) and random (uniform columns), all square,
 * seeded.
 */
#include "sp_matrix.h"

#include "bh_rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A value uniform in [-1, 1). */
static double draw_value(uint64_t *s)
{
    return 2.0 * bh_rng_unit(bh_rng_next(s)) - 1.0;
}

/* Appends about len entries to row r: each column with probability
 * len / cols when the row is dense (a quarter of the columns or more),
 * else len uniform draws (a repeated column is summed into one entry by
 * the CSR). Never leaves the row empty. 0 or -1 (out of memory). */
static int fill_row(sp_coo *c, int32_t r, int64_t len, uint64_t *s)
{
    size_t before = c->n;

    if (len * 4 >= c->cols) {
        double p = (double)len / (double)c->cols;

        for (int32_t j = 0; j < c->cols; j++)
            if (bh_rng_unit(bh_rng_next(s)) < p && sp_coo_push(c, r, j, draw_value(s)) != 0)
                return -1;
    } else {
        for (int64_t k = 0; k < len; k++) {
            int32_t j = (int32_t)(bh_rng_next(s) % (uint64_t)c->cols);

            if (sp_coo_push(c, r, j, draw_value(s)) != 0)
                return -1;
        }
    }
    if (c->n == before)
        return sp_coo_push(c, r, (int32_t)(bh_rng_next(s) % (uint64_t)c->cols), draw_value(s));
    return 0;
}

/* The band: half-width b so that 2b + 1 entries per row match density. */
static int gen_banded(sp_coo *c, double density, uint64_t *s)
{
    int64_t n = c->rows, b = llround((density * (double)n - 1.0) / 2.0);

    b = b < 0 ? 0 : (b >= n ? n - 1 : b);
    for (int64_t r = 0; r < n; r++) {
        int64_t lo = r - b < 0 ? 0 : r - b, hi = r + b >= n ? n - 1 : r + b;

        for (int64_t j = lo; j <= hi; j++)
            if (sp_coo_push(c, (int32_t)r, (int32_t)j, draw_value(s)) != 0)
                return -1;
    }
    return 0;
}

/* Zipf row lengths: the row of rank q (a seeded permutation of the rows)
 * gets C / q entries, C = density n^2 / H_n, at least 1 and at most n. */
static int gen_powerlaw(sp_coo *c, double density, uint64_t *s)
{
    int32_t n = c->rows;
    int32_t *rank = malloc((size_t)n * sizeof(*rank));
    double harmonic = 0.0, scale;
    int rc = 0;

    if (!rank)
        return -1;
    for (int32_t q = 0; q < n; q++) {
        rank[q] = q;
        harmonic += 1.0 / (q + 1.0);
    }
    for (int32_t q = n - 1; q > 0; q--) { /* Fisher-Yates */
        int32_t j = (int32_t)(bh_rng_next(s) % (uint64_t)(q + 1)), t = rank[q];

        rank[q] = rank[j];
        rank[j] = t;
    }
    scale = density * (double)n * (double)n / harmonic;
    for (int32_t r = 0; r < n && rc == 0; r++) {
        double len = scale / (rank[r] + 1.0);

        rc = fill_row(c, r, len < 1.0 ? 1 : (len > n ? n : (int64_t)llround(len)), s);
    }
    free(rank);
    return rc;
}

/* Uniform rows: density n entries each, at least 1. */
static int gen_random(sp_coo *c, double density, uint64_t *s)
{
    int64_t len = llround(density * (double)c->cols);

    for (int32_t r = 0; r < c->rows; r++)
        if (fill_row(c, r, len < 1 ? 1 : len, s) != 0)
            return -1;
    return 0;
}

int sp_generate(sp_kind kind, int32_t rows, double density, uint64_t seed, sp_coo *out)
{
    uint64_t s = seed;
    int rc;

    memset(out, 0, sizeof(*out));
    if (rows < 1 || !(density > 0.0 && density <= 1.0))
        return -1;
    out->rows = out->cols = rows;
    rc = kind == SP_BANDED     ? gen_banded(out, density, &s)
         : kind == SP_POWERLAW ? gen_powerlaw(out, density, &s)
                               : gen_random(out, density, &s);
    if (rc != 0)
        sp_coo_free(out);
    return rc;
}
