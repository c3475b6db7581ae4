// SPDX-License-Identifier: MIT
/*
 * bh_plugin_entry.c -- what BH_PLUGIN_ENTRY and BH_PLUGIN_FACTORY call:
 * the host table check, the bound host API, the benchmark list and the
 * interface lookup (contracts in bh_plugin.h).
 */
#include "bh_plugin.h"

#include <stdio.h>
#include <string.h>

const bhost_host_api *bh_plugin_api;

void bh_plugin_list_add(bh_plugin_list *l, const bhost_bench_desc *d)
{
    if (l->count < BH_PLUGIN_MAX_BENCHES)
        l->desc[l->count++] = d;
}

void bh_plugin_list_add_all(bh_plugin_list *l, const bhost_bench_desc *const *family)
{
    for (; *family != NULL; family++)
        bh_plugin_list_add(l, *family);
}

bhost_status bh_plugin_bind(const bhost_host_api *api, const char *name)
{
    char msg[128];

    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        snprintf(msg, sizeof(msg), "%s: host API table older than 1.0", name);
        api->set_error(NULL, msg);
        return BHOST_E_VERSION;
    }
    bh_plugin_api = api;
    return BHOST_OK;
}

void bh_plugin_unbind(void)
{
    bh_plugin_api = NULL;
}

const void *bh_plugin_interface(const char *id, const bhost_bench_factory *factory)
{
    if (id != NULL && strcmp(id, BHOST_IFACE_BENCHMARKS) == 0)
        return factory;
    return NULL;
}

bhost_status bh_plugin_no_setup(const bhost_host_api *api)
{
    (void)api;
    return BHOST_OK;
}
