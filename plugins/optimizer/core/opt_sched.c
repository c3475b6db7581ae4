// SPDX-License-Identifier: MIT
/*
 * opt_sched.c -- learning-rate schedulers: the running form (recursive for
 * the chainable PyTorch schedulers, as their get_lr() is) and the closed
 * form of each, which the unit tests hold the running form to.
 *
 * Contracts of the exported functions: opt.h.
 */
#include "opt.h"

#include <math.h>
#include <string.h>

static const char *const sched_names[OPT_SCHED_KIND_COUNT] = {
    "constant",        "step",          "multistep",
    "exponential",     "cosine_restarts", "warmup_cosine",
    "warmup_linear",   "onecycle",      "polynomial",
};

const char *opt_sched_name(opt_sched_kind kind)
{
    return (unsigned)kind < OPT_SCHED_KIND_COUNT ? sched_names[kind] : NULL;
}

int opt_sched_from_name(const char *s)
{
    for (int i = 0; s != NULL && i < OPT_SCHED_KIND_COUNT; i++)
        if (strcmp(s, sched_names[i]) == 0)
            return i;
    return -1;
}

void opt_sched_default(opt_sched_kind kind, double base_lr, uint64_t total,
                       opt_sched_cfg *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    if (total < 16)
        total = 16;
    cfg->kind = kind;
    cfg->base_lr = base_lr;
    cfg->gamma = kind == OPT_SCHED_EXPONENTIAL ? 0.999 : 0.1;
    cfg->step_size = total / 3;
    cfg->milestone_count = 2;
    cfg->milestones[0] = total / 2;
    cfg->milestones[1] = total * 3 / 4;
    cfg->t0 = total / 8;
    cfg->t_mult = 2;
    cfg->eta_min = 0;
    cfg->warmup = total / 10;
    cfg->total = total;
    cfg->pct_start = 0.3;
    cfg->div_factor = 25;
    cfg->final_div_factor = 1e4;
    cfg->power = 1.0;
}

int opt_sched_check(const opt_sched_cfg *c)
{
    if ((unsigned)c->kind >= OPT_SCHED_KIND_COUNT || !(c->base_lr >= 0) ||
        !isfinite(c->base_lr))
        return OPT_E_INVALID;
    switch (c->kind) {
    case OPT_SCHED_STEP:
        return c->step_size >= 1 && c->gamma > 0 ? OPT_OK : OPT_E_INVALID;
    case OPT_SCHED_MULTISTEP:
        if (c->milestone_count > OPT_SCHED_MAX_MILESTONES || !(c->gamma > 0))
            return OPT_E_INVALID;
        for (unsigned i = 1; i < c->milestone_count; i++)
            if (c->milestones[i] < c->milestones[i - 1])
                return OPT_E_INVALID;
        return OPT_OK;
    case OPT_SCHED_EXPONENTIAL:
        return c->gamma > 0 ? OPT_OK : OPT_E_INVALID;
    case OPT_SCHED_COSINE_RESTARTS:
        return c->t0 >= 1 && c->t_mult >= 1 && c->t_mult <= 64 &&
                       c->t_mult == floor(c->t_mult) && c->eta_min >= 0
                   ? OPT_OK
                   : OPT_E_INVALID;
    case OPT_SCHED_WARMUP_COSINE:
    case OPT_SCHED_WARMUP_LINEAR:
        return c->total >= 1 && c->warmup <= c->total && c->eta_min >= 0
                   ? OPT_OK
                   : OPT_E_INVALID;
    case OPT_SCHED_ONECYCLE:
        return c->total >= 2 && c->pct_start > 0 && c->pct_start < 1 &&
                       c->pct_start * (double)c->total - 1 > 0 &&
                       c->pct_start * (double)c->total - 1 < (double)c->total - 1 &&
                       c->div_factor > 0 && c->final_div_factor > 0
                   ? OPT_OK
                   : OPT_E_INVALID;
    case OPT_SCHED_POLYNOMIAL:
        return c->total >= 1 && c->power >= 0 ? OPT_OK : OPT_E_INVALID;
    default:
        return OPT_OK;
    }
}

/* eta_min + (base - eta_min) (1 + cos(pi cur / len)) / 2. */
static double cosine(double base, double eta_min, double cur, double len)
{
    return eta_min + (base - eta_min) * (1 + cos(M_PI * cur / len)) / 2;
}

/* PyTorch's _annealing_cos: from start to end as pct goes 0 -> 1. */
static double anneal_cos(double start, double end, double pct)
{
    return end + (start - end) / 2.0 * (cos(M_PI * pct) + 1);
}

/* OneCycleLR (two phases, cosine annealing) at step t. */
static double onecycle(const opt_sched_cfg *c, uint64_t t)
{
    double initial = c->base_lr / c->div_factor;
    double min_lr = initial / c->final_div_factor;
    double end1 = c->pct_start * (double)c->total - 1;
    double end2 = (double)c->total - 1;
    double s = (double)t;

    if (s <= end1)
        return anneal_cos(initial, c->base_lr, s / end1);
    return anneal_cos(c->base_lr, min_lr, (s - end1) / (end2 - end1));
}

/* Position within the current cosine cycle of step t: T_cur and T_i as
 * PyTorch's step(epoch) computes them, guarded against the rounding of
 * the logarithm at cycle edges. */
static void restart_pos(const opt_sched_cfg *c, uint64_t t, double *cur,
                        double *len)
{
    double t0 = (double)c->t0, m = c->t_mult, s = (double)t;
    double n, start;

    if (m == 1) {
        *cur = (double)(t % c->t0);
        *len = t0;
        return;
    }
    n = floor(log(s / t0 * (m - 1) + 1) / log(m));
    start = t0 * (pow(m, n) - 1) / (m - 1);
    if (start > s) {
        n -= 1;
        start = t0 * (pow(m, n) - 1) / (m - 1);
    } else if (s - start >= t0 * pow(m, n)) {
        n += 1;
        start = t0 * (pow(m, n) - 1) / (m - 1);
    }
    *cur = s - start;
    *len = t0 * pow(m, n);
}

double opt_sched_closed(const opt_sched_cfg *c, uint64_t t)
{
    double s = (double)t;

    switch (c->kind) {
    case OPT_SCHED_STEP:
        return c->base_lr * pow(c->gamma, (double)(t / c->step_size));
    case OPT_SCHED_MULTISTEP: {
        unsigned passed = 0;

        for (unsigned i = 0; i < c->milestone_count; i++)
            passed += c->milestones[i] <= t;
        return c->base_lr * pow(c->gamma, passed);
    }
    case OPT_SCHED_EXPONENTIAL:
        return c->base_lr * pow(c->gamma, s);
    case OPT_SCHED_COSINE_RESTARTS: {
        double cur, len;

        restart_pos(c, t, &cur, &len);
        return cosine(c->base_lr, c->eta_min, cur, len);
    }
    case OPT_SCHED_WARMUP_COSINE:
    case OPT_SCHED_WARMUP_LINEAR: {
        double w = (double)c->warmup, T = (double)c->total, f;

        if (t < c->warmup)
            return c->base_lr * s / (w > 1 ? w : 1);
        f = (s - w) / (T - w > 1 ? T - w : 1);
        if (f > 1)
            f = 1;
        if (c->kind == OPT_SCHED_WARMUP_COSINE)
            return cosine(c->base_lr, c->eta_min, f, 1);
        return c->eta_min + (c->base_lr - c->eta_min) * (1 - f);
    }
    case OPT_SCHED_ONECYCLE:
        return onecycle(c, t);
    case OPT_SCHED_POLYNOMIAL: {
        double T = (double)c->total;

        return c->base_lr * pow(1 - (s < T ? s : T) / T, c->power);
    }
    default:
        return c->base_lr;
    }
}

void opt_sched_init(opt_sched *s, const opt_sched_cfg *cfg)
{
    memset(s, 0, sizeof(*s));
    s->cfg = *cfg;
    s->t = 0;
    s->t_cur = 0;
    s->t_i = cfg->t0;
    s->lr = opt_sched_closed(cfg, 0);
}

double opt_sched_step(opt_sched *s)
{
    const opt_sched_cfg *c = &s->cfg;
    uint64_t t = ++s->t;

    switch (c->kind) {
    case OPT_SCHED_STEP:
        if (t % c->step_size == 0)
            s->lr *= c->gamma;
        break;
    case OPT_SCHED_MULTISTEP:
        for (unsigned i = 0; i < c->milestone_count; i++)
            if (c->milestones[i] == t)
                s->lr *= c->gamma;
        break;
    case OPT_SCHED_EXPONENTIAL:
        s->lr *= c->gamma;
        break;
    case OPT_SCHED_COSINE_RESTARTS:
        if (++s->t_cur >= s->t_i) {
            s->t_cur -= s->t_i;
            s->t_i *= (uint64_t)c->t_mult;
        }
        s->lr = cosine(c->base_lr, c->eta_min, (double)s->t_cur, (double)s->t_i);
        break;
    case OPT_SCHED_POLYNOMIAL:
        if (t <= c->total) {
            double T = (double)c->total;

            s->lr *= pow((1.0 - (double)t / T) / (1.0 - (double)(t - 1) / T),
                         c->power);
        }
        break;
    case OPT_SCHED_WARMUP_COSINE:
    case OPT_SCHED_WARMUP_LINEAR:
    case OPT_SCHED_ONECYCLE:
        s->lr = opt_sched_closed(c, t);
        break;
    default:
        break;
    }
    return s->lr;
}
