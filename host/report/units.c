// SPDX-License-Identifier: MIT
#include "units.h"

#include <math.h>
#include <stdio.h>

/* Three significant digits of v in unit, or -1 when rounding would show
 * 1000 or more (the caller moves to the next unit). */
static int sig3(double v, const char *unit, char *buf, size_t cap)
{
    double a = fabs(v);

    if (a >= 999.5)
        return -1;
    if (a >= 99.95)
        snprintf(buf, cap, "%.0f %s", v, unit);
    else if (a >= 9.995)
        snprintf(buf, cap, "%.1f %s", v, unit);
    else
        snprintf(buf, cap, "%.2f %s", v, unit);
    return 0;
}

void bh_fmt_time(double ns, char *buf, size_t cap)
{
    static const char *const units[] = {"ps", "ns", "us", "ms", "s"};
    double v = ns * 1e3;
    int k = 0;

    if (!isfinite(ns)) {
        snprintf(buf, cap, "-");
        return;
    }
    /* seconds are the last unit: larger values stay in s */
    while (k < 4 && (fabs(v) >= 999.5))
        v /= 1e3, k++;
    if (sig3(v, units[k], buf, cap) != 0)
        snprintf(buf, cap, "%.0f %s", v, units[k]);
}

void bh_fmt_rate(double per_s, const char *unit, char *buf, size_t cap)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    int k = 0;
    char u[32];

    if (!isfinite(per_s)) {
        snprintf(buf, cap, "-");
        return;
    }
    while (fabs(per_s) >= 999.5 && k < 6) {
        per_s /= 1000;
        k++;
    }
    snprintf(u, sizeof(u), "%s%s", prefix[k], unit);
    if (sig3(per_s, u, buf, cap) != 0)
        snprintf(buf, cap, "%.0f %s", per_s, u);
}

void bh_fmt_pct(double fraction, char *buf, size_t cap)
{
    if (!isfinite(fraction))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.2f%%", fraction * 100);
}
