// SPDX-License-Identifier: MIT
/* Whether a domain's accumulated energy is a figure worth printing: its
 * window against the counter's refresh period, its average power against
 * the domain's power limit (energy.h; docs/measurement.md, "Too short and
 * implausible"). */
#include "energy.h"

#include "bh_clock.h"

#include <math.h>
#include <stdio.h>

static const char *const status_names[] = {"ok", "too_short", "implausible"};

/* See energy.h. */
const char *bh_energy_status_name(bh_energy_status s)
{
    return s >= BH_ENERGY_OK && s <= BH_ENERGY_IMPLAUSIBLE ? status_names[s] : "?";
}

/* See energy.h. */
uint64_t bh_energy_needed_ns(uint64_t period_ns, uint32_t samples)
{
    double spread = fmin(sqrt(samples ? (double)samples : 1.0), 4.0 * BH_ENERGY_K);

    return (uint64_t)ceil((double)BH_ENERGY_K * (double)period_ns * spread);
}

/* Polls d's counter until it has changed twice, for at most
 * BH_ENERGY_POLL_NS: the time between the two changes in *period_ns;
 * 0, or -1 when it did not (or a reading failed). */
static int poll_period(const bh_energy *en, const bh_energy_domain *d, uint64_t *period_ns)
{
    uint64_t last, now, start = bh_now_ns(), first_change = 0;

    if (bh_energy_read_uj(en, d, &last) != 0)
        return -1;
    for (uint64_t t = start; t - start < BH_ENERGY_POLL_NS; t = bh_now_ns()) {
        if (bh_energy_read_uj(en, d, &now) != 0)
            return -1;
        if (now == last)
            continue;
        last = now;
        if (first_change) {
            *period_ns = t - first_change;
            return 0;
        }
        first_change = t;
    }
    return -1;
}

/* See energy.h. */
void bh_energy_settle_period(const bh_energy *en, bh_energy_domain *d)
{
    uint64_t period = 0;

    if (d->period_ns || !d->samples || d->ns >= bh_energy_needed_ns(BH_ENERGY_POLL_NS, d->samples))
        return;
    if (poll_period(en, d, &period) == 0 && period > 0) {
        d->period_ns = period;
        d->period_measured = 1;
    } else {
        d->period_ns = BH_ENERGY_POLL_NS;
        d->period_measured = -1;
    }
}

/* ns as "24 ms", "4.47 s", "250 us" into buf. */
static const char *duration(uint64_t ns, char *buf, size_t cap)
{
    if (ns < 1000000)
        snprintf(buf, cap, "%.3g us", (double)ns * 1e-3);
    else if (ns < 1000000000)
        snprintf(buf, cap, "%.3g ms", (double)ns * 1e-6);
    else
        snprintf(buf, cap, "%.3g s", (double)ns * 1e-9);
    return buf;
}

/* How d's period is known, for a reason. */
static const char *period_origin(const bh_energy_domain *d)
{
    if (d->period_measured > 0)
        return "measured";
    if (d->period_measured < 0)
        return "taken as the poll's limit: the counter did not change twice in it";
    return d->period_ns ? "documented" : "not measured: at most the poll's limit";
}

/* The reason of a window too short for the period: the window, the
 * period, and the sample_time that would suffice. */
static void too_short_reason(const bh_energy_domain *d, uint64_t period, char *reason, size_t cap)
{
    uint64_t needed = bh_energy_needed_ns(period, d->samples);
    uint32_t n = d->samples ? d->samples : 1;
    unsigned long long per_sample_ms = (needed / n + 999999) / 1000000;
    char win[32], per[32], need[32];

    snprintf(reason, cap,
             "%s over %u samples is too short for the counter's %s refresh (%s): "
             "+-%d%% needs %s, sample_time: %llums",
             duration(d->ns, win, sizeof(win)), d->samples, duration(period, per, sizeof(per)),
             period_origin(d), 100 / BH_ENERGY_K, duration(needed, need, sizeof(need)),
             per_sample_ms ? per_sample_ms : 1);
}

/* See energy.h. */
bh_energy_status bh_energy_judge(const bh_energy_domain *d, char *reason, size_t cap)
{
    uint64_t period = d->period_ns ? d->period_ns : BH_ENERGY_POLL_NS;
    int short_window = d->ns < bh_energy_needed_ns(period, d->samples);
    double watts = d->ns ? d->joules / ((double)d->ns * 1e-9) : 0;
    double ceiling = d->limit_watts * (1.0 + BH_ENERGY_LIMIT_MARGIN);
    char win[32], per[32];

    *reason = '\0';
    if (!d->samples) {
        snprintf(reason, cap, "no sample was read (%u failed reads)", d->failed_reads);
        return BH_ENERGY_TOO_SHORT;
    }
    if (d->limit_watts > 0 && watts > ceiling) {
        snprintf(
            reason, cap,
            "%.0f W over %s is above %s's %.0f W limit (%.0f W with the %.0f%% margin): %s%s%s",
            watts, duration(d->ns, win, sizeof(win)), d->name, d->limit_watts, ceiling,
            100.0 * BH_ENERGY_LIMIT_MARGIN,
            short_window ? "the counter's " : "the counter or the limit is wrong",
            short_window ? duration(period, per, sizeof(per)) : "",
            short_window ? " refresh is too coarse for the window" : "");
        return BH_ENERGY_IMPLAUSIBLE;
    }
    if (short_window) {
        too_short_reason(d, period, reason, cap);
        return BH_ENERGY_TOO_SHORT;
    }
    if (d->joules <= 0 && d->period_ns) {
        snprintf(reason, cap, "0 J over %s (%.0f refresh periods of %s): the counter did not move",
                 duration(d->ns, win, sizeof(win)), (double)d->ns / (double)period,
                 duration(period, per, sizeof(per)));
        return BH_ENERGY_IMPLAUSIBLE;
    }
    if (d->joules <= 0) {
        snprintf(reason, cap, "0 J over %s: the counter did not move",
                 duration(d->ns, win, sizeof(win)));
        return BH_ENERGY_IMPLAUSIBLE;
    }
    return BH_ENERGY_OK;
}
