// SPDX-License-Identifier: MIT
/* The strict check of a result document's "scaling" list (written by
 * host/pipeline/scaling_build.c): the fields the reports draw from, each
 * refused with its path and what it holds (result_check.h). */
#include "result_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The point figures: each a number or null. */
static const char *const figures[] = {"median_ns",  "rate",          "ideal_speedup",
                                      "speedup",    "speedup_lo",    "speedup_hi",
                                      "efficiency", "efficiency_lo", "efficiency_hi"};

/* True for a mode name scaling_build.c writes. */
static int mode_ok(const cJSON *m)
{
    const char *s = cJSON_GetStringValue(m);

    return s &&
           (strcmp(s, "strong") == 0 || strcmp(s, "weak") == 0 || strcmp(s, "throughput") == 0);
}

/* Point j of curve i, against the curve's threshold. */
static int check_point(const cJSON *p, double threshold, const char *name, const char *at,
                       bh_error *e)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "value");
    const cJSON *eff = cJSON_GetObjectItemCaseSensitive(p, "efficiency");
    const cJSON *low = cJSON_GetObjectItemCaseSensitive(p, "below_threshold");
    char path[200];

    if (!cJSON_IsObject(p))
        return bh_result_check_fail(e, name, at, "an object", p);
    snprintf(path, sizeof(path), "%s.value", at);
    if (!cJSON_IsNumber(v) || !(v->valuedouble > 0))
        return bh_result_check_fail(e, name, path, "a positive axis value", v);
    for (size_t k = 0; k < sizeof(figures) / sizeof(figures[0]); k++) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(p, figures[k]);

        snprintf(path, sizeof(path), "%s.%s", at, figures[k]);
        if (f && !cJSON_IsNull(f) && !(cJSON_IsNumber(f) && isfinite(f->valuedouble)))
            return bh_result_check_fail(e, name, path, "a number or null", f);
    }
    snprintf(path, sizeof(path), "%s.below_threshold", at);
    if (low && !cJSON_IsNull(low) && !cJSON_IsBool(low))
        return bh_result_check_fail(e, name, path, "true, false or null", low);
    if (cJSON_IsBool(low) && cJSON_IsNumber(eff) &&
        cJSON_IsTrue(low) != (eff->valuedouble < threshold))
        return bh_result_check_fail(e, name, path, "efficiency < min_efficiency", low);
    return 0;
}

/* Curve i: its names, mode, threshold and points. */
static int check_curve(const cJSON *c, size_t i, const char *name, bh_error *e)
{
    const cJSON *thr = cJSON_GetObjectItemCaseSensitive(c, "min_efficiency");
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(c, "points"), *p;
    char at[96];
    size_t j = 0;

    snprintf(at, sizeof(at), "scaling[%zu]", i);
    if (!cJSON_IsObject(c) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(c, "axis")) ||
        !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(c, "name")))
        return bh_result_check_fail(e, name, at, "an object with string \"axis\" and \"name\"", c);
    snprintf(at, sizeof(at), "scaling[%zu].mode", i);
    if (!mode_ok(cJSON_GetObjectItemCaseSensitive(c, "mode")))
        return bh_result_check_fail(e, name, at, "strong, weak or throughput",
                                    cJSON_GetObjectItemCaseSensitive(c, "mode"));
    snprintf(at, sizeof(at), "scaling[%zu].min_efficiency", i);
    if (!cJSON_IsNumber(thr) || !(thr->valuedouble > 0 && thr->valuedouble <= 1))
        return bh_result_check_fail(e, name, at, "a number in (0, 1]", thr);
    snprintf(at, sizeof(at), "scaling[%zu].points", i);
    if (!cJSON_IsArray(pts))
        return bh_result_check_fail(e, name, at, "a list", pts);
    cJSON_ArrayForEach(p, pts) {
        snprintf(at, sizeof(at), "scaling[%zu].points[%zu]", i, j++);
        if (check_point(p, thr->valuedouble, name, at, e) != 0)
            return -1;
    }
    return 0;
}

int bh_result_check_scaling(const cJSON *doc, const char *name, bh_error *e)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "scaling"), *c;
    size_t i = 0;

    if (!list)
        return 0;
    if (!cJSON_IsArray(list))
        return bh_result_check_fail(e, name, "scaling", "a list of curves", list);
    cJSON_ArrayForEach(c, list)
        if (check_curve(c, i++, name, e) != 0)
            return -1;
    return 0;
}
