// SPDX-License-Identifier: MIT
/*
 * bh_be_entry.c -- the parts of a backend's entry and bhost.backend/1
 * table that read the same in every backend: init(), get_interface(),
 * device_count() and device_info() over the backend's loader, and
 * get_kernel()'s checks.
 */
#include <bhost/backend_helper.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

bhost_status bh_be_init(bh_be *be, const bhost_host_api *api)
{
    char msg[128];

    if (api == NULL || !BHOST_HAS(bhost_host_api, api, set_error))
        return BHOST_E_VERSION;
    if (!BHOST_HAS(bhost_host_api, api, get_extension)) {
        snprintf(msg, sizeof(msg), "%s: host API table older than 1.0",
                 be->name);
        api->set_error(NULL, msg);
        return BHOST_E_VERSION;
    }
    be->api = api;
    return BHOST_OK;
}

const void *bh_be_interface(const char *id, const bhost_backend *table)
{
    if (id != NULL && strcmp(id, BHOST_IFACE_BACKEND) == 0)
        return table;
    return NULL;
}

bhost_status bh_be_device_count(const bh_be *be, uint32_t *count)
{
    if (count == NULL)
        return bh_be_fail(be, NULL, BHOST_E_INVALID,
                          "device_count: NULL count");
    *count = 0;
    if (be->load() != BHOST_OK) {
        bh_be_fail(be, NULL, BHOST_E_UNSUPPORTED, "%s", be->load_error());
        return BHOST_OK;
    }
    *count = be->count();
    return BHOST_OK;
}

bhost_status bh_be_device_info(const bh_be *be, uint32_t index,
                               bhost_device_info *out)
{
    bhost_device_info info;

    if (out == NULL || out->struct_size < sizeof(out->struct_size))
        return bh_be_fail(be, NULL, BHOST_E_INVALID, "device_info: bad out");
    if (be->load() != BHOST_OK || index >= be->count())
        return bh_be_fail(be, NULL, BHOST_E_INVALID,
                          "device_info: no device %" PRIu32, index);
    be->describe(index, &info);
    bh_be_copy_sized(out, &info, sizeof(info));
    return BHOST_OK;
}

const void *bh_be_get_kernel(const bh_be *be, bhost_dev *dev, const char *id)
{
    if (bh_be_check_dev(be, dev, "get_kernel") != BHOST_OK || id == NULL)
        return NULL;
    return be->kernel(dev, id);
}

void bh_be_copy_sized(void *out, const void *src, size_t src_size)
{
    uint32_t size;
    size_t n;

    memcpy(&size, out, sizeof(size));
    n = size < src_size ? size : src_size;
    memcpy((char *)out + sizeof(size), (const char *)src + sizeof(size),
           n - sizeof(size));
}
