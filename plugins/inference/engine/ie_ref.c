// SPDX-License-Identifier: MIT
/*
 * ie_ref.c -- the reference: a straightforward double-precision forward
 * pass on the model's stored (dequantized) weights, written independently
 * of the engine's kernels, gemm calls and buffer layouts: plain loops,
 * libm's tanh/erf/exp, angles in double. Used by the unit tests (whole
 * sequences) and by the benchmarks' verify() (one position, see
 * ie_ref_check in ie.h).
 */
#include "ie_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref {
    const ie_model *m;
    const ie_config *c;
    int d, hd, H, KV, ff, qkvw;
    double *row;        /* one weight row */
    double *h, *t, *a;  /* [d], [max(ff2, qkvw, d)], [H * hd] */
    double *u, *g;      /* [ff] each */
    double *p;          /* attention probabilities [max_pos] */
} ref;

/* Scratch for the reference of m (plain malloc: tests and verify only). */
static int ref_init(ref *R, const ie_model *m)
{
    const ie_config *c = &m->cfg;
    size_t big;

    memset(R, 0, sizeof(*R));
    R->m = m;
    R->c = c;
    R->d = c->d_model;
    R->hd = c->head_dim;
    R->H = c->n_heads;
    R->KV = c->n_kv_heads;
    R->ff = c->d_ff;
    R->qkvw = (R->H + 2 * R->KV) * R->hd;
    big = (size_t)(2 * R->ff > R->qkvw ? 2 * R->ff : R->qkvw);
    big = big > (size_t)c->vocab ? big : (size_t)c->vocab;
    big = big > (size_t)R->d ? big : (size_t)R->d;
    R->row = malloc(big * sizeof(double));
    R->h = malloc((size_t)R->d * sizeof(double));
    R->t = malloc(big * sizeof(double));
    R->a = malloc((size_t)(R->H * R->hd) * sizeof(double));
    R->u = malloc((size_t)R->ff * sizeof(double));
    R->g = malloc((size_t)R->ff * sizeof(double));
    R->p = malloc((size_t)c->max_pos * sizeof(double));
    if (!R->row || !R->h || !R->t || !R->a || !R->u || !R->g || !R->p)
        return IE_ENOMEM;
    return IE_OK;
}

/* Frees the scratch. */
static void ref_fini(ref *R)
{
    free(R->row);
    free(R->h);
    free(R->t);
    free(R->a);
    free(R->u);
    free(R->g);
    free(R->p);
}

/* y[0..w->rows) = W x (+ b). */
static void matvec(ref *R, const ie_weight *w, const float *b, const double *x,
                   double *y)
{
    for (int o = 0; o < w->rows; o++) {
        double s = 0.0;

        ie_weight_row_f64(w, o, R->row);
        for (int i = 0; i < w->cols; i++)
            s += R->row[i] * x[i];
        y[o] = s + (b ? b[o] : 0.0);
    }
}

/* LayerNorm (or RMSNorm when rms) of x into y, in double. */
static void norm(const double *x, double *y, const float *g, const float *b,
                 int n, double eps, int rms)
{
    double mean = 0.0, var = 0.0, r;

    for (int i = 0; i < n; i++)
        mean += x[i];
    mean = rms ? 0.0 : mean / n;
    for (int i = 0; i < n; i++)
        var += (x[i] - mean) * (x[i] - mean);
    r = 1.0 / sqrt(var / n + eps);
    for (int i = 0; i < n; i++)
        y[i] = (x[i] - mean) * r * g[i] + (b ? b[i] : 0.0);
}

/* Rotates one head vector (LLaMA) by position pos. */
static void rope(const ie_config *c, double *v, int pos)
{
    int half = c->head_dim / 2;

    for (int i = 0; i < half; i++) {
        double f = pow((double)c->rope_theta, -2.0 * i / c->head_dim);
        double cs = cos(pos * f), sn = sin(pos * f);
        int a = c->rope_style == IE_ROPE_HALF ? i : 2 * i;
        int b = c->rope_style == IE_ROPE_HALF ? i + half : 2 * i + 1;
        double x0 = v[a], x1 = v[b];

        v[a] = x0 * cs - x1 * sn;
        v[b] = x0 * sn + x1 * cs;
    }
}

/* x = embedding of token tok at position pos. */
static void embed(ref *R, int32_t tok, int pos, double *x)
{
    const ie_model *m = R->m;

    ie_weight_row_f64(&m->tok, tok, x);
    for (int i = 0; i < R->d; i++) {
        if (m->pos)
            x[i] += m->pos[(size_t)pos * R->d + i];
        if (m->type)
            x[i] += m->type[i];
    }
    if (R->c->arch == IE_ARCH_BERT) {
        memcpy(R->h, x, (size_t)R->d * sizeof(double));
        norm(R->h, x, m->emb_g, m->emb_b, R->d, R->c->norm_eps, 0);
    }
}

/* q (H*hd), k and v (KV*hd each) of input x at pos in layer l. */
static void qkv(ref *R, int l, const double *x, int pos, double *q, double *k,
                double *v)
{
    const ie_layer *L = &R->m->layers[l];
    const ie_config *c = R->c;
    const double *in = x;

    if (c->arch != IE_ARCH_BERT) {
        norm(x, R->h, L->n1_g, L->n1_b, R->d, c->norm_eps,
             c->arch == IE_ARCH_LLAMA);
        in = R->h;
    }
    matvec(R, &L->qkv, L->b_qkv, in, R->t);
    memcpy(q, R->t, (size_t)(R->H * R->hd) * sizeof(double));
    memcpy(k, R->t + R->H * R->hd, (size_t)(R->KV * R->hd) * sizeof(double));
    memcpy(v, R->t + (R->H + R->KV) * R->hd,
           (size_t)(R->KV * R->hd) * sizeof(double));
    if (c->arch == IE_ARCH_LLAMA) {
        for (int h = 0; h < R->H; h++)
            rope(c, q + (size_t)h * R->hd, pos);
        for (int h = 0; h < R->KV; h++)
            rope(c, k + (size_t)h * R->hd, pos);
    }
}

/* The rest of layer l for one position: attention of q over keys K/V
 * [0, n) (rows of KV*hd), output projection, residual/norm and MLP.
 * Updates x in place. */
static void rest(ref *R, int l, double *x, const double *q, const double *K,
                 const double *V, int n)
{
    const ie_layer *L = &R->m->layers[l];
    const ie_config *c = R->c;
    int hd = R->hd, gs = R->H / R->KV, kvw = R->KV * R->hd;
    double *p = R->p;

    for (int h = 0; h < R->H; h++) {
        const double *qh = q + (size_t)h * hd;
        int g = h / gs;
        double mx = -INFINITY, sum = 0.0;

        for (int j = 0; j < n; j++) {
            double s = 0.0;

            for (int e = 0; e < hd; e++)
                s += qh[e] * K[(size_t)j * kvw + (size_t)g * hd + e];
            p[j] = s / sqrt((double)hd);
            mx = p[j] > mx ? p[j] : mx;
        }
        for (int j = 0; j < n; j++) {
            p[j] = exp(p[j] - mx);
            sum += p[j];
        }
        for (int e = 0; e < hd; e++) {
            double s = 0.0;

            for (int j = 0; j < n; j++)
                s += p[j] * V[(size_t)j * kvw + (size_t)g * hd + e];
            R->a[(size_t)h * hd + e] = s / sum;
        }
    }
    matvec(R, &L->o, L->b_o, R->a, R->t);
    for (int i = 0; i < R->d; i++)
        x[i] += R->t[i];
    if (c->arch == IE_ARCH_BERT) {
        memcpy(R->h, x, (size_t)R->d * sizeof(double));
        norm(R->h, x, L->n1_g, L->n1_b, R->d, c->norm_eps, 0);
        memcpy(R->h, x, (size_t)R->d * sizeof(double));
    } else {
        norm(x, R->h, L->n2_g, L->n2_b, R->d, c->norm_eps,
             c->arch == IE_ARCH_LLAMA);
    }
    matvec(R, &L->up, L->b_up, R->h, R->t);
    for (int i = 0; i < R->ff; i++) {
        double z = R->t[i];

        if (c->arch == IE_ARCH_LLAMA)
            R->u[i] = z / (1.0 + exp(-z)) * R->t[R->ff + i];
        else if (c->arch == IE_ARCH_BERT)
            R->u[i] = 0.5 * z * (1.0 + erf(z / sqrt(2.0)));
        else
            R->u[i] = 0.5 * z *
                      (1.0 + tanh(sqrt(2.0 / M_PI) * (z + 0.044715 * z * z * z)));
    }
    matvec(R, &L->down, L->b_down, R->u, R->t);
    for (int i = 0; i < R->d; i++)
        x[i] += R->t[i];
    if (c->arch == IE_ARCH_BERT) {
        memcpy(R->h, x, (size_t)R->d * sizeof(double));
        norm(R->h, x, L->n2_g, L->n2_b, R->d, c->norm_eps, 0);
    }
}

/* Decoder output: logits = head . final_norm(x). */
static void head(ref *R, const double *x, double *logits)
{
    const ie_model *m = R->m;

    norm(x, R->h, m->fin_g, m->fin_b, R->d, R->c->norm_eps,
         R->c->arch == IE_ARCH_LLAMA);
    matvec(R, ie_model_head(m), NULL, R->h, logits);
}

int ie_ref_forward(const ie_model *m, const int32_t *tokens, int T,
                   double *out)
{
    ref R;
    int rc = ref_init(&R, m);
    size_t d = (size_t)m->cfg.d_model;
    size_t kvw = (size_t)(m->cfg.n_kv_heads * m->cfg.head_dim);
    size_t qw = (size_t)(m->cfg.n_heads * m->cfg.head_dim);
    int causal = m->cfg.arch != IE_ARCH_BERT;
    double *X = malloc((size_t)T * d * sizeof(double));
    double *Q = malloc((size_t)T * qw * sizeof(double));
    double *K = malloc((size_t)T * kvw * sizeof(double));
    double *V = malloc((size_t)T * kvw * sizeof(double));

    if (rc != IE_OK || !X || !Q || !K || !V) {
        rc = IE_ENOMEM;
        goto done;
    }
    for (int t = 0; t < T; t++)
        embed(&R, tokens[t], t, X + (size_t)t * d);
    for (int l = 0; l < m->cfg.n_layers; l++) {
        for (int t = 0; t < T; t++)
            qkv(&R, l, X + (size_t)t * d, t, Q + (size_t)t * qw,
                K + (size_t)t * kvw, V + (size_t)t * kvw);
        for (int t = 0; t < T; t++)
            rest(&R, l, X + (size_t)t * d, Q + (size_t)t * qw, K, V,
                 causal ? t + 1 : T);
    }
    for (int t = 0; t < T; t++) {
        if (causal)
            head(&R, X + (size_t)t * d, out + (size_t)t * m->cfg.vocab);
        else
            memcpy(out + (size_t)t * d, X + (size_t)t * d, d * sizeof(double));
    }
done:
    free(X);
    free(Q);
    free(K);
    free(V);
    ref_fini(&R);
    return rc;
}

/* Tracks max |a - b| and max |b| of one comparison. */
typedef struct errs {
    double diff, scale;
} errs;

static void cmp_f32(errs *e, const float *a, const double *b, int n)
{
    for (int i = 0; i < n; i++) {
        double dlt = fabs((double)a[i] - b[i]);

        e->diff = dlt > e->diff || dlt != dlt ? dlt : e->diff;
        e->scale = fabs(b[i]) > e->scale ? fabs(b[i]) : e->scale;
    }
}

static double rel(const errs *e)
{
    return e->diff / (e->scale > 1e-30 ? e->scale : 1e-30);
}

int ie_ref_check(const ie_state *s, int slot, int pos, const float *out,
                 uint64_t seed, ie_check *res)
{
    const ie_model *m = s->m;
    const ie_config *c = &m->cfg;
    int causal = c->arch != IE_ARCH_BERT;
    int n = slot >= 0 && slot < s->slots ? s->len[slot] : 0;
    int keys = causal ? pos + 1 : n;
    size_t d = (size_t)c->d_model, kvw = (size_t)(c->n_kv_heads * c->head_dim);
    const int32_t *tok = ie_state_tokens(s, slot);
    errs eo = {0, 0}, ek = {0, 0};
    double worst_kv = 0.0;
    ref R;
    int rc = ref_init(&R, m);
    double *x = malloc(d * sizeof(double));
    double *q = malloc((size_t)(c->n_heads * c->head_dim) * sizeof(double));
    double *K = malloc((size_t)(keys > 0 ? keys : 1) * kvw * sizeof(double));
    double *V = malloc((size_t)(keys > 0 ? keys : 1) * kvw * sizeof(double));
    double *o = malloc((size_t)(causal ? c->vocab : c->d_model) * sizeof(double));
    float *row = malloc(kvw * sizeof(float));

    memset(res, 0, sizeof(*res));
    if (rc != IE_OK || !x || !q || !K || !V || !o || !row) {
        rc = IE_ENOMEM;
        goto done;
    }
    if (pos < 0 || pos >= n) {
        rc = ie_fail(s->ctx, IE_EINVAL, "check: position %d not cached (%d)",
                     pos, n);
        goto done;
    }
    embed(&R, tok[pos], pos, x);
    for (int l = 0; l < c->n_layers; l++) {
        double *kp = K + (size_t)pos * kvw, *vp = V + (size_t)pos * kvw;

        qkv(&R, l, x, pos, q, kp, vp);
        for (int j = 0; j < keys; j++) {
            if (j == pos)
                continue;
            ie_state_kv_row(s, l, slot, j, 0, row);
            for (size_t e = 0; e < kvw; e++)
                K[(size_t)j * kvw + e] = row[e];
            ie_state_kv_row(s, l, slot, j, 1, row);
            for (size_t e = 0; e < kvw; e++)
                V[(size_t)j * kvw + e] = row[e];
        }
        for (int which = 0; which < 2; which++) {
            errs e = {0, 0};

            ie_state_kv_row(s, l, slot, pos, which, row);
            cmp_f32(&e, row, which ? vp : kp, (int)kvw);
            worst_kv = rel(&e) > worst_kv ? rel(&e) : worst_kv;
        }
        rest(&R, l, x, q, K, V, keys);
    }
    if (causal)
        head(&R, x, o);
    else
        memcpy(o, x, d * sizeof(double));
    cmp_f32(&eo, out, o, causal ? c->vocab : c->d_model);
    /* layer 0 K/V of up to two other positions, from their tokens */
    for (int t = 0; t < 2 && n > 1; t++) {
        int j = (int)(ie_mix64(seed + (uint64_t)t) % (uint64_t)n);

        if (j == pos)
            continue;
        embed(&R, tok[j], j, x);
        qkv(&R, 0, x, j, q, K, V);
        for (int which = 0; which < 2; which++) {
            ek.diff = ek.scale = 0.0;
            ie_state_kv_row(s, 0, slot, j, which, row);
            cmp_f32(&ek, row, which ? V : K, (int)kvw);
            worst_kv = rel(&ek) > worst_kv ? rel(&ek) : worst_kv;
        }
    }
    res->out_err = rel(&eo);
    res->kv_err = worst_kv;
    res->position = pos;
    res->outputs = causal ? c->vocab : c->d_model;
done:
    free(x);
    free(q);
    free(K);
    free(V);
    free(o);
    free(row);
    ref_fini(&R);
    return rc;
}
