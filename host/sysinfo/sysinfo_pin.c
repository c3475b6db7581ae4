// SPDX-License-Identifier: MIT
/* CPU pinning: parses a pin spec ("none", "auto", "0,2-3"), checks it
 * against the CPUs hwloc says this process may use, and binds the process.
 *
 * CPU numbers are PU OS indexes (what Linux, taskset and /proc/cpuinfo call
 * CPU n). Whitespace around list elements is allowed ("0, 2-3"). */
#define _GNU_SOURCE
#include "sysinfo.h"

#include "bh_mem.h"
#include "sysinfo_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_HINT "expected none, auto or a list of CPUs like 0,2-3"

/* Skips spaces and tabs. */
static const char *skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Parses a run of decimal digits at *p into *out (saturating at ULONG_MAX)
 * and advances *p. false when *p does not start with a digit. */
static bool parse_cpu_number(const char **p, unsigned long *out)
{
    unsigned long v = 0;
    const char *s = *p;

    if (!isdigit((unsigned char)*s))
        return false;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned d = (unsigned)(*s - '0');

        v = v > (ULONG_MAX - d) / 10 ? ULONG_MAX : v * 10 + d;
    }
    *p = s;
    *out = v;
    return true;
}

/* Sets e to "CPU n does not exist or is not usable here" with the usable
 * list; returns -1. */
static int missing_cpu(const char *spec, unsigned long n, hwloc_const_cpuset_t allowed,
                       bh_error *e)
{
    char *list = NULL;

    if (hwloc_bitmap_list_asprintf(&list, allowed) < 0)
        list = NULL;
    bh_error_set(e, "pin \"%s\": CPU %lu does not exist or is not usable by this "
                 "process (usable CPUs: %s)", spec, n, list ? list : "unknown");
    free(list);
    return -1;
}

/* Adds the CPUs of one list element [start, end) to set, after checking its
 * syntax and that every CPU is allowed. 0, or -1 with e set. */
static int parse_element(const char *spec, const char *start, const char *end,
                         hwloc_const_cpuset_t allowed, hwloc_cpuset_t set, bh_error *e)
{
    int len = (int)(end - start);
    const char *p = skip_blank(start);
    unsigned long lo = 0;
    unsigned long hi = 0;

    if (p == end)
        return bh_error_set(e, "pin \"%s\": empty element in the CPU list; " SPEC_HINT,
                            spec);
    if (!parse_cpu_number(&p, &lo))
        goto bad;
    hi = lo;
    p = skip_blank(p);
    if (p < end && *p == '-') {
        p = skip_blank(p + 1);
        if (!parse_cpu_number(&p, &hi))
            goto bad;
        p = skip_blank(p);
    }
    if (p != end)
        goto bad;
    if (lo > hi)
        return bh_error_set(e, "pin \"%s\": range %lu-%lu is reversed (the first CPU "
                            "must not exceed the last)", spec, lo, hi);
    for (unsigned long i = lo; i <= hi; i++) {
        if (i > INT_MAX || !hwloc_bitmap_isset(allowed, (unsigned)i))
            return missing_cpu(spec, i, allowed, e);
        hwloc_bitmap_set(set, (unsigned)i);
    }
    return 0;
bad:
    return bh_error_set(e, "pin \"%s\": \"%.*s\" is not a CPU number or range; " SPEC_HINT,
                        spec, len, start);
}

/* Puts into set the first PU of the last physical core (the last PU when
 * hwloc reports no cores). 0, or -1 with e set when there is no PU. */
static int pick_auto(hwloc_topology_t topo, hwloc_cpuset_t set, bh_error *e)
{
    int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    int pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    hwloc_obj_t pu = NULL;

    if (cores > 0) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)cores - 1);

        if (core && core->cpuset)
            pu = hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, 0);
    }
    if (!pu && pus > 0)
        pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)pus - 1);
    if (!pu)
        return bh_error_set(e, "pin \"auto\": hwloc reports no usable CPU");
    hwloc_bitmap_only(set, pu->os_index);
    return 0;
}

/* Resolves spec (not "none") to a non-empty CPU set of topo. 0, or -1 with
 * e set. */
static int resolve(hwloc_topology_t topo, const char *spec, hwloc_cpuset_t set,
                   bh_error *e)
{
    hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topo);
    const char *p = spec;

    hwloc_bitmap_zero(set);
    if (strcmp(spec, "auto") == 0)
        return pick_auto(topo, set, e);
    if (*skip_blank(spec) == '\0')
        return bh_error_set(e, "pin spec is empty; " SPEC_HINT);
    for (;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);

        if (parse_element(spec, p, end, allowed, set, e) != 0)
            return -1;
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

/* Loads the topology into *topo and resolves spec (not "none") into a new
 * *set. 0 with both to be freed by the caller, or -1 with e set and nothing
 * left allocated. */
static int load_and_resolve(const char *spec, hwloc_topology_t *topo,
                            hwloc_cpuset_t *set, bh_error *e)
{
    if (bh_sysinfo_topology_load(topo) != 0)
        return bh_error_set(e, "pin \"%s\": cannot load the CPU topology (hwloc): %s",
                            spec, strerror(errno));
    *set = hwloc_bitmap_alloc();
    if (!*set) {
        hwloc_topology_destroy(*topo);
        return bh_error_set(e, "pin \"%s\": out of memory", spec);
    }
    if (resolve(*topo, spec, *set, e) != 0) {
        hwloc_bitmap_free(*set);
        hwloc_topology_destroy(*topo);
        return -1;
    }
    return 0;
}

/* Validates spec without binding; see sysinfo.h. */
int bh_sysinfo_pin_check(const char *spec, bh_error *e)
{
    hwloc_topology_t topo;
    hwloc_cpuset_t set;

    if (!spec)
        return bh_error_set(e, "pin spec is missing; " SPEC_HINT);
    if (strcmp(spec, "none") == 0)
        return 0;
    if (load_and_resolve(spec, &topo, &set, e) != 0)
        return -1;
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return 0;
}

/* Returns the CPU list spec resolves to; see sysinfo.h. */
char *bh_sysinfo_pin_resolve(const char *spec, bh_error *e)
{
    hwloc_topology_t topo;
    hwloc_cpuset_t set;
    char *list = NULL;

    if (!spec) {
        bh_error_set(e, "pin spec is missing; " SPEC_HINT);
        return NULL;
    }
    if (strcmp(spec, "none") == 0)
        return bh_xstrdup("");
    if (load_and_resolve(spec, &topo, &set, e) != 0)
        return NULL;
    if (hwloc_bitmap_list_asprintf(&list, set) < 0) {
        bh_error_set(e, "pin \"%s\": out of memory", spec);
        list = NULL;
    }
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return list;
}

/* Binds the whole process to the CPUs of spec; see sysinfo.h. */
int bh_sysinfo_pin(const char *spec, bh_error *e)
{
    hwloc_topology_t topo;
    hwloc_cpuset_t set;
    int rc = 0;

    if (!spec)
        return bh_error_set(e, "pin spec is missing; " SPEC_HINT);
    if (strcmp(spec, "none") == 0)
        return 0;
    if (load_and_resolve(spec, &topo, &set, e) != 0)
        return -1;
    if (hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
        char *list = NULL;
        int err = errno;

        if (hwloc_bitmap_list_asprintf(&list, set) < 0)
            list = NULL;
        rc = bh_error_set(e, "pin \"%s\": binding to CPUs %s failed: %s", spec,
                          list ? list : "?", strerror(err));
        free(list);
    }
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return rc;
}
