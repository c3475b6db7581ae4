// SPDX-License-Identifier: MIT
/*
 * vk_loader.c -- loads libvulkan.so.1 lazily, creates one instance per
 * process and lists the physical devices that have a compute queue.
 * lavapipe (Mesa's CPU driver) counts as a device: it is what CI runs.
 * When LP_NUM_THREADS is unset it is set to the CPUs this process may use
 * before the instance exists (lavapipe otherwise runs about one thread).
 */
#define _GNU_SOURCE
#include "vk_internal.h"

#include <dlfcn.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bh_vk_fns bh_vk;

static struct {
    int tried;
    bhost_status st;
    void *lib;
    VkInstance inst;
    uint32_t api; /* the instance's API version */
    uint32_t count;
    bh_vk_phys phys[BH_VK_MAX_DEVICES];
    char error[384];
} L;

const char *bh_vk_load_error(void)
{
    return L.error;
}

uint32_t bh_vk_count(void)
{
    return L.st == BHOST_OK ? L.count : 0;
}

const bh_vk_phys *bh_vk_phys_get(uint32_t index)
{
    return index < bh_vk_count() ? &L.phys[index] : NULL;
}

/* Records why loading stopped (with the VkResult when not VK_SUCCESS) and
 * returns BHOST_E_UNSUPPORTED. */
static bhost_status stop(VkResult r, const char *fmt, ...) BH_BE_PRINTF(2, 3);
static bhost_status stop(VkResult r, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (r != VK_SUCCESS)
        snprintf(L.error, sizeof(L.error), "%s: %s (%d)", msg,
                 bh_vk_result_name(r), (int)r);
    else
        snprintf(L.error, sizeof(L.error), "%s", msg);
    return BHOST_E_UNSUPPORTED;
}

/* dlopens the loader and resolves vkGetInstanceProcAddr and the global
 * functions. */
static bhost_status open_library(void)
{
    static const char *const names[] = {"libvulkan.so.1", "libvulkan.so"};
    const char *err;

    L.lib = bh_be_dlopen("BHOST_VULKAN_LIBRARY", names, 2, NULL, 0, &err);
    if (L.lib == NULL)
        return stop(VK_SUCCESS, "no Vulkan loader: %s", err);
    *(void **)&bh_vk.vkGetInstanceProcAddr =
        dlsym(L.lib, "vkGetInstanceProcAddr");
    if (bh_vk.vkGetInstanceProcAddr == NULL)
        return stop(VK_SUCCESS, "libvulkan has no vkGetInstanceProcAddr");
#define BH_VK_LOAD_GLOBAL(name)                                                \
    bh_vk.name = (PFN_##name)bh_vk.vkGetInstanceProcAddr(NULL, #name);
    BH_VK_GLOBAL_FNS(BH_VK_LOAD_GLOBAL)
#undef BH_VK_LOAD_GLOBAL
    if (bh_vk.vkCreateInstance == NULL)
        return stop(VK_SUCCESS, "libvulkan has no vkCreateInstance");
    return BHOST_OK;
}

/* Sets LP_NUM_THREADS to the usable CPU count unless already set. */
static void lavapipe_threads(void)
{
    cpu_set_t set;
    char num[16];

    if (getenv("LP_NUM_THREADS") != NULL)
        return;
    if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) < 1)
        return;
    snprintf(num, sizeof(num), "%d", CPU_COUNT(&set));
    setenv("LP_NUM_THREADS", num, 0);
}

/* Creates the instance (API 1.1 when the loader has it) and loads the
 * instance-level function table. */
static bhost_status create_instance(void)
{
    VkApplicationInfo app;
    VkInstanceCreateInfo ci;
    uint32_t api = VK_API_VERSION_1_0;
    VkResult r;
    const char *missing = NULL;

    if (bh_vk.vkEnumerateInstanceVersion != NULL &&
        bh_vk.vkEnumerateInstanceVersion(&api) != VK_SUCCESS)
        api = VK_API_VERSION_1_0;
    memset(&app, 0, sizeof(app));
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "bhost";
    app.pEngineName = "bhost backend-vulkan";
    app.apiVersion = api >= VK_API_VERSION_1_1 ? VK_API_VERSION_1_1
                                                : VK_API_VERSION_1_0;
    L.api = app.apiVersion;
    memset(&ci, 0, sizeof(ci));
    ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ci.pApplicationInfo = &app;
    r = bh_vk.vkCreateInstance(&ci, NULL, &L.inst);
    if (r != VK_SUCCESS)
        return stop(r, "vkCreateInstance failed%s",
                    r == VK_ERROR_INCOMPATIBLE_DRIVER
                        ? " (no Vulkan driver (ICD) installed)"
                        : "");
#define BH_VK_LOAD_INSTANCE(name)                                              \
    bh_vk.name = (PFN_##name)bh_vk.vkGetInstanceProcAddr(L.inst, #name);      \
    if (bh_vk.name == NULL && missing == NULL)                                 \
        missing = #name;
    BH_VK_INSTANCE_FNS(BH_VK_LOAD_INSTANCE)
#undef BH_VK_LOAD_INSTANCE
    if (missing != NULL)
        return stop(VK_SUCCESS, "the Vulkan loader lacks %s", missing);
    return BHOST_OK;
}

/* Sets p's subgroup facts (Vulkan 1.1 instance and device; else none). */
static void describe_subgroups(bh_vk_phys *p)
{
    PFN_vkGetPhysicalDeviceProperties2 props2 =
        (PFN_vkGetPhysicalDeviceProperties2)bh_vk.vkGetInstanceProcAddr(
            L.inst, "vkGetPhysicalDeviceProperties2");
    VkPhysicalDeviceSubgroupProperties sg;
    VkPhysicalDeviceProperties2 p2;
    const VkSubgroupFeatureFlags need = VK_SUBGROUP_FEATURE_BASIC_BIT |
                                        VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;

    p->subgroup_sum = 0;
    p->subgroup_size = 0;
    if (props2 == NULL || L.api < VK_API_VERSION_1_1 ||
        p->props.apiVersion < VK_API_VERSION_1_1)
        return;
    memset(&sg, 0, sizeof(sg));
    sg.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    memset(&p2, 0, sizeof(p2));
    p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    p2.pNext = &sg;
    props2(p->pd, &p2);
    p->subgroup_size = sg.subgroupSize;
    p->subgroup_sum = (sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                      (sg.supportedOperations & need) == need;
}

/* Fills the compute-queue, memory and subgroup facts of p; 0 when it has
 * no compute queue. */
static int describe_phys(bh_vk_phys *p)
{
    VkQueueFamilyProperties q[32];
    VkPhysicalDeviceFeatures f;
    uint32_t nq = 32, best = UINT32_MAX;

    bh_vk.vkGetPhysicalDeviceProperties(p->pd, &p->props);
    bh_vk.vkGetPhysicalDeviceMemoryProperties(p->pd, &p->mem);
    bh_vk.vkGetPhysicalDeviceFeatures(p->pd, &f);
    bh_vk.vkGetPhysicalDeviceQueueFamilyProperties(p->pd, &nq, q);
    /* prefer a compute family with timestamps, then a compute-only one */
    for (uint32_t i = 0; i < nq; i++) {
        if (!(q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || q[i].queueCount == 0)
            continue;
        if (best == UINT32_MAX ||
            (q[i].timestampValidBits && !q[best].timestampValidBits) ||
            (q[i].timestampValidBits == q[best].timestampValidBits &&
             !(q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
             (q[best].queueFlags & VK_QUEUE_GRAPHICS_BIT)))
            best = i;
    }
    if (best == UINT32_MAX)
        return 0;
    p->queue_family = best;
    p->timestamp_bits = q[best].timestampValidBits;
    p->has_f64 = f.shaderFloat64 ? 1u : 0u;
    describe_subgroups(p);
    p->unified = 1;
    p->local_bytes = 0;
    for (uint32_t i = 0; i < p->mem.memoryHeapCount; i++)
        if (p->mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            p->local_bytes += p->mem.memoryHeaps[i].size;
    for (uint32_t i = 0; i < p->mem.memoryTypeCount; i++) {
        VkMemoryPropertyFlags fl = p->mem.memoryTypes[i].propertyFlags;

        if ((fl & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
            !(fl & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
            p->unified = 0;
    }
    return 1;
}

bhost_status bh_vk_load(void)
{
    VkPhysicalDevice pds[BH_VK_MAX_DEVICES];
    uint32_t n = BH_VK_MAX_DEVICES;
    VkResult r;

    if (L.tried)
        return L.st;
    L.tried = 1;
    L.st = open_library();
    if (L.st == BHOST_OK) {
        lavapipe_threads();
        L.st = create_instance();
    }
    if (L.st != BHOST_OK)
        return L.st;
    r = bh_vk.vkEnumeratePhysicalDevices(L.inst, &n, pds);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        L.st = stop(r, "vkEnumeratePhysicalDevices failed");
        return L.st;
    }
    for (uint32_t i = 0; i < n; i++) {
        L.phys[L.count].pd = pds[i];
        if (describe_phys(&L.phys[L.count]))
            L.count++;
    }
    if (L.count == 0)
        stop(VK_SUCCESS, "%s",
             n == 0 ? "no Vulkan physical device (the installed drivers "
                      "found no hardware; mesa-vulkan-drivers provides "
                      "lavapipe)"
                    : "no Vulkan device has a compute queue");
    return L.st;
}

void bh_vk_unload(void)
{
    if (L.inst != VK_NULL_HANDLE && bh_vk.vkDestroyInstance != NULL)
        bh_vk.vkDestroyInstance(L.inst, NULL);
    /* the library stays loaded: drivers keep threads and atexit handlers */
    L.inst = VK_NULL_HANDLE;
    L.tried = 0;
    L.count = 0;
}

int bh_vk_memory_type(const bh_vk_phys *phys, uint32_t type_bits,
                      VkMemoryPropertyFlags need, VkMemoryPropertyFlags want,
                      VkMemoryPropertyFlags avoid)
{
    int best = -1, best_score = -1;

    for (uint32_t i = 0; i < phys->mem.memoryTypeCount; i++) {
        VkMemoryPropertyFlags f = phys->mem.memoryTypes[i].propertyFlags;
        int score;

        if (!(type_bits & (1u << i)) || (f & need) != need)
            continue;
        score = ((f & want) == want ? 2 : 0) + ((f & avoid) == 0 ? 1 : 0);
        if (score > best_score) {
            best = (int)i;
            best_score = score;
        }
    }
    return best;
}

/* "NVIDIA", "AMD", ... from a PCI vendor id. */
static const char *vendor_name(uint32_t id)
{
    switch (id) {
    case 0x10DE: return "NVIDIA";
    case 0x1002: return "AMD";
    case 0x8086: return "Intel";
    case 0x13B5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x1010: return "Imagination";
    case 0x10005: return "Mesa";
    default: return NULL;
    }
}

/* Driver version as the vendor writes it (NVIDIA 10.8.8.6 bits, else the
 * Vulkan encoding). */
static void driver_text(const VkPhysicalDeviceProperties *p, char *out,
                        size_t cap)
{
    uint32_t v = p->driverVersion;

    if (p->vendorID == 0x10DE)
        snprintf(out, cap, "%u.%u.%u.%u", v >> 22, (v >> 14) & 0xFF,
                 (v >> 6) & 0xFF, v & 0x3F);
    else
        snprintf(out, cap, "%u.%u.%u", VK_API_VERSION_MAJOR(v),
                 VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

void bh_vk_describe(uint32_t index, bhost_device_info *info)
{
    const bh_vk_phys *p = bh_vk_phys_get(index);
    const char *vendor;
    static const char *const types[] = {"other", "integrated GPU",
                                        "discrete GPU", "virtual GPU", "CPU"};

    memset(info, 0, sizeof(*info));
    info->struct_size = sizeof(*info);
    if (p == NULL)
        return;
    vendor = vendor_name(p->props.vendorID);
    snprintf(info->name, sizeof(info->name), "%s", p->props.deviceName);
    if (vendor != NULL)
        snprintf(info->vendor, sizeof(info->vendor), "%s (%s)", vendor,
                 types[p->props.deviceType <= 4 ? p->props.deviceType : 0]);
    else
        snprintf(info->vendor, sizeof(info->vendor), "0x%04x (%s)",
                 p->props.vendorID,
                 types[p->props.deviceType <= 4 ? p->props.deviceType : 0]);
    driver_text(&p->props, info->driver_version, sizeof(info->driver_version));
    snprintf(info->runtime_version, sizeof(info->runtime_version),
             "Vulkan %u.%u.%u; timestampPeriod %g ns",
             VK_API_VERSION_MAJOR(p->props.apiVersion),
             VK_API_VERSION_MINOR(p->props.apiVersion),
             VK_API_VERSION_PATCH(p->props.apiVersion),
             (double)p->props.limits.timestampPeriod);
    info->compute_units = 0; /* Vulkan does not say */
    info->global_mem_bytes = p->local_bytes;
    info->caps = BHOST_CAP_PINNED_HOST | BHOST_CAP_KERNEL_GEMM |
                 BHOST_CAP_KERNEL_AXPY | BHOST_CAP_KERNEL_REDUCE;
    if (p->has_f64)
        info->caps |= BHOST_CAP_F64;
    if (p->timestamp_bits != 0)
        info->caps |= BHOST_CAP_EVENT_TIMING;
    if (p->unified)
        info->caps |= BHOST_CAP_UNIFIED_MEM;
    info->timer_resolution_ns = p->props.limits.timestampPeriod > 0
                                    ? (double)p->props.limits.timestampPeriod
                                    : 1.0;
    info->clock_mhz = 0.0;
}
