// SPDX-License-Identifier: MIT
#include "describe.h"

#include "bh_sha256.h"
#include "host_api.h"
#include "rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bh_param_type_name(bhost_param_type t)
{
    switch (t) {
    case BHOST_PARAM_I64:
        return "i64";
    case BHOST_PARAM_F64:
        return "f64";
    case BHOST_PARAM_STR:
        return "str";
    case BHOST_PARAM_BOOL:
        return "bool";
    default:
        return NULL;
    }
}

/* Adds s (at most max bytes, control bytes and invalid UTF-8 as '?'), or
 * null when the plugin gave none. */
static void add_text(cJSON *o, const char *key, const char *s, size_t max)
{
    char *clean;

    if (!s) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    clean = bh_rules_clean_text(s, max, 0, NULL);
    cJSON_AddStringToObject(o, key, clean);
    free(clean);
}

static void add_caps(cJSON *o, const char *key, bhost_caps caps)
{
    char hex[32];

    snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)caps);
    cJSON_AddStringToObject(o, key, hex);
}

/* One parameter that passed bh_rules_param: its key and default are
 * valid and bounded. */
static cJSON *describe_param(const bhost_param_desc *pd)
{
    cJSON *o = cJSON_CreateObject();

    cJSON_AddStringToObject(o, "key", pd->key);
    cJSON_AddStringToObject(o, "type", bh_param_type_name(pd->type));
    add_text(o, "summary", pd->summary, BH_RULE_SUMMARY_MAX);
    add_text(o, "default", pd->default_value, BH_RULE_TEXT_MAX);
    if (pd->choices) {
        cJSON *arr = cJSON_AddArrayToObject(o, "choices");
        for (int i = 0; pd->choices[i]; i++)
            cJSON_AddItemToArray(arr, cJSON_CreateString(pd->choices[i]));
    }
    if (pd->min <= pd->max) {
        cJSON_AddNumberToObject(o, "min", pd->min);
        cJSON_AddNumberToObject(o, "max", pd->max);
    }
    return o;
}

/* Descriptor i. One that breaks bh_rules_bench is {id, summary, error}:
 * its cases fail with the reason; an id that is itself invalid becomes
 * "#i", so that it never reaches a case id, a table or a file. */
static cJSON *describe_bench(const bhost_bench_desc *d, uint32_t index)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *params = NULL;
    char why[600];
    char label[16];
    char tmp[700];

    if (bh_rules_bench(d, why, sizeof(why)) != 0) {
        snprintf(label, sizeof(label), "#%u", index);
        if (d->struct_size >= BHOST_BENCH_DESC_SIZE_1_0 &&
            bh_rules_bench_id(d->id, tmp, sizeof(tmp)) == 0)
            cJSON_AddStringToObject(o, "id", d->id);
        else
            cJSON_AddStringToObject(o, "id", label);
        snprintf(tmp, sizeof(tmp), "refused by the host: %s", why);
        cJSON_AddStringToObject(o, "summary", tmp);
        snprintf(tmp, sizeof(tmp), "describe: %s", why);
        cJSON_AddStringToObject(o, "error", tmp);
        return o;
    }
    cJSON_AddStringToObject(o, "id", d->id);
    add_text(o, "summary", d->summary, BH_RULE_SUMMARY_MAX);
    cJSON_AddNumberToObject(o, "flags", d->flags);
    cJSON_AddBoolToObject(o, "needs_device",
                          (d->flags & BHOST_BENCH_NEEDS_DEVICE) != 0);
    cJSON_AddBoolToObject(o, "manual_timing",
                          (d->flags & BHOST_BENCH_MANUAL_TIMING) != 0);
    cJSON_AddBoolToObject(o, "ceiling", (d->flags & BHOST_BENCH_CEILING) != 0);
    cJSON_AddBoolToObject(o, "multi_rank", (d->flags & BHOST_BENCH_MULTI_RANK) != 0);
    add_caps(o, "required_caps", d->required_caps);
    cJSON_AddBoolToObject(o, "has_verify", d->verify != NULL);
    params = cJSON_AddArrayToObject(o, "params");
    for (uint32_t i = 0; i < d->param_count; i++)
        cJSON_AddItemToArray(params, describe_param(bh_rules_param_at(d, i)));
    return o;
}

static cJSON *describe_device(const bhost_backend *be, uint32_t index)
{
    bhost_device_info info;
    cJSON *o = cJSON_CreateObject();
    bhost_status st;

    memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    st = be->device_info(index, &info);
    cJSON_AddNumberToObject(o, "index", index);
    if (st != BHOST_OK) {
        cJSON_AddStringToObject(o, "error", bh_host_api_last_error());
        return o;
    }
    info.name[sizeof(info.name) - 1] = '\0';
    info.vendor[sizeof(info.vendor) - 1] = '\0';
    info.driver_version[sizeof(info.driver_version) - 1] = '\0';
    info.runtime_version[sizeof(info.runtime_version) - 1] = '\0';
    cJSON_AddStringToObject(o, "name", info.name);
    cJSON_AddStringToObject(o, "vendor", info.vendor);
    cJSON_AddStringToObject(o, "driver_version", info.driver_version);
    cJSON_AddStringToObject(o, "runtime_version", info.runtime_version);
    cJSON_AddNumberToObject(o, "global_mem_bytes",
                            (double)info.global_mem_bytes);
    cJSON_AddNumberToObject(o, "compute_units", info.compute_units);
    cJSON_AddNumberToObject(o, "clock_mhz", info.clock_mhz);
    cJSON_AddNumberToObject(o, "timer_resolution_ns",
                            info.timer_resolution_ns);
    add_caps(o, "caps", info.caps);
    return o;
}

static cJSON *describe_backend(const bhost_backend *be)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *devs;
    uint32_t count = 0;
    bhost_status st;

    cJSON_AddStringToObject(o, "id", be->id);
    bh_host_api_clear_error();
    st = be->device_count(&count);
    if (st != BHOST_OK)
        count = 0;
    if (count > 64)
        count = 64;
    cJSON_AddNumberToObject(o, "device_count", count);
    if (count == 0) {
        const char *why = bh_host_api_last_error();
        cJSON_AddStringToObject(o, "reason",
                                *why ? why : "no device (no reason given)");
    }
    devs = cJSON_AddArrayToObject(o, "devices");
    for (uint32_t i = 0; i < count; i++)
        cJSON_AddItemToArray(devs, describe_device(be, i));
    return o;
}

cJSON *bh_describe_plugin(const bh_plugin *p)
{
    const bhost_entry *en = p->entry;
    cJSON *o = cJSON_CreateObject();
    cJSON *benches = cJSON_AddArrayToObject(o, "benchmarks");
    char hex[65];

    cJSON_AddStringToObject(o, "t", "describe");
    cJSON_AddStringToObject(o, "path", p->path);
    if (bh_sha256_file(p->path, hex, NULL) == 0)
        cJSON_AddStringToObject(o, "sha256", hex);
    add_text(o, "plugin_id", en->plugin_id, 256);
    add_text(o, "name", en->name, 64);
    add_text(o, "version", en->plugin_version, 64);
    add_text(o, "summary", en->summary, BH_RULE_SUMMARY_MAX);
    cJSON_AddNumberToObject(o, "abi_major", en->abi_major);
    cJSON_AddNumberToObject(o, "abi_minor", en->abi_minor);
    cJSON_AddNumberToObject(o, "entry_size", en->struct_size);
    if (p->benchmarks) {
        uint32_t n = p->benchmarks->count();
        for (uint32_t i = 0; i < n && i < BH_RULE_BENCHES_MAX; i++) {
            const bhost_bench_desc *d = p->benchmarks->get(i);
            if (d)
                cJSON_AddItemToArray(benches, describe_bench(d, i));
        }
    }
    if (p->backend)
        cJSON_AddItemToObject(o, "backend", describe_backend(p->backend));
    else
        cJSON_AddNullToObject(o, "backend");
    return o;
}
