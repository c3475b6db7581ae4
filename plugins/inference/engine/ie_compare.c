// SPDX-License-Identifier: MIT
/*
 * ie_compare.c -- how far two models of one shape differ in their weight
 * matrices, row by sampled row: what the model-loading benchmark checks a
 * loaded model against (the model its file was written from, or another
 * load of the same file).
 */
#include "ie.h"
#include "ie_internal.h"

#include <math.h>
#include <stdlib.h>

/* max over sampled rows of max |a - b| / max |b| (that row); -1 when the
 * shapes differ or memory is short. */
static double weight_diff(const ie_weight *a, const ie_weight *b, int samples)
{
    float *ra, *rb;
    double worst = 0.0;
    int step;

    if (a->rows != b->rows || a->cols != b->cols)
        return -1.0;
    if (a->rows == 0)
        return 0.0;
    ra = malloc((size_t)a->cols * sizeof(float));
    rb = malloc((size_t)a->cols * sizeof(float));
    if (!ra || !rb) {
        free(ra);
        free(rb);
        return -1.0;
    }
    step = a->rows / samples > 1 ? a->rows / samples : 1;
    for (int r = 0; r < a->rows; r += step) {
        double diff = 0.0, scale = 0.0;

        ie_weight_row_f32(a, r, ra);
        ie_weight_row_f32(b, r, rb);
        for (int i = 0; i < a->cols; i++) {
            diff = fmax(diff, fabs((double)ra[i] - (double)rb[i]));
            scale = fmax(scale, fabs((double)rb[i]));
        }
        worst = fmax(worst, scale > 0.0 ? diff / scale : diff);
    }
    free(ra);
    free(rb);
    return worst;
}

double ie_model_weight_diff(const ie_model *a, const ie_model *b, int samples)
{
    double worst;

    if (a->cfg.n_layers != b->cfg.n_layers || samples < 1)
        return -1.0;
    worst = fmax(weight_diff(&a->tok, &b->tok, samples),
                 weight_diff(ie_model_head(a), ie_model_head(b), samples));
    for (int l = 0; l < a->cfg.n_layers && worst >= 0.0; l++) {
        const ie_layer *x = &a->layers[l], *y = &b->layers[l];
        const ie_weight *wx[] = {&x->qkv, &x->o, &x->up, &x->down};
        const ie_weight *wy[] = {&y->qkv, &y->o, &y->up, &y->down};

        for (int k = 0; k < 4 && worst >= 0.0; k++) {
            double d = weight_diff(wx[k], wy[k], samples);

            worst = d < 0.0 ? d : fmax(worst, d);
        }
    }
    return worst;
}
