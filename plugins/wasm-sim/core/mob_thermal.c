// SPDX-License-Identifier: MIT
/*
 * mob_thermal.c -- the deterministic thermal model (see mob.h): a heat
 * budget integrated over simulated 10 ms steps and a step-wise governor.
 * Inputs are the profile, the level's energy per unit of work, the seed
 * and the horizon; no clock is read, so equal inputs give the same
 * timeline bit for bit.
 */
#include "mob.h"

#include "bh_rng.h"

#define DT 0.01          /* s per step */
#define POLL_STEPS 10    /* governor period: 100 ms */
#define HOLD_STEPS 200   /* a duty holds 2 s before it may rise */
#define DOWN_STEPS 100   /* and 1 s before it may fall again */
#define RELEASE 0.9      /* share of the budget below which it may rise */

static const double duties[MOB_DUTY_LEVELS] = {1.0, 0.85, 0.7,
                                               0.55, 0.4, 0.3};

double mob_duty(unsigned i)
{
    return i < MOB_DUTY_LEVELS ? duties[i] : duties[MOB_DUTY_LEVELS - 1];
}

/* FNV-1a over the 8 bytes of v. */
static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xffu;
        h *= 0x100000001b3u;
    }
    return h;
}

/* Records a governor change. */
static void record(mob_thermal *t, uint32_t step, unsigned from, unsigned to)
{
    if (t->n_events < MOB_MAX_EVENTS) {
        t->events[t->n_events].step = step;
        t->events[t->n_events].from = (uint16_t)from;
        t->events[t->n_events].to = (uint16_t)to;
    }
    t->n_events++;
    t->hash = fnv(t->hash, ((uint64_t)step << 16) | (from << 8) | to);
}

int mob_thermal_run(const mob_profile *p, mob_thermal *t)
{
    uint64_t rng = t->seed ^ 0x6a09e667f3bcc909u;
    unsigned duty = 0;
    uint32_t held = 0, half;
    double heat = 0.0, asked2 = 0.0, done2 = 0.0, asked_t = 0.0, done_t = 0.0;
    double polled = 0.0; /* heat at the last poll */
    int throttled = 0;

    if (!(t->horizon_s > 0.0 && t->horizon_s <= 86400.0) ||
        !(t->energy > 0.0 && t->energy <= 4.0))
        return -1;
    for (const char *c = p->name; *c; c++)
        rng = fnv(rng, (unsigned char)*c);
    t->steps = (uint32_t)(t->horizon_s / DT + 0.5);
    t->n_events = 0;
    t->hash = 0xcbf29ce484222325u;
    t->time_to_throttle_s = -1.0;
    t->min_duty = 1.0;
    t->peak_heat_j = 0.0;
    t->work = 0.0;
    half = t->steps / 2;
    for (uint32_t s = 0; s < t->steps; s++) {
        double demand = 0.92 + 0.08 * (double)(bh_rng_next(&rng) >> 11) * 0x1p-53;
        double use = demand < duties[duty] ? demand : duties[duty];

        heat += (p->power_w * t->energy * use - p->cool_per_s * heat) * DT;
        if (heat > t->peak_heat_j)
            t->peak_heat_j = heat;
        t->work += use * DT;
        if (s >= half) {
            asked2 += demand;
            done2 += use;
        }
        if (throttled) {
            asked_t += demand;
            done_t += use;
        }
        held++;
        if ((s + 1) % POLL_STEPS != 0)
            continue;
        if (heat >= p->budget_j && heat > polled &&
            duty + 1 < MOB_DUTY_LEVELS && (held >= DOWN_STEPS || duty == 0)) {
            record(t, s + 1, duty, duty + 1);
            if (!throttled)
                t->time_to_throttle_s = (double)(s + 1) * DT;
            throttled = 1;
            duty++;
            held = 0;
        } else if (heat < RELEASE * p->budget_j && duty > 0 &&
                   held >= HOLD_STEPS) {
            record(t, s + 1, duty, duty - 1);
            duty--;
            held = 0;
        }
        if (duties[duty] < t->min_duty)
            t->min_duty = duties[duty];
        polled = heat;
    }
    t->hash &= (UINT64_C(1) << 53) - 1;
    t->sustained = asked2 > 0.0 ? done2 / asked2 : 1.0;
    t->throttled = asked_t > 0.0 ? done_t / asked_t : 1.0;
    return 0;
}
