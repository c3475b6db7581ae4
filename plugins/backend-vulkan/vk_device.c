// SPDX-License-Identifier: MIT
/*
 * vk_device.c -- open/close of a Vulkan device and its memory: buffers
 * with memory of their own, device-local for BHOST_MEM_DEVICE,
 * host-visible coherent (cached where offered) for HOST_VISIBLE and
 * PINNED, mapped once for their lifetime.
 */
#include "vk_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The least bind_max BHOST_VK_MAX_RANGE can set (bytes). */
#define BIND_MIN 1024u

bhost_status bh_vk_make_buffer(bhost_dev *dev, uint64_t bytes,
                               VkMemoryPropertyFlags need,
                               VkMemoryPropertyFlags want,
                               VkMemoryPropertyFlags avoid, VkBuffer *buf,
                               VkDeviceMemory *mem, unsigned char **ptr)
{
    VkBufferCreateInfo bi;
    VkMemoryAllocateInfo ai;
    VkMemoryRequirements req;
    VkResult r;
    int type;
    void *p = NULL;

    *buf = VK_NULL_HANDLE;
    *mem = VK_NULL_HANDLE;
    *ptr = NULL;
    memset(&bi, 0, sizeof(bi));
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.size = bytes;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    r = bh_vk.vkCreateBuffer(dev->dev, &bi, NULL, buf);
    if (r != VK_SUCCESS)
        return bh_vk_fail(dev->h, bh_vk_status(r),
                          "vkCreateBuffer(%" PRIu64 " bytes): %s", bytes,
                          bh_vk_result_name(r));
    bh_vk.vkGetBufferMemoryRequirements(dev->dev, *buf, &req);
    type = bh_vk_memory_type(dev->phys, req.memoryTypeBits, need, want, avoid);
    if (type < 0) {
        bh_vk_drop_buffer(dev, *buf, VK_NULL_HANDLE);
        *buf = VK_NULL_HANDLE;
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "no memory type with properties 0x%x",
                          (unsigned)need);
    }
    memset(&ai, 0, sizeof(ai));
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = (uint32_t)type;
    r = bh_vk.vkAllocateMemory(dev->dev, &ai, NULL, mem);
    if (r == VK_SUCCESS)
        r = bh_vk.vkBindBufferMemory(dev->dev, *buf, *mem, 0);
    if (r == VK_SUCCESS &&
        (dev->phys->mem.memoryTypes[type].propertyFlags &
         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
        r = bh_vk.vkMapMemory(dev->dev, *mem, 0, VK_WHOLE_SIZE, 0, &p);
    if (r != VK_SUCCESS) {
        bh_vk_drop_buffer(dev, *buf, *mem);
        *buf = VK_NULL_HANDLE;
        *mem = VK_NULL_HANDLE;
        return bh_vk_fail(dev->h, bh_vk_status(r),
                          "allocating %" PRIu64 " bytes of memory type %d: %s",
                          bytes, type, bh_vk_result_name(r));
    }
    *ptr = p;
    return BHOST_OK;
}

void bh_vk_drop_buffer(bhost_dev *dev, VkBuffer buf, VkDeviceMemory mem)
{
    if (buf != VK_NULL_HANDLE)
        bh_vk.vkDestroyBuffer(dev->dev, buf, NULL);
    if (mem != VK_NULL_HANDLE)
        bh_vk.vkFreeMemory(dev->dev, mem, NULL); /* unmaps as well */
}

bhost_buf *bh_vk_find_mapped(const bhost_dev *dev, const void *p, uint64_t n)
{
    const unsigned char *c = p;

    for (bhost_buf *b = dev->mapped; b != NULL; b = b->next)
        if (c >= b->ptr && c <= b->ptr + b->size &&
            n <= (uint64_t)(b->ptr + b->size - c))
            return b;
    return NULL;
}

/* Creates the VkDevice with one compute queue (shaderFloat64 enabled when
 * the device has it). */
static bhost_status create_device(bhost_dev *dev)
{
    VkDeviceQueueCreateInfo qi;
    VkDeviceCreateInfo ci;
    VkPhysicalDeviceFeatures f;
    float prio = 1.0f;
    VkResult r;

    memset(&qi, 0, sizeof(qi));
    qi.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qi.queueFamilyIndex = dev->phys->queue_family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &prio;
    memset(&f, 0, sizeof(f));
    f.shaderFloat64 = dev->phys->has_f64 ? VK_TRUE : VK_FALSE;
    memset(&ci, 0, sizeof(ci));
    ci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &qi;
    ci.pEnabledFeatures = &f;
    r = bh_vk.vkCreateDevice(dev->phys->pd, &ci, NULL, &dev->dev);
    if (r != VK_SUCCESS)
        return bh_vk_fail(dev->h, bh_vk_status(r), "vkCreateDevice('%s'): %s",
                          dev->phys->props.deviceName, bh_vk_result_name(r));
    bh_vk.vkGetDeviceQueue(dev->dev, dev->phys->queue_family, 0, &dev->queue);
    return BHOST_OK;
}

/* Frees everything open() made; safe on a partly opened device. */
static void release(bhost_dev *dev)
{
    if (dev->dev != VK_NULL_HANDLE) {
        bh_vk.vkDeviceWaitIdle(dev->dev);
        for (uint32_t i = 0; i < BH_VK_MAX_STREAMS; i++)
            if (dev->streams[i] != NULL)
                bh_vk_stream_free(dev, dev->streams[i]);
        bh_vk_kernels_release(dev);
        bh_vk.vkDestroyDevice(dev->dev, NULL);
    }
    dev->magic = 0;
    free(dev);
}

/* Sets dev->bind_max and bind_align from the device limits, bind_max
 * lowered by BHOST_VK_MAX_RANGE (bytes, a test and debug knob; clamped
 * to [BIND_MIN, maxStorageBufferRange]). INVALID for a value that is not
 * a decimal byte count. */
static bhost_status bind_limits(bhost_dev *dev)
{
    const VkPhysicalDeviceLimits *l = &dev->phys->props.limits;
    const char *env = getenv("BHOST_VK_MAX_RANGE");
    uint64_t max = l->maxStorageBufferRange;

    dev->bind_align = l->minStorageBufferOffsetAlignment > 0
                          ? l->minStorageBufferOffsetAlignment
                          : 1;
    if (env != NULL && *env != '\0') {
        char *end = NULL;
        unsigned long long v;

        errno = 0;
        v = strtoull(env, &end, 10);
        if (errno != 0 || end == env || *end != '\0' || *env == '-')
            return bh_vk_fail(dev->h, BHOST_E_INVALID,
                              "open: BHOST_VK_MAX_RANGE=%s: expected a byte "
                              "count",
                              env);
        if (v < BIND_MIN)
            v = BIND_MIN;
        if (v < max)
            max = v;
    }
    dev->bind_max = max;
    if (dev->bind_max < 2 * dev->bind_align + 8)
        return bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                          "open: maxStorageBufferRange %" PRIu64
                          " too small for offset alignment %" PRIu64,
                          dev->bind_max, dev->bind_align);
    return BHOST_OK;
}

/* Sets dev->gemv_subgroups and gemv_rows: subgroup sums where the device
 * has them unless
 * BHOST_VK_SUBGROUPS=0 (a test and debug knob, 0 or 1) turns them off.
 * INVALID for another value. */
static bhost_status gemv_shape(bhost_dev *dev)
{
    const char *env = getenv("BHOST_VK_SUBGROUPS");
    uint32_t size = dev->phys->subgroup_size;
    int use = dev->phys->subgroup_sum && size >= 1 && size <= 64;

    if (env != NULL && *env != '\0') {
        if (strcmp(env, "0") != 0 && strcmp(env, "1") != 0)
            return bh_vk_fail(dev->h, BHOST_E_INVALID,
                              "open: BHOST_VK_SUBGROUPS=%s: expected 0 or 1",
                              env);
        if (*env == '0')
            use = 0;
    }
    dev->gemv_subgroups = use ? 1u : 0u;
    dev->gemv_rows = use ? 64 / size : 4;
    return BHOST_OK;
}

/* Opens device index: VkDevice, queue, shared layouts, the NULL stream.
 * Pipelines are built on the first get_kernel(). [main] */
bhost_status BHOST_ABI bh_vk_open(uint32_t index, bhost_host *h,
                                      bhost_dev **out)
{
    bhost_dev *dev;
    bhost_status st;

    if (out == NULL)
        return bh_vk_fail(h, BHOST_E_INVALID, "open: NULL out");
    if (bh_vk_load() != BHOST_OK)
        return bh_vk_fail(h, BHOST_E_DEVICE, "open: %s", bh_vk_load_error());
    if (index >= bh_vk_count())
        return bh_vk_fail(h, BHOST_E_INVALID,
                          "open: no device %" PRIu32 " (there are %" PRIu32
                          ")", index, bh_vk_count());
    dev = calloc(1, sizeof(*dev));
    if (dev == NULL)
        return bh_vk_fail(h, BHOST_E_NOMEM, "open: out of memory");
    dev->magic = BH_VK_DEV_MAGIC;
    dev->index = index;
    dev->h = h;
    dev->phys = bh_vk_phys_get(index);
    st = bind_limits(dev);
    if (st == BHOST_OK)
        st = gemv_shape(dev);
    if (st == BHOST_OK)
        st = create_device(dev);
    if (st == BHOST_OK)
        st = bh_vk_layouts(dev);
    if (st == BHOST_OK)
        st = bh_vk_stream_new(dev, &dev->def);
    if (st != BHOST_OK) {
        release(dev);
        return st;
    }
    bh_vk_log(h, BHOST_LOG_INFO, "device %" PRIu32 ": %s, queue family %" PRIu32
              ", %" PRIu32 " timestamp bits, period %g ns%s, kernel bindings "
              "of at most %" PRIu64 " bytes at %" PRIu64 "-byte offsets, "
              "gemv rows summed by %s",
              index, dev->phys->props.deviceName, dev->phys->queue_family,
              dev->phys->timestamp_bits,
              (double)dev->phys->props.limits.timestampPeriod,
              dev->phys->has_f64 ? ", f64" : "", dev->bind_max,
              dev->bind_align,
              dev->gemv_subgroups ? "subgroups" : "shared memory");
    *out = dev;
    return BHOST_OK;
}

/* Waits for the device, frees every stream, buffer list entry, pipeline
 * and the VkDevice. Warns about buffers never freed. [main] */
void BHOST_ABI bh_vk_close(bhost_dev *dev)
{
    if (dev == NULL || dev->magic != BH_VK_DEV_MAGIC)
        return;
    if (dev->live_bufs != 0)
        bh_vk_log(dev->h, BHOST_LOG_WARN,
                  "close: %" PRIu64 " buffer(s) never freed", dev->live_bufs);
    release(dev);
}

/* Allocates bytes (> 0) with its own VkDeviceMemory. [instance] */
bhost_status BHOST_ABI bh_vk_alloc(bhost_dev *dev, uint64_t bytes,
                                       uint32_t flags, bhost_buf **out)
{
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    bhost_buf *b;
    bhost_status st = bh_vk_check_dev(dev, "alloc");

    if (st != BHOST_OK)
        return st;
    if (out == NULL || bytes == 0)
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "alloc: NULL out or zero size");
    if (flags > (BHOST_MEM_HOST_PINNED | BHOST_MEM_HOST_VISIBLE))
        return bh_vk_fail(dev->h, BHOST_E_INVALID,
                          "alloc: unknown flags 0x%" PRIx32, flags);
    b = calloc(1, sizeof(*b));
    if (b == NULL)
        return bh_vk_fail(dev->h, BHOST_E_NOMEM, "alloc: out of memory");
    if (flags == BHOST_MEM_DEVICE)
        st = bh_vk_make_buffer(dev, bytes,
                               VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, 0,
                               &b->buf, &b->mem, &b->ptr);
    else
        st = bh_vk_make_buffer(
            dev, bytes, host,
            flags & BHOST_MEM_HOST_PINNED ? 0
                                          : VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
            dev->phys->unified ? 0 : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
            &b->buf, &b->mem, &b->ptr);
    if (st == BHOST_OK && b->buf == VK_NULL_HANDLE)
        st = BHOST_E_DEVICE;
    if (st != BHOST_OK) {
        free(b);
        return st;
    }
    b->magic = BH_VK_BUF_MAGIC;
    b->flags = flags;
    b->dev = dev;
    b->size = bytes;
    if (b->ptr != NULL && flags != BHOST_MEM_DEVICE) {
        b->next = dev->mapped;
        dev->mapped = b;
    }
    dev->live_bufs++;
    *out = b;
    return BHOST_OK;
}

/* Waits for the device (the buffer may be in use), then frees buf. NULL
 * and foreign handles are ignored. [instance] */
void BHOST_ABI bh_vk_free(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_vk_check_dev(dev, "free") != BHOST_OK || buf == NULL ||
        buf->magic != BH_VK_BUF_MAGIC || buf->dev != dev)
        return;
    for (uint32_t i = 0; i < BH_VK_MAX_STREAMS; i++)
        if (dev->streams[i] != NULL)
            bh_vk_sync(dev->streams[i]);
    for (bhost_buf **pp = &dev->mapped; *pp != NULL; pp = &(*pp)->next)
        if (*pp == buf) {
            *pp = buf->next;
            break;
        }
    buf->magic = 0;
    bh_vk_drop_buffer(dev, buf->buf, buf->mem);
    free(buf);
    dev->live_bufs--;
}

/* The persistent mapping of a host-visible buffer (any buffer on a device
 * whose device-local memory is host-visible), else NULL. [instance] */
void *BHOST_ABI bh_vk_map(bhost_dev *dev, bhost_buf *buf)
{
    if (bh_vk_check_dev(dev, "map") != BHOST_OK ||
        bh_vk_check_range(dev, buf, 0, 0, "map", "mapped") != BHOST_OK)
        return NULL;
    if (buf->ptr == NULL)
        bh_vk_fail(dev->h, BHOST_E_UNSUPPORTED,
                   "map: buffer memory is not host-visible");
    return buf->ptr;
}
