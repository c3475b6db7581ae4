// SPDX-License-Identifier: MIT
/*
 * opt_internal.h -- what the files of liboptim share and nothing else
 * sees: the per-step coefficients of the element kernels and the table of
 * kernels one instruction set provides.
 */
#ifndef OPT_INTERNAL_H
#define OPT_INTERNAL_H

#include "opt.h"

/* Elements of one block of the mixed-precision path: gradients are
 * converted into an on-stack f32 block of this many elements (8 KiB, in
 * L1), so a step stays one pass over memory. */
#define OPT_BLOCK 2048

/* The per-step scalars of the element kernels, computed in double and
 * rounded once (opt_coef_make). Every kernel scales the raw gradient by
 * gscale first. */
typedef struct opt_coef {
    float gscale;   /* 1/accumulation x clip coefficient x 1/loss scale */
    float lr;
    float l2;       /* weight decay folded into the gradient (g += l2 p) */
    float decay;    /* decoupled decay: p *= decay (1 - lr wd) */
    float b1, omb1; /* beta1, 1 - beta1 (SGD/RMSprop: momentum, 1 - damp) */
    float b2, omb2; /* beta2, 1 - beta2 (RMSprop: alpha, 1 - alpha) */
    float eps;
    float step_size;  /* Adam: lr / (1 - beta1^t); Adagrad: lr / (1 +
                         (t - 1) lr_decay) */
    float rsqrt_bc2;  /* 1 / sqrt(1 - beta2^t) */
    float inv_bc1;    /* LAMB: 1 / (1 - beta1^t) */
    float wd;         /* LAMB: the decay added to the update */
    float ratio;      /* LAMB second pass: lr x trust ratio */
    int first;        /* SGD: first step (buffer = g) */
    int nesterov;
    int momentum;     /* SGD/RMSprop: a momentum buffer is used */
    int centered;     /* RMSprop */
} opt_coef;

/* The kernels of one instruction set, over f32 arrays of n elements (any
 * n, no alignment needed). The update kernels read the raw gradient g and
 * scale it by c->gscale. */
typedef struct opt_isa_ops {
    void (*sgd)(float *p, const float *g, float *buf, size_t n,
                const opt_coef *c);
    /* Adam (c->l2) and AdamW (c->decay) */
    void (*adam)(float *p, const float *g, float *m, float *v, size_t n,
                 const opt_coef *c);
    void (*adagrad)(float *p, const float *g, float *s, size_t n,
                    const opt_coef *c);
    void (*rmsprop)(float *p, const float *g, float *sq, float *buf,
                    float *gavg, size_t n, const opt_coef *c);
    /* LAMB pass 1: m, v updated; adds sum p^2 and sum u^2 to nrm[0..1] */
    void (*lamb1)(const float *p, const float *g, float *m, float *v,
                  size_t n, const opt_coef *c, double *nrm);
    /* LAMB pass 2: p -= c->ratio * u, u recomputed from m, v, p */
    void (*lamb2)(float *p, const float *m, const float *v, size_t n,
                  const opt_coef *c);
    void (*lion)(float *p, const float *g, float *m, size_t n,
                 const opt_coef *c);
    double (*sumsq)(const float *x, size_t n);
    void (*accum)(float *acc, const float *g, size_t n, int first);
    void (*from_bf16)(float *d, const uint16_t *s, size_t n);
    void (*from_f16)(float *d, const uint16_t *s, size_t n);
    void (*to_bf16)(uint16_t *d, const float *s, size_t n);
    void (*to_f16)(uint16_t *d, const float *s, size_t n);
    /* STREAM triad a = b + s c */
    void (*triad)(double *a, const double *b, const double *c, double s,
                  size_t n);
} opt_isa_ops;

extern const opt_isa_ops opt_ops_portable;
extern const opt_isa_ops opt_ops_avx2;
extern const opt_isa_ops opt_ops_avx512;

/* The table of opt_isa(). [any-thread] */
const opt_isa_ops *opt_ops(void);

/* The coefficients of step t (1-based) of hp with learning rate lr and
 * gradient factor gscale. */
void opt_coef_make(const opt_hparams *hp, uint64_t t, double lr, double gscale,
                   opt_coef *c);

/* The scalar kernels: the portable table and the tails of the vector
 * ones. */
void opt_scalar_sgd(float *p, const float *g, float *buf, size_t n,
                    const opt_coef *c);
void opt_scalar_adam(float *p, const float *g, float *m, float *v, size_t n,
                     const opt_coef *c);
void opt_scalar_adagrad(float *p, const float *g, float *s, size_t n,
                        const opt_coef *c);
void opt_scalar_rmsprop(float *p, const float *g, float *sq, float *buf,
                        float *gavg, size_t n, const opt_coef *c);
void opt_scalar_lamb1(const float *p, const float *g, float *m, float *v,
                      size_t n, const opt_coef *c, double *nrm);
void opt_scalar_lamb2(float *p, const float *m, const float *v, size_t n,
                      const opt_coef *c);
void opt_scalar_lion(float *p, const float *g, float *m, size_t n,
                     const opt_coef *c);
double opt_scalar_sumsq(const float *x, size_t n);
void opt_scalar_accum(float *acc, const float *g, size_t n, int first);
void opt_scalar_from_bf16(float *d, const uint16_t *s, size_t n);
void opt_scalar_from_f16(float *d, const uint16_t *s, size_t n);
void opt_scalar_to_bf16(uint16_t *d, const float *s, size_t n);
void opt_scalar_to_f16(uint16_t *d, const float *s, size_t n);
void opt_scalar_triad(double *a, const double *b, const double *c, double s,
                      size_t n);

#endif /* OPT_INTERNAL_H */
