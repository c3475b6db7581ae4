// SPDX-License-Identifier: MIT
/*
 * vk_internal.h -- internal interface of the Vulkan backend plugin.
 *
 * libvulkan.so.1 is dlopen'ed in device_count (vk_loader.c); every Vulkan
 * function is called through bh_vk (loaded with vkGetInstanceProcAddr, so
 * the loader's trampolines dispatch to the right driver for each device).
 * A device is a VkPhysicalDevice with a compute queue; open() creates a
 * VkDevice (vk_device.c). Buffers are a VkBuffer with its own memory.
 * A stream records commands into batches (vk_stream.c): a batch is a
 * command buffer, a fence, a descriptor pool, staging memory for copies
 * from and to plain host memory, and the host copies to do when it
 * completes. stream_sync submits the open batch and waits for every
 * batch. Events are timestamp queries written into the stream
 * (vk_events.c). Kernels are compute pipelines built from SPIR-V compiled
 * by glslc at build time (vk_kernels.c, shaders/).
 */
#ifndef BH_BACKEND_VK_INTERNAL_H
#define BH_BACKEND_VK_INTERNAL_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <bhost/plugin.h>

#include <bhost/backend_helper.h>

/* ---- Function table --------------------------------------------------- */

#define BH_VK_GLOBAL_FNS(X)                                                    \
    X(vkCreateInstance)                                                        \
    X(vkEnumerateInstanceVersion)

#define BH_VK_INSTANCE_FNS(X)                                                  \
    X(vkDestroyInstance)                                                       \
    X(vkEnumeratePhysicalDevices)                                              \
    X(vkGetPhysicalDeviceProperties)                                           \
    X(vkGetPhysicalDeviceFeatures)                                             \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                                \
    X(vkGetPhysicalDeviceMemoryProperties)                                     \
    X(vkCreateDevice)                                                          \
    X(vkDestroyDevice)                                                         \
    X(vkGetDeviceQueue)                                                        \
    X(vkCreateBuffer)                                                          \
    X(vkDestroyBuffer)                                                         \
    X(vkGetBufferMemoryRequirements)                                           \
    X(vkAllocateMemory)                                                        \
    X(vkFreeMemory)                                                            \
    X(vkBindBufferMemory)                                                      \
    X(vkMapMemory)                                                             \
    X(vkUnmapMemory)                                                           \
    X(vkCreateCommandPool)                                                     \
    X(vkDestroyCommandPool)                                                    \
    X(vkResetCommandPool)                                                      \
    X(vkAllocateCommandBuffers)                                                \
    X(vkBeginCommandBuffer)                                                    \
    X(vkEndCommandBuffer)                                                      \
    X(vkCmdCopyBuffer)                                                         \
    X(vkCmdPipelineBarrier)                                                    \
    X(vkCmdBindPipeline)                                                       \
    X(vkCmdBindDescriptorSets)                                                 \
    X(vkCmdPushConstants)                                                      \
    X(vkCmdDispatch)                                                           \
    X(vkCmdWriteTimestamp)                                                     \
    X(vkCmdResetQueryPool)                                                     \
    X(vkQueueSubmit)                                                           \
    X(vkDeviceWaitIdle)                                                        \
    X(vkCreateFence)                                                           \
    X(vkDestroyFence)                                                          \
    X(vkWaitForFences)                                                         \
    X(vkResetFences)                                                           \
    X(vkCreateQueryPool)                                                       \
    X(vkDestroyQueryPool)                                                      \
    X(vkGetQueryPoolResults)                                                   \
    X(vkCreateShaderModule)                                                    \
    X(vkDestroyShaderModule)                                                   \
    X(vkCreateDescriptorSetLayout)                                             \
    X(vkDestroyDescriptorSetLayout)                                            \
    X(vkCreatePipelineLayout)                                                  \
    X(vkDestroyPipelineLayout)                                                 \
    X(vkCreateComputePipelines)                                                \
    X(vkDestroyPipeline)                                                       \
    X(vkCreatePipelineCache)                                                   \
    X(vkDestroyPipelineCache)                                                  \
    X(vkCreateDescriptorPool)                                                  \
    X(vkDestroyDescriptorPool)                                                 \
    X(vkResetDescriptorPool)                                                   \
    X(vkAllocateDescriptorSets)                                                \
    X(vkUpdateDescriptorSets)

#define BH_VK_DECLARE(name) PFN_##name name;
typedef struct bh_vk_fns {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    BH_VK_GLOBAL_FNS(BH_VK_DECLARE)
    BH_VK_INSTANCE_FNS(BH_VK_DECLARE)
} bh_vk_fns;
#undef BH_VK_DECLARE

/* Loaded by bh_vk_load(); valid once it returned BHOST_OK. */
extern bh_vk_fns bh_vk;

/* ---- Handles ---------------------------------------------------------- */

#define BH_VK_DEV_MAGIC 0x564b4444u    /* "VKDD" */
#define BH_VK_BUF_MAGIC 0x564b4442u    /* "VKDB" */
#define BH_VK_STREAM_MAGIC 0x564b4453u /* "VKDS" */
#define BH_VK_EVENT_MAGIC 0x564b4445u  /* "VKDE" */

#define BH_VK_MAX_DEVICES 16u
#define BH_VK_BATCHES 2u         /* batches per stream (ring) */
#define BH_VK_BATCH_SETS 512u    /* descriptor sets per batch */
#define BH_VK_BATCH_CMDS 4096u   /* commands per batch before a flush */
#define BH_VK_STAGING_MIN (UINT64_C(4) << 20)
#define BH_VK_BATCH_STAGING (UINT64_C(64) << 20) /* flush beyond this */
#define BH_VK_MAX_STREAMS 64u
#define BH_VK_REDUCE_GROUPS 1024u
#define BH_VK_BINDINGS 5u /* storage buffers of set 0 (spmv uses five) */

/* Pipelines: kernel x element type. */
enum {
    BH_VK_P_AXPY = 0,
    BH_VK_P_REDUCE = 1,
    BH_VK_P_GEMM = 2,
    BH_VK_P_GEMV = 3, /* gemm's thin pieces (vk_gemm.c) */
    BH_VK_KERNELS = 4
};

/* What vk_loader.c knows of one physical device. */
typedef struct bh_vk_phys {
    VkPhysicalDevice pd;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    uint32_t queue_family;    /* with VK_QUEUE_COMPUTE_BIT */
    uint32_t timestamp_bits;  /* of that family; 0 = no timestamps */
    uint32_t has_f64;         /* shaderFloat64 */
    uint32_t subgroup_sum;    /* subgroup arithmetic in compute shaders */
    uint32_t subgroup_size;   /* its default subgroup size (0: unknown) */
    uint32_t unified;         /* every DEVICE_LOCAL type is host-visible */
    uint64_t local_bytes;     /* sum of DEVICE_LOCAL heaps */
} bh_vk_phys;

/* A host-visible block of staging memory, sub-allocated linearly. */
typedef struct bh_vk_staging {
    VkBuffer buf;
    VkDeviceMemory mem;
    unsigned char *ptr;
    uint64_t size;
    uint64_t used;
} bh_vk_stage;

/* A host copy to do when a batch completes (d2h through staging). */
typedef struct bh_vk_readback {
    void *dst;
    const void *src;
    uint64_t n;
} bh_vk_copyback;

typedef struct bh_vk_batch {
    VkCommandPool pool;
    VkCommandBuffer cb;
    VkFence fence;
    VkDescriptorPool dpool;
    uint32_t state;     /* 0 idle, 1 recording, 2 submitted */
    uint32_t commands;  /* recorded since begin */
    uint32_t sets;      /* descriptor sets taken from dpool */
    uint32_t n_stg, cap_stg;
    uint32_t n_rb, cap_rb;
    uint32_t reserved;
    uint64_t stg_bytes; /* staging used in this batch */
    bh_vk_stage *stg;
    bh_vk_copyback *rb;
} bh_vk_batch;

struct bhost_dev;

struct bhost_buf {
    uint32_t magic;
    uint32_t flags; /* BHOST_MEM_* as requested */
    struct bhost_dev *dev;
    uint64_t size;
    VkBuffer buf;
    VkDeviceMemory mem;
    unsigned char *ptr;    /* persistent mapping, NULL when not mappable */
    struct bhost_buf *next; /* dev->mapped list (host pointers to match) */
};

struct bhost_stream {
    uint32_t magic;
    uint32_t cur;    /* batch being recorded */
    struct bhost_dev *dev;
    bh_vk_batch batch[BH_VK_BATCHES];
    bhost_buf *scratch; /* reduce partials, created on first use */
};

struct bhost_event {
    uint32_t magic;
    uint32_t recorded; /* 1 once event_record() ran */
    struct bhost_dev *dev;
    VkQueryPool pool; /* one timestamp query; NULL: host-clock fallback */
    bhost_stream *stream; /* where it was recorded */
    uint64_t ns;          /* host-clock fallback stamp */
};

/* Pipelines of the scientific kernel extension (vk_sci.c). */
enum {
    BH_VK_S_SPMV = 0,       /* + 1 for F64 (built where shaderFloat64) */
    BH_VK_S_FFT_BITREV = 2, /* + 1 for F64 likewise */
    BH_VK_S_FFT_STAGE = 4,  /* + 1 for F64 likewise */
    BH_VK_S_CONV2D = 6,     /* F32 */
    BH_VK_SCI_KERNELS = 7
};

/* A built set of pipelines (the device's own, or a build_stats rebuild). */
typedef struct bh_vk_pipes {
    VkPipeline p[2][BH_VK_KERNELS]; /* [f64][kernel] */
    uint32_t built;                 /* programs built */
    uint32_t reserved;
} bh_vk_pipes;

struct bhost_dev {
    uint32_t magic;
    uint32_t index;
    bhost_host *h;
    const bh_vk_phys *phys;
    VkDevice dev;
    VkQueue queue;
    VkDescriptorSetLayout dsl;
    VkPipelineLayout layout;
    VkPipelineCache cache; /* filled by the first build */
    bh_vk_pipes pipes;
    bhost_build_stats stats; /* of the device's own build */
    bhost_stream *def;       /* the NULL stream */
    bhost_stream *streams[BH_VK_MAX_STREAMS]; /* every live stream */
    bhost_buf *mapped;       /* host-visible buffers, for direct copies */
    uint64_t live_bufs;
    uint32_t kernels_tried;  /* pipelines built (or failed) once */
    uint32_t gemv_subgroups; /* gemv sums rows by subgroups (gemv_sg):
                              * the device has subgroup arithmetic and
                              * BHOST_VK_SUBGROUPS is not 0 */
    uint32_t gemv_rows;      /* rows per workgroup of those sums: 64 /
                              * subgroup size, or 4 in shared memory */
    uint32_t reserved;
    uint64_t bind_max;   /* bytes one kernel binding may span:
                            maxStorageBufferRange, or less by
                            BHOST_VK_MAX_RANGE */
    uint64_t bind_align; /* minStorageBufferOffsetAlignment (>= 1) */
    VkPipeline sci[BH_VK_SCI_KERNELS]; /* vk_sci.c, built on first use */
    uint32_t sci_tried;                /* sci pipelines built (or failed) */
    uint32_t sci_reserved;
};

/* ---- backend_vulkan.c --------------------------------------------------- */

/* This backend for the shared code (bhost/backend_helper.h): messages
 * start "backend-vulkan: ", handles are checked against its magics. */
extern bh_be bh_vk_be;
#define bh_vk_fail(h, st, ...) bh_be_fail(&bh_vk_be, h, st, __VA_ARGS__)
#define bh_vk_log(h, level, ...) bh_be_log(&bh_vk_be, h, level, __VA_ARGS__)
#define bh_vk_check_dev(dev, op) bh_be_check_dev(&bh_vk_be, dev, op)
#define bh_vk_check_range(dev, buf, off, n, op, what)                          \
    bh_be_check_range(&bh_vk_be, dev, buf, off, n, op, what)
#define bh_vk_check_event(dev, e, op, what)                                    \
    bh_be_check_event(&bh_vk_be, dev, e, op, what)

/* The stream s names: s itself, or dev->def for NULL; NULL after
 * set_error when s is not a stream of dev. */
static inline bhost_stream *bh_vk_stream_of(bhost_dev *dev, bhost_stream *s,
                                            const char *op)
{
    return bh_be_stream_of(&bh_vk_be, dev, dev->def, s, op);
}

/* "VK_ERROR_OUT_OF_DEVICE_MEMORY" etc. */
const char *bh_vk_result_name(VkResult r);
/* BHOST_E_NOMEM for out-of-memory results, else BHOST_E_DEVICE. */
bhost_status bh_vk_status(VkResult r);

/* ---- vk_loader.c -------------------------------------------------------- */

/* Loads libvulkan, creates the instance, enumerates compute devices.
 * Idempotent. On failure the reason is in bh_vk_load_error() and the
 * count is 0. [main] */
bhost_status bh_vk_load(void);
const char *bh_vk_load_error(void);
uint32_t bh_vk_count(void);
const bh_vk_phys *bh_vk_phys_get(uint32_t index);
/* Fills every field of *info for device index. [main] */
void bh_vk_describe(uint32_t index, bhost_device_info *info);
/* Destroys the instance (deinit). */
void bh_vk_unload(void);
/* Index of a memory type of phys that has all 'need' bits, preferring one
 * that also has the 'want' bits and none of the 'avoid' bits; -1 when none
 * has 'need'. */
int bh_vk_memory_type(const bh_vk_phys *phys, uint32_t type_bits,
                      VkMemoryPropertyFlags need, VkMemoryPropertyFlags want,
                      VkMemoryPropertyFlags avoid);

/* ---- vk_device.c -------------------------------------------------------- */

/* A VkBuffer of bytes with memory of the given properties bound to it,
 * mapped when host-visible (*ptr, else NULL). [instance] */
bhost_status bh_vk_make_buffer(bhost_dev *dev, uint64_t bytes,
                               VkMemoryPropertyFlags need,
                               VkMemoryPropertyFlags want,
                               VkMemoryPropertyFlags avoid, VkBuffer *buf,
                               VkDeviceMemory *mem, unsigned char **ptr);
void bh_vk_drop_buffer(bhost_dev *dev, VkBuffer buf, VkDeviceMemory mem);
/* Table entries (contracts in bhost/plugin.h and vk_device.c). */
bhost_status BHOST_ABI bh_vk_open(uint32_t index, bhost_host *h,
                                  bhost_dev **out);
void BHOST_ABI bh_vk_close(bhost_dev *dev);
bhost_status BHOST_ABI bh_vk_alloc(bhost_dev *dev, uint64_t bytes,
                                   uint32_t flags, bhost_buf **out);
void BHOST_ABI bh_vk_free(bhost_dev *dev, bhost_buf *buf);
void *BHOST_ABI bh_vk_map(bhost_dev *dev, bhost_buf *buf);
/* The host-visible buffer of dev whose mapping holds [p, p + n), or
 * NULL. */
bhost_buf *bh_vk_find_mapped(const bhost_dev *dev, const void *p,
                             uint64_t n);

/* ---- vk_stream.c -------------------------------------------------------- */

bhost_status bh_vk_stream_new(bhost_dev *dev, bhost_stream **out);
/* Waits for all work of s, then frees it. */
void bh_vk_stream_free(bhost_dev *dev, bhost_stream *s);
/* The command buffer to record one more command into (begins a batch,
 * flushes a full one; a barrier after the previous command is recorded).
 * NULL after set_error. */
VkCommandBuffer bh_vk_record(bhost_stream *s);
/* Like bh_vk_record() but always the batch being recorded (no flush): for
 * a command that uses staging memory of the previous command. */
VkCommandBuffer bh_vk_record_same(bhost_stream *s);
/* Submits the recording batch of s, if any. */
bhost_status bh_vk_flush(bhost_stream *s);
/* Submits and waits for every batch of s, then does its host copies. */
bhost_status bh_vk_sync(bhost_stream *s);
/* Table entries (contracts in bhost/plugin.h and vk_stream.c). */
bhost_status BHOST_ABI bh_vk_stream_create(bhost_dev *dev, bhost_stream **out);
void BHOST_ABI bh_vk_stream_destroy(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_vk_stream_sync(bhost_dev *dev, bhost_stream *s);
bhost_status BHOST_ABI bh_vk_device_sync(bhost_dev *dev);
/* n bytes of staging memory in the recording batch of s (16-aligned):
 * *buf and *off address it on the device, the return value on the host.
 * NULL after set_error. Call after bh_vk_record(). */
unsigned char *bh_vk_staging(bhost_stream *s, uint64_t n, VkBuffer *buf,
                             uint64_t *off);
/* Queues a host copy of n bytes from src to dst for when the recording
 * batch completes. */
bhost_status bh_vk_readback(bhost_stream *s, void *dst, const void *src,
                            uint64_t n);
/* One storage-buffer binding: range bytes of buf from off (off a
 * multiple of bind_align, range at most bind_max). */
typedef struct bh_vk_bind {
    const bhost_buf *buf;
    uint64_t off;
    uint64_t range;
} bh_vk_bind;

/* A descriptor set of the recording batch with bindings 0..n-1 set to
 * b[0..n-1] (n <= BH_VK_BINDINGS; the others are left unwritten, which
 * is valid for a shader that does not use them). VK_NULL_HANDLE after
 * set_error. */
VkDescriptorSet bh_vk_descriptors(bhost_stream *s, const bh_vk_bind *b,
                                  uint32_t n);

/* ---- vk_copy.c ---------------------------------------------------------- */

bhost_status BHOST_ABI bh_vk_copy_h2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const void *src, uint64_t n);
bhost_status BHOST_ABI bh_vk_copy_d2h(bhost_dev *dev, bhost_stream *s,
                                      void *dst, const bhost_buf *src,
                                      uint64_t src_off, uint64_t n);
bhost_status BHOST_ABI bh_vk_copy_d2d(bhost_dev *dev, bhost_stream *s,
                                      bhost_buf *dst, uint64_t dst_off,
                                      const bhost_buf *src, uint64_t src_off,
                                      uint64_t n);

/* ---- vk_events.c -------------------------------------------------------- */

bhost_status BHOST_ABI bh_vk_event_create(bhost_dev *dev, bhost_event **out);
void BHOST_ABI bh_vk_event_destroy(bhost_dev *dev, bhost_event *e);
bhost_status BHOST_ABI bh_vk_event_record(bhost_dev *dev, bhost_stream *s,
                                          bhost_event *e);
bhost_status BHOST_ABI bh_vk_event_elapsed_ns(bhost_dev *dev,
                                              const bhost_event *start,
                                              const bhost_event *end,
                                              uint64_t *ns);

/* ---- vk_kernels.c ------------------------------------------------------- */

/* Creates the descriptor set layout and pipeline layout shared by every
 * pipeline. [main] */
bhost_status bh_vk_layouts(bhost_dev *dev);
/* Destroys pipelines, cache and layouts. */
void bh_vk_kernels_release(bhost_dev *dev);
/* The kernel or extension table for id, or NULL. Builds the device's
 * pipelines on first use. [instance] */
const void *bh_vk_kernel(bhost_dev *dev, const char *id);

/* Common checks of a kernel call (device, stream, args) and the device's
 * pipelines built; *t is the stream to record into. [instance] */
bhost_status bh_vk_kernel_call(bhost_dev *dev, bhost_stream *s,
                               const void *args, const char *op,
                               bhost_stream **t);

/* Element size of the kernel dtypes (0 for others: F32, F64 with
 * shaderFloat64); *f = 1 for F64. */
uint64_t bh_vk_elem(const bhost_dev *dev, bhost_dtype t, int *f);

/* Fills *b to bind elements [start, start + count) of buf (element size
 * es, the elements within buf): the offset rounded down to bind_align,
 * *skip = the elements before start in the binding. count 0 binds a
 * short valid range. UNSUPPORTED (after set_error naming op and what)
 * when the range exceeds bind_max. */
bhost_status bh_vk_bind_elems(const bhost_dev *dev, const bhost_buf *buf,
                              uint64_t start, uint64_t count, uint64_t es,
                              const char *op, const char *what, bh_vk_bind *b,
                              uint32_t *skip);

/* Records one dispatch of pipeline p over bindings b[0..2] with push
 * constants push[0..push_bytes). [instance] */
bhost_status bh_vk_dispatch(bhost_stream *t, VkPipeline p,
                            const bh_vk_bind b[3], const void *push,
                            uint32_t push_bytes, uint32_t gx, uint32_t gy);
/* The same over bindings b[0..nb) (nb <= BH_VK_BINDINGS). [instance] */
bhost_status bh_vk_dispatch_n(bhost_stream *t, VkPipeline p,
                              const bh_vk_bind *b, uint32_t nb,
                              const void *push, uint32_t push_bytes,
                              uint32_t gx, uint32_t gy);
/* A compute pipeline from SPIR-V code (bytes) with the shared layout,
 * through cache (may be VK_NULL_HANDLE). */
VkResult bh_vk_pipeline(bhost_dev *dev, VkPipelineCache cache,
                        const uint32_t *code, size_t bytes, VkPipeline *out);

/* ---- vk_gemm.c ---------------------------------------------------------- */
/* bhost.kernel.gemm/1 run(): C = alpha op(A) op(B) + beta C, split into
 * pieces whose bindings fit bind_max. [instance] */
bhost_status BHOST_ABI bh_vk_gemm_run(bhost_dev *dev, bhost_stream *s,
                                      const bhost_gemm_args *g);

/* ---- vk_sci.c ----------------------------------------------------------- */
/* The scientific kernel tables (bhost/sci_kernels.h): spmv, fft, conv2d. */
extern const bh_be_sci_tables bh_vk_sci_tables;
/* Destroys the scientific pipelines of dev. */
void bh_vk_sci_release(bhost_dev *dev);

#endif /* BH_BACKEND_VK_INTERNAL_H */
