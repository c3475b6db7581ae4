// SPDX-License-Identifier: MIT
/* Roofline placement of every case against the ceilings of the same run
 * (see roofline.h; the ceilings: roof_ceilings.c, the choice:
 * roof_pick.c). */
#include "roofline.h"

#include "roof_ceilings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A number member, NAN when absent. */
static double num(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

    return cJSON_IsNumber(it) ? it->valuedouble : NAN;
}

/* The ceilings as the "roofs" object: the legacy DRAM bandwidth and f32
 * peak (the best of each) and every ceiling with its case. */
static void add_roofs(cJSON *doc, const bh_roof_set *s)
{
    cJSON *roofs = cJSON_AddObjectToObject(doc, "roofs");
    cJSON *list;
    const bh_roof_ceiling *bw = NULL, *peak = NULL;

    for (size_t i = 0; i < s->n; i++) {
        const bh_roof_ceiling *k = &s->v[i];

        if (*k->at)
            continue;
        if (k->kind == BH_CEIL_BANDWIDTH && k->level == BH_LEVEL_DRAM &&
            (!bw || k->value > bw->value))
            bw = k;
        if (k->kind == BH_CEIL_COMPUTE && strcmp(k->compute, "f32") == 0 &&
            (!peak || k->value > peak->value))
            peak = k;
    }
    if (bw) {
        cJSON_AddNumberToObject(roofs, "bandwidth_bytes_per_s", bw->value);
        cJSON_AddStringToObject(roofs, "bandwidth_case", bw->case_id);
    }
    if (peak) {
        cJSON_AddNumberToObject(roofs, "flops_per_s", peak->value);
        cJSON_AddStringToObject(roofs, "flops_case", peak->case_id);
    }
    list = cJSON_AddArrayToObject(roofs, "ceilings");
    for (size_t i = 0; i < s->n; i++) {
        const bh_roof_ceiling *k = &s->v[i];
        cJSON *o = cJSON_CreateObject();
        static const char *const kinds[] = {"bandwidth", "compute", "latency"};
        static const char *const units[] = {"B/s", "FLOP/s", "ns"};

        cJSON_AddStringToObject(o, "name", k->name);
        cJSON_AddStringToObject(o, "kind", kinds[k->kind]);
        if (k->kind == BH_CEIL_BANDWIDTH) {
            cJSON_AddStringToObject(o, "level", bh_roof_level_name(k->level));
            cJSON_AddStringToObject(o, "access", k->access);
        }
        if (k->kind == BH_CEIL_COMPUTE)
            cJSON_AddStringToObject(o, "compute", k->compute);
        cJSON_AddNumberToObject(o, "threads", k->threads);
        if (*k->at)
            cJSON_AddStringToObject(o, "at", k->at);
        cJSON_AddNumberToObject(o, "value", k->value);
        cJSON_AddStringToObject(o, "unit", units[k->kind]);
        cJSON_AddStringToObject(o, "case", k->case_id);
        cJSON_AddItemToArray(list, o);
    }
}

/* Writes the placement of one case: intensity, attainable rate, bound,
 * fraction, the ceilings it was held against and, above 1.05 of them, the
 * flag. */
static void place(cJSON *r, double flops, double bytes, const bh_roof_ceiling *mem,
                  const bh_roof_ceiling *peak, double floor_ns, double ns)
{
    double attainable, rate, ideal_ns;
    const char *bound, *unit;

    if (flops > 0 && bytes > 0 && mem && peak) {
        double ai = flops / bytes;

        attainable = fmin(peak->value, ai * mem->value);
        rate = flops;
        unit = "FLOP/s";
        bound = ai * mem->value < peak->value ? "memory" : "compute";
        cJSON_AddNumberToObject(r, "intensity_flop_per_byte", ai);
    } else if (flops > 0 && peak) {
        attainable = peak->value;
        rate = flops;
        unit = "FLOP/s";
        bound = "compute";
    } else {
        attainable = mem->value;
        rate = bytes;
        unit = "B/s";
        bound = "memory";
    }
    /* time the ceiling allows per iteration, against the fixed per-call cost */
    ideal_ns = ns * rate / attainable;
    if (floor_ns > 0 && floor_ns >= ideal_ns && rate / attainable < 0.5)
        bound = "latency";
    cJSON_AddNumberToObject(r, "attainable", attainable);
    cJSON_AddStringToObject(r, "unit", unit);
    cJSON_AddStringToObject(r, "bound", bound);
    cJSON_AddNumberToObject(r, "fraction", rate / attainable);
    if (mem && (bytes > 0))
        cJSON_AddStringToObject(r, "memory_ceiling", mem->name);
    if (peak && flops > 0)
        cJSON_AddStringToObject(r, "compute_ceiling", peak->name);
    if (floor_ns > 0 && strcmp(bound, "latency") == 0)
        cJSON_AddNumberToObject(r, "latency_floor_ns", floor_ns);
    if (rate / attainable > BH_ROOF_ABOVE) {
        cJSON_AddTrueToObject(r, "above_ceiling");
        cJSON_AddStringToObject(r, "warning", BH_ROOF_ABOVE_TEXT);
    }
}

/* Adds the roofline object of one case, when it has a throughput and the
 * run a ceiling of its kind. */
static void apply_case(cJSON *c, const bh_roof_set *s)
{
    const cJSON *tp = cJSON_GetObjectItemCaseSensitive(c, "throughput");
    double flops = num(tp, "flop_per_s"), bytes = num(tp, "bytes_per_s");
    double ns = num(cJSON_GetObjectItemCaseSensitive(c, "summary"), "median");
    bh_roof_profile p = bh_roof_profile_of(c);
    const bh_roof_ceiling *mem, *peak;
    char at[64];
    cJSON *r;

    if (!(flops > 0) && !(bytes > 0))
        return;
    bh_roof_case_at(c, at, sizeof(at));
    mem = bytes > 0 ? bh_roof_pick_memory(s, &p, bh_roof_hierarchy_at(at)) : NULL;
    peak = flops > 0 ? bh_roof_pick_compute(s, &p, bh_roof_hierarchy_at(at)) : NULL;
    if (!mem && !peak)
        return;
    if (!peak)
        flops = 0; /* bytes alone, against the memory ceiling */
    if (!mem && !(flops > 0))
        return;
    r = cJSON_CreateObject();
    if (p.known && p.working_set > 0 && !*bh_roof_hierarchy_at(at))
        cJSON_AddStringToObject(r, "level",
                                bh_roof_level_name(bh_roof_level(s, p.working_set, p.threads)));
    place(r, flops, mem ? bytes : 0, mem, peak, bh_roof_latency_floor(s, at), ns);
    cJSON_AddItemToObject(c, "roofline", r);
}

/* See roofline.h. */
void bh_roofline_apply(cJSON *doc)
{
    bh_roof_set s;
    cJSON *c;

    bh_roof_set_load(doc, &s);
    if (s.n == 0) {
        bh_roof_set_free(&s);
        return;
    }
    add_roofs(doc, &s);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases"))
        apply_case(c, &s);
    bh_roof_set_free(&s);
}
